"""Where a cased pack's sentence ends stand, and which of them a model finds: the counts behind ``[map_before_lower]``.

1. In a dev file: how often each sentence-ending mark ("." "!" "?" "…" "...") that a letter follows (past spaces,
   quotes and dashes) is followed by a small letter ("Ah ! mon Dieu": a "!" inside a sentence).
2. With ``--eval`` (a folder that ``scripts/eval_char.py`` wrote: ref.txt and the hypotheses): of the full stops
   inside a document that a capital follows, how many the model put, and how many of the full stops it put inside
   a document are followed by a capital, as the pack reads the reference now.

    python scripts/sentence_ends.py --lang fr --dev ../shared/corpora/fr/eltec_novels_dev.tsv.xz \
        --eval runs/eval/fr/fr_dev
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

import regex

from charrestore.codec import parse
from charrestore.packs import CAPS, load_pack
from charrestore.training.corpus import open_text

_END = regex.compile(r"(\.\.\.|…|[.!?])[\s«»\"“”„—–\-)]*(\p{L})")


def mark_contexts(path: str) -> Counter:
    """(mark, next letter is small) -> count, over the text column of a dev file."""
    counts = Counter()
    with open_text(Path(path)) as fh:
        for line in fh:
            for m in _END.finditer(line.rstrip("\n").split("\t")[-1]):
                counts[m.group(1), m.group(2).islower()] += 1
    return counts


def full_stops(pack, folder: Path, hyp: str) -> Counter:
    """Inside-document full stops of the reference that a capital follows, and those the hypotheses hit."""
    dot, caps = pack.bit("."), pack.bit(CAPS)
    counts = Counter()
    with open(folder / "ref.txt", encoding="utf-8") as refs, open(folder / hyp, encoding="utf-8") as hyps:
        for ref, out in zip(refs, hyps):
            _, r = parse(ref.rstrip("\n"), pack)
            _, h = parse(out.rstrip("\n"), pack)
            if len(r) != len(h):
                counts["lines not aligned"] += 1
                continue
            for i in range(1, len(r)):
                if r[i - 1] & dot and r[i] & caps:
                    counts["reference: full stop, then a capital"] += 1
                    counts["... that the model put"] += bool(h[i - 1] & dot)
                if h[i - 1] & dot:
                    counts["model: full stop inside a document"] += 1
                    counts["... then a capital"] += bool(h[i] & caps)
    return counts


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lang", required=True)
    p.add_argument("--dev", required=True)
    p.add_argument("--eval", type=Path, help="an eval_char.py output folder (ref.txt and the hypotheses)")
    p.add_argument("--hyp", default="hyp_nb.txt", help="the hypotheses in --eval (default: hyp_nb.txt)")
    args = p.parse_args()
    pack = load_pack(args.lang)
    counts = mark_contexts(args.dev)
    print("| mark | a capital follows | a small letter follows |\n|---|---|---|")
    for mark in sorted({m for m, _ in counts}):
        print(f"| {mark} | {counts[mark, False]} | {counts[mark, True]} |")
    if args.eval:
        for name, n in full_stops(pack, args.eval, args.hyp).items():
            print(f"{name}: {n}")


if __name__ == "__main__":
    main()
