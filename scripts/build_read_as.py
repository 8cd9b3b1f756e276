"""Count the contractions of the training corpora, score reading them for their apostrophe-less forms, write the
table into the token card (``read_as``: "dont" -> "don't").

People type "dont", "im", "theyre"; the token model's training text always spells "don't", "i'm", "they're", so it
reads "dont" as a rare word (and "im" as the acronym IM). A form enters the table when the corpora write it with
an apostrophe at least MIN times, and without one in under RATIO of that ("its" against "it's" is 19%: out). Only
contractions: the part after the apostrophe is one of SUFFIXES, or "s" after one of the TOP most frequent words
("that's", "he's", not a possessive such as "court's"). The runtime reads such a word as its contraction; the
output keeps the word as typed (nothing is inserted but marks, spaces and case). SHORTHAND adds the one-word
shorthand of posts and chats ("u", "r", "pls"), which no corpus holds: a hand list.

The score: ted_dev paragraphs with the table's contractions typed without their apostrophe (references too),
lower-cased and without marks, words given; punctuation and casing overall F1 without and with the table; the
same with the SHORTHAND's words typed short ("you" as "u", each long form as its first short one); and ted_dev as
written (the table should not move it).

    python scripts/build_read_as.py --lang en --write-card
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import sys
import time
from collections import Counter
from pathlib import Path

from charrestore import Restorer, load_pack
from charrestore.codec import strip_features
from charrestore.evaluation.results import evaluate_token
from charrestore.training.corpus import read_documents
from charrestore.tuning.record import card_path, update_card

from build_proper import CORPORA, C  # the token model's nine corpora

DEV = {"en": C / "en" / "ted_dev.tsv"}
SHORTHAND = {"en": {"u": "you", "ur": "your", "r": "are", "pls": "please", "plz": "please", "thx": "thanks",
                    "ppl": "people", "bc": "because", "cuz": "because"}}
WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")


def count(paths, pack) -> tuple[Counter, Counter]:
    """(forms with an apostrophe, forms without), lower-cased, over the corpora's documents."""
    with_apostrophe, plain = Counter(), Counter()
    for path in paths:
        t, docs = time.time(), read_documents(path, pack)
        for doc in docs:
            for w in WORD.findall(doc.replace("’", "'").lower()):
                (with_apostrophe if "'" in w else plain)[w] += 1
        print(f"counted {Path(path).name}: {len(docs)} docs in {time.time() - t:.0f} s", flush=True)
    return with_apostrophe, plain


def table(with_apostrophe: Counter, plain: Counter, min_count: int, ratio: float, suffixes, top: int) -> dict:
    frequent = {w for w, _ in plain.most_common(top)}
    out = {}
    for form, n in with_apostrophe.items():
        stem, _, suffix = form.partition("'")
        bare = stem + suffix
        if n >= min_count and plain[bare] < ratio * n and (suffix in suffixes or (suffix == "s" and stem in frequent)):
            out[bare] = form
    return dict(sorted(out.items()))


def scores(restorer, refs: list[str], read_as: dict) -> dict:
    """Punctuation and casing overall F1 (%) of the refs restored from their lower-cased, mark-free words."""
    pack, model = restorer.pack, restorer.engine.model
    inputs = [" ".join(filter(None, (strip_features(w, pack) for w in r.split()))) for r in refs]
    model.read_as = read_as
    result = evaluate_token(refs, [restorer(x) for x in inputs], pack)
    return {"punctuation_f1": round(100 * result.punct_overall.f1, 2),
            "casing_f1": round(100 * result.casing_overall.f1, 2)}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lang", default="en")
    p.add_argument("--corpus", nargs="+", help="training corpora (default: the token model's, for en)")
    p.add_argument("--dev", help="dev paragraphs, id<TAB>text (default: ted_dev, for en)")
    p.add_argument("--min-count", type=int, default=100)
    p.add_argument("--ratio", type=float, default=0.01)
    p.add_argument("--suffixes", nargs="+", default=["t", "m", "re", "ve", "ll", "d"])
    p.add_argument("--top", type=int, default=150, help="'s after one of the TOP most frequent words")
    p.add_argument("--write-card", action="store_true", help="write the table and its scores into the token card")
    args = p.parse_args()
    pack = load_pack(args.lang)
    corpora, dev = args.corpus or CORPORA[args.lang], Path(args.dev or DEV[args.lang])
    read_as = table(*count(corpora, pack), args.min_count, args.ratio, set(args.suffixes), args.top)
    read_as.update(SHORTHAND.get(args.lang, {}))
    print(f"{len(read_as)} forms: {json.dumps(read_as)}")
    refs = [line.split("\t", 1)[1] for line in dev.read_text(encoding="utf-8").splitlines() if "\t" in line]
    typed, short = set(read_as.values()), {}
    for form, word in SHORTHAND.get(args.lang, {}).items():
        short.setdefault(word, form)

    def drop(m: re.Match) -> str:
        return re.sub("['’]", "", m.group()) if m.group().lower().replace("’", "'") in typed else m.group()

    def shorten(m: re.Match) -> str:
        form = short[m.group().lower()]
        return form.capitalize() if m.group()[0].isupper() else form

    untyped = [re.sub(r"[^\W\d_]+['’][^\W\d_]+", drop, r) for r in refs]
    shortened = [re.sub(rf"(?<!['’])\b(?i:{'|'.join(short)})\b(?!['’])", shorten, r) for r in refs] if short else []
    restorer = Restorer(lang=args.lang, spaces="keep")
    rows = {name: {"without": scores(restorer, texts, {}), "with": scores(restorer, texts, read_as)}
            for name, texts in (("apostrophes dropped", untyped), ("shorthand typed", shortened), ("as written", refs))
            if texts}
    changed = sum(a != b for a, b in zip(refs, untyped))
    print(json.dumps({"paragraphs": len(refs), "with a contraction dropped": changed,
                      "with a shorthand word": sum(a != b for a, b in zip(refs, shortened)), **rows}, indent=1))
    if args.write_card:
        command = "python " + " ".join(shlex.quote(a) for a in sys.argv)
        update_card(card_path(args.lang, pack.models["token"]), {"read_as": read_as, "read_as_tuning": {
            "command": command, "corpora": [Path(c).name for c in corpora], "dev": dev.name,
            "rule": {"min_count": args.min_count, "ratio": args.ratio, "suffixes": args.suffixes, "top": args.top},
            "shorthand": "SHORTHAND in scripts/build_read_as.py (a hand list)",
            "dev_paragraphs": len(refs), "dev_paragraphs_changed": changed, "scores": rows}})
        print(f"wrote {len(read_as)} forms into the {args.lang} token card")


if __name__ == "__main__":
    main()
