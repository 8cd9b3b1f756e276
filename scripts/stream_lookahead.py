"""Live restoration: punctuation and casing F1 against look-ahead, and the cost of a word, on ted_dev talks.

Each talk (its cleaned paragraphs joined) is turned into lower-case, mark-free words and streamed one word per
push through ``Restorer.stream(lookahead=K)``; the finals are scored at token level (``evaluate_token``, the
``charrestore eval --level token`` numbers) against the talk, beside the same words restored as one document
(full context). Latency: the median time of one push, i.e. the work each arriving word costs.

    python scripts/stream_lookahead.py --talks 8 --plot reports/stream_lookahead_en.png
    python scripts/stream_lookahead.py --long 20000 --lookaheads 8   # flat cost: latency and RSS per 1,000 words
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from charrestore import Restorer, load_pack
from charrestore.evaluation import evaluate_token
from charrestore.labels import labelled_words
from charrestore.training.corpus import clean

ROOT = Path(__file__).resolve().parent.parent
TED_DEV = ROOT.parent / "shared" / "corpora" / "en" / "ted_dev.tsv"
LOOKAHEADS = (0, 1, 2, 4, 8, 16)


def talks(path: Path, pack, n: int) -> list[str]:
    """The first ``n`` ted_dev talks, each its cleaned paragraphs joined."""
    out: dict[str, list[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        name, text = line.split("\t")[0], clean(line.split("\t")[-1], pack)
        if text and (name in out or len(out) < n):
            out.setdefault(name, []).append(text)
    return [" ".join(p) for p in out.values()]


def streamed(restorer, words: list[str], lookahead: int) -> tuple[str, list[float]]:
    stream, finals, times = restorer.stream(lookahead=lookahead), [], []
    for word in words:
        t = time.perf_counter()
        finals.append(stream.push(word).final)
        times.append(time.perf_counter() - t)
    finals.append(stream.end().final)
    return "".join(finals), times


def rss_mb() -> float:
    """The current (not peak) resident set size, from /proc."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 2**20


def long_stream(restorer, words: list[str], n: int, lookahead: int) -> list[dict]:
    """Median push time and RSS for each 1,000 words of an ``n``-word stream (the talks' words, repeated)."""
    stream, rows, times = restorer.stream(lookahead=lookahead), [], []
    for i in range(n):
        t = time.perf_counter()
        stream.push(words[i % len(words)])
        times.append(time.perf_counter() - t)
        if (i + 1) % 1000 == 0:
            rows.append({"words": i + 1, "ms_per_word": round(1000 * statistics.median(times), 3),
                         "rss_mb": round(rss_mb(), 1)})
            print(rows[-1], flush=True)
            times = []
    stream.end()
    return rows


def plot(rows: list[dict], path: Path) -> None:
    """F1 against look-ahead, with the full-context score of each as a dashed line of the same colour."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    streamed_rows, full = rows[:-1], rows[-1]
    ks = [r["lookahead"] for r in streamed_rows]
    fig, ax = plt.subplots(figsize=(6, 4))
    for key, name, colour in (("punct_f1", "punctuation", "C0"), ("casing_f1", "casing", "C1")):
        ax.plot(ks, [r[key] for r in streamed_rows], marker="o", color=colour, label=f"{name}, streamed")
        ax.axhline(full[key], linestyle="--", linewidth=1, color=colour, label=f"{name}, full context")
    ax.set_xscale("symlog", base=2, linthresh=1)
    ax.set_xticks(ks, [str(k) for k in ks])
    ax.set_xlabel("look-ahead (words)")
    ax.set_ylabel("overall F1 on ted_dev talks (%)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def scores(refs, hyps, pack) -> dict:
    r = evaluate_token(refs, hyps, pack, spaces="keep")
    return {"punct_f1": round(100 * r.punct_overall.f1, 2), "casing_f1": round(100 * r.casing_overall.f1, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--talks", type=int, default=8)
    parser.add_argument("--engine", default="pipeline")
    parser.add_argument("--lookaheads", type=int, nargs="+", default=list(LOOKAHEADS))
    parser.add_argument("--json", type=Path, default=ROOT / "reports" / "stream_lookahead_en.json")
    parser.add_argument("--plot", type=Path)
    parser.add_argument("--replot", action="store_true", help="only draw --plot from the rows saved in --json")
    parser.add_argument("--long", type=int, metavar="N", help="instead: one N-word stream, latency and RSS per 1,000 words")
    args = parser.parse_args()
    if args.replot:
        plot(json.loads(args.json.read_text())["rows"], args.plot)
        return
    pack = load_pack("en")
    restorer = Restorer(lang="en", engine=args.engine, spaces="keep")
    refs = talks(TED_DEV, pack, args.talks)
    inputs = [labelled_words(ref, pack)[0] for ref in refs]
    n_words = sum(map(len, inputs))
    if args.long:
        rows = long_stream(restorer, [w for words in inputs for w in words], args.long, args.lookaheads[0])
        out = args.json.with_name(args.json.stem + "_long.json")
        out.write_text(json.dumps({"engine": args.engine, "lookahead": args.lookaheads[0], "rows": rows}, indent=1) + "\n")
        return
    rows = []
    for k in args.lookaheads:
        hyps, times = zip(*(streamed(restorer, words, k) for words in inputs))
        ms = 1000 * statistics.median(t for ts in times for t in ts)
        rows.append({"lookahead": k, **scores(refs, list(hyps), pack), "ms_per_word": round(ms, 3)})
        print(rows[-1], flush=True)
    full = [restorer(" ".join(words)) for words in inputs]
    rows.append({"lookahead": "full", **scores(refs, full, pack), "ms_per_word": None})
    print(rows[-1])
    signature = evaluate_token(refs[:1], full[:1], pack, spaces="keep").signature
    lines = [f"ted_dev, first {args.talks} talks ({n_words:,} words), engine {args.engine}, one word per push; "
             f"signature {signature}", "", "| look-ahead (words) | punct F1 | casing F1 | ms per pushed word |",
             "|---|---|---|---|"]
    lines += [f"| {r['lookahead']} | {r['punct_f1']:.2f} | {r['casing_f1']:.2f} | {r['ms_per_word'] or '-'} |"
              for r in rows]
    print("\n".join(lines))
    args.json.write_text(json.dumps({"talks": args.talks, "words": n_words, "engine": args.engine,
                                     "signature": signature, "rows": rows}, indent=1) + "\n")
    if args.plot:
        plot(rows, args.plot)


if __name__ == "__main__":
    main()
