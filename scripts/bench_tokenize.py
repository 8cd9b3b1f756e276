"""SentencePiece's batch call against word-by-word calls (issue 21: Table-5 latency), at several input sizes, each
warm (repeated) and cold (after the token model has run, as in every restore), alternating in one process so that
a busy machine slows all alike. It sets ``token_input.BATCH_MIN_WORDS``; the last line times Table 5 end to end
with each choice.

    python scripts/bench_tokenize.py [--runs 30] [--sizes 42 400 1000 4000 40000]
"""

from __future__ import annotations

import argparse
import statistics
import time

from bench import long_document

from charrestore import Restorer
from charrestore.bench import TABLE5
from charrestore.engines import token_input


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=30)
    p.add_argument("--sizes", type=int, nargs="+", default=[42, 400, 1000, 4000, 40000])
    args = p.parse_args()
    restorer = Restorer(lang="en", engine="pipeline", threads=1)
    sp = restorer.engine.model.sp
    words = long_document("en", 40 * max(args.sizes), spaced=True).lower().split()
    ways = {"batch": lambda forms: sp.encode(forms, num_threads=1), "per word": lambda forms: [sp.encode(f) for f in forms]}
    print(f"| words | {' | '.join(f'{w} warm µs | {w} cold µs' for w in ways)} |")
    print("|---|" + "---|" * 2 * len(ways))
    for n in args.sizes:
        forms = words[:n]
        runs = max(5, args.runs * 400 // max(n, 400))
        times = {(w, cold): [] for w in ways for cold in (False, True)}
        for _ in range(runs):
            for (way, cold), ts in times.items():
                restorer(TABLE5) if cold else ways[way](forms)
                start = time.perf_counter()
                ways[way](forms)
                ts.append(time.perf_counter() - start)
        cells = [f"{1e6 * statistics.median(ts):,.0f}" for ts in times.values()]
        print(f"| {n:,} | " + " | ".join(cells) + " |")
    shipped, lat = token_input.BATCH_MIN_WORDS, {}
    for name, threshold in (("per word", shipped), ("batch", 0)):
        token_input.BATCH_MIN_WORDS = threshold
        restorer(TABLE5)
        lat[name] = []
    for _ in range(10 * args.runs):
        for name, threshold in (("per word", shipped), ("batch", 0)):
            token_input.BATCH_MIN_WORDS = threshold
            start = time.perf_counter()
            restorer(TABLE5)
            lat[name].append(time.perf_counter() - start)
    token_input.BATCH_MIN_WORDS = shipped
    print("\nTable 5, pipeline, 1 thread, median ms: " + ", ".join(
        f"{name} {1e3 * statistics.median(ts):.2f}" for name, ts in lat.items()) + f" (BATCH_MIN_WORDS {shipped})")


if __name__ == "__main__":
    main()
