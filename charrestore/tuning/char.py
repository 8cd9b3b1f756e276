"""Tune a char model's decoding on dev data and write the result into its card (``charrestore tune char``).

In order: window/overlap (the cheapest setting as good as the best), the cut, per-feature logit biases
(coordinate ascent), whether the NB segmenter's spaces beat the model's own on unspaced input (``nb_spaces``)
and the cost of keeping a capital after a comma. Everything is scored position-wise on de-spaced, mark-free
dev documents. Biases are fit on the even-numbered dev documents only, so the odd ones stay unseen for a
check; the chosen values and the whole grid go into the card.
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path

import numpy as np

from ..engines.base import EngineOptions
from ..engines.char_e2e import CharEngine, class_bias
from ..engines.char_input import UNKNOWN
from ..packs import load_pack
from .dev import load_dev, unspaced_docs
from .record import card_path, update_card


def feature_scores(pack, refs, preds) -> dict:
    """Char-level F per feature and micro ALL over concatenated class arrays."""
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


def decode(engine, docs, logits, bias, nb=False, penalty=math.inf):
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


def merged_logits(engine, docs) -> list[np.ndarray]:
    """The merged window logits of each unspaced document, under the engine's window settings."""
    out = []
    for _, gids, _ in docs:
        states = np.zeros(len(gids), np.int32)
        out.append(np.concatenate([lg for _, lg in engine.window_logits(gids * 3 + states)]))
    return out


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


def tune_windows(engine, docs, ref_cls, windows, overlaps, tolerance) -> tuple[CharEngine, list, list]:
    """The cheapest window/overlap (model calls per grapheme) whose ALL is within ``tolerance`` of the best,
    then the best cut for it; returns the engine configured so, and both grids."""
    pack, grid = engine.pack, []
    for window in windows:
        for overlap in overlaps:
            if overlap >= window:
                continue
            trial = engine.configured(window=window, overlap=overlap, cut=overlap // 2)
            t = time.time()
            scores = feature_scores(pack, ref_cls, decode(trial, docs, merged_logits(trial, docs), {}))
            grid.append({"window": window, "overlap": overlap, "cut": overlap // 2, **scores,
                         "cost": round(window / (window - overlap), 3), "seconds": round(time.time() - t, 1)})
            print(grid[-1], flush=True)
    top = max(g["ALL"] for g in grid)
    chosen = min((g for g in grid if g["ALL"] >= top - tolerance), key=lambda g: (g["cost"], -g["ALL"]))
    window, overlap = chosen["window"], chosen["overlap"]
    cut_grid = []
    for cut in sorted({0, overlap // 4, overlap // 2, 3 * overlap // 4, overlap}):
        trial = engine.configured(window=window, overlap=overlap, cut=cut)
        cut_grid.append({"cut": cut, **feature_scores(pack, ref_cls, decode(trial, docs, merged_logits(trial, docs), {}))})
        print(cut_grid[-1], flush=True)
    cut = max(cut_grid, key=lambda s: s["ALL"])["cut"]
    return engine.configured(window=window, overlap=overlap, cut=cut), grid, cut_grid


def tune(engine: CharEngine, refs: list[str], windows, overlaps, biases, tolerance, penalties) -> dict:
    """The tuned card keys (window, overlap, cut, bias, nb_spaces, capital_after_mark_penalty) and a
    ``tuning`` record of every grid, from the even-numbered ``refs``. ``engine`` holds the NB segmenter
    when the pack has one (its spaces are compared with the model's)."""
    pack = engine.pack
    ref_cls, encoded = unspaced_docs(refs[0::2], pack, engine)
    docs = [(base, gids, enforce) for base, gids, _, enforce in encoded]
    print(f"tuning on {len(docs)} dev documents, {sum(len(d[0]) for d in docs)} graphemes", flush=True)
    engine, grid, cut_grid = tune_windows(engine, docs, ref_cls, windows, overlaps, tolerance)
    logits = merged_logits(engine, docs)

    bias = tune_biases(engine, docs, ref_cls, logits, pack.features, biases)
    final = feature_scores(pack, ref_cls, decode(engine, docs, logits, bias))
    print("tuned on the even dev documents:", final, flush=True)
    nb_spaces, nb_scores = False, None
    if engine.segmenter is not None:  # the model's spaces, or the NB segmenter's (marks and case still the model's)?
        nb_bias = tune_biases(engine, docs, ref_cls, logits, [f for f in pack.features if f != "SPACE"], biases,
                              nb=True)
        nb_scores = feature_scores(pack, ref_cls, decode(engine, docs, logits, nb_bias, nb=True))
        print("with NB spaces:", nb_scores, flush=True)
        if nb_scores["ALL"] > final["ALL"]:
            nb_spaces, bias = True, {**nb_bias, "SPACE": bias["SPACE"]}

    penalty, penalty_grid = math.inf, []
    if engine.caps_bit and engine.space_bit and engine.other_marks:  # a capital after a comma: a name, or an error?
        for v in penalties:
            s = feature_scores(pack, ref_cls, decode(engine, docs, logits, bias, nb=nb_spaces, penalty=v))
            penalty_grid.append({"penalty": v if np.isfinite(v) else None, **s})  # None: every pair kept
            print(penalty_grid[-1], flush=True)
        penalty = max(penalty_grid, key=lambda g: g["ALL"])["penalty"]
        penalty = math.inf if penalty is None else penalty
    s = engine.settings
    return {"window": s.window, "overlap": s.overlap, "cut": s.cut, "bias": bias, "nb_spaces": nb_spaces,
            "capital_after_mark_penalty": None if penalty == math.inf else penalty,
            "tuning": {"documents": "even-numbered dev documents (odd ones unseen)", "window_grid": grid,
                       "window_choice": f"cheapest within {tolerance} ALL of the best",
                       "cut_grid": cut_grid, "bias_grid": list(biases), "objective": "F(feature) + 0.5 ALL",
                       "scores_after": final, "scores_after_nb_spaces": nb_scores,
                       "capital_after_mark_grid": penalty_grid, "capital_after_mark_objective": "ALL"}}


def add_arguments(p) -> None:
    p.add_argument("--windows", type=int, nargs="+", default=[200, 300, 400])
    p.add_argument("--overlaps", type=int, nargs="+", default=[40, 80, 120])
    p.add_argument("--biases", type=float, nargs="+", default=[-1.0, -0.5, 0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0])
    p.add_argument("--tolerance", type=float, default=0.0005,
                   help="take the cheapest window/overlap whose ALL F is within this of the best")
    p.add_argument("--penalties", type=float, nargs="+", default=[math.inf, 4.0, 2.0, 1.0, 0.5, 0.0],
                   help="grid of the cost of keeping a capital after a non-final mark")
    p.add_argument("--max-docs", type=int, default=2000, help="dev documents read (the even ones are tuned on)")
    p.add_argument("--threads", type=int, default=2)


def run(args, command: str) -> dict:
    pack = load_pack(args.lang)
    models = Path(args.models_dir) if args.models_dir else None
    nb = "nb" if "nb" in pack.models and pack.bit("SPACE") else "none"
    engine = CharEngine.load(pack, models, EngineOptions(args.threads, 64, nb))
    refs = load_dev(args.dev, pack, args.holdout)[: args.max_docs]
    tuned = tune(engine, refs, args.windows, args.overlaps, args.biases, args.tolerance, args.penalties)
    tuned["tuning"] = {"dev": [Path(d).name for d in args.dev], "holdout": str(args.holdout), **tuned["tuning"],
                       "command": command}
    if args.write_card:
        update_card(card_path(args.lang, pack.models["char"], models), tuned, args.lang)
    print(json.dumps({k: v for k, v in tuned.items() if k != "tuning"}, ensure_ascii=False))
    return tuned
