"""How much of the token model's casing error comes from its punctuation: casing overall F1 on ted_dev talks
with the model's own punctuation vs with the gold punctuation driving the consistency rule.

Labels are compared directly (words are given, so they align one to one); MIX is scored as predicted
(the rendering would fall back to CAP for a form missing from the lexicon). Uses the shipped model and
the window and offsets in its card.

    python scripts/token_casing_oracle.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from charrestore import Restorer, load_pack  # noqa: E402
from charrestore.metrics import _labelled_words, punct_label  # noqa: E402
from eval_token import CORPORA, ted_talks  # noqa: E402


def main():
    pack = load_pack("en")
    model = Restorer(lang="en", engine="pipeline", spaces="keep", threads=1).engine.model
    labels = list(model.punct_labels)
    punct_of_class = np.array([labels.index(punct_label(c, pack)) for c in range(pack.n_classes)], np.int64)
    counts = {"model punctuation": [0, 0, 0], "gold punctuation": [0, 0, 0]}
    for ref in ted_talks(CORPORA / "ted_dev.tsv", pack):
        forms, gold_p, gold_c = _labelled_words(ref, pack, True, punct_of_class)
        if not forms:
            continue
        lp, lc = model.logits(forms)
        for name, gold in (("model punctuation", None), ("gold punctuation", gold_p)):
            case = model.decode(lp, lc, punct=gold)[1]
            c = counts[name]
            c[0] += int(((case == gold_c) & (gold_c > 0)).sum())
            c[1] += int(((case != gold_c) & (case > 0)).sum())
            c[2] += int(((case != gold_c) & (gold_c > 0)).sum())
    for name, (tp, fp, fn) in counts.items():
        print(f"ted_dev talks, casing overall F1 with {name}: {100 * 2 * tp / (2 * tp + fp + fn):.2f}")


if __name__ == "__main__":
    main()
