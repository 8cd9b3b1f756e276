"""The k best segmentations of the NB segmenter: the candidates a reranker chooses from.

The same lattice and scores as ``Segmenter._viterbi`` (states are (position, last word), an unknown word has no
pairs, punctuation restarts the context), but each state keeps its ``k`` best partial paths instead of one.
Meant for short texts (hashtags, a phrase): the work grows with ``k`` and the number of words ending at each
position, so a text longer than ``MAX_CHARS`` gets the 1-best only.

>>> from charrestore.segmenter import Segmenter
>>> seg = Segmenter({"follow": 50, "friday": 40, "fri": 5, "day": 60}, {"follow friday": 20}, L=8)
>>> [(p.cuts, round(p.score, 2), p.words) for p in nbest(seg, "followfriday", 3)][:2]
[([6], -0.89, ['follow', 'friday']), ([6, 9], -2.39, ['follow', 'fri', 'day'])]
"""

from __future__ import annotations

import math
from typing import NamedTuple

from .segmenter import Segmenter
from .viterbi import NO_PAIRS, START

MAX_CHARS = 200
TIE = 1e-6  # log10 scores closer than this are a tie: the k-best and the Viterbi may sum them in another order


class Path(NamedTuple):
    """One segmentation: ``cuts`` (text positions that take a space, as ``Segmenter.cuts`` gives them), its NB
    log10 ``score``, and its ``words`` as the NB scored them (lower case word runs; empty past ``MAX_CHARS``)."""
    cuts: list[int]
    score: float
    words: list[str]


def nbest(seg: Segmenter, text: str, k: int = 8) -> list[Path]:
    """Up to ``k`` segmentations of ``text`` with distinct cuts, best first; the first is ``seg.cuts(text)``.
    With ``k`` = 1 or past ``MAX_CHARS``: that one alone, without score or words."""
    lattice = seg._lattice(text) if len(text) <= MAX_CHARS and k > 1 else None
    if lattice is None:
        return [Path(seg.cuts(text), math.nan, [])]
    s, kind, bonus = lattice[:3]
    found: dict[tuple, Path] = {}
    for ends, score in _paths(seg, s, kind, bonus, k):
        cuts = lattice.to_text(ends)
        found.setdefault(tuple(cuts), Path(cuts, score, _split(s, ends)))
    ranked = list(found.values())
    if len(ranked) > 1 and ranked[0].score - ranked[1].score < TIE:
        # a tie may order two paths either way (sums in another order): the Viterbi's comes first
        best = seg._viterbi(s, kind, bonus)
        first = found.pop(tuple(lattice.to_text(best)), None) or Path(lattice.to_text(best), ranked[0].score,
                                                                        _split(s, best))
        ranked = [first, *found.values()]
    return ranked[:k]


def _best(k: int, entries: list) -> list:
    """The ``k`` largest entries, largest first (a sort beats heapq.nlargest on these short lists)."""
    entries.sort(reverse=True)
    del entries[k:]
    return entries


def _split(s: str, ends: list[int]) -> list[str]:
    return [s[a:b] for a, b in zip([0, *ends], [*ends, len(s)])]


def _paths(seg: Segmenter, s: str, kind: bytearray, bonus: list[float], k: int) -> list[tuple[list[int], float]]:
    """(boundaries in ``s``, score) of the ``k`` best paths, best first. An entry is (score, start, previous word,
    rank of the previous entry in its state); ``top[i]`` holds the ``k`` best entries ending at ``i`` over all its
    states, which is all an unknown word (no pairs) can follow."""
    uni, unk0, unk1, L, context, cache = seg._uni, seg._unk0, seg._unk1, seg.L, seg._context, seg._contexts
    reach = seg._reach()
    n = len(s)
    states: list = [None] * (n + 1)
    states[0] = {START: [(0.0, -1, None, -1)]}
    top: list = [None] * (n + 1)
    top[0] = [(0.0, 0, START, 0)]
    floor, last_open = 0, 0
    for j in range(1, n + 1):
        if not kind[j]:
            continue
        lo = max(floor, j - L)
        new: dict[str, list] = {}
        seen: dict[int, float] = {}  # start -> log10 P of the seen word s[i:j] (none is longer than its reach)
        for i in range(j - 1, max(lo, j - reach.get(s[j - 3:j], 2)) - 1, -1):
            here = states[i]
            if here is None:
                continue
            w = s[i:j]
            lp = uni.get(w)
            if lp is None:
                continue
            seen[i] = lp
            found = []
            for prev, entries in here.items():
                pairs = cache.get(prev) if prev else NO_PAIRS
                pair = (context(prev) if pairs is None else pairs).get(w)
                step = lp if pair is None else pair
                found += [(e[0] + step, i, prev, r) for r, e in enumerate(entries)]
            new[w] = _best(k, found)
        unknown = []
        for i in [i for i in range(lo, j) if top[i] is not None] or [last_open]:
            step = unk0 - unk1 * (j - i)
            if seen.get(i, -math.inf) < step:  # else the seen word's own entries beat it: a duplicate path
                unknown += [(sc + step, i, prev, r) for sc, _, prev, r in top[i]]
        new[""] = _best(k, unknown)
        extra = bonus[j]
        if extra:
            new = {w: [(e[0] + extra, *e[1:]) for e in entries] for w, entries in new.items()}
        if kind[j] == 4:  # punctuation: the context restarts; an entry still names the state it came from
            new = {START: _best(k, [e for entries in new.values() for e in entries])}
        states[j] = new
        top[j] = _best(k, [(e[0], j, w, r) for w, entries in new.items() for r, e in enumerate(entries)])
        last_open = j
        if kind[j] >= 2:
            floor = j
    out = []
    for entry in states[n][START]:
        ends, cur = [], entry
        while cur[1] >= 0:
            if cur[1] > 0:
                ends.append(cur[1])
            cur = states[cur[1]][cur[2]][cur[3]]
        out.append((ends[::-1], entry[0]))
    return out
