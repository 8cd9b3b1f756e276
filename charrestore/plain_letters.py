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
    return [(w, f) for w, f in zip(words, "\n".join(words).translate(table).split("\n")) if f != w]


class PlainContexts:
    """A segmenter's raw pairs (context word -> "word count ..."), made plain as the decoder meets each context
    word: the pairs of every word that becomes it, their counts summed. ``items`` (the C decoder's tables) makes
    them all."""

    def __init__(self, raw: dict[str, str], table: dict[int, str], marked: list[str]):
        self._raw, self._table, self._merged = raw, table, {}
        self._variants = {key: [key] for key in raw}
        for key, form in made_pairs(marked, table):
            self._variants.setdefault(form, []).append(key)
            self._variants[key].remove(key)

    def get(self, prev: str, default=None):
        made = self._merged.get(prev)
        if made is None and (keys := self._variants.get(prev)):
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
        return ((prev, self.get(prev)) for prev, keys in self._variants.items() if keys)


def made_plain(uni: dict[str, float], contexts: dict[str, str], reach: dict[str, int]):
    """A segmenter's counts made plain: log10 P per word (the P of the words that become one summed), the raw pairs
    (``PlainContexts``) and the ``reach`` table (last three letters -> longest word ending in them).

    >>> uni, pairs, reach = made_plain({"má": -1.0, "ma": -1.0, "ơi": -2.0}, {"má": "ơi 2", "mà": "ơi 1"}, {})
    >>> {w: round(p, 3) for w, p in uni.items()}, pairs.get("ma"), pairs.get("má")
    ({'ma': -0.699, 'oi': -2.0}, 'oi 3.0', None)
    """
    words, keys = [w for w in uni if not w.isascii()], [k for k in contexts if not k.isascii()]
    table = plain_table(words + keys)
    out = dict(uni)
    for word, form in made_pairs(words, table):
        logp, had = out.pop(word), out.get(form)
        out[form] = logp if had is None else math.log10(10.0 ** had + 10.0 ** logp)
    made_reach = dict(reach)
    for key, form in made_pairs(list(reach), table):
        length = made_reach.pop(key)
        made_reach[form] = max(made_reach.get(form, 2), length)
    return out, PlainContexts(contexts, table, keys), made_reach
