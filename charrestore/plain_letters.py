"""Text typed without its letters' diacritics: "chucmungnammoi" for "chúcmừngnămmới".

Vietnamese is often typed without its tone marks (hashtags, chat, old keyboards). The NB segmenter's counts hold
the marked words, so a run of plain letters read as unknown words ("#chucmungnammoi" was "chu cm ung nam moi"). A
pack may ship its counts once more with every word's marks taken off (``nb_plain`` in its ``[models]``, built by
``scripts/build_plain_counts.py``): words that differ only in their marks become one word, their counts summed. The
segmenter reads a text whose letters carry no mark with those counts (``Segmenter.cuts``), and any other text with
its own.

>>> plain("Chúc mừng năm mới, Đà Nẵng"), is_plain("chuc mung nam moi 😀"), is_plain("chúc")
('Chuc mung nam moi, Da Nang', True, False)
>>> words, counts, contexts = plain_counts(["má", "ma", "mà", "ơi"], [5.0, 3.0, 1.0, 2.0], {"má": "ơi 2", "mà": "ơi 1"})
>>> words, counts, contexts
(['ma', 'oi'], [9.0, 2.0], {'ma': 'oi 3.0'})
"""

from __future__ import annotations

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


def plain_counts(words: list[str], counts, contexts: dict[str, str]) -> tuple[list[str], list[float], dict[str, str]]:
    """NB counts (``counts.read``'s parts) with every word made plain: the counts of the words and of the pairs that
    become one summed, the words most frequent first."""
    uni: Counter = Counter()
    for word, count in zip(words, counts):
        uni[plain(word)] += float(count)
    pairs: dict[str, Counter] = {}
    for prev, raw in contexts.items():
        table = pairs.setdefault(plain(prev), Counter())
        items = raw.split(" ")
        for word, count in zip(items[0::2], items[1::2]):
            table[plain(word)] += float(count)
    ranked = sorted(uni.items(), key=lambda item: (-item[1], item[0]))
    return ([w for w, _ in ranked], [c for _, c in ranked],
            {prev: " ".join(f"{w} {c!r}" for w, c in sorted(table.items(), key=lambda item: (-item[1], item[0])))
             for prev, table in pairs.items() if table})
