"""Corpus reading for training: documents out of the shared corpus formats, cleaned by the pack's rules.

Formats (see ``../shared/corpora/README.md``): ``.tsv`` files whose first column is the document id and
last column the text (paragraphs of one id form one document); ``.txt`` files with one document per line. Either may
be xz-compressed (``.tsv.xz``): it is read as a stream, never decompressed to disk.
"""

from __future__ import annotations

import lzma
import re
from collections import Counter
from pathlib import Path

import numpy as np
import regex

from ..codec import parse
from ..holdout import held_out
from ..packs import LanguagePack

# "(Applause)", "(Laughter)", "(Audience cheers)": transcript annotations, not text.
_SOUND_TAG = re.compile(r"\((?:[A-Z][a-z]+)(?: [a-z]+){0,3}\)")
_HAS_LOWER = regex.compile(r"\p{Ll}")  # any script's small letter: a Cyrillic paragraph is no heading
# What differs between the spoken sources of ../shared/corpora/en, made alike before the pack's map reads them
# (training only: dev and test references stay as they are). Keyed by file name without its suffix.
SOURCE_RULES: dict[str, tuple[tuple[re.Pattern, str], ...]] = {
    # Before ~2008 a self-interruption is "...", after it "--" (as in TED): one convention, the later one.
    "scotus_oral_arguments": ((re.compile(r"\s*\.\.\.+\s*(?=\S)"), " -- "),),
    # A trail-off mid-turn ("we expect… you know") is an interruption too, not a sentence end.
    "earnings_calls": ((re.compile(r"\s*…\s*(?=\S)"), " -- "),),
    # The WorkLife podcast episodes name speakers by initials inside paragraphs ("CB: Looks very good").
    "ted_extra": ((re.compile(r"(?:^|(?<=\s))[A-Z]{1,3}: "), ""),),
}


# Training files that also give a dev set: 1 document in N (by ``held_out``) is never trained on. Brown is the
# written-text dev set of en (scripts/eval_char.py --dev .../brown_train_docs.tsv --holdout 5).
HELD_OUT = {"brown_train_docs": 5}


def parse_corpus_arg(spec: str) -> tuple[str, float]:
    """``PATH`` or ``PATH@WEIGHT`` (sampling weight, default 1)."""
    path, _, weight = spec.partition("@")
    return path, float(weight or 1.0)


def given_weights(sources: list[dict], corpora: list[tuple[str, float]]) -> list[float]:
    """Per encoded source, the weight that ``corpora`` (parsed ``--corpus`` arguments) give its path, else the weight
    it was encoded with: runs that share one encoded mix differ only in how they sample it."""
    given = {_file_key(path): weight for path, weight in corpora}
    return [given.get(_file_key(s["path"]), s["weight"]) for s in sources]


def encodes(meta: dict | None, corpora: list[tuple[str, float]]) -> bool:
    """Whether an encoded mix (a run's cached ``meta.json``) holds every file that ``corpora`` names: a resumed run
    that names another file must encode it, not train on the cached files alone."""
    have = {_file_key(s["path"]) for s in meta["sources"]} if meta else set()
    return bool(meta) and all(_file_key(path) in have for path, _ in corpora)


def _file_key(path: str | Path) -> str:
    """One file, however a command spelled its path."""
    return str(Path(path).resolve())


def clean(paragraph: str, pack: LanguagePack) -> str:
    """Drop sound tags; for cased packs drop headings (no lower-case letter at all)."""
    text = _SOUND_TAG.sub(" ", paragraph)
    text = " ".join(text.split()) if pack.has_space else text.strip()
    if pack.cased and not _HAS_LOWER.search(text):
        return ""
    return text


def name_and_format(path: Path) -> tuple[str, str]:
    """A corpus file's name without its suffixes and its format (``.tsv`` or ``.txt``), through an ``.xz``."""
    inner = Path(path.stem) if path.suffix == ".xz" else path
    return inner.stem, inner.suffix


def open_text(path: str | Path):
    """A corpus file opened for reading text, through xz if it is compressed."""
    path = Path(path)
    return (lzma.open if path.suffix == ".xz" else open)(path, "rt", encoding="utf-8")


def read_documents(path: str | Path, pack: LanguagePack, holdout=None) -> list[str]:
    """The documents of one corpus file, cleaned; ``holdout(doc_id) -> bool`` drops documents, as do the file's
    ``HELD_OUT`` dev documents."""
    path = Path(path)
    name, fmt = name_and_format(path)
    rules = SOURCE_RULES.get(name, ())
    if name in HELD_OUT:
        every, other = HELD_OUT[name], holdout
        holdout = lambda doc_id: held_out(doc_id, every) or (other is not None and other(doc_id))  # noqa: E731
    joiner = " " if pack.has_space else ""
    docs: dict[str, list[str]] = {}
    with open_text(path) as fh:
        for n, line in enumerate(fh):
            line = line.rstrip("\n")
            if fmt == ".tsv":
                cols = line.split("\t")
                doc_id, text = cols[0], cols[-1]
            else:
                doc_id, text = str(n), line
            if holdout is not None and holdout(doc_id):
                continue
            for pattern, replacement in rules:
                text = pattern.sub(replacement, text)
            text = clean(text, pack)
            if text:
                docs.setdefault(doc_id, []).append(text)
    return [joiner.join(parts) for parts in docs.values()]


def encode_documents(docs: list[str], pack: LanguagePack) -> tuple[list[str], np.ndarray]:
    """Concatenate documents into one stream of (base graphemes, class ids).

    A document boundary counts as a space where the pack has one, so windows that cross it read
    like running text.
    """
    space_bit = pack.bit("SPACE")
    base: list[str] = []
    classes: list[np.ndarray] = []
    for doc in docs:
        b, c = parse(doc, pack)
        if not b:
            continue
        c[-1] |= space_bit
        base.extend(b)
        classes.append(c)
    return base, (np.concatenate(classes) if classes else np.zeros(0, np.int32))


def build_vocab(base: list[str], min_count: int) -> list[str]:
    """Graphemes seen at least ``min_count`` times, most frequent first; ids 0/1 are PAD/UNK."""
    counts = Counter(base)
    return ["<pad>", "<unk>"] + [g for g, n in counts.most_common() if n >= min_count]
