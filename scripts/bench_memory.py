"""Peak memory and time of `charrestore fix` on one long line, as a user runs it (a fresh CLI process per run).

The line is de-spaced, lower-cased TED dev text without marks, repeated to the size asked for (unspaced is the
costlier case: the NB segmenter runs too). Peak RSS is the child's ru_maxrss; the time is wall time, which
includes start-up. The bar (issue 22): RSS for 10 MB <= RSS for 0.5 MB + 64 MB, time linear.
With ``--file`` the input is a text file read with ``-i`` (spaces given, one paragraph a line, as a transcript
file is), written with ``-o``: the format path, which keeps every line break and space.

    python scripts/bench_memory.py [--sizes 0.5 3 10] [--engines char pipeline] [--file] [--out REPORT.json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from charrestore import __version__, load_pack
from charrestore.codec import strip_features

ROOT = Path(__file__).resolve().parent.parent
TED_DEV = ROOT.parent / "shared" / "corpora" / "en" / "ted_dev.tsv"


def line_of(mb: float, source: str) -> bytes:
    data = source.encode()
    n = int(mb * 1_000_000)
    return (data * (n // len(data) + 1))[:n] + b"\n"


def run(engine: str, path: Path, as_file: bool) -> tuple[float, int, int]:
    """(wall seconds, peak RSS in MB of the fix process, output bytes)."""
    command = [sys.executable, "-m", "charrestore", "fix", "--engine", engine]
    out = path.with_suffix(".out")
    t0 = time.perf_counter()
    with open(path, "rb") as f:
        res = subprocess.run(command + (["-i", str(path), "-o", str(out)] if as_file else []),
                             stdin=None if as_file else f, capture_output=True, check=True)
    wall = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # this probe's only child
    return wall, peak // 1024, out.stat().st_size if as_file else len(res.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=float, nargs="+", default=[0.5, 3, 10], help="MB")
    ap.add_argument("--engines", nargs="+", default=["char", "pipeline"])
    ap.add_argument("--file", action="store_true", help="a spaced text file via -i/-o, not one unspaced line")
    ap.add_argument("--out", type=Path, default=ROOT / "reports" / "bench_memory.json")
    args = ap.parse_args()
    pack = load_pack("en")
    paragraphs = [line.split("\t", 1)[1] for line in TED_DEV.read_text().splitlines()]
    if args.file:
        source = "".join(" ".join(filter(None, (strip_features(w, pack) for w in p.split()))) + "\n"
                         for p in paragraphs[:400])
    else:
        source = strip_features(" ".join(paragraphs[:400]), pack)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for engine in args.engines:
            for mb in sorted(args.sizes):
                path = Path(tmp) / f"{mb}.txt"
                path.write_bytes(line_of(mb, source))
                # ru_maxrss of children is the maximum over all of them, so each run gets a fresh parent
                probe = subprocess.run([sys.executable, __file__, "--_one", engine, str(path), str(args.file)],
                                       capture_output=True, text=True, check=True)
                wall, rss, out_bytes = json.loads(probe.stdout)
                rows.append({"engine": engine, "mb": mb, "seconds": round(wall, 1), "peak_rss_mb": rss,
                             "chars_per_s": round(mb * 1e6 / wall), "output_bytes": out_bytes})
                print(json.dumps(rows[-1]), flush=True)
    verdicts = {}
    for engine in args.engines:
        mine = [r for r in rows if r["engine"] == engine]
        small, large = mine[0], mine[-1]
        verdicts[engine] = {"rss_growth_mb": large["peak_rss_mb"] - small["peak_rss_mb"],
                            "met": large["peak_rss_mb"] <= small["peak_rss_mb"] + 64}
    report = {"signature": f"charrestore.bench_memory|version:{__version__}|lang:en|text:ted_dev "
                           f"{'spaced, -i file' if args.file else 'de-spaced line'}|"
                           f"python:{platform.python_version()}|load:{os.getloadavg()[0]:.1f}",
              "command": "python scripts/bench_memory.py " + " ".join(sys.argv[1:]),
              "rows": rows, "bar_10mb_le_05mb_plus_64mb": verdicts}
    args.out.write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps(verdicts))


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--_one":
        print(json.dumps(run(sys.argv[2], Path(sys.argv[3]), sys.argv[4] == "True")))
    else:
        main()
