"""The NB segmenter's Viterbi loop in Python: the reference that the C loop (fast_viterbi.py) matches, and what
runs on short texts and where the C extension was not built."""

from __future__ import annotations

import math
from array import array
from collections import deque

START = "<s>"  # the context of the first word of a text, and after punctuation
NO_PAIRS: dict[str, float] = {}


def decode(seg, s: str, kind: bytearray, bonus: list[float]) -> list[int]:
    """Word boundaries (indices into ``s``) of the best segmentation.

    States are (end position, last word). A seen word ending at ``j`` is looked up only as far back
    as the longest seen word with the same last three letters; an unseen word has no bigrams, so the
    best one ending at ``j`` comes from a sliding-window maximum (a deque) in O(1). Only the last
    ``L`` positions are kept live; back pointers go into flat arrays. (A seen word may also be scored
    as unseen, if that is higher: only for very rare short words.)
    """
    uni, unk0, unk1, L = seg._uni, seg._unk0, seg._unk1, seg.L
    cache, context = seg._contexts, seg._context
    reach = seg._reach()
    n = len(s)
    # the states at a position: last word -> (score, state id, the pairs that follow that word)
    start = {START: (0.0, -1, context(START))}
    back_len = array("l")   # state id -> length of its word
    back_prev = array("l")  # state id -> id of the state before it (-1: start)
    live: list = [None] * (n + 1)  # position -> (states, best score, best state id), or None
    live[0] = (start, 0.0, -1)
    window = deque([(0.0, 0)])  # (best score + unk1 * position, position), scores decreasing
    floor = 0  # the last forced boundary: no word crosses it
    last_open = 0  # the last position holding states
    for j in range(1, n + 1):
        if not kind[j]:
            continue
        lo = max(floor, j - L)
        while window and window[0][1] < lo:
            window.popleft()
        if window:
            v, i = window[0]
            unk_best, unk_from, unk_len = v + unk0 - unk1 * j, live[i][2], j - i
        else:  # a grapheme or digit run longer than L is one word
            i = last_open
            unk_best, unk_from, unk_len = live[i][1] + unk0 - unk1 * (j - i), live[i][2], j - i
        new: dict[str, tuple[float, int, dict]] = {}
        extra = bonus[j]
        top, top_id = -math.inf, -1
        for i in range(j - 1, max(lo, j - reach.get(s[j - 3:j], 2)) - 1, -1):
            entry = live[i]
            if entry is None:
                continue
            w = s[i:j]
            lp = uni.get(w)
            if lp is None:
                continue
            best, best_from = -math.inf, -1
            for psc, pid, pairs in entry[0].values():
                pair = pairs.get(w)
                sc = psc + (lp if pair is None else pair)
                if sc > best:
                    best, best_from = sc, pid
            back_len.append(j - i)
            back_prev.append(best_from)
            pairs = cache.get(w)
            new[w] = (best + extra, len(back_len) - 1, context(w) if pairs is None else pairs)
            if best > top:
                top, top_id = best, len(back_len) - 1
        back_len.append(unk_len)
        back_prev.append(unk_from)
        new[""] = (unk_best + extra, len(back_len) - 1, NO_PAIRS)
        if unk_best >= top:
            top, top_id = unk_best, len(back_len) - 1
        top += extra
        if kind[j] == 4:
            new = {START: (top, top_id, start[START][2])}
        live[j] = (new, top, top_id)
        last_open = j
        if kind[j] >= 2:
            floor = j
            window.clear()
        value = top + unk1 * j
        while window and window[-1][0] <= value:
            window.pop()
        window.append((value, j))
        if j > L and j - L - 1 != last_open:
            live[j - L - 1] = None
    sid = live[n][2]
    ends = []
    pos = n
    while sid != -1:
        pos -= back_len[sid]
        if pos > 0:
            ends.append(pos)
        sid = back_prev[sid]
    ends.reverse()
    return ends
