"""The second reading's tuning (``charrestore tune char --reread-only``): how much a second reading of unspaced
input, given the spaces the first restored, weighs in the logits (``reread``), and with ``--reread-biases`` the
biases of the marks and case under it.

The full tuner fits the biases to one reading, and a second reading moves the logits that they offset. The spaces
stay the first reading's, so SPACE keeps the card's bias; the other features' biases are fit by coordinate ascent
from the card's, on the even dev documents, each decoded as the runtime decodes it (``CharEngine.decode`` of the
two readings' mixed logits, the first reading's spaces given). The odd documents judge: the card's biases stay
unless the retuned beat them there, both read twice as the runtime reads them, by more than ``--tolerance``.
"""

from __future__ import annotations

import numpy as np

from ..engines.char_input import UNKNOWN
from .char_decode import cased, decodable, feature_scores, objective, supported
from .record import write_pair


def run_reread(args, engine, refs: list[str], command: str) -> dict:
    """``--reread-only``: ``reread`` under the card's other decoding, on the even dev documents decoded as the
    runtime does: the grid's best by the tuner's objective, but one reading (0) unless the best beats it by more
    than ``--tolerance``: a second reading doubles the model's time. With ``--reread-biases``, then the biases."""
    if not engine.space_bit:
        raise ValueError(f"{args.lang}: the pack restores no spaces, so there is nothing to read again with them")
    ref_cls, docs = decodable(refs[0::2], engine)
    features = supported(engine.pack, ref_cls, args.min_support)
    grid = []
    for weight in [0.0, *sorted(set(args.rereads) - {0.0})]:
        scores = feature_scores(engine.pack, ref_cls, reread(engine.configured(reread=weight), docs))
        grid.append({"reread": weight, **scores, "objective": objective(scores, features)})
    best = max(grid, key=lambda g: g["objective"])
    weight = best["reread"] if best["objective"] > grid[0]["objective"] + args.tolerance else 0.0
    keys, records = {"reread": weight}, {"reread_grid": grid, "reread_command": command}
    if args.reread_biases and weight:
        bias, record = reread_biases(engine.configured(reread=weight), docs, ref_cls, refs[1::2], args.biases,
                                     args.tolerance, args.min_support)
        keys["bias"], records["reread_biases"] = bias, {**record, "command": command}
    return write_pair(args, engine, keys, records)


def reread(engine, docs) -> list[np.ndarray]:
    """Each unspaced document's classes as the runtime decodes it (``CharEngine.decode_reread``)."""
    preds = []
    for base, gids, enforce in docs:
        unknown = np.full(len(gids), UNKNOWN, np.int32)
        cls = engine.decode_reread(gids, unknown, engine.ends_sentence(base), enforce, None, None)
        preds.append(cased(engine, base, cls))
    return preds


def reread_biases(engine, docs, ref_cls, odd_refs: list[str], grid, tolerance: float, min_support: int):
    """The biases of the marks and case fit to ``engine``'s two readings (module docstring), and a record: the
    ascent's steps and both decodings' scores on the odd documents."""
    pack, card_bias = engine.pack, dict(engine.settings.bias)
    readings = []
    for base, gids, enforce in docs:  # the spaces and the mixed logits do not depend on the marks' biases
        unknown = np.full(len(gids), UNKNOWN, np.int32)
        first = engine.logits(gids, unknown)
        cls = engine.decode(gids, unknown, engine.ends_sentence(base), enforce, None, None, first)
        readings.append((base, gids, *engine.second_reading(gids, cls, first)))

    def scores(bias: dict) -> dict:
        trial, preds = engine.configured(bias=bias), []
        for base, gids, spaces, mixed in readings:
            unknown = np.full(len(gids), UNKNOWN, np.int32)
            cls = trial.decode(gids, unknown, trial.ends_sentence(base), spaces, None, None, mixed)
            preds.append(cased(trial, base, cls))
        return feature_scores(pack, ref_cls, preds)

    fitted = [f for f in supported(pack, ref_cls, min_support) if f != "SPACE"]
    bias, steps = {f: card_bias.get(f, 0.0) for f in pack.features}, []
    for _ in range(2):
        for f in fitted:
            bias[f] = max(grid, key=lambda v: (objective(scores({**bias, f: v}), (f,)), -abs(v - bias[f])))
        steps.append(dict(bias))
        print("bias under the second reading", bias, flush=True)
    odd_cls, odd = decodable(odd_refs, engine)
    judged = supported(pack, odd_cls, min_support)
    card_odd = feature_scores(pack, odd_cls, reread(engine, odd))
    retuned_odd = feature_scores(pack, odd_cls, reread(engine.configured(bias=bias), odd))
    kept = objective(retuned_odd, judged) <= objective(card_odd, judged) + tolerance
    print("on the odd documents: card", card_odd, "retuned", retuned_odd, "kept: the card's" if kept else "",
          flush=True)
    return (card_bias if kept else bias), {
        "steps": steps, "fitted": fitted, "grid": list(grid), "scores_card_odd": card_odd,
        "scores_retuned_odd": retuned_odd, "chosen": "the card's" if kept else "retuned",
        "rule": f"coordinate ascent from the card's biases on the even documents, SPACE kept; taken if it beats "
                f"the card's by more than {tolerance} of the objective on the odd ones"}
