"""Speed and size benchmarks of the shipped engines (medians of several runs; not a test).

- latency on the 42-word paragraph of Table 5 of the CNN-BiLSTM paper, at 1 and 2 threads;
- throughput (chars/s) on a 1 MB document (de-spaced TED dev text when ../shared is there);
- cold start of ``charrestore fix "…"`` as a whole process, and its peak RSS;
- model file size.

    python scripts/bench.py [--lang en] [--engines char pipeline] [--out reports/bench.md]
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLE5 = ("but what are the risks i am not technical i'm not an engineer i don't play one on the internet "
          "but i appreciate perspectives on ai from those people who are able to immerse themselves in some "
          "of the more technical aspects")
TED_DEV = ROOT.parent / "shared" / "corpora" / "en" / "ted_dev.tsv"


def median_time(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def long_document(lang: str, size: int) -> str:
    from charrestore import load_pack
    from charrestore.codec import strip_features

    pack = load_pack(lang)
    if lang == "en" and TED_DEV.is_file():
        text = "".join(strip_features(line.split("\t")[-1], pack) for line in TED_DEV.read_text().splitlines())
    else:
        text = strip_features((ROOT / "tests" / "fixtures" / "text" / f"{lang}.txt").read_text(), pack)
    return (text * (size // len(text) + 1))[:size]


def cold_start(lang: str, engine: str, runs: int) -> tuple[float, float]:
    """Median wall time of a whole ``charrestore fix`` process, and the largest child peak RSS (MB)."""
    cmd = [sys.executable, "-m", "charrestore", "fix", "--lang", lang, "--engine", engine, "willaichangeourfuture"]
    t = median_time(lambda: subprocess.run(cmd, check=True, capture_output=True), runs)
    return t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def bench_engine(lang: str, engine: str, runs: int, size: int) -> dict:
    from charrestore import Restorer

    row = {"engine": engine, "lang": lang}
    for threads in (1, 2):
        r = Restorer(lang=lang, engine=engine, threads=threads, batch_size=32)
        r(TABLE5)  # warm-up
        row[f"table5_ms_{threads}t"] = 1000 * median_time(lambda: r(TABLE5), runs * 10)
        doc = long_document(lang, size)
        row[f"chars_per_s_{threads}t"] = len(doc) / median_time(lambda: r(doc), runs)
    row["cold_start_s"], row["cold_start_peak_rss_mb"] = cold_start(lang, engine, runs + 4)
    card = r.engine.card
    row["model_mb"] = (ROOT / "models" / lang / card["file"]).stat().st_size / 1e6 if "file" in card else None
    return row


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--lang", default="en")
    p.add_argument("--engines", nargs="+", default=["char"])
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--size", type=int, default=1_000_000, help="long-document size in characters")
    p.add_argument("--out", default=str(ROOT / "reports" / "bench.md"))
    args = p.parse_args()
    rows = [bench_engine(args.lang, e, args.runs, args.size) for e in args.engines]
    cols = ["engine", "table5_ms_1t", "table5_ms_2t", "chars_per_s_1t", "chars_per_s_2t", "cold_start_s",
            "cold_start_peak_rss_mb", "model_mb"]
    lines = [f"Machine: {platform.processor() or platform.machine()}, {platform.python_version()}; "
             f"medians of {args.runs} runs (Table-5 latency: {args.runs * 10}); `python {' '.join(sys.argv)}`", "",
             "| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for row in rows:
        lines.append("| " + " | ".join(f"{row[c]:,.1f}" if isinstance(row[c], float) else str(row[c]) for c in cols) + " |")
    report = "\n".join(lines) + "\n"
    print(report)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(report)
    Path(args.out).with_suffix(".json").write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
