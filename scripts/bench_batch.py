"""Throughput of ``charrestore batch`` (local and Ray runners, 1 and 2 workers) against the plain CLI.

Builds N lines from a corpus (its sentences lower-cased without marks, repeated as needed; written to a
temporary folder, never kept), runs each setting --runs times as its own process and reports the medians
of lines/s and chars/s, the speed-up of 2 workers over 1, each runner's fixed start-up cost (a 20-line job),
the CPU seconds used (the command and the processes it waited for; Ray's own daemons and actors are not
its children, so Ray's figure is a lower bound) and the machine's load average, as wall-clock timings on
a shared machine mean little without it. Every output is
checked against the CLI's, byte for byte.

    python scripts/bench_batch.py --lines 100000 --out reports/bench_batch.json
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import regex

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "en" / "ted_dev.tsv"
SETTINGS = [("cli", 1), ("local", 1), ("local", 2), ("ray", 1), ("ray", 2)]


def sentences(corpus: Path) -> list[str]:
    """The corpus's sentences as an ASR would give them: lower case, no marks."""
    out = []
    for line in corpus.read_text(encoding="utf-8").splitlines():
        text = line.split("\t", 1)[-1]
        for sentence in regex.split(r"(?<=[.?!])\s+", text):
            words = regex.sub(r"[^\p{L}\p{N}' ]+", " ", sentence.lower()).split()
            if words:
                out.append(" ".join(words))
    return out


def command(runner: str, workers: int, src: Path, out: Path, shard_size: int) -> tuple[list[str], dict]:
    """The command line and where its output goes (the CLI writes stdout)."""
    if runner == "cli":
        return [sys.executable, "-m", "charrestore", "fix"], {"stdin": src, "stdout": out}
    return ([sys.executable, "-m", "charrestore", "batch", str(src), "--output", str(out), "--runner", runner,
             "--workers", str(workers), "--shard-size", str(shard_size)], {})


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(runner: str, workers: int, src: Path, out: Path, shard_size: int) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the command and the processes it waited for)."""
    for stale in (out, out.with_name(out.name + ".parts")):
        if stale.is_dir():
            for f in stale.iterdir():
                f.unlink()
            stale.rmdir()
        elif stale.exists():
            stale.unlink()
    cmd, files = command(runner, workers, src, out, shard_size)
    start, cpu = time.perf_counter(), _children_cpu()
    if files:
        with open(files["stdin"], "rb") as fin, open(files["stdout"], "wb") as fout:
            run = subprocess.run(cmd, stdin=fin, stdout=fout, stderr=subprocess.PIPE)
    else:
        run = subprocess.run(cmd, stderr=subprocess.PIPE)
    if run.returncode:
        raise SystemExit(f"{' '.join(cmd)}: exit {run.returncode}: {run.stderr.decode(errors='replace')[-2000:]}")
    return time.perf_counter() - start, _children_cpu() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=100_000, help="lines to restore (default: 100000)")
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="a TSV (text in the last column) or text file")
    parser.add_argument("--runs", type=int, default=3, help="runs per setting; medians are reported (default: 3)")
    parser.add_argument("--shard-size", type=int, default=1000, help="records per shard (default: 1000)")
    parser.add_argument("--out", type=Path, default=Path("reports/bench_batch.json"))
    args = parser.parse_args()

    pool = sentences(args.corpus)
    lines = [pool[i % len(pool)] for i in range(args.lines)]
    chars = sum(map(len, lines))
    load_before = os.getloadavg()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        src, small = tmp / "in.txt", tmp / "small.txt"
        src.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        small.write_text("".join(line + "\n" for line in lines[:20]), encoding="utf-8")
        reference = None
        for runner, workers in SETTINGS:
            out = tmp / f"{runner}{workers}.txt"
            startup = timed(runner, workers, small, out, args.shard_size)[0]
            seconds, cpu = [], []
            for _ in range(args.runs):
                wall, used = timed(runner, workers, src, out, args.shard_size)
                seconds.append(wall)
                cpu.append(used)
                reference = reference or out.read_bytes()
                if out.read_bytes() != reference:
                    raise SystemExit(f"{runner} x{workers}: output differs from the CLI's")
            wall = statistics.median(seconds)
            row = {"runner": runner, "workers": workers, "seconds": [round(s, 2) for s in seconds],
                   "median_s": round(wall, 2), "lines_per_s": round(args.lines / wall, 1),
                   "chars_per_s": round(chars / wall), "startup_s": round(startup, 2),
                   "cpu_s": round(statistics.median(cpu), 2),
                   "lines_per_cpu_s": round(args.lines / statistics.median(cpu), 1),
                   "lines_per_s_after_startup": round(args.lines / (wall - startup), 1) if wall > 1.5 * startup else None}
            rows.append(row)
            print(json.dumps(row), flush=True)
    base = {(r["runner"], r["workers"]): r for r in rows}
    speedup = {runner: round(base[(runner, 2)]["lines_per_s"] / base[(runner, 1)]["lines_per_s"], 2)
               for runner in ("local", "ray")}
    steady = {runner: round(base[(runner, 2)]["lines_per_s_after_startup"] /
                            base[(runner, 1)]["lines_per_s_after_startup"], 2)
              for runner in ("local", "ray") if base[(runner, 2)]["lines_per_s_after_startup"]
              and base[(runner, 1)]["lines_per_s_after_startup"]}
    report = {"lines": args.lines, "chars": chars, "corpus": args.corpus.name, "runs": args.runs,
              "shard_size": args.shard_size, "cores": os.cpu_count(), "load_before": [round(x, 2) for x in load_before],
              "load_after": [round(x, 2) for x in os.getloadavg()], "outputs_equal_cli": True,
              "speedup_2_over_1": speedup,
              "speedup_2_over_1_after_startup": steady, "rows": rows}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(json.dumps({"speedup_2_over_1": speedup, "load_before": report["load_before"],
                      "load_after": report["load_after"]}))


if __name__ == "__main__":
    main()
