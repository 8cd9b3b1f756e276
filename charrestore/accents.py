"""The likely accents of words typed without them, for the char model to read: "que haces" as "qué haces".

The char models read text with its diacritics only. Typed plain, Spanish "que" reads as the relative word, not as
"qué", and most questions are lost (es dev documents without accents: `¿` F1 0.279, with them 0.636). The NB
counts know which marked word a plain word most likely is in its context: a Viterbi over each word's forms, by
log10 P(word | previous word), picks them, and the char model reads those letters. What is printed keeps the
letters as typed; only what the model reads changes (``CharEngine.classes``).

>>> from charrestore.segmenter import Segmenter
>>> seg = Segmenter({"qué": 30, "que": 90, "haces": 20, "dijo": 20}, {"qué haces": 15, "que dijo": 40}, L=8)
>>> Accents(seg).forms(["que", "haces", "que", "dijo"])
['qué', 'haces', 'que', 'dijo']
>>> Accents(Segmenter({"où": 30, "ou": 90, "est": 10}, {"où est": 20}, L=8)).forms(["ou", "est", "ou"])
['où', 'est', 'ou']
"""

from __future__ import annotations

import regex

from .viterbi import START

MOST = 4  # the marked forms of a plain word weighed, the most frequent first
WORD = regex.compile(r"\p{L}+(?:['’]\p{L}+)*")


class Accents:
    """A segmenter's marked words by their plain form, and the Viterbi that picks one form per plain word."""

    def __init__(self, segmenter):
        self.seg = segmenter
        self._marked = segmenter.marked_by_plain()  # plain form -> its marked words, ranked when first asked for
        self._forms: dict[str, list[str]] = {}

    def _ranked(self, form: str) -> list[str]:
        """``form`` itself where the counts know it, then its ``MOST`` most frequent marked words."""
        found = self._forms.get(form)
        if found is None:
            uni, words = self.seg._uni, self._marked.get(form, ())
            found = self._forms[form] = ([form] if form in uni and words else []) + sorted(
                words, key=uni.__getitem__, reverse=True)[:MOST]
        return found

    def candidates(self, word: str) -> list[str]:
        """The forms ``word`` (plain, lower case) may stand for: itself and its marked words. A word the counts
        lack after an elided clitic ("l'ecole") takes the marked forms of the rest ("l'école")."""
        found = self._ranked(word)
        if not found and "'" in word and word not in self.seg._uni:
            head, _, rest = word.rpartition("'")
            found = [f"{head}'{f}" for f in self._ranked(rest)]
        return found or [word]

    def forms(self, words: list[str]) -> list[str]:
        """The most likely form of each plain lower-case word of ``words`` (running text, in order)."""
        score = self.seg.score
        best, back = {START: 0.0}, []
        for word in words:
            step = {}
            for option in self.candidates(word):  # the first best previous form (as the page's port)
                prev = max(best, key=lambda p: best[p] + score(option, p))
                step[option] = (best[prev] + score(option, prev), prev)
            back.append({o: prev for o, (_, prev) in step.items()})
            best = {o: s for o, (s, _) in step.items()}
        if not words:
            return []
        chosen = [max(best, key=best.__getitem__)]
        for links in reversed(back[1:]):
            chosen.append(links[chosen[-1]])
        return chosen[::-1]
