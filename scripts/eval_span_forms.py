"""What the token model's punctuation loses when it reads a protected span (a mention, a URL) as the subword pieces
of its symbols, against the word a speaker would say for it (``spans.spoken``, what the pipeline feeds it).

ted_dev has no social text, so the spans are made: every name inside a sentence (a word the reference capitalizes
that starts no sentence and is not "I") becomes "@name" or "https://namecom/" (a URL's base form: the pack's marks
taken off). Words are given; punctuation overall F1 of ted_dev talks (IWSLT convention), with the shipped model and
its card's settings. Spoken forms give these words back as the names they were, so that row is the clean text's.

    python scripts/eval_span_forms.py
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from charrestore import Restorer, load_pack
from charrestore.spans import spoken
from charrestore.tuning.dev import load_talks
from charrestore.tuning.token import labelled_talks, micro_f1

CORPORA = Path(__file__).resolve().parent.parent.parent / "shared" / "corpora" / "en"
MADE = {"mention": lambda w: "@" + w, "url": lambda w: f"https://{w}com/"}


def main():
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    pack = load_pack("en")
    model = Restorer(lang="en", engine="pipeline", spaces="keep", threads=1).engine.model
    talks = labelled_talks(model, pack, load_talks([CORPORA / "ted_dev.tsv"], pack))
    ends = np.flatnonzero(model.sentence_ends)
    names = []
    for forms, gold_p, gold_c in talks:
        start = np.concatenate([[True], np.isin(gold_p[:-1], ends)])
        names.append((gold_c == model.CAP) & ~start & np.array([f.isalpha() and f != "i" for f in forms]))
    print(f"ted_dev talks: {sum(len(t[0]) for t in talks):,} words, {sum(int(n.sum()) for n in names):,} names "
          "inside a sentence made into spans")
    gold = [p for _, p, _ in talks]
    for kind, make in MADE.items():
        for reading in ("pieces", "spoken"):
            preds = []
            for (forms, _, _), name in zip(talks, names):
                made = [make(f) if n else f for f, n in zip(forms, name)]
                if reading == "spoken":
                    made = [spoken(kind, f) if n else f for f, n in zip(made, name)]
                preds.append(model.labels(made)[0])
            print(f"{kind}s read as {reading}: punctuation overall F1 {100 * micro_f1(preds, gold):.2f}", flush=True)


if __name__ == "__main__":
    main()
