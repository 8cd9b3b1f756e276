"""Tune a char model's decoding on dev data: window/overlap/cut (the cheapest setting as good as the best),
the cost of keeping a capital after a comma, per-feature logit biases, and whether the NB
segmenter's spaces beat the model's own on unspaced input (``nb_spaces`` in the card).

Biases are fit on the even-numbered dev documents only, so the odd ones stay unseen for a check;
the chosen values and the whole grid are written into the model card.

    python scripts/tune_char.py --lang en --dev ../shared/corpora/en/ted_dev.tsv
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from charrestore.cards import load_card, write_card
from charrestore.engines.char_e2e import CharEngine, class_bias
from charrestore.engines.char_input import UNKNOWN
from charrestore.packs import load_pack
from charrestore.paths import models_dir
from charrestore.segmenter import Segmenter
from dev_sets import load_dev, unspaced_docs


def feature_scores(pack, refs, preds) -> dict:
    """Char-level P/R/F per feature and micro ALL over concatenated class arrays."""
    ref, hyp = np.concatenate(refs), np.concatenate(preds)
    out, tot = {}, np.zeros(3)
    for f in pack.features:
        b = pack.bit(f)
        r, h = (ref & b) != 0, (hyp & b) != 0
        counts = np.array([np.sum(r & h), np.sum(h & ~r), np.sum(r & ~h)], float)
        tot += counts
        out[f] = _f1(counts)
    out["ALL"] = _f1(tot)
    return out


def _f1(c) -> float:
    tp, fp, fn = c
    return 2 * tp / (2 * tp + fp + fn) if tp else 0.0


def decode(engine, docs, logits, bias, nb=False, penalty=float("inf")):
    """Classes as the runtime decodes them, with ``bias`` and the capital-after-mark ``penalty``;
    with ``nb`` the NB segmenter's spaces are enforced."""
    preds = []
    for (base, _, enforce), lg in zip(docs, logits):
        given = enforce if nb else np.full(len(base), UNKNOWN, np.int32)
        scores = engine.scores(lg, given, class_bias(engine.pack, bias), at_end=True,
                               end_mark=engine.ends_sentence(base))
        cls = engine.capital_after_mark(scores, scores.argmax(-1).astype(np.int32), penalty)
        preds.append(engine.sentence_case(base, cls))
    return preds


def tune_biases(engine, docs, ref_cls, logits, features, grid, nb=False) -> dict:
    """Coordinate ascent over per-feature biases: each feature's bias mostly moves its own F."""
    bias = {f: 0.0 for f in engine.pack.features}
    for _ in range(2):
        for f in features:
            trial = []
            for v in grid:
                s = feature_scores(engine.pack, ref_cls, decode(engine, docs, logits, {**bias, f: v}, nb))
                trial.append((s[f] + 0.5 * s["ALL"], v))
            bias[f] = max(trial)[1]
        print("bias", bias, "nb" if nb else "", flush=True)
    return bias


def merged_logits(engine, docs):
    out = []
    for base, gids, _ in docs:
        states = np.zeros(len(gids), np.int32)
        out.append(np.concatenate([lg for _, lg in engine.window_logits(gids * 3 + states)]))
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--lang", required=True)
    p.add_argument("--dev", nargs="+", required=True, help="dev files (or the train file with --holdout)")
    p.add_argument("--holdout", type=int, default=0, help="dev = documents with numeric id %% N == 0")
    p.add_argument("--name", default="char")
    p.add_argument("--windows", type=int, nargs="+", default=[200, 300, 400])
    p.add_argument("--overlaps", type=int, nargs="+", default=[40, 80, 120])
    p.add_argument("--biases", type=float, nargs="+", default=[-1.0, -0.5, 0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0])
    p.add_argument("--tolerance", type=float, default=0.0005,
                   help="take the cheapest window/overlap whose ALL F is within this of the best")
    p.add_argument("--penalties", type=float, nargs="+", default=[float("inf"), 4.0, 2.0, 1.0, 0.5, 0.0],
                   help="grid of the cost of keeping a capital after a non-final mark")
    p.add_argument("--max-docs", type=int, default=2000)
    p.add_argument("--threads", type=int, default=2)
    args = p.parse_args()

    pack = load_pack(args.lang)
    card, onnx = load_card(args.lang, args.name)
    refs = load_dev(args.dev, pack, args.holdout)[: args.max_docs]
    tune_refs = refs[0::2]
    segmenter = Segmenter.load(args.lang) if "nb" in pack.models and pack.bit("SPACE") else None
    engine = CharEngine(pack, card, onnx, threads=args.threads, batch_size=64, segmenter=segmenter)
    ref_cls, encoded = unspaced_docs(tune_refs, pack, engine)
    docs = [(base, gids, enforce) for base, gids, _, enforce in encoded]
    print(f"tuning on {len(docs)} dev documents, {sum(len(d[0]) for d in docs)} graphemes", flush=True)

    grid = []
    for window in args.windows:
        for overlap in args.overlaps:
            if overlap >= window:
                continue
            engine.window, engine.overlap, engine.cut = window, overlap, overlap // 2
            t = time.time()
            logits = merged_logits(engine, docs)
            scores = feature_scores(pack, ref_cls, decode(engine, docs, logits, {}))
            grid.append({"window": window, "overlap": overlap, "cut": overlap // 2, **scores,
                         "cost": round(window / (window - overlap), 3), "seconds": round(time.time() - t, 1)})
            print(grid[-1], flush=True)
    # the cheapest setting (model calls per grapheme) whose ALL is within --tolerance of the best
    top = max(g["ALL"] for g in grid)
    chosen = min((g for g in grid if g["ALL"] >= top - args.tolerance), key=lambda g: (g["cost"], -g["ALL"]))
    window, overlap = chosen["window"], chosen["overlap"]
    cut_grid = []
    for cut in sorted({0, overlap // 4, overlap // 2, 3 * overlap // 4, overlap}):
        engine.window, engine.overlap, engine.cut = window, overlap, cut
        scores = feature_scores(pack, ref_cls, decode(engine, docs, merged_logits(engine, docs), {}))
        cut_grid.append({"cut": cut, **scores})
        print(cut_grid[-1], flush=True)
    cut = max(cut_grid, key=lambda s: s["ALL"])["cut"]
    engine.window, engine.overlap, engine.cut = window, overlap, cut
    logits = merged_logits(engine, docs)

    bias = tune_biases(engine, docs, ref_cls, logits, pack.features, args.biases)
    final = feature_scores(pack, ref_cls, decode(engine, docs, logits, bias))
    print("tuned on the even dev documents:", final)
    nb_spaces, nb_scores = False, None
    if segmenter is not None:  # the model's spaces, or the NB segmenter's (marks and case still from the model)?
        nb_bias = tune_biases(engine, docs, ref_cls, logits, [f for f in pack.features if f != "SPACE"], args.biases,
                              nb=True)
        nb_scores = feature_scores(pack, ref_cls, decode(engine, docs, logits, nb_bias, nb=True))
        print("with NB spaces:", nb_scores)
        if nb_scores["ALL"] > final["ALL"]:
            nb_spaces, bias = True, {**nb_bias, "SPACE": bias["SPACE"]}

    penalty, penalty_grid = float("inf"), []
    if engine.caps_bit and engine.space_bit and engine.other_marks:  # a capital after a comma: a name, or an error?
        for v in args.penalties:
            s = feature_scores(pack, ref_cls, decode(engine, docs, logits, bias, nb=nb_spaces, penalty=v))
            penalty_grid.append({"penalty": v if np.isfinite(v) else None, **s})  # None: every pair kept
            print(penalty_grid[-1], flush=True)
        penalty = max(penalty_grid, key=lambda g: g["ALL"])["penalty"]
        penalty = float("inf") if penalty is None else penalty

    card.update({"window": window, "overlap": overlap, "cut": cut, "bias": bias, "nb_spaces": nb_spaces,
                 "capital_after_mark_penalty": None if penalty == float("inf") else penalty,
                 "tuning": {"dev": [Path(d).name for d in args.dev], "holdout": args.holdout,
                            "documents": "even-numbered dev documents (odd ones unseen)", "window_grid": grid,
                            "window_choice": f"cheapest within {args.tolerance} ALL of the best",
                            "cut_grid": cut_grid, "bias_grid": args.biases, "objective": "F(feature) + 0.5 ALL",
                            "scores_after": final, "scores_after_nb_spaces": nb_scores,
                            "capital_after_mark_grid": penalty_grid,
                            "capital_after_mark_objective": "ALL",
                            "command": "python " + " ".join(sys.argv)}})
    write_card(models_dir() / args.lang / f"{args.name}.json", card)
    print(json.dumps({"window": window, "overlap": overlap, "cut": cut, "bias": bias, "penalty": penalty}))


if __name__ == "__main__":
    main()
