"""Loopback load test of ``charrestore serve`` (#19): latency and errors as clients see them.

For each ``--workers`` setting, starts the server on 127.0.0.1 (a free port), then
  1. POST /v1/fix: ``--requests`` requests of ``--words`` words at each ``--concurrency``;
  2. WS /v1/stream: ``--streams`` concurrent streams of ``--words`` words, one word per message, paced at
     each ``--stream-rates`` words/s (spread evenly over a word's time; 0: as fast as the server answers).
Every phase is bounded in count and in time (``--max-seconds``). ``errors`` counts failed or non-200 requests
and streams that did not end with ``done``; ``wrong_answers`` counts answers that differ from the library's
(checked after timing, in this process, so that the check costs the server nothing). Writes one JSON report.

    python scripts/load_serve.py --out reports/load_serve.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import socket
import subprocess
import sys
import time
from importlib.metadata import version
from pathlib import Path

import httpx
import websockets

SPEECH = ("so today i want to talk about something that i think matters to all of us how do we decide what to "
          "trust when we read the news every morning we open our phones and there are hundreds of stories waiting "
          "some of them are true some of them are not and most of us do not have the time to check which is which "
          "my grandmother used to say that you should never believe anything you hear and only half of what you see "
          "but what would she say about a world where anyone can make a video of anyone saying anything i am not "
          "sure she would have an answer and to be honest neither do i but i do know that asking the question is "
          "where it starts so let me tell you what we tried and what we learned along the way")


def texts(n: int, words: int, seed: int = 19) -> list[str]:
    """``n`` transcripts of ``words`` lowercase words without marks, cut from SPEECH at random offsets."""
    vocab, rng = SPEECH.split(), random.Random(seed)
    out = []
    for _ in range(n):
        start = rng.randrange(len(vocab))
        out.append(" ".join(vocab[(start + i) % len(vocab)] for i in range(words)))
    return out


def stats(latencies: list[float]) -> dict:
    if not latencies:
        return {}
    ms = sorted(x * 1000 for x in latencies)
    pick = lambda q: round(ms[min(len(ms) - 1, int(q * len(ms)))], 2)  # noqa: E731
    return {"p50_ms": pick(0.50), "p90_ms": pick(0.90), "p99_ms": pick(0.99), "max_ms": round(ms[-1], 2)}


def server_usage(pid: int) -> tuple[float, float]:
    """(resident MB, CPU seconds so far) of the server and its worker processes (Linux /proc). CPU time per
    request does not depend on what else runs on the machine; latency does."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            children.setdefault(int(stat.read_text().rsplit(")", 1)[1].split()[1]), []).append(int(stat.parent.name))
        except (OSError, IndexError, ValueError):
            continue
    rss, cpu, todo = 0.0, 0.0, [pid]
    while todo:
        p = todo.pop()
        todo += children.get(p, [])
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            cpu += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime
            rss += int(fields[21]) * os.sysconf("SC_PAGE_SIZE") / 2**20
        except (OSError, IndexError, ValueError):
            continue
    return rss, cpu


async def fix_phase(url: str, docs: list[str], requests: int, concurrency: int,
                    max_seconds: float) -> tuple[dict, list]:
    """``requests`` POSTs by ``concurrency`` workers; returns the row and (doc index, answer) pairs to check."""
    latencies, errors, answers, issued = [], [], [], 0
    deadline = time.monotonic() + max_seconds
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=10) as client:
        async def worker():
            nonlocal issued
            while issued < requests and time.monotonic() < deadline:
                k = issued % len(docs)
                issued += 1
                t = time.perf_counter()
                try:
                    r = await client.post("/v1/fix", json={"text": docs[k]})
                    latencies.append(time.perf_counter() - t)
                    if r.status_code != 200:
                        errors.append(f"HTTP {r.status_code}")
                    else:
                        answers.append((k, r.json()["text"]))
                except (httpx.HTTPError, ValueError, KeyError) as exc:
                    errors.append(exc.__class__.__name__)

        start = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        wall = time.perf_counter() - start
    return {"concurrency": concurrency, "requests": issued,
            "errors": len(errors), "error_kinds": sorted(set(errors)), "wall_s": round(wall, 2),
            "requests_per_s": round(len(latencies) / wall, 1), **stats(latencies)}, answers


async def one_stream(url: str, words: list[str], rate: float, phase: float, deadline: float,
                     latencies: list) -> str | None:
    """One stream paced at ``rate`` words/s, its words sent ``phase`` (0..1) of a word's time after the others'
    (speakers do not talk in step); its finals, or None if it failed or did not end with ``done``."""
    finals = ""
    try:
        async with websockets.connect(url, open_timeout=30, close_timeout=5) as ws:
            start = time.perf_counter() + (phase / rate if rate else 0.0)
            for n, word in enumerate(words):
                if rate:
                    await asyncio.sleep(max(0.0, start + n / rate - time.perf_counter()))
                if time.monotonic() > deadline:
                    return None
                t = time.perf_counter()
                await ws.send(json.dumps({"text": word}))
                finals += json.loads(await asyncio.wait_for(ws.recv(), 30))["final"]
                latencies.append(time.perf_counter() - t)
            await ws.send(json.dumps({"end": True}))
            last = json.loads(await asyncio.wait_for(ws.recv(), 30))
            return finals + last["final"] if last.get("done") else None
    except (OSError, asyncio.TimeoutError, websockets.WebSocketException, ValueError, KeyError):
        return None


async def stream_phase(url: str, docs: list[str], rate: float, max_seconds: float) -> tuple[dict, list]:
    latencies: list[float] = []
    deadline = time.monotonic() + max_seconds
    start = time.perf_counter()
    results = await asyncio.gather(*(one_stream(url, d.split(), rate, k / len(docs), deadline, latencies)
                                     for k, d in enumerate(docs)))
    wall = time.perf_counter() - start
    return {"streams": len(docs), "words_per_s_per_stream": rate or "unpaced", "messages": len(latencies),
            "errors": sum(r is None for r in results), "wall_s": round(wall, 2), **stats(latencies)}, results


def start_server(port: int, workers: int) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "charrestore", "serve", "--host", "127.0.0.1", "--port", str(port),
                             "--workers", str(workers)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200:
                return proc
        except httpx.TransportError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("load_serve: the server did not start")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--requests", type=int, default=2000, help="POST /v1/fix requests per concurrency level")
    ap.add_argument("--concurrency", type=int, nargs="+", default=[8, 16])
    ap.add_argument("--streams", type=int, default=50, help="concurrent WebSocket streams")
    ap.add_argument("--stream-rates", type=float, nargs="+", default=[3.0, 0.0],
                    help="words/s per stream (3: about speech; 0: unpaced)")
    ap.add_argument("--words", type=int, default=40, help="words per request and per stream")
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="server processes (one run each)")
    ap.add_argument("--max-seconds", type=float, default=180, help="time bound of each phase")
    ap.add_argument("--out", help="write the JSON report here (default: print it)")
    args = ap.parse_args()

    from charrestore import Restorer

    docs = texts(100, args.words)
    report = {"settings": {**vars(args), "host": "127.0.0.1", "cores": os.cpu_count(),
                           "python": platform.python_version(),
                           **{p: version(p) for p in ("charrestore", "fastapi", "uvicorn", "onnxruntime")},
                           "loadavg_at_start": os.getloadavg()}, "runs": []}
    answers = []
    for workers in args.workers:
        run, fixed, streamed = run_server(workers, args, docs)
        report["runs"].append(run)
        answers.append((run, fixed, streamed))
    restorer = Restorer(lang="en")  # correctness after timing: every answer equals the library's
    expected = [restorer(d) for d in docs]
    for run, fixed, streamed in answers:
        for row, got in zip(run["fix"], fixed):
            row["wrong_answers"] = sum(text != expected[k] for k, text in got)
        for row, finals in zip(run["streams"], streamed):
            row["wrong_answers"] = sum(got is not None and got != offline(restorer, doc)
                                       for doc, got in zip(docs, finals))
    report["settings"]["loadavg_at_end"] = os.getloadavg()
    text = json.dumps(report, indent=2)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    print(text)


def run_server(workers: int, args, docs: list[str]) -> tuple[dict, list, list]:
    """Every phase against one server of ``workers`` processes: the rows, and the answers to check later."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = start_server(port, workers)
    url = f"http://127.0.0.1:{port}"
    run, fixed, streamed = {"workers": workers, "fix": [], "streams": []}, [], []
    try:
        asyncio.run(fix_phase(url, docs, 40, 4, 60))  # warm-up: threads, connections, caches
        rss_start = server_usage(proc.pid)[0]
        for c in args.concurrency:
            cpu = server_usage(proc.pid)[1]
            row, got = asyncio.run(fix_phase(url, docs, args.requests, c, args.max_seconds))
            row["server_cpu_ms_per_request"] = round((server_usage(proc.pid)[1] - cpu) * 1000 / row["requests"], 2)
            run["fix"].append(row)
            fixed.append(got)
            print(json.dumps({"workers": workers, **row}), flush=True)
        for rate in args.stream_rates:
            cpu = server_usage(proc.pid)[1]
            row, finals = asyncio.run(stream_phase(f"ws://127.0.0.1:{port}/v1/stream?lang=en",
                                                   docs[:args.streams], rate, args.max_seconds))
            row["server_cpu_ms_per_message"] = round((server_usage(proc.pid)[1] - cpu) * 1000
                                                     / max(1, row["messages"]), 2)
            run["streams"].append(row)
            streamed.append(finals)
            print(json.dumps({"workers": workers, **row}), flush=True)
        run["server_rss_mb"] = {"after_warmup": round(rss_start, 1), "at_end": round(server_usage(proc.pid)[0], 1)}
    finally:
        proc.terminate()
        proc.wait(20)
    return run, fixed, streamed


def offline(restorer, doc: str) -> str:
    stream = restorer.stream()
    return stream.push(doc).final + stream.end().final


if __name__ == "__main__":
    main()
