"""Dev references shared by the evaluation and tuning scripts: one cleaned document per line."""

from __future__ import annotations

from pathlib import Path

from charrestore.codec import parse, strip_features
from charrestore.training.corpus import clean


def load_dev(files, pack, holdout: int = 0) -> list[str]:
    """Cleaned paragraphs (TSV: last column; TXT: each line). With ``holdout``, only documents whose
    numeric id (first column) is a multiple of it: the held-out articles of a training file."""
    docs = []
    for f in files:
        for line in Path(f).read_text(encoding="utf-8").splitlines():
            cols = line.split("\t")
            if holdout and not (cols[0].isdigit() and int(cols[0]) % holdout == 0):
                continue
            text = clean(cols[-1], pack)
            if text:
                docs.append(text)
    return docs


def sentences(docs: list[str], pack) -> list[str]:
    """Each document cut after every word whose marks end a sentence (as the token metrics label it), so that
    every sentence is restored as an input of its own: the short inputs users type."""
    ends = sum(pack.bit(m) for m in pack.sentence_marks)
    out = []
    for doc in docs:
        words: list[str] = []
        for word in doc.split():
            words.append(word)
            _, classes = parse(word, pack)
            if len(classes) and classes[-1] & ends:
                out.append(" ".join(words))
                words = []
        if words:
            out.append(" ".join(words))
    return out


def unspaced_docs(refs: list[str], pack, engine) -> tuple[list, list]:
    """For position-wise scoring of restored spaces: the reference classes of each document and the engine's
    encoding ``(base, gids, states, enforce)`` of its unmarked, de-spaced text. A document whose graphemes
    change when its spaces go (a word that starts with a combining sign) is skipped, and so reported."""
    ref_cls, docs = [], []
    for ref in refs:
        ref_base, classes = parse(ref, pack)
        encoded = engine.encode(strip_features(ref, pack), "restore")
        if encoded[0] == ref_base:
            ref_cls.append(classes)
            docs.append(encoded)
    print(f"{len(refs) - len(docs)} dev documents skipped: their graphemes change when the spaces are removed",
          flush=True)
    return ref_cls, docs
