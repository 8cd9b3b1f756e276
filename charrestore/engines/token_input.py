"""The token model's input: words -> SentencePiece subwords, packed into windows with first-subword positions.

Shared by training and the runtime so that both encode exactly alike. Subword id 0 is padding; only the
first subword of a word carries its labels, and a word keeps at most ``MAX_PIECES`` subwords (the rest
of a very long "word", such as a URL or a digit string, adds cost but no information).
"""

from __future__ import annotations

import re

import numpy as np

PAD = 0
MAX_PIECES = 6
# from this many words on, one batch call is cheaper than word-by-word calls even when cold (scripts/bench_tokenize.py:
# about 400 on an idle machine)
BATCH_MIN_WORDS = 300
_SURROGATE = re.compile("[\ud800-\udfff]")


def load_tokenizer(path):
    import sentencepiece as spm

    return spm.SentencePieceProcessor(model_file=str(path))


def word_pieces(sp, forms: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Subword ids of words as a flat array and word offsets into it (len(forms) + 1). Long inputs take one batch
    call on this thread (SentencePiece's own pool costs more than it saves, and far more when the other cores are
    busy); short ones go word by word, because the batch call has a fixed cost that grows when its memory has gone
    cold, as it has after every model call: 0.2 ms for 42 words on an idle machine, milliseconds beside a busy core
    (scripts/bench_tokenize.py).
    A word with no subword at all (SentencePiece drops some characters) gets the UNK id. Lone surrogates
    (invalid UTF-8 bytes passed through by the CLI) reach the model as U+FFFD, which SentencePiece accepts."""
    if _SURROGATE.search("".join(forms)):
        forms = [_SURROGATE.sub("\ufffd", f) for f in forms]
    pieces = sp.encode(forms, num_threads=1) if len(forms) >= BATCH_MIN_WORDS else [sp.encode(f) for f in forms]
    unk = sp.unk_id()
    lists = [p[:MAX_PIECES] if p else [unk] for p in pieces]
    offsets = np.zeros(len(lists) + 1, np.int64)
    np.cumsum([len(p) for p in lists], out=offsets[1:])
    flat = np.fromiter((i for p in lists for i in p), dtype=np.int32, count=int(offsets[-1]))
    return flat, offsets


def pack_windows(flat: np.ndarray, offsets: np.ndarray, spans, edge: int | None = None,
                 edges=None) -> tuple[np.ndarray, np.ndarray]:
    """ids [B, T] (padded with PAD) and starts [B, W] for word spans ``(first, end)`` of equal length W.

    ``edges`` (a (begins, ends) pair per span) puts the ``edge`` id before a span that begins its document
    and after one that ends it: a model trained with edge windows then knows that a sentence starts or
    ends there, which running text never tells it ("will ai change our future" is a question)."""
    spans = list(spans)
    if edge is None or edges is None:
        edges = [(False, False)] * len(spans)
    lengths = [int(offsets[e] - offsets[s]) + a + b for (s, e), (a, b) in zip(spans, edges)]
    ids = np.zeros((len(spans), max(lengths)), np.int32)
    starts = np.empty((len(spans), spans[0][1] - spans[0][0]), np.int32)
    for k, ((s, e), (a, b)) in enumerate(zip(spans, edges)):
        n = int(offsets[e] - offsets[s])
        ids[k, a:a + n] = flat[offsets[s]:offsets[e]]
        if a:
            ids[k, 0] = edge
        if b:
            ids[k, a + n] = edge
        starts[k] = offsets[s:e] - offsets[s] + a
    return ids, starts
