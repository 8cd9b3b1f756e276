"""Hashtags: their words (NB segmenter) and their CamelCase form, which screen readers read word by word.

``fix --hashtags``: ``camel`` (default) changes only the case of a tag (``#throwbackthursday`` ->
``#ThrowbackThursday``); ``split`` turns a tag into prose words (``throwback thursday``: the ``#`` is dropped,
the one change that is not a mark, space or case, and only when asked for); ``keep`` leaves it.
A tag with inner capitals keeps the user's boundaries and case; digits are a segment of their own.

>>> from charrestore.segmenter import Segmenter
>>> seg = Segmenter({"pro": 50, "max": 40, "iphone": 20, "ma": 5, "x": 1}, {}, L=8)
>>> segments("iphone12promax", seg)
['iphone', '12', 'pro', 'max']
>>> camel(segments("iphone12promax", seg))
'Iphone12ProMax'
>>> segments("ThrowbackThursday2", seg)
['Throwback', 'Thursday', '2']
>>> segments("iPhoneCase", seg)
['iPhone', 'Case']
"""

from __future__ import annotations

import unicodedata
from typing import Callable, Sequence

import regex

from .spans import find

HASHTAG_MODES = ("camel", "split", "keep")
_RUN = regex.compile(r"\p{L}[\p{L}\p{M}]*|\p{N}[\p{N}\p{M}]*|.", regex.DOTALL)
# The user's own boundaries: lower to upper ("throwbackThursday"), but not after a word's one small letter ("iPhone",
# "eBay"), and an acronym before a word ("NASAMission"); a change of script too ("новыйiPhone", in _script_runs).
_USER_CUT = regex.compile(r"(?<=\p{L}\p{Ll}\p{M}*)(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})")


def has_inner_capitals(body: str) -> bool:
    """Whether a tag body has a capital after its first letter: the user has marked its words."""
    return any(c.isupper() for c in body[1:])


def segments(body: str, segmenter=None) -> list[str]:
    """The segments of a tag body (no ``#``), in its own characters: letter runs cut at the user's case
    boundaries when it has inner capitals, else by the NB segmenter (none: one segment); digit runs and
    other characters ("_") stand alone. ``"".join(segments(b)) == b``."""
    out: list[str] = []
    user = has_inner_capitals(body)
    for run in _RUN.findall(body):
        if not run[0].isalpha():
            out.append(run)
        elif user:
            out += [part for same in _script_runs(run) for part in _USER_CUT.split(same)]
        elif segmenter is not None:
            cuts = segmenter.cuts(run)
            out += [run[a:b] for a, b in zip([0, *cuts], [*cuts, len(run)])]
        else:
            out.append(run)
    return out


def _script_runs(run: str) -> list[str]:
    """A letter run cut where its script changes (by the first word of each letter's Unicode name; a mark stays
    with its letter).

    >>> _script_runs("новыйiPhone")
    ['новый', 'iPhone']
    """
    out, last = [], None
    for c in run:
        script = last if unicodedata.category(c)[0] == "M" else unicodedata.name(c, "?").split(" ")[0]
        if out and script == last:
            out[-1] += c
        else:
            out.append(c)
        last = script
    return out


def camel(parts: Sequence[str], cased: Sequence[str] | None = None) -> str:
    """The CamelCase body of a tag from its segments: each word capitalized, unless ``cased`` (the same words
    as a model restores them in context) gives it inner capitals (``NASA``, ``iPhone``)."""
    out = []
    for k, word in enumerate(parts):
        known = cased[k] if cased is not None else word
        if word[:1].isalpha() and known.lower() == word.lower() and has_inner_capitals(known):
            out.append(known)
        elif word[:1].isalpha():
            out.append(word[:1].upper() + word[1:])
        else:
            out.append(word)
    return "".join(out)


def spaced(parts: Sequence[str]) -> str:
    """Segments as prose: a space between two words or numbers, none next to "_" or other characters."""
    out = []
    for k, w in enumerate(parts):
        if k and w[:1].isalnum() and parts[k - 1][-1:].isalnum():
            out.append(" ")
        out.append(w)
    return "".join(out)


def split_text(text: str, segmenter, normalization: str = "NFC") -> str:
    """``text`` with every hashtag turned into its words as prose (``--hashtags split``)."""
    text = unicodedata.normalize(normalization, text)
    out, last = [], 0
    for span in find(text):
        if span.kind != "hashtag":
            continue
        words = spaced(segments(span.text[1:], segmenter))
        before = " " if span.start and text[span.start - 1].isalnum() else ""
        after = " " if span.end < len(text) and text[span.end].isalnum() else ""
        out += [text[last:span.start], before, words, after]
        last = span.end
    return "".join(out) + text[last:]


def forms(tags: Sequence[str], segmenter, case_words: Callable[[list[str]], list[str]] | None = None):
    """(segmentation, CamelCase tag) of each tag (with or without its ``#``), the words cased in one call."""
    bodies = [t[1:] if t.startswith("#") else t for t in tags]
    parts = [segments(b, segmenter) for b in bodies]
    words = [w for p, b in zip(parts, bodies) if not has_inner_capitals(b) for w in p if w[:1].isalpha()]
    cased = iter(case_words(words) if case_words and words else words)
    out = []
    for p, b in zip(parts, bodies):
        if has_inner_capitals(b):
            out.append((spaced(p), "#" + b))
            continue
        known = [next(cased) if w[:1].isalpha() else w for w in p]
        out.append((spaced(p), "#" + camel(p, known)))
    return out
