"""The NB segmenter's counts on disk: one zlib-compressed binary file, read in one go, so that a process starts fast.

``nb.counts`` holds a header and a zlib stream of: the unigram counts as little-endian float64, the newline-joined
UTF-8 words (sorted by code point since format 2, so that the segmenter looks a word up by bisection instead of
building a dict of hundreds of thousands: ``sorted_words.py``; format 1, most frequent first, is still read), context
words, and per context word its pairs as a raw ``word count word count ...`` string (parsed by the segmenter only when
it meets that word), and the decoder's ``reach`` table (last three letters -> length of the longest word ending in
them), derived from the words when the file is written.
Reading it takes about 60 ms for 200,000 words and 300,000 pairs, where the gzip TSV that it replaced took about
160 ms plus 40 ms for ``reach`` (``scripts/bench_startup.py``); ``read`` still reads that older format (a card whose
file ends in ``.tsv.gz``).

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "nb.counts"
>>> write(path, ["the", "cat", "scat"], [5, 2.5, 1], {"the": "cat 2"})
>>> words, counts, contexts, reach, is_sorted = read(path)
>>> words, counts.tolist(), contexts, reach, is_sorted
(['cat', 'scat', 'the'], [2.5, 1.0, 5.0], {'the': 'cat 2'}, {'cat': 4, 'the': 3}, True)
"""

from __future__ import annotations

import gzip
import struct
import zlib
from pathlib import Path
from typing import NamedTuple

import numpy as np

MAGIC = b"charrestore-nb-counts 2\n"
MAGIC_1 = b"charrestore-nb-counts 1\n"  # the same, its words most frequent first
FORMAT = ("charrestore counts 2 (charrestore/counts.py): a header, then zlib: float64 word counts, the words (sorted "
          "by code point), the context words, their raw pairs, the reach table; <s> is the start context")
_HEADER = struct.Struct("<6Q")  # words, reach entries, then the byte lengths of the four text blobs


class Counts(NamedTuple):
    words: list[str]
    counts: np.ndarray
    contexts: dict[str, str]  # context word -> "word count word count ..."
    reach: dict[str, int]  # last three letters -> length of the longest word ending in them
    is_sorted: bool = False  # words sorted by code point (format 2)


def reach_of(words: list[str]) -> dict[str, int]:
    """Last three letters -> length of the longest word (of three letters or more) ending in them."""
    return {w[-3:]: len(w) for w in sorted((w for w in words if len(w) > 2), key=len)}


def write(path: Path, words: list[str], counts, contexts: dict[str, str]) -> None:
    """The counts to ``path``, the words sorted (``reach`` derived here); no word or context word may hold a line
    break."""
    if any("\n" in w for w in (*words, *contexts)):
        raise ValueError("a word holds a line break")
    order = sorted(range(len(words)), key=words.__getitem__)
    words, counts = [words[k] for k in order], np.asarray(counts, "<f8")[order]
    if any(a == b for a, b in zip(words, words[1:])):
        raise ValueError("a word is listed twice")
    reach = reach_of(words)
    blobs = [b.encode("utf-8") for b in ("\n".join(words), "\n".join(contexts), "\n".join(contexts.values()),
                                         "\n".join(reach))]
    lengths = np.asarray(list(reach.values()), "<u2").tobytes()
    payload = zlib.compress(b"".join([np.asarray(counts, "<f8").tobytes(), *blobs, lengths]), 9)
    Path(path).write_bytes(MAGIC + _HEADER.pack(len(words), len(reach), *map(len, blobs)) + payload)


def read(path: Path) -> Counts:
    """The counts of ``path`` (a ``ValueError`` if it is not whole)."""
    if Path(path).name.endswith(".tsv.gz"):
        return read_tsv(path)
    raw = Path(path).read_bytes()
    if not raw.startswith((MAGIC, MAGIC_1)) or len(raw) < len(MAGIC) + _HEADER.size:
        raise ValueError("not a charrestore counts file")
    n, n_reach, *sizes = _HEADER.unpack_from(raw, len(MAGIC))
    try:
        payload = zlib.decompress(raw[len(MAGIC) + _HEADER.size:])
    except zlib.error as exc:
        raise ValueError(f"damaged counts ({exc})") from None
    if len(payload) != 8 * n + sum(sizes) + 2 * n_reach:
        raise ValueError("truncated or overlong counts file")
    counts = np.frombuffer(payload, "<f8", n).astype(float)
    at, blobs = 8 * n, []
    for size in sizes:
        blobs.append(payload[at:at + size].decode("utf-8").split("\n") if size else [])
        at += size
    words, keys, values, ends = blobs
    if len(words) != n or len(keys) != len(values) or len(ends) != n_reach:
        raise ValueError("the counts file's parts do not agree")
    reach = dict(zip(ends, np.frombuffer(payload, "<u2", n_reach, at).tolist()))
    return Counts(words, counts, dict(zip(keys, values)), reach, raw.startswith(MAGIC))


def read_tsv(path: Path) -> Counts:
    """``read`` for the older gzip TSV: ``word<TAB>count`` lines, then ``prev<TAB>word count ...`` lines."""
    with gzip.open(path, "rb") as fh:
        fields = fh.read().decode("utf-8").replace("\t", "\n").split("\n")
    keys, values = fields[0:-1:2], fields[1::2]
    del fields
    n = next((k for k, v in enumerate(values) if " " in v), len(values))
    return Counts(keys[:n], np.asarray(values[:n], dtype=float), dict(zip(keys[n:], values[n:])), reach_of(keys[:n]))
