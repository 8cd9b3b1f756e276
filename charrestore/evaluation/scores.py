"""Counts and scores: P/R/F from TP/FP/FN, one-vs-rest scores of a confusion matrix, micro averages, and the
text tables that print them (percentages; ``to_dict`` keeps fractions in [0, 1] beside the raw counts)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np


@dataclass(frozen=True)
class PRF:
    """True positives, false positives and false negatives, with P, R and F (``None`` when undefined).

    F is ``2TP / (2TP + FP + FN)``; a denominator of 0 gives ``None`` ("n/a"), so a class that never occurs on
    either side is not counted as perfect.

    >>> s = PRF(3, 1, 0) + PRF(1, 0, 4)
    >>> s, s.precision, s.recall, s.support, PRF().f1
    (PRF(tp=4, fp=1, fn=4), 0.8, 0.5, 8, None)
    """

    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float | None:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def recall(self) -> float | None:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None

    @property
    def f1(self) -> float | None:
        denom = 2 * self.tp + self.fp + self.fn
        return 2 * self.tp / denom if denom else None

    @property
    def support(self) -> int:
        """Occurrences in the reference."""
        return self.tp + self.fn

    def __add__(self, other: "PRF") -> "PRF":
        return PRF(self.tp + other.tp, self.fp + other.fp, self.fn + other.fn)

    def to_dict(self) -> dict:
        return {"precision": self.precision, "recall": self.recall, "f1": self.f1,
                "tp": self.tp, "fp": self.fp, "fn": self.fn, "support": self.support}


def class_scores(matrix: np.ndarray, labels: Sequence[str]) -> dict[str, PRF]:
    """One-vs-rest counts of each class of a confusion matrix (reference rows, hypothesis columns): a COMMA
    predicted as PERIOD is a false negative of COMMA and a false positive of PERIOD."""
    rows, cols = matrix.sum(axis=1), matrix.sum(axis=0)
    return {lab: PRF(int(matrix[i, i]), int(cols[i] - matrix[i, i]), int(rows[i] - matrix[i, i]))
            for i, lab in enumerate(labels)}


def micro(scores: dict[str, PRF], skip: str | None = None) -> PRF:
    """The micro average: the sum of the counts of every class but ``skip`` (IWSLT leaves out ``O``)."""
    total = PRF()
    for name, s in scores.items():
        if name != skip:
            total = total + s
    return total


def _pct(x: float | None, width: int = 6) -> str:
    return f"{'n/a':>{width}}" if x is None else f"{100 * x:{width}.2f}"


def prf_header(title: str, width: int = 10) -> str:
    return f"{title:<{width}} {'P':>6} {'R':>6} {'F':>6} {'support':>9} {'TP':>9} {'FP':>9} {'FN':>9}"


def prf_row(name: str, s: PRF, width: int = 10) -> str:
    return (f"{name:<{width}} {_pct(s.precision)} {_pct(s.recall)} {_pct(s.f1)} "
            f"{s.support:>9} {s.tp:>9} {s.fp:>9} {s.fn:>9}")


def matrix_text(matrix: np.ndarray, labels: Sequence[str]) -> list[str]:
    """A confusion matrix as text lines, the reference in rows and the hypothesis in columns."""
    width = max(9, *(len(lab) + 1 for lab in labels))
    corner = "ref/hyp"
    lines = [f"{corner:<{width}}" + "".join(f"{lab:>{width}}" for lab in labels)]
    for lab, row in zip(labels, matrix):
        lines.append(f"{lab:<{width}}" + "".join(f"{int(v):>{width}}" for v in row))
    return lines


def mismatch_warnings(n_ref: int, n_hyp: int, n_mismatch: int, what: str) -> list[str]:
    """What was not scored, said aloud: lines only in one file, and lines aligned because they differ."""
    out = []
    if n_ref != n_hyp:
        out.append(f"warning: {n_ref} reference lines but {n_hyp} hypothesis lines; "
                   f"only the first {min(n_ref, n_hyp)} are scored")
    if n_mismatch:
        out.append(f"warning: {n_mismatch} lines with {what}")
    return out
