"""Names from the training text: the forms it capitalizes away from sentence starts, for the token model's casing.

The token model reads SentencePiece pieces, so a rare name ("kolpakova") looks like any rare word and is left in
lower case. The training text knows better: a form written with a capital in nearly all of its occurrences that
do not start a sentence is a name, a month or a nationality. The card's ``proper`` list holds them, and
``TokenModel.decode`` makes such a word CAP where the model said O. ``scripts/build_proper.py`` counts the
corpora and tunes the two thresholds on dev talks.

>>> counts = ProperCounts()  # "We met Kolpakova. Then we left." (PERIOD is 2, CAP is 2)
>>> counts.add(["we", "met", "kolpakova", "then", "we", "left"], [0, 0, 2, 0, 0, 2], [2, 0, 2, 2, 0, 0], ends=[2])
>>> counts.lexicon(min_count=1, ratio=0.9)
['kolpakova']
"""

from __future__ import annotations

from collections import Counter
from typing import Sequence

import numpy as np

from ..labels import CASING_LABELS

CAP = CASING_LABELS.index("CAP")


class ProperCounts:
    """Per form: how often it follows a word that does not end a sentence (``seen``), and how often it is CAP
    there (``capital``). A document's first word starts a sentence and is not counted."""

    def __init__(self):
        self.seen: Counter = Counter()
        self.capital: Counter = Counter()

    def add(self, forms: Sequence[str], punct: Sequence[int], case: Sequence[int], ends: Sequence[int]) -> None:
        """One document's words with their punctuation and casing ids; ``ends``: the punctuation ids that end
        a sentence."""
        punct, case = np.asarray(punct), np.asarray(case)
        inside = np.flatnonzero(~np.isin(punct[:-1], list(ends))) + 1
        self.seen.update(forms[k] for k in inside.tolist())
        self.capital.update(forms[k] for k in inside[case[inside] == CAP].tolist())

    def lexicon(self, min_count: int, ratio: float) -> list[str]:
        """The forms capitalized at least ``min_count`` times and in at least ``ratio`` of their counted
        occurrences, sorted."""
        return sorted(f for f, c in self.capital.items() if c >= min_count and c >= ratio * self.seen[f])
