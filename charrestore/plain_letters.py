"""Text typed without its letters' diacritics: "chucmungnammoi" for "chúcmừngnămmới".

Vietnamese is often typed without its tone marks (hashtags, chat, old keyboards), and Spanish, French and German
chat often without accents ("que haces manana"). The NB segmenter's counts hold the marked words, so a run of plain
letters read as unknown words ("#chucmungnammoi" was "chu cm ung nam moi"). A pack whose ``plain_typing`` is true
reads a text whose letters carry no mark with its counts made plain (``Segmenter.plain_for``; ``made_plain``, derived
when such a text first comes, so no file ships): words that differ only in their marks become one word, their
counts summed. Any other text reads the counts as they are.

>>> plain("Chúc mừng năm mới, Đà Nẵng"), is_plain("chuc mung nam moi 😀"), is_plain("chúc")
('Chuc mung nam moi, Da Nang', True, False)
"""

from __future__ import annotations

import math
import unicodedata
from collections import Counter
from collections.abc import Mapping

import numpy as np
import regex

_STROKES = "đĐøØłŁ"  # letters with a stroke: no combining mark to take off
_UNDECOMPOSED = str.maketrans(_STROKES, "dDoOlL")
_MARKED = regex.compile(rf"(?<=\p{{L}})\p{{Mn}}|[{_STROKES}]")  # in NFD: a letter's mark (not an emoji's selector)


def plain(text: str) -> str:
    """``text`` (NFC) without the combining marks of its letters."""
    decomposed = unicodedata.normalize("NFD", text).translate(_UNDECOMPOSED)
    return unicodedata.normalize("NFC", regex.sub(r"(?<=\p{L}\p{Mn}*)\p{Mn}", "", decomposed))


def is_plain(text: str) -> bool:
    """Whether no letter of ``text`` carries a mark that ``plain`` takes off."""
    return _MARKED.search(unicodedata.normalize("NFD", text)) is None


def keyboard_plain(text: str, keyboard: str) -> str:
    """``text`` with the marked letters that the language's keyboards type directly (a pack's ``keyboard_letters``, es
    "ñ") made plain, one for one: a text typed without accents still holds them.

    >>> keyboard_plain("Año y mañana, qué", "ñ")
    'Ano y manana, qué'
    """
    return text.translate({ord(c): plain(c) for c in keyboard + keyboard.upper()}) if keyboard else text


def plain_table(words: list[str]) -> dict[int, str]:
    """``str.translate``'s table that makes the NFC ``words`` plain, one letter for one: as ``plain`` (but for a
    mark after a sign that is no letter, in the words of other scripts), and far faster over a vocabulary."""
    table = {ord(c): "" if unicodedata.category(c) == "Mn" else plain(c) for c in set("".join(words))}
    return {k: v for k, v in table.items() if v != chr(k)}


def made_pairs(words: list[str], table: dict[int, str]):
    """(word, its plain form) for each of ``words`` that has another; one ``translate`` for all."""
    return [(w, f) for w, f in zip(words, _translated("\n".join(words), table).split("\n")) if f != w]


def _translated(text: str, table: dict[int, str]) -> str:
    """``text.translate(table)`` for a ``plain_table``, through numpy: five times faster over the hundreds of
    thousands of letters of a vocabulary (the start-up of a text typed plain)."""
    if any(len(v) > 1 for v in table.values()):
        return text.translate(table)
    made = _made_codes(np.frombuffer(text.encode("utf-32-le"), np.uint32), table)
    return made.tobytes().decode("utf-32-le").replace("\0", "")


def _made_codes(codes: np.ndarray, table: dict[int, str]) -> np.ndarray:
    """UTF-32 ``codes`` through a table of one letter for one or none (a mark taken off alone: code 0)."""
    lookup = np.arange(max(table, default=0) + 1, dtype=np.uint32)
    lookup[list(table)] = [ord(v) if v else 0 for v in table.values()]
    inside = codes < len(lookup)
    made = codes.copy()
    made[inside] = lookup[codes[inside]]
    return made


def marked_by_plain(words: list[str]) -> dict[str, list[str]]:
    """The ``words`` that a plain form stands for, by that form, in their order (``Segmenter.marked_by_plain``).

    >>> marked_by_plain(["má", "mà", "ơi", "ok"])
    {'ma': ['má', 'mà'], 'oi': ['ơi']}
    """
    marked, out = [w for w in words if not w.isascii()], {}
    for word, form in zip(marked, _translated("\n".join(marked), plain_table(marked)).split("\n")):
        if form != word:
            group = out.get(form)
            if group is None:
                out[form] = [word]
            else:
                group.append(word)
    return out


class PlainContexts:
    """A segmenter's raw pairs (context word -> "word count ..."), made plain as the decoder meets each context
    word: the pairs of every word that becomes it, their counts summed. ``items`` (the C decoder's tables) makes
    them all."""

    def __init__(self, raw: dict[str, str], table: dict[int, str], marked: list[str]):
        self._raw, self._table, self._merged = raw, table, {}
        self._moved: dict[str, list[str]] = {}  # plain form -> the marked context words that become it
        for key, form in made_pairs(marked, table):
            self._moved.setdefault(form, []).append(key)
        self._gone = {key for keys in self._moved.values() for key in keys}

    def _keys(self, prev: str) -> list[str]:
        return ([prev] if prev in self._raw and prev not in self._gone else []) + self._moved.get(prev, [])

    def get(self, prev: str, default=None):
        made = self._merged.get(prev)
        if made is None and (keys := self._keys(prev)):
            if len(keys) == 1 and self._raw[keys[0]].isascii():
                made = self._raw[keys[0]]
            else:
                merged: Counter = Counter()
                for key in keys:
                    items = self._raw[key].translate(self._table).split(" ")
                    for word, count in zip(items[0::2], items[1::2]):
                        merged[word] += float(count)
                made = " ".join(f"{w} {c!r}" for w, c in merged.items())
            self._merged[prev] = made
        return default if made is None else made

    def items(self):
        kept = (prev for prev in self._raw if prev not in self._gone)
        return ((prev, self.get(prev)) for prev in [*kept, *(form for form in self._moved if form not in self._raw)])


class PlainUnigrams(Mapping):
    """log10 P per word of the counts made plain, each worked out when first asked for: a short text looks up a few
    hundred words, where making all 300,000 took 0.05 s of its start-up. Iterating (the C decoder's tables, for a
    long text) makes them all, in the order and with the values of making them in one pass."""

    def __init__(self, uni: dict[str, float], marked: dict[str, list[str]], table: dict[int, str]):
        self._uni, self._marked, self._table, self._known, self._all = uni, marked, table, {}, None

    def get(self, word: str, default=None):
        if self._all is not None:
            return self._all.get(word, default)
        logp = self._known.get(word, self)
        if logp is self:
            logp = self._known[word] = self._summed(word)
        return default if logp is None else logp

    def _summed(self, word: str) -> float | None:
        """log10 of the P of ``word`` (none where it is a marked word: its count went to its plain form) and of the
        marked words that become it, added in the counts' order."""
        logp = self._uni.get(word)
        if logp is not None and not word.isascii() and word.translate(self._table) != word:
            logp = None
        for marked in self._marked.get(word, ()):
            p = self._uni[marked]
            logp = p if logp is None else math.log10(10.0 ** logp + 10.0 ** p)
        return logp

    def __getitem__(self, word: str) -> float:
        if (logp := self.get(word)) is None:
            raise KeyError(word)
        return logp

    def __contains__(self, word) -> bool:
        return self.get(word) is not None

    def holding(self, char: str) -> list[str]:
        """The words that hold ``char`` (the apostrophe words of a text that holds one), as iterating would give
        them but not in its order, without making the others."""
        if self._all is not None:
            return [w for w in self._all if char in w]
        table = self._table
        return list(dict.fromkeys(w if w.isascii() else w.translate(table) for w in self._uni if char in w))

    def _made(self) -> dict[str, float]:
        if self._all is None:
            out = dict(self._uni.items())
            for form, group in self._marked.items():
                for word in group:
                    del out[word]
                out[form] = self._summed(form)
            self._all = out
        return self._all

    def __iter__(self):
        return iter(self._made())

    def __len__(self) -> int:
        return len(self._made())


def made_plain(uni: dict[str, float], contexts: dict[str, str], reach: dict[str, int],
               marked: dict[str, list[str]] | None = None):
    """A segmenter's counts made plain: log10 P per word (the P of the words that become one summed:
    ``PlainUnigrams``), the raw pairs (``PlainContexts``) and the ``reach`` table (last three letters -> longest word
    ending in them). ``marked``: ``marked_by_plain`` of ``uni``'s words, where it is at hand.

    >>> uni, pairs, reach = made_plain({"má": -1.0, "ma": -1.0, "ơi": -2.0}, {"má": "ơi 2", "mà": "ơi 1"}, {})
    >>> round(uni["ma"], 3), uni.get("má"), {w: round(p, 3) for w, p in uni.items()}, pairs.get("ma"), pairs.get("má")
    (-0.699, None, {'ma': -0.699, 'oi': -2.0}, 'oi 3.0', None)
    """
    if marked is None:
        marked = marked_by_plain(list(uni))
    keys = [k for k in contexts if not k.isascii()]
    table = plain_table(keys + [word for group in marked.values() for word in group])
    made_reach = dict(reach)
    for key, form in made_pairs(list(reach), table):
        length = made_reach.pop(key)
        made_reach[form] = max(made_reach.get(form, 2), length)
    return PlainUnigrams(uni, marked, table), PlainContexts(contexts, table, keys), made_reach
