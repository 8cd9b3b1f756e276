"""How much of the token model's casing error comes from its punctuation: casing overall F1 on ted_dev talks
with the model's own punctuation vs with the gold punctuation driving the consistency rule. Then one rule that
readers ask for, measured on ted_dev talks and Brown's dev documents: a capital after a comma ("OMG, This is
great") lowered, unless the word is in the names list or is "I", where the casing head's CAP-over-O margin is
below τ.

Labels are compared directly (words are given, so they align one to one); MIX is scored as predicted
(the rendering would fall back to CAP for a form missing from the lexicon). Uses the shipped model and
the window and offsets in its card.

    python scripts/token_casing_oracle.py
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from charrestore import Restorer, load_pack
from charrestore.tuning.dev import load_talks
from charrestore.tuning.token import labelled_talks, micro_f1

CORPORA = Path(__file__).resolve().parent.parent.parent / "shared" / "corpora" / "en"
MARGINS = (None, 1.0, 3.0, 6.0, np.inf)  # τ; None: the rule off


def lowered_after_comma(model, forms, lp, lc, named, tau):
    """The runtime's casing labels, with the rule applied at margin ``tau``, and how many words it lowered."""
    punct, case = model.decode(lp, lc, named=named)
    if tau is None:
        return case, 0
    margin = lc[:, model.CAP] + model.bias_case[model.CAP] - lc[:, model.O] - model.bias_case[model.O]
    after = np.concatenate([[False], punct[:-1] == model.punct_labels.index("COMMA")])
    hit = after & (case == model.CAP) & (margin < tau) & ~np.array([f == "i" or f.startswith("i'") for f in forms])
    if named is not None:
        hit &= ~named
    return np.where(hit, model.O, case), int(hit.sum())


def main():
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    pack = load_pack("en")
    model = Restorer(lang="en", engine="pipeline", spaces="keep", threads=1).engine.model
    preds = {"model punctuation": [], "gold punctuation": []}
    talks = labelled_talks(model, pack, load_talks([CORPORA / "ted_dev.tsv"], pack))
    logits = [model.logits(forms) for forms, _, _ in talks]
    for (forms, gold_p, _), (lp, lc) in zip(talks, logits):
        preds["model punctuation"].append(model.decode(lp, lc, named=model.named(forms))[1])
        preds["gold punctuation"].append(model.decode(lp, lc, punct=gold_p, named=model.named(forms))[1])
    for name, case in preds.items():
        print(f"ted_dev talks, casing overall F1 with {name}: {100 * micro_f1(case, [t[2] for t in talks]):.2f}")
    brown = labelled_talks(model, pack, load_talks([CORPORA / "brown_train_docs.tsv"], pack, 5))
    for name, docs, docs_logits in (("ted_dev talks", talks, logits),
                                    ("brown dev", brown, [model.logits(f) for f, _, _ in brown])):
        for tau in MARGINS:
            out = [lowered_after_comma(model, f, lp, lc, model.named(f), tau)
                   for (f, _, _), (lp, lc) in zip(docs, docs_logits)]
            f1 = 100 * micro_f1([case for case, _ in out], [t[2] for t in docs])
            print(f"{name}, capitals after a comma lowered below margin {tau}: {sum(n for _, n in out)} words, "
                  f"casing overall F1 {f1:.2f}")


if __name__ == "__main__":
    main()
