"""Determinism by construction (#22): the shipped models give byte-identical restorations for any batch size and
thread count, both engines and every pack, on documents many windows long.

The models were made batch-independent by ``scripts/dequantize_models.py`` (one window per Loop iteration, its
int8 activations quantized over that window alone): ``quantize_dynamic`` took one activation scale over the whole
batch, and a float GEMM's rows are not independent of the batch either (MLAS tiles rows; a lone row takes another
kernel), so int8 weights with float activations alone would not do. This fails on the batched models (every pack).
The documents are the fixture texts shuffled into long lines, lower-cased without marks (and without spaces for
the space-restoring engines), so every window of several batches is exercised.
"""

import random
from pathlib import Path

import pytest
import regex

from charrestore import Restorer, load_pack

TEXTS = Path(__file__).resolve().parent / "fixtures" / "text"
BATCH_SIZES = (1, 2, 7, 32, 64)
THREADS = (1, 2)
ENGINES = [("en", "pipeline"), ("en", "char"), ("ja", "char"), ("gu", "char")]


def long_documents(lang: str, n: int = 3, length: int = 2600) -> list[str]:
    """``n`` documents of about ``length`` characters (6-7 char windows, ~4 token windows each)."""
    lines = [l for l in (TEXTS / f"{lang}.txt").read_text(encoding="utf-8").splitlines() if l.strip()]
    rng = random.Random(22)
    docs = []
    for _ in range(n):
        parts: list[str] = []
        while sum(len(p) + 1 for p in parts) < length:
            parts.append(rng.choice(lines))
        docs.append(" ".join(parts))
    return docs


def variants(lang: str, engine: str) -> list[str]:
    docs = [regex.sub(r"\s+", " ", regex.sub(r"[.,?!。、？]", "", d)).strip().lower() for d in long_documents(lang)]
    if load_pack(lang).has_space and engine == "char":
        docs.append(docs[0].replace(" ", ""))
    return docs


@pytest.mark.parametrize("lang,engine", ENGINES)
def test_output_does_not_depend_on_batch_size_or_threads(lang, engine):
    docs = variants(lang, engine)
    expected = [Restorer(lang=lang, engine=engine, batch_size=1, threads=1)(d) for d in docs]
    for threads in THREADS:
        for batch_size in BATCH_SIZES:
            if (threads, batch_size) == (1, 1):
                continue
            restorer = Restorer(lang=lang, engine=engine, batch_size=batch_size, threads=threads)
            got = [restorer(d) for d in docs]
            changed = [i for i, (a, b) in enumerate(zip(expected, got)) if a != b]
            assert not changed, (f"{lang} {engine}: batch_size={batch_size} threads={threads} changes "
                                 f"document(s) {changed} against batch_size=1 threads=1")
