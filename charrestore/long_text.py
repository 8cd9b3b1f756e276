"""Long documents in pieces: memory that does not grow with the length of a line.

A document of more than ``PIECE + 2 * CONTEXT`` characters is cut into pieces of about ``PIECE`` characters, at
white space where there is some and otherwise between two letters. Each piece is restored with ``CONTEXT``
characters of the document on either side, and only its own graphemes are kept and rendered, so that
every decision at a seam has context on both sides. Peak memory then depends on ``PIECE``, not on the
document, and time stays linear (the context costs ``2 * CONTEXT / PIECE`` more model work).
The document-wide decisions (are the input's spaces word boundaries, is the input mixed-case) are made
once, on the whole text, as for a short document.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import Iterator

import numpy as np
import regex

from .clusters import glues_left, graphemes, is_escape
from .codec import parse, render
from .packs import CAPS, SPACE, LanguagePack
from .spans import find

PIECE = 1 << 16  # characters: a piece's graphemes, windows and logits take a few MB
CONTEXT = 1 << 11  # characters each side: more than two token windows (128 words) or five char windows (400)
_SEARCH = 1 << 10  # how far back from a piece's nominal end a cut is looked for, before giving up on a kind
_GAP = regex.compile(r"\S\s+(?=\S)")


def is_long(text: str, piece: int = PIECE, context: int = CONTEXT) -> bool:
    return len(text) > piece + 2 * context


def _cuttable(text: str, i: int, pack: LanguagePack) -> bool:
    """Whether a piece may start at ``i``: a grapheme boundary before a character that parses as a base grapheme
    on its own (no white space, mark, invalid byte, or character that would fuse with what precedes it)."""
    c, before = text[i], text[i - 1]
    if c.isspace() or c in pack.marks or is_escape(c) or is_escape(before) or unicodedata.combining(c) \
            or glues_left(c) or unicodedata.normalize(pack.normalization, before + c) != before + c:
        return False
    lo = max(0, i - 16)
    at = lo
    for g in graphemes(text[lo:i + 16]):
        at += len(g)
        if at >= i:
            return at == i
    return False


def _inside_span(text: str, i: int) -> bool:
    lo = max(0, i - 256)
    return any(s.start < i - lo < s.end for s in find(text[lo:i + 256]))


def cut_at(text: str, target: int, floor: int, pack: LanguagePack) -> int | None:
    """A piece boundary in ``(floor, target]``, as near ``target`` as it can be: after white space if there is
    one near, else between two letters or digits outside any protected span, else at any grapheme boundary
    that is safe (``_cuttable``); None when there is none."""
    target, floor = min(target, len(text) - 1), max(floor, 0)
    near = max(floor + 1, target - _SEARCH)
    tests = (lambda i: text[i - 1].isspace(),
             lambda i: text[i - 1].isalnum() and text[i].isalnum() and not _inside_span(text, i),
             lambda i: True)
    for ok in tests:
        for i in range(target, near - 1, -1):
            if ok(i) and _cuttable(text, i, pack):
                return i
    return next((i for i in range(near - 1, floor, -1) if _cuttable(text, i, pack)), None)


def has_space(text: str, pack: LanguagePack) -> bool:
    """``keeps_spaces``'s question for the whole text without parsing all of it: does any white space between
    two characters parse as a SPACE (white space held as text, beside an invalid byte or before a lone
    combining mark, does not)."""
    bit = pack.bit(SPACE)
    if not bit:
        return False
    for m in _GAP.finditer(text):
        lo = max(0, m.start() - 64)
        classes = parse(text[lo:m.end() + 64], pack, apply_map=False)[1]
        if (classes[:-1] & bit).any():
            return True
    return False


def runs_together(text: str, pack: LanguagePack) -> bool:
    """Does ``text`` hold a word (letters between white space, punctuation at its edges aside) of the pack's
    scripts longer than its ``longest_word``: words typed without their spaces, as in "willaichangeourfuture
    whereareyougoingtonight"? Digits may stand in it ("theratewas24percentinoctober"), but not in one with a
    capital after its first letter (a code: "dGhpc2lzYXZlcnlsb25n4"). Links and tags are no such word. Linear in
    the text, a 10 MB word included: each word is looked at once, by searches that keep no state per letter."""
    if not pack.longest_word:
        return False
    long_run, other = _word_patterns(pack.longest_word, pack.scripts)
    pos = 0
    while (m := long_run.search(text, pos)) is not None:
        back, ahead = _SPACE_BEFORE.search(text, 0, m.start()), _SPACE.search(text, m.end())
        start, end = back.end() if back is not None else 0, ahead.start() if ahead is not None else len(text)
        start = _OPENERS.match(text, start, end).end()
        end = _CLOSERS.match(text, start, end).start()
        if other.search(text, start, end) is None and (
                _DIGIT.search(text, start, end) is None or _CAPITAL.search(text, start + 1, end) is None):
            return True
        pos = max(end, m.end())
    return False


_SPACE, _SPACE_BEFORE = regex.compile(r"[\s\x1c-\x1f]"), regex.compile(r"(?r)[\s\x1c-\x1f]")  # str.isspace()
_DIGIT, _CAPITAL = regex.compile(r"\p{N}"), regex.compile(r"\p{Lu}|\p{Lt}")
_OPENERS = regex.compile(r"[\p{Ps}\p{Pi}\p{Po}--[#@/\\]]*", regex.V1)  # not a tag, a mention or a path
_CLOSERS = regex.compile(r"(?r)[\p{Pe}\p{Pf}\p{Po}]*")


@lru_cache(maxsize=16)
def _word_patterns(longest: int, scripts: tuple[str, ...]):
    """More than ``longest`` letters in a row, and a character no such word holds: not a letter, mark, digit,
    inner apostrophe or hyphen, or a letter of another script."""
    letters = "".join(rf"\p{{Script={s}}}" for s in scripts)
    foreign = rf"|(?=\p{{L}})[^{letters}]" if scripts else ""
    return (regex.compile(rf"(?:\p{{L}}\p{{M}}*){{{longest + 1}}}"),
            regex.compile(rf"[^\p{{L}}\p{{M}}\p{{N}}'’-]{foreign}"))


def pieces(text: str, pack: LanguagePack, piece: int = PIECE) -> list[tuple[int, int]]:
    """(start, end) character offsets of the pieces of ``text``, in order, covering it."""
    out, start = [], 0
    while len(text) - start > piece and (end := cut_at(text, start + piece, start, pack)) is not None:
        out.append((start, end))
        start = end
    out.append((start, len(text)))
    return out


def restore(engine, text: str, keep: bool, camel: bool, piece: int = PIECE, context: int = CONTEXT) -> Iterator[str]:
    """The restored text of each piece of ``text`` (joined, the restored document)."""
    pack = engine.pack
    keep_bits = pack.mark_bits | (pack.bit(CAPS) if text != text.lower() and text != text.upper() else 0)
    text = unicodedata.normalize(pack.normalization, text)
    bounds = pieces(text, pack, piece)
    for k, (a, b) in enumerate(bounds):
        # The context ends at safe cuts too (the neighbouring pieces' far ends are, when nothing nearer is).
        lo = 0 if a <= context else cut_at(text, a - context, bounds[k - 1][0], pack) or bounds[k - 1][0]
        hi = len(text) if b + context >= len(text) else cut_at(text, b + context, b, pack) or bounds[k + 1][1]
        window = text[lo:hi]
        base, given = parse(window, pack, apply_map=False)
        left = len(parse(text[lo:a], pack, apply_map=False)[0])
        mid = len(base) - left - len(parse(text[b:hi], pack, apply_map=False)[0])
        if not mid:
            continue
        given, frozen = engine.protected(window, base, given, camel)
        out_base, classes = engine.classes(base, given, given & keep_bits, keep, hi == len(text), frozen)
        if len(out_base) != len(base):  # the restoration re-read the graphemes (a rare fusion): the piece alone
            yield engine.restore_one(text[a:b], "keep" if keep else "restore", "camel" if camel else "keep")
            continue
        end = left + mid
        if end < len(base):  # the next piece's first grapheme, rendered plain, shows render what follows
            tail = base[end]
            shown = render(base[left:end + 1], np.append(classes[left:end], 0), pack)
            yield shown[:len(shown) - len(tail)]
        else:
            yield render(base[left:end], classes[left:end], pack)
