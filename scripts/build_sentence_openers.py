"""Write a char card's ``sentence_openers`` and ``sentence_opener_weight``: the input's last "?" weighed by the word
that opens its sentence (charrestore/engines/char_openers.py).

From the char model's training text (``id<TAB>text``, xz or plain): its sentences (up to a run of ``. ? ! …``), the
first word of each (the first run without spaces that holds a letter, the signs at its edges left out, lower case:
what the decoder reads), and per such word the share of its sentences that end with "?". A word that opens at least
``--min-count`` sentences, of which at least ``--min-share`` are questions (smoothed towards the text's own share),
is kept with its lift: the log odds of "?" after it less the log odds of "?" over all sentences.

    python scripts/build_sentence_openers.py --lang de --corpus ../shared/corpora/de/de_bundestag_train.tsv.xz \\
        --weight 0.5

Then record the card's dev scores anew (the commands in its ``dev_metrics``) and the sentences' (``eval_char.py
--sentences``): docs/results.md has the weights tried per pack.
"""

from __future__ import annotations

import argparse
import lzma
import math
from collections import Counter
from pathlib import Path

import regex

from charrestore import load_pack
from charrestore.engines.char_openers import edges_trimmed
from charrestore.tuning.record import card_path, update_card

SENTENCE = regex.compile(r"[^.?!…？！。]*[.?!…？！。]+")
TOKEN = regex.compile(r"\S*\p{L}\S*")


def opener(sentence: str) -> str | None:
    """The first word of ``sentence`` as the decoder reads it: lower case, the signs at its edges left out.

    >>> opener("— Warum nicht?"), opener("« Qu'est-ce que c'est ? »"), opener("12 Äpfel.")
    ('warum', "qu'est-ce", 'äpfel')
    """
    m = TOKEN.search(sentence)
    return None if m is None else edges_trimmed(m.group(0).lower())


def sentence_openers(corpus: Path, min_count: int, min_share: float) -> tuple[dict[str, float], float]:
    """(word -> lift of "?", the share of questions among all sentences) of a training file."""
    opened, asked = Counter(), Counter()
    with (lzma.open if corpus.suffix == ".xz" else open)(corpus, "rt", encoding="utf-8") as fh:
        for line in fh:
            for m in SENTENCE.finditer(line.rpartition("\t")[2]):
                word = opener(m.group(0))
                if word:
                    opened[word] += 1
                    asked[word] += "?" in m.group(0)[-3:] or "？" in m.group(0)[-3:]
    base = sum(asked.values()) / max(sum(opened.values()), 1)
    odds = lambda p: math.log(p / (1 - p))  # noqa: E731
    lifts = {}
    for word, n in opened.most_common():
        share = (asked[word] + base) / (n + 1)  # one sentence of the text's own share: a rare word says less
        if n >= min_count and share >= min_share:
            lifts[word] = round(odds(min(share, 0.99)) - odds(base), 3)
    return lifts, base


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--lang", required=True)
    p.add_argument("--corpus", type=Path, required=True, help="the char model's training file")
    p.add_argument("--min-count", type=int, default=30, help="sentences a word must open")
    p.add_argument("--min-share", type=float, default=0.5, help="the least share of them that end with '?'")
    p.add_argument("--weight", type=float, required=True, help="the card's sentence_opener_weight (0: off)")
    args = p.parse_args()
    pack = load_pack(args.lang)
    mark = next((m for m in pack.sentence_marks if m in ("?", "？")), None)
    if mark is None:
        p.error(f"pack {args.lang!r} has no question mark among its sentence marks")
    lifts, base = sentence_openers(args.corpus, args.min_count, args.min_share)
    print(f"{len(lifts)} openers; questions are {base:.2%} of the sentences: {list(lifts.items())[:12]}")
    update_card(card_path(args.lang, "char"), {
        "sentence_openers": {mark: lifts}, "sentence_opener_weight": args.weight,
        "sentence_openers_command": f"python scripts/build_sentence_openers.py --lang {args.lang} --corpus "
                                    f"{args.corpus} --min-count {args.min_count} --min-share {args.min_share} "
                                    f"--weight {args.weight}"})


if __name__ == "__main__":
    main()
