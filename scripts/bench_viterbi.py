"""The NB segmenter's C loop against its Python loop (issue 21): the segmenter alone and the whole pipeline on one
de-spaced English document, the two loops alternating in one process (so a busy machine slows both alike).

    python scripts/bench_viterbi.py [--size 100000] [--runs 3]
"""

from __future__ import annotations

import argparse
import statistics
import time

from bench import long_document

from charrestore import Restorer, fast_viterbi
from charrestore.segmenter import Segmenter


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--size", type=int, default=100_000)
    p.add_argument("--runs", type=int, default=3)
    args = p.parse_args()
    if not fast_viterbi.available:
        raise SystemExit("bench_viterbi: the C extension is not built (pip install -e . with a C compiler)")
    doc = long_document("en", args.size, spaced=False)
    seg, pipeline = Segmenter.load("en"), Restorer(lang="en", engine="pipeline", threads=1)
    pipeline(doc[:5000])
    for name, fn in (("segmenter", seg.segment), ("pipeline", pipeline)):
        times: dict[bool, list[float]] = {True: [], False: []}
        for k in range(2 * args.runs):
            fast_viterbi.available = k % 2 == 0
            start = time.perf_counter()
            fn(doc)
            times[k % 2 == 0].append(time.perf_counter() - start)
        fast_viterbi.available = True
        rate = {on: len(doc) / statistics.median(t) for on, t in times.items()}
        print(f"{name}: Python loop {rate[False]:,.0f} chars/s, C loop {rate[True]:,.0f} chars/s "
              f"(x{rate[True] / rate[False]:.2f}; {len(doc):,} chars, median of {args.runs})")


if __name__ == "__main__":
    main()
