"""Counts and scores for ``ami_pause.py``: (tp, fp, fn) of the non-O labels, P/R/F1 as ``evaluate_token`` gives
them, and a paired bootstrap over meeting series (so that a speaker group is never split across samples)."""

from __future__ import annotations

import numpy as np


def counts(pred: np.ndarray, gold: np.ndarray) -> np.ndarray:
    """(tp, fp, fn) over the non-O labels."""
    return np.array([((pred == gold) & (gold > 0)).sum(), ((pred != gold) & (pred > 0)).sum(),
                     ((pred != gold) & (gold > 0)).sum()])


def f1(tpfpfn) -> float:
    tp, fp, fn = tpfpfn
    return 2 * tp / (2 * tp + fp + fn) if tp else 0.0


def per_class_counts(pred: np.ndarray, gold: np.ndarray, n_labels: int) -> np.ndarray:
    """[labels, (tp, fp, fn)] one-vs-rest, label 0 (O) included but never scored."""
    out = np.zeros((n_labels, 3), np.int64)
    for lab in range(1, n_labels):
        p, g = pred == lab, gold == lab
        out[lab] = ((p & g).sum(), (p & ~g).sum(), (~p & g).sum())
    return out


def prf(c: np.ndarray, labels) -> dict:
    """P/R/F1 per non-O label and the micro "overall" from [labels, (tp, fp, fn)], as evaluate_token gives them."""
    def one(tp, fp, fn):
        p, r = (tp / (tp + fp) if tp + fp else 0.0), (tp / (tp + fn) if tp + fn else 0.0)
        return {"tp": int(tp), "fp": int(fp), "fn": int(fn), "precision": p, "recall": r,
                "f1": 2 * p * r / (p + r) if p + r else 0.0}
    out = {lab: one(*c[j]) for j, lab in enumerate(labels) if j}
    out["overall"] = one(*c[1:].sum(0))
    return out


def overall_f1(c: np.ndarray) -> float:
    """Micro F1 over the non-O labels from [labels, (tp, fp, fn)]: the "overall" of evaluate_token."""
    return f1(c[1:].sum(0))


def bootstrap(a: dict, b: dict, n: int = 2000, seed: int = 0) -> dict:
    """Paired bootstrap over meeting SERIES (meetings of one series share their speakers, so they are not
    independent): the held-out overall F1 difference b - a, its 95 % interval and how often it is <= 0."""
    series = sorted({m[:-1] for m in a})
    ca = np.array([sum(v for m, v in a.items() if m[:-1] == s) for s in series])
    cb = np.array([sum(v for m, v in b.items() if m[:-1] == s) for s in series])
    rng = np.random.default_rng(seed)
    diffs = []
    for _ in range(n):
        k = rng.integers(0, len(series), len(series))
        diffs.append(overall_f1(cb[k].sum(0)) - overall_f1(ca[k].sum(0)))
    diffs = np.array(diffs)
    return {"series": len(series), "diff": round(overall_f1(cb.sum(0)) - overall_f1(ca.sum(0)), 4),
            "ci95": [round(float(np.percentile(diffs, 2.5)), 4), round(float(np.percentile(diffs, 97.5)), 4)],
            "p_not_better": round(float((diffs <= 0).mean()), 4)}
