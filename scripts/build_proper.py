"""Count the names of the training corpora, tune the lexicon's thresholds on dev talks, write it into the token card.

A form enters the card's ``proper`` list when the corpora capitalize it at least MIN times and in at least RATIO of
its occurrences that do not start a sentence (``charrestore.training.proper``). Every (RATIO, MIN) of the grid is
scored by casing overall F1 on the dev talks, words given, with the card's offsets and windows; the best wins
(on a tie, the shorter list), against no list at all. The corpora are read as the token training reads them
(Brown's dev documents stay out).

    python scripts/build_proper.py --lang en --write-card
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path

from charrestore import load_pack
from charrestore.engines.base import EngineOptions
from charrestore.engines.pipeline import PipelineEngine
from charrestore.labels import PUNCT_ORDER, labelled_words
from charrestore.training.corpus import read_documents
from charrestore.training.proper import ProperCounts
from charrestore.tuning.dev import load_talks
from charrestore.tuning.record import card_path, update_card
from charrestore.tuning.token import labelled_talks, micro_f1

ROOT = Path(__file__).resolve().parent.parent
C = ROOT.parent / "shared" / "corpora"
CORPORA = {"en": [C / "en" / name for name in (
    "ted_train.tsv", "public_domain/gutenberg_books.tsv", "public_domain/state_of_the_union_1945_2006.tsv",
    "public_domain/inaugural_addresses_1789_2021.tsv", "brown_train_docs.tsv", "ted_extra.tsv",
    "scotus_oral_arguments.tsv", "earnings_calls.tsv", "ami_meetings.tsv")]}
DEV = {"en": [C / "en" / "ted_dev.tsv"]}


def count(paths, pack, ends) -> ProperCounts:
    counts = ProperCounts()
    for path in paths:
        t, docs = time.time(), read_documents(path, pack)
        for doc in docs:
            forms, punct, case = labelled_words(doc, pack)
            if forms:
                counts.add(forms, punct, case, ends)
        print(f"counted {Path(path).name}: {len(docs)} docs in {time.time() - t:.0f} s", flush=True)
    return counts


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lang", default="en")
    p.add_argument("--corpus", nargs="+", help="training corpora (default: the token model's, for en)")
    p.add_argument("--dev", nargs="+", help="dev talks to tune on (default: ted_dev, for en)")
    p.add_argument("--models-dir", help="models root holding <lang>/token.* (default: the shipped models/)")
    p.add_argument("--ratios", type=float, nargs="+", default=[0.8, 0.9, 0.95, 0.97, 0.99])
    p.add_argument("--min-counts", type=int, nargs="+", default=[1, 2, 3, 5, 10, 20])
    p.add_argument("--write-card", action="store_true", help="write the chosen list and the grid into the card")
    args = p.parse_args()
    pack = load_pack(args.lang)
    engine = PipelineEngine.load(pack, Path(args.models_dir) if args.models_dir else None, EngineOptions(1, 64))
    model = engine.model
    ends = [PUNCT_ORDER.index(lab) for lab, end in zip(model.punct_labels, model.sentence_ends) if end]
    corpora, dev = args.corpus or CORPORA[args.lang], args.dev or DEV[args.lang]
    counts = count(corpora, pack, ends)
    talks = labelled_talks(model, pack, load_talks(dev, pack))
    logits = [model.logits(forms) for forms, _, _ in talks]
    gold = [case for _, _, case in talks]

    def casing_f1(lexicon: frozenset) -> float:
        preds = [model.decode(lp, lc, named=model.named(forms, lexicon))[1]
                 for (lp, lc), (forms, _, _) in zip(logits, talks)]
        return micro_f1(preds, gold)

    grid = [{"ratio": None, "min_count": None, "forms": 0, "casing_f1": casing_f1(frozenset())}]
    for ratio in args.ratios:
        for min_count in args.min_counts:
            lexicon = counts.lexicon(min_count, ratio)
            grid.append({"ratio": ratio, "min_count": min_count, "forms": len(lexicon),
                         "casing_f1": casing_f1(frozenset(lexicon))})
            print(json.dumps(grid[-1]), flush=True)
    best = max(grid, key=lambda row: (round(row["casing_f1"], 6), -row["forms"]))
    print(f"no list: casing F1 {grid[0]['casing_f1']:.4f}; chosen: {json.dumps(best)}")
    if args.write_card and best["forms"]:
        lexicon = counts.lexicon(best["min_count"], best["ratio"])
        command = "python " + " ".join(shlex.quote(a) for a in sys.argv)
        update_card(card_path(args.lang, pack.models["token"], args.models_dir), {"proper": lexicon, "proper_tuning": {
            "command": command, "corpora": [Path(c).name for c in corpora], "dev": [Path(d).name for d in dev],
            "objective": "casing overall F1 on the dev talks, words given", "chosen": best, "grid": grid}})
        print(f"wrote {len(lexicon)} forms into the {args.lang} token card")


if __name__ == "__main__":
    main()
