"""A word -> value table over sorted words, looked up by bisection: the NB segmenter's counts (``counts.py`` format 2)
come sorted, and a process that restores one short line then reads 300,000 words without building a dict of them,
which took 0.08 s of its start-up. A lookup costs a bisection (about 0.4 µs), where a short text makes a few hundred.

>>> table = SortedWords(["a", "cat", "the"], [-1.0, -2.0, -0.5])
>>> table.get("cat"), table.get("dog"), "the" in table, table.setdefault("dog", -3.0), len(table)
(-2.0, None, True, -3.0, 4)
>>> list(table.items())
[('a', -1.0), ('cat', -2.0), ('the', -0.5), ('dog', -3.0)]
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import MutableMapping
from itertools import chain


class SortedWords(MutableMapping):
    """``words`` (sorted by code point, no word twice) with their ``values``; a word added later (a pack's spellings,
    an elided clitic) goes to a small dict beside them. Iteration yields the sorted words, then the added ones."""

    def __init__(self, words: list[str], values: list):
        if len(words) != len(values):
            raise ValueError("as many values as words")
        self._words, self._values, self._added = words, values, {}

    def get(self, word, default=None):
        words = self._words
        k = bisect_left(words, word)
        if k < len(words) and words[k] == word:
            return self._values[k]
        return self._added.get(word, default)

    def __getitem__(self, word):
        value = self.get(word, self)
        if value is self:
            raise KeyError(word)
        return value

    def __contains__(self, word) -> bool:
        return isinstance(word, str) and self.get(word, self) is not self

    def _at(self, word: str) -> int:
        """The index of ``word`` among the sorted words, or -1 (``get`` inlines it: it is the hot path)."""
        k = bisect_left(self._words, word)
        return k if k < len(self._words) and self._words[k] == word else -1

    def __setitem__(self, word: str, value) -> None:
        if (k := self._at(word)) >= 0:
            self._values[k] = value
        else:
            self._added[word] = value

    def __delitem__(self, word: str) -> None:
        if (k := self._at(word)) >= 0:
            del self._words[k], self._values[k]
        else:
            del self._added[word]

    def __iter__(self):
        return chain(self._words, self._added)

    def __len__(self) -> int:
        return len(self._words) + len(self._added)

    def values(self):
        """The values in the order of iteration, without a lookup per word."""
        return chain(self._values, self._added.values())

    def items(self):
        """(word, value) in the order of iteration, without a lookup per word."""
        return chain(zip(self._words, self._values), self._added.items())
