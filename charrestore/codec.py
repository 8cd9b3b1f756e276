"""Text <-> (base graphemes, class ids): the one representation every engine and metric uses.

A *base grapheme* is a grapheme cluster with its case removed. Its *class* is a bit set over the
pack's features: CAPS (the grapheme itself is upper case) and each mark or SPACE that follows it.

>>> from charrestore.packs import load_pack
>>> en = load_pack("en")
>>> base, classes = parse("Hi, D.C.!", en)
>>> "".join(base), [en.class_name(c) for c in classes]
('hidc', ['CAPS', ',+SPACE', 'CAPS+.', 'CAPS+.'])
>>> render(base, classes, en)
'Hi, D.C.'
"""

from __future__ import annotations

import unicodedata

import numpy as np
import regex

from . import codec_fast
from .clusters import case_split, glues_left, glues_right, graphemes, is_escape, upper_of
from .packs import CAPS, SPACE, LanguagePack

def _is_word_char(g: str) -> bool:
    return g[:1].isalnum()


def _held(gs: list[str], i: int) -> bool:
    """Whether the space or mark ``gs[i]`` is text rather than a feature. Beside an invalid byte, everything is
    text: taking a space or mark out could join the bytes around it into a character the input never had. White
    space before a lone combining mark is text too: taking it out would fuse the mark into the grapheme before
    it, and the marks between them would be lost."""
    nxt = gs[i + 1] if i + 1 < len(gs) else ""
    if is_escape(nxt) or (i > 0 and is_escape(gs[i - 1])):
        return True
    return gs[i].isspace() and nxt != "" and glues_left(nxt)


def parse(text: str, pack: LanguagePack, apply_map: bool = True) -> tuple[list[str], np.ndarray]:
    """Formatted text -> (base graphemes, class ids).

    Each mark attaches to the preceding base grapheme, an opening mark (``pack.opening``: "¿") to the following one;
    a repeated mark counts once and marks before the first base grapheme are dropped (opening marks after the last
    one too). White space that only stands before a mark of ``pack.space_before`` ("quoi ?") is that mark's
    typography, not a SPACE. With ``apply_map`` the pack's mapping of other
    punctuation is applied (reading references and training text; ``map_before_lower`` where the next letter is a
    small one, so that a "!" inside a sentence is no period that a small letter follows; ``map_after_sentence_end``
    right after a sentence mark, so that a dialogue dash after a period adds no comma); without it, only the
    pack's own marks and spaces are taken off (reading user input: nothing else is touched).
    Spaces and marks next to an invalid byte, and white space before a lone combining mark, stay
    base graphemes (``_held``): the bytes keep their neighbours, and the marks before the combining mark stay.
    """
    norm = unicodedata.normalize(pack.normalization, text)
    if len(norm) >= codec_fast.MIN_CHARS and codec_fast.singletons(norm) and codec_fast.serves(pack, apply_map):
        fast = codec_fast.parse(norm, pack, apply_map)
        if fast is not None:
            return fast
    gs = graphemes(norm)
    bits = {f: pack.bit(f) for f in pack.marks}
    space_bit, caps_bit = pack.bit(SPACE), pack.bit(CAPS)
    if space_bit:
        bits[" "] = space_bit
    opening = pack.opening_bits
    ends = pack.sentence_bits
    base: list[str] = []
    classes: list[int] = []
    pending = 0  # opening marks waiting for their grapheme
    for i, g in enumerate(gs):
        target = None
        if space_bit and g.isspace():
            target = "" if pack.space_before and _before_spaced_mark(gs, i, pack) else " "
        elif g in bits:
            target = g
        elif apply_map:
            target = pack.map.get(g)
            if g in pack.map_after_sentence_end and classes and classes[-1] & ends:
                target = pack.map_after_sentence_end[g]
            elif g in pack.map_before_lower and _before_small_letter(gs, i, pack):
                target = pack.map_before_lower[g]
            if target is None and g in pack.map_between_words:
                inside = 0 < i < len(gs) - 1 and _is_word_char(gs[i - 1]) and _is_word_char(gs[i + 1])
                target = None if inside else pack.map_between_words[g]
        if target is None or _held(gs, i):
            if caps_bit:
                g, upper = case_split(g)
                classes.append((caps_bit if upper else 0) | pending)
            else:
                classes.append(pending)
            pending = 0
            base.append(g)
        else:
            for mark in target:
                if bits[mark] & opening:
                    pending |= bits[mark]
                elif classes:
                    classes[-1] |= bits[mark]
    arr = np.asarray(classes, dtype=np.int32)
    if len(arr):
        arr[-1] &= ~space_bit
    return base, arr


def _before_small_letter(gs: list[str], i: int, pack: LanguagePack) -> bool:
    """Whether the first grapheme after ``gs[i]`` that is no white space, mark or mapped punctuation is a small
    letter: "Ah ! mon Dieu" reads "!" by ``pack.map_before_lower`` (a comma), "Ah ! Mon Dieu" by ``pack.map``."""
    for j in range(i + 1, len(gs)):
        if not (gs[j].isspace() or gs[j] in pack.map or gs[j] in pack.marks):
            return gs[j].islower()
    return False


def _before_spaced_mark(gs: list[str], i: int, pack: LanguagePack) -> bool:
    """Whether the white space ``gs[i]`` (with any white space after it) stands right before a mark that the pack
    writes after a space ("quoi ?"), and after a grapheme that is not white space."""
    j = i + 1
    while j < len(gs) and gs[j].isspace():
        j += 1
    return i > 0 and not gs[i - 1].isspace() and j < len(gs) and gs[j] in pack.space_before


def kept_features(text: str, classes: np.ndarray, pack: LanguagePack) -> np.ndarray:
    """The features of parsed input that restoration keeps: the input's own marks, and its capitals when it is
    mixed-case ("McDonald", "GitHub"). All-caps input says nothing about case, so its capitals are not kept.

    >>> from charrestore.packs import load_pack
    >>> en = load_pack("en")
    >>> [en.class_name(c) for c in kept_features("Hi, McD", parse("Hi, McD", en)[1], en)]
    ['CAPS', ',', 'CAPS', 'O', 'CAPS']
    >>> [en.class_name(c) for c in kept_features("HI, MCD", parse("HI, MCD", en)[1], en)]
    ['O', ',', 'O', 'O', 'O']
    """
    keep = pack.mark_bits
    if text != text.lower() and text != text.upper():
        keep |= pack.bit(CAPS)
    return np.asarray(classes, np.int32) & keep


def word_spans(classes: np.ndarray, space_bit: int) -> list[tuple[int, int]]:
    """Word spans ``(start, end)`` over the graphemes: a word ends after each grapheme whose class has
    ``space_bit`` (and at the end; no empty word after a last grapheme that has it)."""
    n = len(classes)
    ends = (np.flatnonzero(np.asarray(classes) & space_bit) + 1).tolist() if space_bit and n else []
    if n and (not ends or ends[-1] != n):
        ends.append(n)
    return list(zip([0] + ends[:-1], ends))


def spans_with(flags: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Which grapheme spans ``[start, end)`` hold a nonzero flag (one cumulative sum for all spans).

    >>> spans_with(np.array([0, 1, 0, 0]), np.array([0, 2]), np.array([2, 4])).tolist()
    [True, False]
    """
    counts = np.concatenate([[0], np.cumsum(np.asarray(flags) != 0)])
    return counts[ends] > counts[starts]


def render(base: list[str], classes, pack: LanguagePack) -> str:
    """(base graphemes, class ids) -> text: CAPS, then the marks in pack order, then the space.

    A mark or space that would fuse into a neighbouring grapheme cluster is left out, so the
    output always splits back into the same base graphemes. The output is in the pack's
    normalization form. Nothing is rendered next to an invalid byte (it keeps its neighbours), and
    no space next to white space that the input holds as text (see ``parse``).
    """
    fast = codec_fast.render(base, classes, pack) if len(base) >= codec_fast.MIN_CHARS else None
    if fast is not None:
        return unicodedata.normalize(pack.normalization, fast)
    caps_bit, space_bit, opening_bits = pack.bit(CAPS), pack.bit(SPACE), pack.opening_bits
    opening = [(pack.bit(m), m) for m in pack.opening]
    marks = [(pack.bit(m), pack.space_before.get(m, "") + m) for m in pack.marks if m not in pack.opening]
    after_mask = sum(b for b, _ in marks) | space_bit
    out: list[str] = []
    last = len(base) - 1
    for i, (g, c) in enumerate(zip(base, classes)):
        c = int(c)
        prev = base[i - 1] if i else ""
        if c & opening_bits and not (glues_left(g) or (prev and glues_right(prev)) or is_escape(g) or is_escape(prev)):
            out.extend(m for b, m in opening if c & b)
        if c & caps_bit:
            g = upper_of(g) or g
        out.append(g)
        nxt = base[i + 1] if i < last else ""
        if not c & after_mask or glues_right(g) or (nxt and glues_left(nxt)) or is_escape(g) or is_escape(nxt):
            continue
        out.extend(m for b, m in marks if c & b)
        if c & space_bit and nxt and not (g[:1].isspace() or nxt[:1].isspace()):
            out.append(" ")
    return unicodedata.normalize(pack.normalization, "".join(out))


_INSERTED_APOSTROPHE = regex.compile(r"(?<=[\p{L}\p{N}])'")


def base_text(text: str, pack: LanguagePack) -> str:
    """What restoration must never change: the text without the pack's marks and spaces, in lower case.

    >>> from charrestore.packs import load_pack
    >>> base_text("Will AI change our future?", load_pack("en"))
    'willaichangeourfuture'

    White space that holds a lone combining mark apart from the grapheme before it, or that stands next
    to an invalid byte, is text here, not a space (see ``parse``). A pack that restores apostrophes inside words
    (an ``apostrophes`` model: "cant" -> "can't") may insert "'" after a letter, so that is no text either.
    """
    return without_inserted_apostrophes(
        unicodedata.normalize(pack.normalization, "".join(parse(text, pack, apply_map=False)[0])), pack)


def without_inserted_apostrophes(text: str, pack: LanguagePack) -> str:
    """``text`` without the "'" after a letter or digit, where the pack restores apostrophes (may insert one)."""
    return _INSERTED_APOSTROPHE.sub("", text) if "apostrophes" in pack.models else text


def strip_features(text: str, pack: LanguagePack) -> str:
    """A reference turned into model-style input: mapped punctuation, marks, spaces and case removed."""
    return unicodedata.normalize(pack.normalization, "".join(parse(text, pack)[0]))
