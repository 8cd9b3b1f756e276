"""``codec.parse`` and ``codec.render`` for ASCII text, with numpy instead of a Python step per grapheme.

In ASCII without a carriage return every character is a grapheme cluster of its own, nothing fuses with an
inserted mark or space, there is no invalid byte to hold, and normalization changes nothing; the general
functions' rules then reduce to a lookup per byte. They give byte-identical results (tests/test_codec.py
compares them with hypothesis); ``codec`` calls these for texts of at least ``MIN_CHARS`` characters.
"""

from __future__ import annotations

import numpy as np

from .packs import CAPS, SPACE, LanguagePack

MIN_CHARS = 64  # below this the per-call set-up costs more than the Python loop
_BASE = -1
_UPPER = np.zeros(128, bool)
_UPPER[ord("A"):ord("Z") + 1] = True
_LOWER = np.roll(_UPPER, 32)
_ALNUM = np.array([chr(k).isalnum() for k in range(128)])
_SPACE_CHARS = np.array([chr(k).isspace() for k in range(128)])
_tables: dict[tuple[int, bool], tuple[LanguagePack, np.ndarray, np.ndarray]] = {}


def applies(text: str) -> bool:
    return len(text) >= MIN_CHARS and text.isascii() and "\r" not in text


def _table(pack: LanguagePack, apply_map: bool) -> tuple[np.ndarray, np.ndarray]:
    """Per ASCII code: the class bits it adds to the grapheme before it (-1: it is a base grapheme), and whether
    it is a base grapheme between two word characters (``map_between_words``)."""
    cached = _tables.get((id(pack), apply_map))
    if cached is not None and cached[0] is pack:
        return cached[1], cached[2]
    bits = {m: pack.bit(m) for m in pack.marks}
    if pack.bit(SPACE):
        bits[" "] = pack.bit(SPACE)
    target = np.full(128, _BASE, np.int32)
    between = np.zeros(128, bool)
    for k in range(128):
        g = chr(k)
        t = " " if pack.bit(SPACE) and g.isspace() else g if g in bits else None
        if t is None and apply_map:
            t = pack.map.get(g)
            if t is None and g in pack.map_between_words:
                t, between[k] = pack.map_between_words[g], True
        if t is not None:
            target[k] = sum(bits.get(m, 0) for m in set(t))
    _tables[(id(pack), apply_map)] = (pack, target, between)
    return target, between


def parse(text: str, pack: LanguagePack, apply_map: bool) -> tuple[list[str], np.ndarray]:
    """``codec.parse`` of ASCII text (``applies(text)``)."""
    b = np.frombuffer(text.encode("ascii"), np.uint8)
    target, between = _table(pack, apply_map)
    t = target[b]
    inside = between[b]
    if inside.any():  # a hyphen or apostrophe between two word characters stays a base grapheme
        word = _ALNUM[b]
        inside[1:-1] &= word[:-2] & word[2:]
        inside[[0, -1]] = False
        t[inside] = _BASE
    is_base = t == _BASE
    chars = b[is_base]
    upper = _UPPER[chars] if pack.bit(CAPS) else np.zeros(len(chars), bool)
    classes = np.where(upper, pack.bit(CAPS), 0).astype(np.int32)
    owner = np.cumsum(is_base) - 1  # the base grapheme before each character
    marks = ~is_base & (owner >= 0)
    np.bitwise_or.at(classes, owner[marks], t[marks])
    if len(classes):
        classes[-1] &= ~pack.bit(SPACE)
    return list((chars + 32 * upper).astype(np.uint8).tobytes().decode("ascii")), classes


def renders(base: list[str], pack: LanguagePack) -> str | None:
    """The base graphemes joined, if ``render`` applies to them (single ASCII characters, ASCII marks)."""
    if len(base) < MIN_CHARS or not all(m.isascii() and len(m) == 1 for m in pack.marks):
        return None
    joined = "".join(base)
    return joined if len(joined) == len(base) and joined.isascii() and "\r" not in joined else None


def render(joined: str, classes, pack: LanguagePack) -> str:
    """``codec.render`` of the base graphemes ``joined`` (``renders(base)``)."""
    b = np.frombuffer(joined.encode("ascii"), np.uint8)
    c = np.asarray(classes, np.int64)
    if pack.bit(CAPS):
        b = np.where((c & pack.bit(CAPS)).astype(bool) & _LOWER[b], b - 32, b).astype(np.uint8)
    extra = [((c & pack.bit(m)) != 0, ord(m)) for m in pack.marks]
    space = np.zeros(len(b), bool)
    if pack.bit(SPACE):
        white = _SPACE_CHARS[b]
        space[:-1] = (c[:-1] & pack.bit(SPACE)).astype(bool) & ~white[:-1] & ~white[1:]
    extra.append((space, ord(" ")))
    lengths = 1 + sum(has.astype(np.int64) for has, _ in extra)
    at = np.cumsum(lengths) - lengths
    out = np.empty(int(lengths.sum()), np.uint8)
    out[at] = b
    at = at + 1
    for has, code in extra:
        out[at[has]] = code
        at = at + has
    return out.tobytes().decode("ascii")
