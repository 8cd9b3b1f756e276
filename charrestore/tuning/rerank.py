"""Learn the segmentation reranker's weights (``charrestore tune rerank``).

The weights are learned on ``--train`` hashtags (STAN-large train) and ``k`` and the L2 strength are chosen on the
``--dev`` hashtags (STAN-large dev): the highest exact match, ties to the smaller ``k`` (faster) and then the
stronger L2. The model is a conditional logit over each hashtag's NB candidates: ``P(c) ∝ exp(w · x_c)``, fitted
by Newton's method to the log probability of the candidates that match a gold segmentation (a hashtag with no
such candidate, or only such candidates, teaches nothing and is skipped). Seven features and a few thousand
hashtags make each fit a fraction of a second, so the grid is exhaustive.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np

from ..cards import load_card, write_card
from ..paths import models_dir
from ..rerank import CARD, FEATURES, Reranker, char_scorer
from ..segmenter import Segmenter
from .dev import load_hashtags
from .nb import boundaries

K_GRID = (3, 5, 8, 12)
L2_GRID = (100.0, 30.0, 10.0, 3.0, 1.0, 0.3, 0.1)


def gold_cuts(text: str, golds: list[str]) -> set[frozenset[int]]:
    """The gold segmentations of ``text`` as boundary sets over its letters and digits (as tuning.nb scores)."""
    chars, _ = boundaries([text])
    out = set()
    for gold in golds:
        gold_chars, cuts = boundaries(gold.split())
        if gold_chars == chars:
            out.add(cuts)
    return out


def examples(reranker: Reranker, items, k: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per hashtag: (feature rows of its NB candidates, which of them match a gold segmentation)."""
    out = []
    for text, golds in items:
        paths, X = reranker.features(text, k)
        gold = gold_cuts(text, golds)
        y = np.array([boundaries([text[a:b] for a, b in zip([0, *p.cuts], [*p.cuts, len(text)])])[1] in gold
                      for p in paths])
        out.append((X, y))
    return out


def fit(data, columns: list[int], l2: float, steps: int = 50) -> np.ndarray:
    """Weights over ``columns`` maximizing Σ log P(gold candidates) - l2/2 |w|². Newton steps with the Hessian of
    the one-gold case (-Cov_p - l2): exact when one candidate matches, a shorter safe step when several do."""
    groups = [(X[:, columns], y) for X, y in data if y.any() and not y.all()]
    w = np.zeros(len(columns))
    for _ in range(steps):
        grad, hess = -l2 * w, -l2 * np.eye(len(columns))
        for X, y in groups:
            s = X @ w
            p = np.exp(s - s.max())
            p /= p.sum()
            q = p * y
            q /= q.sum()
            mean = p @ X
            grad += q @ X - mean
            hess -= ((X - mean).T * p) @ (X - mean)
        step = np.linalg.solve(hess, -grad)
        w += step
        if np.abs(step).max() < 1e-8:
            break
    return w


def exact(data, columns: list[int], w: np.ndarray) -> float:
    """Exact match: the share of hashtags whose top reranked candidate matches a gold one."""
    return float(np.mean([y[int(np.argmax(X[:, columns] @ w))] for X, y in data]))


def add_arguments(p) -> None:
    p.add_argument("--train", required=True, metavar="FILE",
                   help="hashtags with gold segmentations to learn from (hashtag<TAB>gold..., STAN-large train)")
    p.add_argument("--k", type=int, nargs="+", default=list(K_GRID), help="candidate counts to try")
    p.add_argument("--l2", type=float, nargs="+", default=list(L2_GRID), help="L2 strengths to try")
    p.add_argument("--char-model", metavar="NAME",
                   help="also weigh the char model NAME's space log odds at the cuts (slower: one model call a text)")
    p.add_argument("--license", help="the license of the --train data, recorded in the card")
    p.add_argument("--json", metavar="FILE", help="also write the grid and the choice (the report) here")


def run(args, command: str) -> dict:
    root = Path(args.models_dir) if args.models_dir else None
    seg = Segmenter.load(args.lang, root)
    char = char_scorer(args.lang, args.char_model, root) if args.char_model else None
    names = [f for f in FEATURES if f != "char" or char is not None]
    columns = [FEATURES.index(f) for f in names]
    probe = Reranker(seg, {"char": 1.0}, char=char)  # computes every feature; the weights do not matter here
    train, dev = load_hashtags(Path(args.train)), [x for f in args.dev for x in load_hashtags(Path(f))]
    grid, best = [], None
    for k in sorted(args.k):
        t = time.perf_counter()
        tr, dv = examples(probe, train, k), examples(probe, dev, k)
        oracle = float(np.mean([y.any() for _, y in dv]))
        nb_dev = float(np.mean([y[0] for _, y in dv]))  # the first candidate is the NB's Viterbi best
        for l2 in sorted(args.l2, reverse=True):
            w = fit(tr, columns, l2)
            row = {"k": k, "l2": l2, "train_exact": round(exact(tr, columns, w), 4),
                   "dev_exact": round(exact(dv, columns, w), 4), "dev_oracle": round(oracle, 4),
                   "weights": dict(zip(names, np.round(w, 5).tolist()))}
            grid.append(row)
            if best is None or row["dev_exact"] > best["dev_exact"]:
                best = row
            print(f"  k={k} l2={l2}: train {row['train_exact']:.4f} dev {row['dev_exact']:.4f} "
                  f"(oracle {oracle:.4f}, {time.perf_counter() - t:.1f} s)", file=sys.stderr)
    report = {"command": command, "features": names, "train": {"file": Path(args.train).name, "hashtags": len(train), "license": args.license},
              "dev": {"files": [Path(f).name for f in args.dev], "hashtags": len(dev)},
              "nb_dev_exact": round(nb_dev, 4), "grid": grid, "choice": best}
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    if args.write_card:
        write(args.lang, root, best, report, args.char_model)
    print(json.dumps({"choice": best, "nb_dev_exact": report["nb_dev_exact"]}, ensure_ascii=False))
    return report


def write(lang: str, root: Path | None, best: dict, report: dict, char_model: str | None) -> None:
    """The weights file and its card, which records the NB counts the weights were learned over."""
    folder = Path(root or models_dir()) / lang
    weights = folder / f"{CARD}.weights.json"
    weights.write_text(json.dumps({"k": best["k"], "weights": best["weights"]}, indent=1) + "\n", encoding="utf-8")
    nb_card, _ = load_card(lang, "nb", root)
    card = {"name": CARD, "kind": CARD, "lang": lang, "file": weights.name,
            "format": "json: k (NB candidates) and weights (feature -> weight; features are differences from the "
                      "NB best, see charrestore/rerank.py)",
            "nb_sha256": nb_card["sha256"], "k": best["k"],
            "dev_metrics": {"exact": best["dev_exact"], "nb_exact": report["nb_dev_exact"],
                            "oracle": best["dev_oracle"], "hashtags": report["dev"]["hashtags"]},
            "train": report["train"], "dev": report["dev"], "tuning": report, "command": report["command"]}
    if char_model:
        card["char_model"] = char_model
    write_card(folder / f"{CARD}.json", card)
