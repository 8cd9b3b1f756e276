"""Count the word forms that an apostrophe tells apart ("its"/"it's", "were"/"we're", "worlds"/"world's") and
their neighbours: the data of ``charrestore.apostrophes``.

From corpus text that keeps its apostrophes, its marks not read (as the step reads text): every form with an apostrophe inside or after an ``s`` seen at least
``--min-count`` times, grouped by its letters; the word pairs in which a form of such a group stands (``--min-pair``
times or more); the unigram counts of every word in those pairs; and the forms written with a capital inside a
sentence ("I'm", "O'Brien"). Written as a counts file (``counts.py``) and a card.

  charrestore train apostrophes --lang en --corpus ted_train.tsv scotus_oral_arguments.tsv@0.5 --out models/en
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections import Counter
from pathlib import Path

import regex

from ..apostrophes import FORMAT, START, strip, words_of
from ..cards import write_card
from ..counts import write as write_counts
from ..packs import load_pack
from .corpus import parse_corpus_arg, read_documents


# A form with an apostrophe, not at a sentence's start ("so I'm", not ". It's").
_INNER = regex.compile(r"(?<=[\p{L}\p{N},;:]\s+)\p{L}+'\p{L}+")


def count(docs, weight: float, unigrams: Counter, bigrams: Counter, cased: Counter) -> int:
    """Add one corpus' weighted word and pair counts, and its forms' spellings inside sentences (lower case too);
    returns its words."""
    n = 0
    for doc in docs:
        prev = START
        for word in words_of(doc):
            low = word.lower()
            unigrams[low] += weight
            bigrams[prev, low] += weight
            prev = low
            n += 1
        for m in _INNER.finditer(doc.replace("\u2019", "'")):
            cased[m.group()] += weight
    return n


def build(unigrams: Counter, bigrams: Counter, cased: Counter, min_count: float, min_pair: float):
    """``(words, counts, contexts, cased forms)`` of the model: only what the groups' decisions read."""
    forms = {w for w, c in unigrams.items() if "'" in w and c >= min_count and strip(w)}
    group = forms | {strip(w) for w in forms}
    pairs = {p: c for p, c in bigrams.items() if c >= min_pair and (p[0] in group or p[1] in group)}
    words = group | {w for p in pairs for w in p if w != START}
    ordered = sorted(words, key=lambda w: (-unigrams[w], w))
    contexts: dict[str, list[str]] = {}
    for (a, b), c in sorted(pairs.items(), key=lambda kv: -kv[1]):
        contexts.setdefault(a, []).append(f"{b} {c:.6g}")
    # A form keeps a capital (I'm) where nearly all of its uses, and many, have it inside a sentence.
    inner = Counter()
    for word, c in cased.items():
        inner[word.lower()] += c
    spelled = {}
    for word, c in cased.most_common():
        low = word.lower()
        if word != low and low in forms and low not in spelled and inner[low] >= 20 and c > 0.9 * inner[low]:
            spelled[low] = word
    return ordered, [unigrams[w] for w in ordered], {a: " ".join(v) for a, v in contexts.items()}, spelled


def run(args) -> Path:
    pack = load_pack(args.lang)
    unigrams, bigrams, cased = Counter(), Counter(), Counter()
    sources = []
    licenses = dict(item.split("=", 1) for item in args.license)
    for spec in args.corpus:
        path, weight = parse_corpus_arg(spec)
        docs = read_documents(path, pack)
        words = count(docs, weight, unigrams, bigrams, cased)
        sources.append({"file": Path(path).name, "documents": len(docs), "words": words, "weight": weight,
                        "license": licenses.get(Path(path).name, "see ../shared/corpora/README.md")})
        print(f"read {path}: {len(docs)} documents, {words} words", file=sys.stderr)
    words, counts, contexts, spelled = build(unigrams, bigrams, cased, args.min_count, args.min_pair)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{args.name}.counts"
    write_counts(path, words, counts, contexts)
    groups = Counter(strip(w) for w in words if "'" in w)
    card = {
        "name": args.name, "kind": "apostrophes", "lang": pack.code, "file": path.name, "format": FORMAT,
        "total": sum(unigrams.values()),
        "params": {"smoothing": args.smoothing, "bias": args.bias},
        "cased": spelled,
        "counts": {"words": len(words), "groups": len(groups), "pairs": sum(len(v.split()) // 2 for v in contexts.values()),
                   "min_count": args.min_count, "min_pair": args.min_pair},
        "sources": sources,
        "command": "charrestore train apostrophes " + " ".join(shlex.quote(a) for a in sys.argv[3:])
        if sys.argv[1:3] == ["train", "apostrophes"] else " ".join(shlex.quote(a) for a in sys.argv),
    }
    write_card(out / f"{args.name}.json", card)
    print(f"wrote {path} ({path.stat().st_size / 1e6:.2f} MB, {len(groups)} groups, {len(words)} words)",
          file=sys.stderr)
    return path


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--lang", required=True)
    p.add_argument("--corpus", nargs="+", required=True, help="PATH or PATH@WEIGHT: text that keeps its apostrophes")
    p.add_argument("--out", required=True, help="the models folder of the language (models/<lang>)")
    p.add_argument("--name", default="apostrophes")
    p.add_argument("--license", nargs="*", default=[], metavar="FILE=LICENSE",
                   help="license of each corpus file, recorded in the card (e.g. ted_train.tsv='CC BY-NC-ND 4.0')")
    p.add_argument("--min-count", type=float, default=3, help="a form with an apostrophe seen fewer times is dropped")
    p.add_argument("--min-pair", type=float, default=2, help="a word pair seen fewer times is dropped")
    p.add_argument("--smoothing", type=float, default=1000.0, help="the decoder's smoothing (tuned on dev)")
    p.add_argument("--bias", type=float, default=0.0, help="log10 odds a form with an apostrophe must win by")

