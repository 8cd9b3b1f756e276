"""Where the pipeline's time goes on de-spaced English: the token model's ONNX calls against everything else.

The default engine restores a de-spaced, lower-cased document of dev text (``bench.long_document``) at 1 thread;
every ``session.run`` of the token model is timed, so the rest (segmenter, spans, codec, tokenizer, decoding) is
the total minus that. Medians of ``--runs`` passes after a warm-up; with several ``--models-dir`` the passes
alternate between them, so their rows compare on one (possibly busy) machine. Also the top functions by own time
under cProfile (one pass of the first), to show what the rest is made of. Not a test: a benchmark to compare runs.

    python scripts/bench_stages.py [--size 200000] [--runs 5] [--models-dir DIR ...]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import statistics
import time

from bench import long_document  # scripts/bench.py: this script's folder is on the path when it runs


def timed(run, spent: list[float]):
    """``run`` that adds its wall time to ``spent[0]``."""
    def wrapper(*a, **k):
        t = time.perf_counter()
        try:
            return run(*a, **k)
        finally:
            spent[0] += time.perf_counter() - t
    return wrapper


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", type=int, default=200_000, help="document size in characters")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--models-dir", nargs="+", default=[None], help="models roots (default: the shipped models/)")
    ap.add_argument("--top", type=int, default=12, help="functions listed from the profile")
    args = ap.parse_args()
    from charrestore import Restorer

    doc = long_document("en", args.size, spaced=False)
    rows = []
    for models in args.models_dir:
        restorer = Restorer(lang="en", engine="pipeline", threads=1, models_dir=models)
        spent = [0.0]
        restorer.engine.model.session.run = timed(restorer.engine.model.session.run, spent)
        restorer(doc)
        rows.append((models or "models/", restorer, spent, [], []))
    for _ in range(args.runs):
        for _, restorer, spent, totals, onnx in rows:
            spent[0] = 0.0
            t = time.perf_counter()
            restorer(doc)
            totals.append(time.perf_counter() - t)
            onnx.append(spent[0])
    print(f"{len(doc):,} de-spaced chars, 1 thread, median of {args.runs}")
    for name, _, _, totals, onnx in rows:
        total, model = statistics.median(totals), statistics.median(onnx)
        print(f"{name}: {len(doc) / total:,.0f} chars/s; token model {model:.2f} s ({100 * model / total:.0f}%), "
              f"the rest {total - model:.2f} s ({1e6 * (total - model) / len(doc):.2f} us/char)")
    restorer = rows[0][1]
    prof = cProfile.Profile()
    prof.runcall(restorer, doc)
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(args.top)
    print(out.getvalue())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
