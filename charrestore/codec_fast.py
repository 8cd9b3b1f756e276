"""``codec.parse`` and ``codec.render`` with numpy, for text in which every code point is a grapheme of its own.

That is nearly all English, and most text without combining marks. The rules of the general functions
(which mark attaches where, what fuses with an inserted space, what is held as text) then depend on each code
point alone, and on its neighbours' code points: they are worked out once per distinct code point and applied
to the whole text with array operations. Both give identical results (tests/test_codec.py compares them with
hypothesis); ``codec`` takes this path for texts of at least ``MIN_CHARS`` characters.
"""

from __future__ import annotations

import numpy as np
import regex

from .clusters import case_split, glues_left, glues_right, is_escape, upper_of
from .packs import CAPS, SPACE, LanguagePack

MIN_CHARS = 64  # below this the set-up costs more than the Python loop
_BASE = -1
# What can join a code point into a cluster with its neighbour (UAX #29: GB3, GB6-9b, GB11-13; the Indic
# conjunct rule GB9c needs a virama, which is Extend).
_JOINS = regex.compile(r"\r\n|[" + "".join(rf"\p{{Grapheme_Cluster_Break={v}}}" for v in (
    "Extend", "ZWJ", "SpacingMark", "Prepend", "Regional_Indicator", "L", "V", "T", "LV", "LVT")) + "]")
_targets: dict[tuple[int, bool], tuple[LanguagePack, dict[str, tuple[int, bool]]]] = {}


def serves(pack: LanguagePack, apply_map: bool = False) -> bool:
    """Whether this path knows the pack's typography: marks that open a span, a space before a mark, or (reading
    with the mapping) a mapping that looks at the next letter or the last mark go the exact way (codec.py)."""
    looking = pack.map_before_lower or pack.map_after_sentence_end
    return not (pack.opening or pack.space_before or (apply_map and looking))


def singletons(text: str) -> bool:
    """Whether every code point of ``text`` is a grapheme cluster of its own."""
    return "\r\n" not in text if text.isascii() else _JOINS.search(text) is None


def code_array(text: str) -> np.ndarray:
    """The code points of ``text`` as uint32 (lone surrogates, the escapes of invalid bytes, included)."""
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), np.uint32)


def _code_points(text: str) -> tuple[list[str], np.ndarray]:
    """The distinct code points of ``text`` and, per position, the index of its code point among them."""
    uniq, inverse = np.unique(code_array(text), return_inverse=True)
    return [chr(k) for k in uniq.tolist()], inverse


def _target(pack: LanguagePack, apply_map: bool, g: str) -> tuple[int, bool]:
    """The class bits that ``g`` adds to the grapheme before it (-1: it is a base grapheme), and whether it is a
    base grapheme after all between two word characters (``map_between_words``): ``codec.parse``'s rules."""
    cached = _targets.get((id(pack), apply_map))
    if cached is None or cached[0] is not pack:
        cached = _targets[(id(pack), apply_map)] = (pack, {})
    known = cached[1].get(g)
    if known is not None:
        return known
    bits = {m: pack.bit(m) for m in pack.marks}
    if pack.bit(SPACE):
        bits[" "] = pack.bit(SPACE)
    t, between = " " if pack.bit(SPACE) and g.isspace() else g if g in bits else None, False
    if t is None and apply_map:
        t = pack.map.get(g)
        if t is None and g in pack.map_between_words:
            t, between = pack.map_between_words[g], True
    known = cached[1][g] = (_BASE if t is None else sum(bits[m] for m in set(t)), between)
    return known


def parse(norm: str, pack: LanguagePack, apply_map: bool) -> tuple[list[str], np.ndarray] | None:
    """``codec.parse`` of normalized text whose code points are its graphemes; None if it holds an invalid byte."""
    chars, inv = _code_points(norm)
    if any(map(is_escape, chars)):
        return None
    props = [_target(pack, apply_map, g) for g in chars]
    t = np.array([p[0] for p in props], np.int32)[inv]
    inside = np.array([p[1] for p in props], bool)[inv]
    if inside.any():  # a hyphen or apostrophe between two word characters stays a base grapheme
        word = np.array([g.isalnum() for g in chars], bool)[inv]
        inside[1:-1] &= word[:-2] & word[2:]
        inside[[0, -1]] = False
        t[inside] = _BASE
    is_base = t == _BASE
    split = [case_split(g) if pack.bit(CAPS) else (g, False) for g in chars]
    base_inv = inv[is_base]
    classes = np.where(np.array([up for _, up in split], bool)[base_inv], pack.bit(CAPS), 0).astype(np.int32)
    owner = np.cumsum(is_base) - 1  # the base grapheme before each code point
    marks = ~is_base & (owner >= 0)
    np.bitwise_or.at(classes, owner[marks], t[marks])
    if len(classes):
        classes[-1] &= ~pack.bit(SPACE)
    return np.array([low for low, _ in split], object)[base_inv].tolist(), classes


def render(base: list[str], classes, pack: LanguagePack) -> str | None:
    """``codec.render`` before normalization, if every base grapheme is one code point (else None)."""
    joined = "".join(base)
    if len(joined) != len(base) or not serves(pack):
        return None
    chars, inv = _code_points(joined)
    c = np.asarray(classes, np.int64)
    caps = (c & pack.bit(CAPS)) != 0
    text = np.array(chars, object)[inv]
    if caps.any():
        text[caps] = np.array([upper_of(g) or g for g in chars], object)[inv[caps]]
    # no mark or space after a grapheme that would fuse with it, or before one, or beside an invalid byte
    right = np.array([glues_right(g) or is_escape(g) for g in chars], bool)[inv]
    left = np.array([glues_left(g) or is_escape(g) for g in chars], bool)[inv]
    white = np.array([g[:1].isspace() for g in chars], bool)[inv]
    blocked = right.copy()
    blocked[:-1] |= left[1:]
    suffix = np.zeros(len(c), np.int64)  # the marks (pack order) and the space after each grapheme, as bits
    for k, m in enumerate(pack.marks):
        suffix |= ((c & pack.bit(m)) != 0) << k
    space = np.zeros(len(c), bool)
    if pack.bit(SPACE):
        space[:-1] = ((c[:-1] & pack.bit(SPACE)) != 0) & ~white[:-1] & ~white[1:]
    suffix = np.where(blocked, 0, suffix | (space.astype(np.int64) << len(pack.marks)))
    n = len(pack.marks)
    strings = np.array(["".join(m for k, m in enumerate(pack.marks) if s >> k & 1) + (" " if s >> n & 1 else "")
                        for s in range(2 << n)], object)
    out = np.empty(2 * len(c), object)
    out[0::2], out[1::2] = text, strings[suffix]
    return "".join(out.tolist())
