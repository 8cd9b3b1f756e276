"""Apostrophes typed as quotes or after a plural in unspaced text ("said'hello'and", "analysts'expectations").

The segmenter reads an apostrophe between letters as part of a word ("don't", "l'homme"), so no space may stand
beside it. Where frequent words end right before it and begin right after it, and no word that the counts know holds
it nor a clitic they know begins after it ("'s"), it stands between two words: the space goes before it where it
opens a quote that a later apostrophe closes or stands for a year's century ("'90s"), else after it (a closing quote,
or a plural's possessive).

>>> logp = {"don't": -3.0, "said": -2.8, "hello": -4.6, "and": -1.5}
>>> text = "don't said'hello'and"
>>> known = ApostropheWords({"s": 100, "t": 10}, {"don": ("t",)})
>>> spans, before = split_runs(text, [(0, 20)], logp, known, 20)
>>> spans, sorted(before)
([(0, 10), (11, 16), (17, 20)], [11])
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Container, Iterable, Mapping, Sequence
from typing import NamedTuple

FREQUENT = -6.0  # log10 P of a word seen once in a million words or more
CLITIC, COMMON = 100, 10  # an ending after an apostrophe in this many of the counts' words: a clitic of its own
# (en, de, es, fr: "'s"; not "'t": its few stems are all counted, "don't"), or one that a counted word may end in


class ApostropheWords(NamedTuple):
    """What the counts' words with an apostrophe say: how many end in each ending after it ("s", "t", "ll", ...,
    where at least ``COMMON`` do), and the parts after it of each part before it ("o" -> "clock", "neill", ...)."""
    endings: dict[str, int]
    halves: dict[str, tuple[str, ...]]


def apostrophe_words(words: Iterable[str]) -> ApostropheWords:
    """``ApostropheWords`` of the counts' ``words`` (lower case, straight apostrophes)."""
    endings: Counter[str] = Counter()
    halves: dict[str, set[str]] = {}
    for w in words:
        if "'" not in w:
            continue
        if w.count("'") == 1 and not w.endswith("'"):
            endings[w.rpartition("'")[2]] += 1
        for p, c in enumerate(w):
            if c == "'":
                halves.setdefault(w[:p], set()).add(w[p + 1:])
    return ApostropheWords({e: n for e, n in endings.items() if n >= COMMON},
                           {left: tuple(rights) for left, rights in halves.items()})


def split_runs(text: str, spans: Sequence[tuple[int, int]], logp: Mapping[str, float], known: ApostropheWords,
               longest: int, uncut: Container[int] = ()) -> tuple[list[tuple[int, int]], set[int]]:
    """``spans`` (word runs of ``text``) cut at each apostrophe that stands between two words, and the run starts
    after such an apostrophe whose space goes before it (an opening quote); the others' space goes after it.
    ``uncut``: text positions where no space may go (inside a link or an address)."""
    low = "".join(c if len(c.lower()) > 1 else c.lower() for c in text).replace("\u2019", "'")  # aligned
    cuts: list[int] = []  # text positions of the apostrophes that stand between words (a new grapheme after them)
    for b, e in spans:
        for t in range(b + 1, e - 1):
            if (low[t] == "'" and low[t + 1].isalnum() and t not in uncut and t + 1 not in uncut
                    and _between_words(low, t, b, e, logp, longest)
                    and not _held(low, t, b, e, known, longest)):
                cuts.append(t)
    if not cuts:
        return list(spans), set()
    out, before, k = [], set(), 0
    for b, e in spans:
        start = b
        while k < len(cuts) and cuts[k] < e:
            out.append((start, cuts[k]))
            start = cuts[k] + 1
            k += 1
        out.append((start, e))
    marks = [t for t, c in enumerate(low) if c == "'"]
    edge = {t: _edge(low, t) for t in marks}
    years = {t for t in cuts if low[t + 1].isdecimal()}  # a year's elided century opens no quote: "the early '90s"
    before |= {t + 1 for t in years}
    separators, is_open = set(cuts) - years, False
    last_closer = max((t for t in marks if t in separators or edge[t] == "closes"), default=-1)
    for t in marks:
        if t in separators:
            if not is_open and last_closer > t:  # a later apostrophe closes the quote that this one opens
                before.add(t + 1)
            is_open = not is_open and last_closer > t
        elif edge[t]:
            is_open = edge[t] == "opens"
    return out, before


def _edge(low: str, t: int) -> str:
    """"opens" for an apostrophe before a word only, "closes" for one after a word only, else ""."""
    word_before = t > 0 and low[t - 1].isalnum()
    word_after = t + 1 < len(low) and low[t + 1].isalnum()
    return "opens" if word_after and not word_before else "closes" if word_before and not word_after else ""


def _between_words(low: str, t: int, b: int, e: int, logp: Mapping[str, float], longest: int) -> bool:
    """Whether frequent words (``FREQUENT``) of three letters or more end right before the apostrophe at ``t`` and
    begin right after it ("analysts'expectations"; not "l'amour" in English)."""
    return (any(logp.get(low[i:t], -math.inf) >= FREQUENT for i in range(max(b, t - longest), t - 2))
            and any(logp.get(low[t + 1:j], -math.inf) >= FREQUENT for j in range(t + 4, min(e, t + 1 + longest) + 1)))


def _held(low: str, t: int, b: int, e: int, known: ApostropheWords, longest: int) -> bool:
    """Whether the apostrophe at ``t`` (inside the run ``low[b:e]``) begins a clitic, stands a letter away from
    another apostrophe ("rock'n'roll"), or lies in a known word that ends at it ("l'", "qu'"), in a common ending
    ("don't") or two letters or more after it ("o'clock"; not the novels' "s'e")."""
    if "'" in (low[max(t - 2, 0):t - 1], low[t + 2:t + 3]):
        return True
    if any(low.startswith(ending, t + 1) for ending, n in known.endings.items() if n >= CLITIC):
        return True
    for i in range(max(b, t - longest + 1), t + 1):
        for right in known.halves.get(low[i:t], ()):
            j = t + 1 + len(right)
            if (j <= e and j - i <= longest and low.startswith(right, t + 1)
                    and (len(right) != 1 or right in known.endings)):
                return True
    return False
