"""The NB segmenter's Viterbi at C speed: seen words found with numpy, the loop in ``_viterbi.c``.

``Segmenter._viterbi`` in Python spends its time on dictionary look-ups of every substring and every word
pair. Here the seen words of a text are found all at once: a polynomial hash of every substring of each
length up to ``L``, looked up in the sorted hashes of the vocabulary's words of that length, then checked
character by character (so a hash collision never makes a word). Word pairs become per-word sorted slices.
The C loop then keeps the Python decoder's states, scores, order and ties, so both give the same boundaries
(tests/test_segmenter.py compares them). Where the extension was not built (no compiler at install), the
segmenter keeps its Python loop: ``available`` says which runs.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

try:
    from ._viterbi import viterbi as _c_viterbi
except ImportError:  # built without a C compiler: Segmenter._viterbi stays in Python
    _c_viterbi = None

available = _c_viterbi is not None
MIN_CHARS = 2_000  # shorter texts decode in Python: no tables to build for a hashtag or a sentence
_BASE = np.uint64(0x9E3779B97F4A7C15)  # odd: the polynomial hash's multiplier (arithmetic wraps at 2**64)


class Tables(NamedTuple):
    """A segmenter's counts as arrays: per word length, the sorted hashes of the words of that length with
    their ids and code points; the unigram log10 P per id; the seen pairs per previous word (CSR by id)."""
    by_length: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]]
    logp: np.ndarray
    ctx_ptr: np.ndarray
    ctx_wid: np.ndarray
    ctx_lp: np.ndarray
    start_wid: int


def codes(text: str) -> np.ndarray:
    """Code points + 1 (so that no character hashes as nothing), as uint64."""
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), np.uint32).astype(np.uint64) + np.uint64(1)


def _hash_rows(rows: np.ndarray) -> np.ndarray:
    h = np.zeros(len(rows), np.uint64)
    for col in rows.T:
        h = h * _BASE + col
    return h


def tables(seg, start: str) -> Tables | None:
    """The arrays of ``seg``'s counts, built on first use and kept on the segmenter (and its configured copies);
    None if two of its words collide in the hash."""
    built = seg.__dict__.get("_fast_tables")
    if built is not None:
        return built or None
    words = list(seg._uni)
    ids = {w: k for k, w in enumerate(words)}
    logp = np.asarray(list(seg._uni.values()), np.float64)
    lengths = np.fromiter(map(len, words), np.int64, len(words))
    flat = codes("".join(words))
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    by_length = {}
    for n in np.unique(lengths).tolist():
        wid = np.flatnonzero(lengths == n)
        rows = flat[offsets[wid][:, None] + np.arange(n)]
        h = _hash_rows(rows)
        order = np.argsort(h, kind="stable")
        if len(np.unique(h)) != len(h):  # two words of one length share a hash: this vocabulary stays in Python
            seg.__dict__["_fast_tables"] = False
            return None
        by_length[n] = (h[order], wid[order], rows[order])
    contexts = [(ids[p], raw) for p, raw in seg._raw_contexts.items() if p in ids]
    items = " ".join(raw for _, raw in contexts).split(" ")
    per_context = [raw.count(" ") // 2 + 1 for _, raw in contexts]
    prev_a = np.repeat(np.asarray([k for k, _ in contexts], np.int64), per_context)
    word_a = np.asarray([ids.get(w, -1) for w in items[0::2]], np.int64)
    seen = word_a >= 0  # a pair whose second word is not in the vocabulary is never looked up
    prev_a, word_a = prev_a[seen], word_a[seen]
    values, inverse = np.unique(np.asarray(items[1::2])[seen], return_inverse=True)
    log_c = np.asarray([math.log10(float(v)) for v in values.tolist()], np.float64)  # as Segmenter._context
    pair_lp = log_c[inverse] - (logp[prev_a] + seg._log_n)
    order = np.lexsort((word_a, prev_a))
    ctx_ptr = np.concatenate([[0], np.cumsum(np.bincount(prev_a, minlength=len(words)))]).astype(np.int64)
    built = Tables(by_length, logp, ctx_ptr, word_a[order], pair_lp[order], ids.get(start, -1))
    seg.__dict__["_fast_tables"] = built
    return built


def hits(t: Tables, s: str, L: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every seen word of at most ``L`` characters in ``s`` as (CSR pointer by end position, start, id, log10 P),
    shortest first at each end: the Python decoder's order."""
    text = codes(s)
    n = len(text)
    h = text
    starts, wids, lengths = [], [], []
    for length in range(1, min(L, n) + 1):
        if length > 1:
            h = h[:-1] * _BASE + text[length - 1:]
        entry = t.by_length.get(length)
        if entry is None:
            continue
        keys, word_ids, rows = entry
        at = np.minimum(np.searchsorted(keys, h), len(keys) - 1)
        pos = np.flatnonzero(keys[at] == h)
        same = (text[pos[:, None] + np.arange(length)] == rows[at[pos]]).all(axis=1)
        starts.append(pos[same])
        wids.append(word_ids[at[pos[same]]])
        lengths.append(np.full(int(same.sum()), length, np.int64))
    start, wid, length = (np.concatenate(a) if a else np.zeros(0, np.int64) for a in (starts, wids, lengths))
    end = start + length
    order = np.lexsort((length, end))
    ptr = np.searchsorted(end[order], np.arange(n + 2), side="left").astype(np.int64)
    return ptr, start[order].astype(np.int64), wid[order].astype(np.int64), t.logp[wid[order]]


def viterbi(seg, start_word: str, s: str, kind: bytearray, bonus: list[float]) -> list[int]:
    """Word boundaries (indices into ``s``) of the best segmentation, exactly as ``Segmenter._viterbi``."""
    t = tables(seg, start_word)
    if t is None:
        return seg._viterbi(s, kind, bonus)
    ptr, start, wid, lp = hits(t, s, seg.L)
    return _c_viterbi(len(s), len(start), len(t.logp), len(t.ctx_wid), seg.L, t.start_wid, seg._unk0, seg._unk1,
                      kind, np.asarray(bonus, np.float64), ptr, start, wid, lp, t.ctx_ptr, t.ctx_wid, t.ctx_lp)
