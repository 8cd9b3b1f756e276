"""Learn the segmentation reranker's weights (``charrestore tune rerank``).

The weights are learned on ``--train`` hashtags (STAN-large train) and ``k`` and the L2 strength are chosen on the
``--dev`` hashtags (STAN-large dev): the smallest ``k`` (the work grows with it) whose best exact match is within
``--tolerance`` of the best of the grid (closer is one or two dev texts: noise), and its best L2. Hashtags alone
teach weights that under-segment prose (they punish one- and two-letter words, which prose is full of), and
``segment`` serves both: ``--prose`` adds short runs of words cut from de-spaced paragraphs to the training set,
``--prose-dev`` scores them too, and the objective is then the mean of both exact matches.
The model is a conditional logit over each text's NB candidates: ``P(c) ∝ exp(w · x_c)``, fitted by Newton's
method to the log probability of the candidates that match a gold segmentation (a text with no such candidate,
or only such candidates, teaches nothing and is skipped). Nine features and a few thousand texts make each fit a
fraction of a second, so the grid is exhaustive.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

import numpy as np

from ..cards import load_card, write_card
from ..paths import models_dir
from ..rerank import CARD, FEATURES, Reranker, char_scorer
from ..segmenter import Segmenter
from ..packs import load_pack
from .dev import load_despaced, load_hashtags
from .nb import boundaries

K_GRID = (3, 5, 8, 12)
L2_GRID = (100.0, 30.0, 10.0, 3.0, 1.0, 0.3, 0.1)


def gold_cuts(text: str, golds: list) -> set[frozenset[int]]:
    """The gold segmentations of ``text`` (strings, or lists of words) as boundary sets over its letters and digits
    (as tuning.nb scores)."""
    chars, _ = boundaries([text])
    out = set()
    for gold in golds:
        gold_chars, cuts = boundaries(gold.split() if isinstance(gold, str) else gold)
        if gold_chars == chars:
            out.add(cuts)
    return out


def prose(pack, paths: list[str], n: int, seed: int) -> list[tuple[str, list[list[str]]]]:
    """``n`` runs of 2 to 8 consecutive words, de-spaced, one from each of ``n`` paragraphs drawn at random (seeded):
    phrase-sized like hashtags, but prose."""
    rnd = random.Random(seed)
    paragraphs = [item for path in paths for item in load_despaced(pack, Path(path))]
    out = []
    for _, (words,) in rnd.sample(paragraphs, min(n, len(paragraphs))):
        m = rnd.randint(2, 8)
        a = rnd.randint(0, max(0, len(words) - m))
        out.append(("".join(words[a:a + m]), [words[a:a + m]]))
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
    p.add_argument("--prose", nargs="+", metavar="FILE", help="paragraph TSV files to cut training phrases from")
    p.add_argument("--prose-dev", nargs="+", metavar="FILE", help="paragraph TSV files to cut dev phrases from")
    p.add_argument("--prose-items", type=int, nargs=2, default=[2500, 629], metavar=("TRAIN", "DEV"),
                   help="phrases to cut for training and dev (default: 2500 629, as many as the STAN-large hashtags)")
    p.add_argument("--k", type=int, nargs="+", default=list(K_GRID), help="candidate counts to try")
    p.add_argument("--l2", type=float, nargs="+", default=list(L2_GRID), help="L2 strengths to try")
    p.add_argument("--tolerance", type=float, default=0.002,
                   help="objective differences up to this are ties, won by the smaller k (default: 0.002)")
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
    train = load_hashtags(Path(args.train))
    dev = {"hashtags": [x for f in args.dev for x in load_hashtags(Path(f))]}
    if args.prose:
        train += prose(load_pack(args.lang), args.prose, args.prose_items[0], seed=1)
    if args.prose_dev:
        dev["prose"] = prose(load_pack(args.lang), args.prose_dev, args.prose_items[1], seed=2)
    grid = []
    for k in sorted(args.k):
        t = time.perf_counter()
        tr, dv = examples(probe, train, k), {name: examples(probe, items, k) for name, items in dev.items()}
        oracle = {name: round(float(np.mean([y.any() for _, y in d])), 4) for name, d in dv.items()}
        nb = {name: round(float(np.mean([y[0] for _, y in d])), 4) for name, d in dv.items()}  # the Viterbi's best
        for l2 in sorted(args.l2, reverse=True):
            w = fit(tr, columns, l2)
            scores = {name: round(exact(d, columns, w), 4) for name, d in dv.items()}
            row = {"k": k, "l2": l2, "train_exact": round(exact(tr, columns, w), 4), "dev_exact": scores,
                   "objective": round(float(np.mean(list(scores.values()))), 4), "dev_oracle": oracle,
                   "weights": dict(zip(names, np.round(w, 5).tolist()))}
            grid.append(row)
            print(f"  k={k} l2={l2}: train {row['train_exact']:.4f} dev {scores} (NB {nb}, oracle {oracle}, "
                  f"{time.perf_counter() - t:.1f} s)", file=sys.stderr)
    top = max(row["objective"] for row in grid)
    near = [row for row in grid if row["objective"] >= top - args.tolerance]
    smallest = min(row["k"] for row in near)
    best = max((row for row in near if row["k"] == smallest), key=lambda row: (row["objective"], row["l2"]))
    report = {"command": command, "features": names,
              "train": {"hashtags": Path(args.train).name, "hashtag_license": args.license,
                        "prose": [Path(f).name for f in args.prose or []], "texts": len(train),
                        "max_chars": max(len(text) for text, _ in train)},
              "dev": {"hashtags": [Path(f).name for f in args.dev],
                      "prose": [Path(f).name for f in args.prose_dev or []],
                      "texts": {name: len(items) for name, items in dev.items()}},
              "nb_dev_exact": nb, "grid": grid, "choice": best}
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    if args.write_card:
        write(args.lang, root, best, report, args.char_model)
    print(json.dumps({"choice": best, "nb_dev_exact": nb}, ensure_ascii=False))
    return report


def write(lang: str, root: Path | None, best: dict, report: dict, char_model: str | None) -> None:
    """The weights file and its card, which records the NB counts the weights were learned over."""
    folder = Path(root or models_dir()) / lang
    weights = folder / f"{CARD}.weights.json"
    data = {"k": best["k"], "max_chars": report["train"]["max_chars"], "weights": best["weights"]}
    weights.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    nb_card, _ = load_card(lang, "nb", root)
    card = {"name": CARD, "kind": CARD, "lang": lang, "file": weights.name,
            "format": "json: k (NB candidates), max_chars (longer texts keep the NB best: the longest training text) "
                      "and weights (feature -> weight; features are differences from the NB best, see rerank.py)",
            "nb_sha256": nb_card["sha256"], "k": best["k"],
            "dev_metrics": {"exact": best["dev_exact"], "nb_exact": report["nb_dev_exact"],
                            "oracle": best["dev_oracle"], "texts": report["dev"]["texts"]},
            "train": report["train"], "dev": report["dev"], "tuning": report, "command": report["command"]}
    if char_model:
        card["char_model"] = char_model
    write_card(folder / f"{CARD}.json", card)
