"""Alignment and edit distance of two sequences (graphemes or words).

A hypothesis whose base text differs from the reference (a dropped word, a changed letter) is still scored on
the part they share: :func:`align` finds it. Documents can be megabytes long, where difflib's quadratic matcher
is too slow, so beyond a budget the common ends and unique k-grams (patience diff) anchor the alignment first.
"""

from __future__ import annotations

import bisect
import difflib
from typing import Sequence

import numpy as np

# Above this many pairs, difflib's quadratic matcher is too slow: anchor on unique k-grams first.
_DIFFLIB_BUDGET = 4_000_000
_ANCHOR_K = 12


def _common_ends(a: Sequence, b: Sequence) -> tuple[int, int]:
    """Lengths of the common prefix and of the common suffix (not overlapping the prefix)."""
    n = min(len(a), len(b))
    pre = 0
    while pre < n and a[pre] == b[pre]:
        pre += 1
    suf = 0
    while suf < n - pre and a[len(a) - 1 - suf] == b[len(b) - 1 - suf]:
        suf += 1
    return pre, suf


def _difflib_blocks(a: Sequence, b: Sequence, a0: int, b0: int) -> list[tuple[int, int, int]]:
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    return [(i + a0, j + b0, n) for i, j, n in sm.get_matching_blocks() if n]


def _anchors(a: Sequence, b: Sequence, k: int) -> list[tuple[int, int]]:
    """Positions (i, j) of k-grams that occur exactly once in a and once in b, increasing in both
    (the longest increasing subsequence, as in patience diff)."""
    def unique(seq):
        seen: dict[tuple, int] = {}
        for i in range(len(seq) - k + 1):
            key = tuple(seq[i:i + k])
            seen[key] = -1 if key in seen else i
        return seen

    ua, ub = unique(a), unique(b)
    pairs = sorted((i, ub[key]) for key, i in ua.items() if i >= 0 and ub.get(key, -1) >= 0)
    # longest increasing subsequence of j (pairs are sorted by i)
    tails: list[int] = []
    tails_idx: list[int] = []
    prev = [-1] * len(pairs)
    for n, (_, j) in enumerate(pairs):
        pos = bisect.bisect_left(tails, j)
        if pos == len(tails):
            tails.append(j)
            tails_idx.append(n)
        else:
            tails[pos] = j
            tails_idx[pos] = n
        prev[n] = tails_idx[pos - 1] if pos else -1
    out = []
    n = tails_idx[-1] if tails_idx else -1
    while n >= 0:
        out.append(pairs[n])
        n = prev[n]
    return out[::-1]


def _align(a: Sequence, b: Sequence, a0: int, b0: int, depth: int) -> list[tuple[int, int, int]]:
    if not a or not b:
        return []
    if len(a) * len(b) <= _DIFFLIB_BUDGET:
        return _difflib_blocks(a, b, a0, b0)
    # long sequences: keep the common prefix and suffix, then anchor the middle on unique k-grams
    pre, suf = _common_ends(a, b)
    blocks = [(a0, b0, pre)] if pre else []
    ma, mb = a[pre:len(a) - suf], b[pre:len(b) - suf]
    if ma and mb:
        if len(ma) * len(mb) <= _DIFFLIB_BUDGET:
            blocks += _difflib_blocks(ma, mb, a0 + pre, b0 + pre)
        else:
            anchors = _anchors(ma, mb, _ANCHOR_K) if depth < 4 else []
            if not anchors:  # nothing in common worth aligning on: difflib's fast heuristic
                sm = difflib.SequenceMatcher(None, ma, mb, autojunk=True)
                blocks += [(i + a0 + pre, j + b0 + pre, m) for i, j, m in sm.get_matching_blocks() if m]
            else:
                ca = cb = 0
                for i, j in anchors:
                    if i < ca or j < cb:
                        continue
                    blocks += _align(ma[ca:i], mb[cb:j], a0 + pre + ca, b0 + pre + cb, depth + 1)
                    blocks.append((a0 + pre + i, b0 + pre + j, _ANCHOR_K))
                    ca, cb = i + _ANCHOR_K, j + _ANCHOR_K
                blocks += _align(ma[ca:], mb[cb:], a0 + pre + ca, b0 + pre + cb, depth + 1)
    if suf:
        blocks.append((a0 + len(a) - suf, b0 + len(b) - suf, suf))
    return blocks


def align(a: Sequence, b: Sequence) -> list[tuple[int, int, int]]:
    """Equal blocks ``(i, j, n)`` with ``a[i:i+n] == b[j:j+n]``, increasing and non-overlapping.

    Exactly ``difflib.SequenceMatcher(None, a, b, autojunk=False)`` for documents of ordinary size;
    beyond ``len(a) * len(b) > 4e6`` the common prefix and suffix and unique 12-grams anchor the
    alignment first, so that very long documents stay fast.

    >>> align("abcd", "abxd")
    [(0, 0, 2), (3, 3, 1)]
    """
    if list(a) == list(b):
        return [(0, 0, len(a))] if len(a) else []
    merged: list[list[int]] = []
    for i, j, n in _align(a, b, 0, 0, 0):
        if merged and merged[-1][0] + merged[-1][2] == i and merged[-1][1] + merged[-1][2] == j:
            merged[-1][2] += n
        else:
            merged.append([i, j, n])
    return [tuple(m) for m in merged]


def levenshtein(a: Sequence, b: Sequence) -> int:
    """Edit distance (substitutions + deletions + insertions) between two sequences of hashables.

    >>> levenshtein("kitten", "sitting"), levenshtein("the cat sat".split(), "a cat sat down".split())
    (3, 2)
    """
    pre, suf = _common_ends(a, b)
    a, b = a[pre:len(a) - suf], b[pre:len(b) - suf]
    if not a or not b:
        return len(a) + len(b)
    if len(a) < len(b):
        a, b = b, a
    ids: dict = {}
    ia = np.fromiter((ids.setdefault(x, len(ids)) for x in a), dtype=np.int64, count=len(a))
    ib = np.fromiter((ids.setdefault(x, len(ids)) for x in b), dtype=np.int64, count=len(b))
    cols = np.arange(len(b) + 1, dtype=np.int64)
    row = cols.copy()
    t = np.empty_like(row)
    for i, x in enumerate(ia, 1):
        # t[j] = min(deletion, substitution); insertions are a running minimum along the row
        t[0] = i
        np.minimum(row[1:] + 1, row[:-1] + (ib != x), out=t[1:])
        row = np.minimum.accumulate(t - cols) + cols
    return int(row[-1])
