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

Two more lists come from the same counts. ``mixed``: forms written in one mixed-case spelling in nearly all of
their counted occurrences ("youtube": "YouTube"), which the model's CAP would spell "Youtube". ``pairs``: a form
capitalized after one word though not alone ("macbook pro": "MacBook Pro", "white house" where the text agrees).

>>> counts.add(["i", "use", "youtube", "pro"], [0, 0, 0, 2], [1, 0, 3, 2], ends=[2],
...            surfaces={2: "YouTube"})  # "I use YouTube Pro."
>>> counts.add(["a", "pro"], [0, 2], [2, 0], ends=[2])  # "A pro."
>>> counts.mixed_lexicon(min_count=1, ratio=0.9), counts.pair_lexicon(min_count=1, ratio=0.9)
({'youtube': 'YouTube'}, ['youtube pro'])
"""

from __future__ import annotations

from collections import Counter
from typing import Mapping, Sequence

import numpy as np

from ..labels import CASING_LABELS

CAP, MIX = CASING_LABELS.index("CAP"), CASING_LABELS.index("MIX")


class ProperCounts:
    """Per form: how often it follows a word that does not end a sentence (``seen``), and how often it is CAP
    there (``capital``); the mixed-case spellings there (``spelled``); the same two counts per pair of words
    ("previous form", keyed "previous form"). A document's first word starts a sentence and is not counted."""

    def __init__(self):
        self.seen: Counter = Counter()
        self.capital: Counter = Counter()
        self.spelled: Counter = Counter()  # (form, surface) of the MIX words
        self.pair_seen: Counter = Counter()
        self.pair_capital: Counter = Counter()

    def add(self, forms: Sequence[str], punct: Sequence[int], case: Sequence[int], ends: Sequence[int],
            surfaces: Mapping[int, str] | None = None) -> None:
        """One document's words with their punctuation and casing ids; ``ends``: the punctuation ids that end
        a sentence; ``surfaces``: the written form of each MIX word, by index."""
        punct, case = np.asarray(punct), np.asarray(case)
        inside = np.flatnonzero(~np.isin(punct[:-1], list(ends))) + 1
        capital = inside[case[inside] == CAP].tolist()
        self.seen.update(forms[k] for k in inside.tolist())
        self.capital.update(forms[k] for k in capital)
        self.pair_seen.update(f"{forms[k - 1]} {forms[k]}" for k in inside.tolist())
        self.pair_capital.update(f"{forms[k - 1]} {forms[k]}" for k in capital)
        if surfaces:
            self.spelled.update((forms[k], surfaces[k]) for k in inside[case[inside] == MIX].tolist())

    def lexicon(self, min_count: int, ratio: float) -> list[str]:
        """The forms capitalized at least ``min_count`` times and in at least ``ratio`` of their counted
        occurrences, sorted."""
        return sorted(f for f, c in self.capital.items() if c >= min_count and c >= ratio * self.seen[f])

    def mixed_lexicon(self, min_count: int, ratio: float) -> dict[str, str]:
        """Form -> its commonest mixed-case spelling, where that spelling has at least ``min_count`` and at least
        ``ratio`` of the form's counted occurrences."""
        best: dict[str, tuple[int, str]] = {}
        for (form, surface), n in self.spelled.items():
            if (n, surface) > best.get(form, (0, "")):
                best[form] = (n, surface)
        return {f: s for f, (n, s) in sorted(best.items()) if n >= min_count and n >= ratio * self.seen[f]}

    def pair_lexicon(self, min_count: int, ratio: float) -> list[str]:
        """The pairs "previous form" whose second word is capitalized at least ``min_count`` times and in at least
        ``ratio`` of the pair's occurrences, though the form alone is not (it is not in ``lexicon``), sorted."""
        alone = set(self.lexicon(min_count, ratio))
        return sorted(p for p, c in self.pair_capital.items()
                      if c >= min_count and c >= ratio * self.pair_seen[p] and p.split(" ", 1)[1] not in alone)
