"""The NB segmenter's Viterbi at C speed: ``_viterbi.c`` finds the seen words and runs the loop.

``Segmenter._viterbi`` in Python spends its time on dictionary look-ups of every substring and every word
pair. Here the vocabulary is hashed once into an open-addressing table, with a bit set of the hashes of all
word suffixes (``vocab_index``); ``hits`` looks the substrings of up to ``L`` characters ending at each position
up in it by a polynomial hash, from the shortest, until one is no word's suffix, and checks each candidate
character by character (so a hash collision never makes a word). Word pairs become per-word sorted slices. The C
loop then keeps the Python decoder's states, scores, order and ties, so both give the same boundaries
(tests/test_fast_viterbi.py compares them). Where the extension was not built (no compiler at install), the
segmenter keeps its Python loop: ``available`` says which runs.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .codec_fast import code_array

try:
    from ._viterbi import hits as _c_hits
    from ._viterbi import vocab_index as _c_vocab_index
    from ._viterbi import viterbi as _c_viterbi
except ImportError:  # built without a C compiler: Segmenter._viterbi stays in Python
    _c_viterbi = None

available = _c_viterbi is not None
MIN_CHARS = 2_000  # shorter texts decode in Python: no tables to build for a hashtag or a sentence


class Tables(NamedTuple):
    """A segmenter's counts as arrays: the words' code points (flat, with offsets) and ``vocab_index``'s table
    (with its two sizes in bits); the unigram log10 P per id; the seen pairs per previous word (CSR by id)."""
    codes: np.ndarray
    offsets: np.ndarray
    table: np.ndarray
    bits: int
    sbits: int
    logp: np.ndarray
    ctx_ptr: np.ndarray
    ctx_wid: np.ndarray
    ctx_lp: np.ndarray
    start_wid: int


def tables(seg, start: str) -> Tables:
    """The arrays of ``seg``'s counts, built on first use and kept on the segmenter (and its configured copies)."""
    built = seg.__dict__.get("_fast_tables")
    if built is not None:
        return built
    words = list(seg._uni)
    ids = {w: k for k, w in enumerate(words)}
    logp = np.asarray(list(seg._uni.values()), np.float64)
    flat = code_array("".join(words))
    offsets = np.concatenate([[0], np.cumsum(np.fromiter(map(len, words), np.int64, len(words)))]).astype(np.int64)
    table, bits, sbits = _c_vocab_index(len(flat), len(words), flat, offsets)
    table = np.frombuffer(table, np.uint64)
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
    built = Tables(flat, offsets, table, bits, sbits, logp, ctx_ptr, word_a[order], pair_lp[order], ids.get(start, -1))
    seg.__dict__["_fast_tables"] = built
    return built


def hits(t: Tables, s: str, L: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every seen word of at most ``L`` characters in ``s`` as (CSR pointer by end position, start, id, log10 P),
    shortest first at each end: the Python decoder's order."""
    text = code_array(s)
    out = _c_hits(len(text), L, len(t.codes), len(t.logp), t.bits, t.sbits, text, t.codes, t.offsets, t.table, t.logp)
    return tuple(np.frombuffer(b, dtype) for b, dtype in zip(out, (np.int64, np.int64, np.int64, np.float64)))


def viterbi(seg, start_word: str, s: str, kind: bytearray, bonus: list[float]) -> list[int]:
    """Word boundaries (indices into ``s``) of the best segmentation, exactly as ``Segmenter._viterbi``."""
    t = tables(seg, start_word)
    ptr, start, wid, lp = hits(t, s, seg.L)
    return _c_viterbi(len(s), len(start), len(t.logp), len(t.ctx_wid), seg.L, t.start_wid, seg._unk0, seg._unk1,
                      kind, np.asarray(bonus, np.float64), ptr, start, wid, lp, t.ctx_ptr, t.ctx_wid, t.ctx_lp)
