"""Corpus reading for training: documents out of the shared corpus formats, cleaned by the pack's rules.

Formats (see ``../shared/corpora/README.md``): ``.tsv`` files whose first column is the document id and
last column the text (paragraphs of one id form one document); ``.txt`` files with one document per line.
"""

from __future__ import annotations

import re
import zlib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..codec import parse
from ..packs import LanguagePack

# "(Applause)", "(Laughter)", "(Audience cheers)": transcript annotations, not text.
_SOUND_TAG = re.compile(r"\((?:[A-Z][a-z]+)(?: [a-z]+){0,3}\)")
_HAS_LOWER = re.compile(r"[a-z]")
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


def held_out(doc_id: str, every: int, rest: int = 0) -> bool:
    """Whether a document is in the 1-in-``every`` dev share of its file: a numeric id that is ``rest`` modulo
    ``every``, else one whose CRC-32 is (stable across runs and machines, unlike ``hash``)."""
    return (int(doc_id) if doc_id.isdigit() else zlib.crc32(doc_id.encode("utf-8"))) % every == rest


@dataclass(frozen=True)
class Holdout:
    """The dev documents of a training file (``--holdout EVERY[:REST]``): ids equal to REST modulo EVERY, by
    ``held_out``. ``50`` is the share a run held out; ``100`` and ``100:50`` cut it into a tuning half and a test
    half, so that a number is measured on documents used for neither training nor tuning. ``0``: every document."""

    every: int = 0
    rest: int = 0

    @classmethod
    def parse(cls, spec) -> Holdout:
        """From ``50``, ``"100:50"`` or a Holdout (its ``str``); a bad spec raises ValueError (argparse's message)."""
        every, _, rest = str(spec).partition(":")
        holdout = cls(int(every), int(rest or 0))
        if holdout.every < 0 or not 0 <= holdout.rest < max(holdout.every, 1):
            raise ValueError(f"holdout {spec!r}: need EVERY >= 0 and 0 <= REST < EVERY")
        return holdout

    def __bool__(self) -> bool:
        return self.every > 0

    def __contains__(self, doc_id: str) -> bool:
        return not self or held_out(doc_id, self.every, self.rest)

    def __str__(self) -> str:
        return f"{self.every}:{self.rest}" if self.rest else str(self.every)

    def describe(self) -> str:
        return f"documents whose id % {self.every} == {self.rest}"


def parse_corpus_arg(spec: str) -> tuple[str, float]:
    """``PATH`` or ``PATH@WEIGHT`` (sampling weight, default 1)."""
    path, _, weight = spec.partition("@")
    return path, float(weight or 1.0)


def given_weights(sources: list[dict], corpora: list[tuple[str, float]]) -> list[float]:
    """Per encoded source, the weight that ``corpora`` (parsed ``--corpus`` arguments) give its path, else the weight
    it was encoded with: runs that share one encoded mix differ only in how they sample it."""
    given = {str(Path(path).resolve()): weight for path, weight in corpora}
    return [given.get(str(Path(s["path"]).resolve()), s["weight"]) for s in sources]


def clean(paragraph: str, pack: LanguagePack) -> str:
    """Drop sound tags; for cased packs drop headings (no lower-case letter at all)."""
    text = _SOUND_TAG.sub(" ", paragraph)
    text = " ".join(text.split()) if pack.has_space else text.strip()
    if pack.cased and not _HAS_LOWER.search(text):
        return ""
    return text


def read_documents(path: str | Path, pack: LanguagePack, holdout=None) -> list[str]:
    """The documents of one corpus file, cleaned; ``holdout(doc_id) -> bool`` drops documents, as do the file's
    ``HELD_OUT`` dev documents."""
    path = Path(path)
    rules = SOURCE_RULES.get(path.stem, ())
    if path.stem in HELD_OUT:
        every, other = HELD_OUT[path.stem], holdout
        holdout = lambda doc_id: held_out(doc_id, every) or (other is not None and other(doc_id))  # noqa: E731
    joiner = " " if pack.has_space else ""
    docs: dict[str, list[str]] = {}
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh):
            line = line.rstrip("\n")
            if path.suffix == ".tsv":
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
