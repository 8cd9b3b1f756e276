"""How fast the installed models run on this machine: ``charrestore bench`` and its measurement.

The full benchmark (1 MB documents, peers, peak memory, cold start) is ``scripts/bench.py``; it uses the same
median timer, so the CLI and the script agree on what "median" means.

>>> median_time(lambda: None, 3) < 0.01
True
"""

from __future__ import annotations

import statistics
import sys
import time

from .cli_util import CLIError, add_command, add_text_and_lang, threads
from .cli_util import lines as _lines

# The 42-word paragraph of Table 5 of the CNN-BiLSTM paper (Edge-Punct-Casing): the latency probe for English.
TABLE5 = ("but what are the risks i am not technical i'm not an engineer i don't play one on the internet "
          "but i appreciate perspectives on ai from those people who are able to immerse themselves in some "
          "of the more technical aspects")


def median_time(fn, runs: int) -> float:
    """Median wall time of ``runs`` calls of ``fn``, in seconds."""
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def measure(restorer, docs: list[str], runs: int) -> dict:
    """Median over ``runs`` passes of restoring every document (after one warm-up pass)."""
    for doc in docs:
        restorer(doc)
    seconds = median_time(lambda: [restorer(doc) for doc in docs], runs)
    return {"ms_per_doc": 1000 * seconds / len(docs), "chars_per_s": sum(map(len, docs)) / seconds}


def peer_row(name: str, docs: list[str], runs: int) -> dict:
    """A row for ``wordsegment`` (Norvig's unigram/bigram segmenter): its load, then ``segment`` on each document."""
    from pathlib import Path

    try:
        import wordsegment
    except ModuleNotFoundError:
        raise CLIError(f"--peer {name} needs the [bench] extra: pip install 'charrestore[bench]'") from None
    t = time.perf_counter()
    wordsegment.load()
    load_s = time.perf_counter() - t
    folder = Path(wordsegment.__file__).parent
    size = sum((folder / f).stat().st_size for f in ("unigrams.txt", "bigrams.txt"))
    timed = {k: round(v, 2) for k, v in measure(wordsegment.segment, docs, runs).items()}
    return {"engine": name, "load_s": round(load_s, 3), **timed, "model_mb": round(size / 1e6, 2)}


def add_bench(sub) -> None:
    p = add_command(sub, run_bench,
        "bench", help="time the installed models on this machine",
        description="Time each engine of a language on TEXT, on stdin (one document per line) or, for en, on the "
                    "42-word Table-5 paragraph of the CNN-BiLSTM paper: load time, median ms per document and "
                    "chars/s over --runs passes after a warm-up. scripts/bench.py is the full benchmark.",
        epilog="examples:\n  charrestore bench\n  charrestore bench --engines pipeline --threads 2 < docs.txt")
    add_text_and_lang(p, "one document (joined by spaces); default: stdin, or Table 5 for en")
    p.add_argument("--engines", nargs="+", choices=("char", "pipeline"),
                   help="engines to time (default: every engine the pack has models for)")
    p.add_argument("--threads", type=threads, default=1, help="ONNX Runtime threads, 1 to the machine's cores (default: 1)")
    p.add_argument("--runs", type=int, default=20, help="timed passes; the median is reported (default: 20)")
    p.add_argument("--despace", action="store_true",
                   help="time the documents lower-cased, without marks and spaces (what the segmenter restores)")
    p.add_argument("--peer", choices=("wordsegment",),
                   help="also time a peer on the same documents in the same run (wordsegment: spaces only; "
                        "at most 3 passes; needs the [bench] extra)")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def run_bench(args) -> int:
    import json
    import time

    from .evaluation import Signature
    from .packs import load_pack
    from .paths import models_dir
    from .restorer import Restorer

    pack = load_pack(args.lang)
    if args.runs < 1:
        raise CLIError("--runs must be at least 1")
    docs = [" ".join(args.text)] if args.text else ([] if sys.stdin.isatty() else
                                                    [t for _, t in _lines(args) if t.strip()])
    if not docs:
        if args.lang != "en":
            raise CLIError(f"give TEXT or documents on stdin: the built-in Table-5 paragraph is English, not {args.lang!r}")
        docs, source = [TABLE5], "table5"
    else:
        source = f"{len(docs)} docs"
    if args.despace:
        from .codec import base_text

        docs = [base_text(doc, pack) for doc in docs]
    engines = args.engines or [e for e, kind in (("char", "char"), ("pipeline", "token")) if kind in pack.models]
    rows = []
    for engine in engines:
        t = time.perf_counter()
        restorer = Restorer(lang=args.lang, engine=engine, threads=args.threads)
        load_s = time.perf_counter() - t
        card = restorer.engine.card
        rows.append({"engine": engine, "load_s": round(load_s, 3), **{k: round(v, 2) for k, v in
                     measure(restorer, docs, args.runs).items()},
                     "model_mb": round((models_dir() / args.lang / card["file"]).stat().st_size / 1e6, 2)})
    if args.peer:
        rows.append(peer_row(args.peer, docs, min(args.runs, 3)))
    signature = str(Signature.of("bench", lang=args.lang, threads=args.threads, runs=args.runs, text=source,
                                 despace="yes" if args.despace else None, chars=sum(map(len, docs)),
                                 engines="+".join(engines), peer=args.peer))
    if args.json:
        print(json.dumps({"signature": signature, "rows": rows}))
        return 0
    print(signature)
    print(f"{'engine':<12}{'load s':>8}{'ms/doc':>10}{'chars/s':>12}{'model MB':>10}")
    for r in rows:
        print(f"{r['engine']:<12}{r['load_s']:>8.2f}{r['ms_per_doc']:>10.2f}{r['chars_per_s']:>12,.0f}{r['model_mb']:>10.2f}")
    return 0
