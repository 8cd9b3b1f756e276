"""Write a char card's ``common_words`` and ``common_capital_penalty``: a capital after a comma on one of them.

The char model predicts a mark and the next word's capital apart, so it may write both halves of two readings:
"C'est la vie, J'ai faim". ``CharEngine.capital_after_mark`` resolves such pairs; a pack whose text often has a
name after a comma (French novels: "dit Clarisse, M. Dupont") keeps them all (``capital_after_mark_penalty`` null).
A common word is no name: there the pair is a sentence start the model half saw, or no capital, and it is resolved
at the cost of ``common_capital_penalty`` (never by dropping the mark). The common words are the NB counts' most
frequent (the file's ties in its order), less the pack's proper forms and the words that the training
text writes with a capital inside a sentence more often than ``--most`` ("Madame", "Paris"), their apostrophes left
out (the apostrophes of "jai" are restored after the model reads it).

    python scripts/build_common_words.py --lang fr --top 300 --penalty 1.0 \
        --corpus ../shared/corpora/fr/eltec_novels_train.tsv.xz --most 0.05

Then record the card's dev scores anew (the commands in its ``dev_metrics``). French (session 65, the novels' dev
documents; before -> after): NB spaces CAPS 0.715 -> 0.718, ``.`` 0.717 -> 0.718, ``,`` 0.614 -> 0.609, ALL 0.9152 ->
0.9155, WER 17.22 -> 17.06%; spaced (``keep``) CAPS 0.740 -> 0.745, ALL 0.9235 -> 0.9240. Spanish, Russian, German
and Vietnamese dev scored alike with and without (docs/results.md): left off.
"""

from __future__ import annotations

import argparse
import lzma
from pathlib import Path

import regex

from charrestore import load_pack
from charrestore.counts import read
from charrestore.proper_case import ProperCase
from charrestore.tuning.record import card_path, update_card

ROOT = Path(__file__).resolve().parent.parent
WORD = regex.compile(r"\p{L}+(?:'\p{L}+)*")
INSIDE = regex.compile(r"(?<=[\p{L},] )\p{L}+(?:'\p{L}+)*")


def capitalised_inside(corpus: Path, words: set[str]) -> dict[str, float]:
    """The share of each of ``words`` written with a capital inside a sentence (after a letter or a comma and a
    space) in a training file (``id<TAB>text``, xz or plain): "Madame", "Paris", "Dieu" are."""
    seen = {w: [0, 0] for w in words}
    with (lzma.open if corpus.suffix == ".xz" else open)(corpus, "rt", encoding="utf-8") as fh:
        for line in fh:
            for m in INSIDE.finditer(line.rpartition("\t")[2]):
                if (counts := seen.get(m.group().lower())) is not None:
                    counts[m.group()[0].isupper()] += 1
    return {w: upper / (lower + upper) for w, (lower, upper) in seen.items() if lower + upper}


def common_words(lang: str, top: int, corpus: Path, most: float) -> list[str]:
    """The ``top`` most frequent words of the pack's NB counts that are no proper form, nor capitalised inside a
    sentence of ``corpus`` more often than ``most``; apostrophes left out."""
    proper = ProperCase.load(lang) if "proper" in load_pack(lang).models else None
    counts = read(ROOT / "models" / lang / "nb.counts")
    ranked = sorted(range(len(counts.words)), key=lambda k: -counts.counts[k])  # stable: ties in the file's order
    counted = [counts.words[k] for k in ranked[: top + 1]]  # the first is the start context, "<s>"
    words = [w for w in counted if WORD.fullmatch(w) and (proper is None or proper.capitals(w, True) is None)]
    shares = capitalised_inside(corpus, set(words))
    return list(dict.fromkeys(w.replace("'", "") for w in words if shares.get(w, 1.0) <= most))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--lang", required=True)
    p.add_argument("--top", type=int, default=300, help="the counts' most frequent words taken")
    p.add_argument("--penalty", type=float, default=1.0, help="the card's common_capital_penalty")
    p.add_argument("--corpus", type=Path, required=True, help="the char model's training file")
    p.add_argument("--most", type=float, default=0.05, help="the largest share of capitals inside a sentence")
    args = p.parse_args()
    path = card_path(args.lang, "char")
    words = common_words(args.lang, args.top, args.corpus, args.most)
    update_card(path, {"common_words": words, "common_capital_penalty": args.penalty,
                       "common_words_command": f"python scripts/build_common_words.py --lang {args.lang} --top "
                                               f"{args.top} --penalty {args.penalty} --corpus {args.corpus} "
                                               f"--most {args.most}"})
    print(f"{path}: {len(words)} common words, common_capital_penalty {args.penalty}")


if __name__ == "__main__":
    main()
