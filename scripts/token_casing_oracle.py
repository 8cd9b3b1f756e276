"""How much of the token model's casing error comes from its punctuation: casing overall F1 on ted_dev talks
with the model's own punctuation vs with the gold punctuation driving the consistency rule.

Labels are compared directly (words are given, so they align one to one); MIX is scored as predicted
(the rendering would fall back to CAP for a form missing from the lexicon). Uses the shipped model and
the window and offsets in its card.

    python scripts/token_casing_oracle.py
"""

from __future__ import annotations

import argparse
from pathlib import Path

from charrestore import Restorer, load_pack
from charrestore.tuning.dev import load_talks
from charrestore.tuning.token import labelled_talks, micro_f1

CORPORA = Path(__file__).resolve().parent.parent.parent / "shared" / "corpora" / "en"


def main():
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    pack = load_pack("en")
    model = Restorer(lang="en", engine="pipeline", spaces="keep", threads=1).engine.model
    preds = {"model punctuation": [], "gold punctuation": []}
    talks = labelled_talks(model, pack, load_talks([CORPORA / "ted_dev.tsv"], pack))
    for forms, gold_p, _ in talks:
        lp, lc = model.logits(forms)
        preds["model punctuation"].append(model.decode(lp, lc)[1])
        preds["gold punctuation"].append(model.decode(lp, lc, punct=gold_p)[1])
    for name, case in preds.items():
        print(f"ted_dev talks, casing overall F1 with {name}: {100 * micro_f1(case, [t[2] for t in talks]):.2f}")


if __name__ == "__main__":
    main()
