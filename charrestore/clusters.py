"""Grapheme clusters and their case: the few rules every codec path shares (the exact and the fast one).

Kept apart from codec.py so that codec_fast.py can use them without importing codec.py, which imports it.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

import regex

_GRAPHEME = regex.compile(r"\X")


def graphemes(text: str) -> list[str]:
    """Extended grapheme clusters (UAX #29): the unit every model sees."""
    return _GRAPHEME.findall(text)


def _recase(g: str, upper: bool) -> str:
    """``g`` with only its first code point (in NFD: the base letter) case-mapped, its combining marks as they are.
    Casing the whole cluster would map U+0345 to a letter (Ι), and a cluster that a rendering fuses from a
    capital and a lone U+0345 would then never read back as that capital."""
    d = unicodedata.normalize("NFD", g)
    head = d[:1].upper() if upper else d[:1].lower()
    return unicodedata.normalize("NFC", head + d[1:])


@lru_cache(maxsize=65536)
def upper_of(g: str) -> str | None:
    """The upper-case form of a lower-case grapheme, if the round trip is exact."""
    up = _recase(g, True)
    if up == g or len(graphemes(up)) != 1 or _recase(up, False) != g:
        return None
    return up


@lru_cache(maxsize=65536)
def case_split(g: str) -> tuple[str, bool]:
    """(lower-case base, was upper case). Graphemes whose case does not round-trip
    exactly (ß, ǅ, final sigma) stay as they are, so that nothing is ever altered."""
    low = _recase(g, False)
    if low != g and len(graphemes(low)) == 1 and upper_of(low) == g:
        return low, True
    return g, False


@lru_cache(maxsize=65536)
def glues_left(g: str) -> bool:
    """True if ``g`` would fuse with a mark or space inserted before it (combining marks, ZWJ...)."""
    return len(graphemes(" " + g)) < 2


@lru_cache(maxsize=65536)
def glues_right(g: str) -> bool:
    """True if a mark or space inserted after ``g`` would fuse with it (prepend characters)."""
    return len(graphemes(g + " ")) < 2


def ends_sentence_on(g: str) -> bool:
    """Whether a sentence may end on ``g``, so that an input ending there takes a final mark: a letter or digit, or
    a percent, degree or currency sign ("un 3,5 %." "5 €.").

    >>> [ends_sentence_on(g) for g in ("a", "9", "%", "€", "😀", ")")]
    [True, True, True, True, False, False]
    """
    return g[:1].isalnum() or g[:1] in "%‰‱°" or unicodedata.category(g[:1] or " ") == "Sc"


def is_escape(g: str) -> bool:
    """An invalid input byte, read as a surrogate escape (U+DC80..U+DCFF): opaque, written back as that byte."""
    return "\udc80" <= g[:1] <= "\udcff"


def inside_graphemes(text: str) -> bytearray:
    """1 where a character continues a grapheme cluster: spaces go only between clusters."""
    inside = bytearray(b"\x01") * len(text)
    for m in _GRAPHEME.finditer(text):
        inside[m.start()] = 0
    return inside
