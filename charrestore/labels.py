"""Word labels: the mark after each word (O/COMMA/PERIOD/QUESTION) and its casing class (O/UPP/CAP/MIX).

The token model predicts them, training reads them from formatted text and token-level evaluation scores
them; all three take them from here, so the rules exist once.

- A word's punctuation label comes from the marks that end it: ``O`` (none), else the mark rendered last,
  the one touching the next word (for en, ``?`` > ``,`` > ``.``: "D.C.," is COMMA). Marks inside a word
  ("yahoo.com", the first "." of "D.C.") do not count.
- A casing class is taken over the word's cased letters (graphemes that have a case): ``O`` no upper case
  letter; ``UPP`` all upper and more than one ("AI", "D.C."); ``CAP`` only the first upper, which includes
  "I" and "A"; ``MIX`` any other word with an upper case letter ("iPhone", "McDonald", "African-American").
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from .clusters import upper_of
from .codec import parse, render, word_spans
from .packs import CAPS, SPACE, LanguagePack

#: Token-level names of the marks (IWSLT); a mark not listed is named by itself.
MARK_LABELS = {".": "PERIOD", "。": "PERIOD", ",": "COMMA", "、": "COMMA", "?": "QUESTION", "？": "QUESTION"}
PUNCT_ORDER = ("O", "COMMA", "PERIOD", "QUESTION")
CASING_LABELS = ("O", "UPP", "CAP", "MIX")


def canonical(text: str, pack: LanguagePack, apply_map: bool) -> tuple[list[str], np.ndarray]:
    """(base, classes) of the canonical rendering: parse, render, parse again. The re-parse drops any
    mark or space that rendering had to leave out (one that would fuse into a grapheme cluster)."""
    base, classes = parse(text, pack, apply_map)
    return parse(render(base, classes, pack), pack, apply_map=False)


def words(base: list[str], classes: np.ndarray, pack: LanguagePack) -> list[tuple[int, int]]:
    """Word spans ``(start, end)`` over the graphemes: a word ends after each grapheme with SPACE."""
    return word_spans(classes, pack.bit(SPACE))


def punct_label(last_class: int, pack: LanguagePack) -> str:
    """The punctuation label of a word from the class of its last grapheme: ``O``, or the mark rendered last."""
    for mark in reversed(pack.marks):
        if last_class & pack.bit(mark):
            return MARK_LABELS.get(mark, mark)
    return "O"


def casing_ids(base: Sequence[str], classes: np.ndarray, spans: Sequence[tuple[int, int]],
               pack: LanguagePack) -> np.ndarray:
    """Casing class ids (into CASING_LABELS) of the words ``spans``, vectorized over the words."""
    casing = np.zeros(len(spans), dtype=np.int64)
    caps = pack.bit(CAPS)
    if not caps or not spans:
        return casing
    classes = np.asarray(classes)
    starts = np.fromiter((s for s, _ in spans), dtype=np.int64, count=len(spans))
    upper = (classes & caps) != 0
    cased = upper | np.fromiter((upper_of(g) is not None for g in base), dtype=bool, count=len(base))
    n_upper = np.add.reduceat(upper.astype(np.int64), starts)
    n_cased = np.add.reduceat(cased.astype(np.int64), starts)
    cased_at = np.flatnonzero(cased)
    first = np.minimum(np.searchsorted(cased_at, starts), max(len(cased_at) - 1, 0))
    first_upper = upper[cased_at[first]] if len(cased_at) else np.zeros(len(spans), dtype=bool)
    casing[:] = CASING_LABELS.index("MIX")
    casing[(n_upper == 1) & first_upper] = CASING_LABELS.index("CAP")
    casing[(n_upper == n_cased) & (n_cased > 1)] = CASING_LABELS.index("UPP")
    casing[n_upper == 0] = CASING_LABELS.index("O")
    return casing


def casing_class(base: Sequence[str], classes: Sequence[int], pack: LanguagePack) -> str:
    """O / UPP / CAP / MIX of one word (see the module docstring).

    >>> from charrestore.packs import load_pack
    >>> en = load_pack("en")
    >>> [casing_class(*parse(w, en), en) for w in ("AI", "Will", "I", "iPhone", "D.C.", "don't", "3D")]
    ['UPP', 'CAP', 'CAP', 'MIX', 'UPP', 'O', 'CAP']
    """
    if not len(base):
        return "O"
    return CASING_LABELS[int(casing_ids(base, np.asarray(classes), [(0, len(base))], pack)[0])]


def labelled_words(text: str, pack: LanguagePack, apply_map: bool = True, punct_of_class: np.ndarray | None = None):
    """(base forms, punctuation label ids, casing class ids into CASING_LABELS) of a document's words.

    ``punct_of_class`` maps a grapheme class to a punctuation label id (default: into PUNCT_ORDER).

    >>> from charrestore.packs import load_pack
    >>> forms, punct, case = labelled_words("Will AI change, D.C.?", load_pack("en"))
    >>> forms, [PUNCT_ORDER[p] for p in punct], [CASING_LABELS[c] for c in case]
    (['will', 'ai', 'change', 'dc'], ['O', 'O', 'COMMA', 'QUESTION'], ['CAP', 'UPP', 'O', 'UPP'])
    """
    return labelled_spans(text, pack, apply_map, punct_of_class)[3:]


def labelled_spans(text: str, pack: LanguagePack, apply_map: bool = True, punct_of_class: np.ndarray | None = None):
    """``labelled_words`` with what they were read from first: (base, classes, word spans, forms, punct, case)."""
    if punct_of_class is None:
        punct_of_class = np.array([PUNCT_ORDER.index(punct_label(c, pack)) for c in range(pack.n_classes)])
    base, classes = canonical(text, pack, apply_map)
    spans = words(base, classes, pack)
    if not spans:
        return base, classes, spans, [], np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    ends = np.fromiter((e for _, e in spans), dtype=np.int64, count=len(spans))
    forms = ["".join(base[s:e]) for s, e in spans]
    return base, classes, spans, forms, punct_of_class[classes[ends - 1]], casing_ids(base, classes, spans, pack)
