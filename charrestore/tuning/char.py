"""Tune a char model's decoding on dev data and write the result into its card (``charrestore tune char``).

In order: window/overlap (the cheapest setting as good as the best), the cut, per-feature logit biases
(coordinate ascent), whether the NB segmenter's spaces beat the model's own on unspaced input (``nb_spaces``),
enforced or as evidence the model may overrule (``nb_space``, ``nb_join``),
the cost of keeping a capital after a comma, what a sentence gains by taking both ends of a pair of marks
(``pair_bonus``: es "¿" … "?"), and how far restored spaces follow the spaces and joins of spaced
input (``given_space``, ``given_join``: spacing correction, tuned on the documents with their spaces damaged; with
NB spaces, NB's cuts where they agree with the typed text; ``--given-only`` tunes this pair alone). ``--reread-only``
tunes ``reread`` (how much a second reading of unspaced input, given its restored spaces, weighs; with
``--reread-biases`` the marks' and case's biases under it too: char_reread.py), and ``--end-only`` ``end_bias`` (the
sentence marks against each other at the input's end, on the dev documents cut into sentences: char_end.py); the
whole run leaves both as the card has them.
Last, the card's own decoding and the retuned one are scored on the odd-numbered dev documents, which the ascent
never saw: where the card's beats the retuned by the ascent's objective (the features' mean F plus half of ALL), it
stays (a coordinate ascent that trades one feature's F for another's can end below where it started, and on the
documents it was fit to, a retune looks better than it is: es's epoch 39 lost 0.9 points of WER to its own). By ALL
alone, a fresh export's unbiased decoding was kept over biases that gained es's "¿", "," and "?" 0.03-0.09 F for
0.003 of ALL: micro ALL, mostly spaces, favours printing fewer marks.
Everything is scored position-wise on mark-free dev documents, de-spaced but for that last step. Every setting is
fit on the even-numbered dev documents only; the odd ones judge the fit (above). The chosen values and the whole
grid go into the card.
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path

import numpy as np

from ..engines.base import EngineOptions
from ..engines.char_e2e import CharEngine
from ..engines.char_settings import DECODING_KEYS, agreed
from ..engines.char_input import GIVEN_JOIN, GIVEN_SPACE, HAS_SPACE, NB_JOIN, NB_SPACE
from ..packs import load_pack
from .char_decode import decodable, decode, feature_scores, merged_logits, objective, supported
from .char_end import run_end
from .char_reread import run_reread
from .dev import load_dev
from .record import card_path, update_card, write_pair


def tune_biases(engine, docs, ref_cls, logits, features, grid, nb=False) -> dict:
    """Coordinate ascent over per-feature biases: each feature's bias mostly moves its own F."""
    bias = {f: 0.0 for f in engine.pack.features}
    for _ in range(2):
        for f in features:
            trial = []
            for v in grid:
                s = feature_scores(engine.pack, ref_cls, decode(engine, docs, logits, {**bias, f: v}, nb))
                trial.append((objective(s, (f,)), v))
            bias[f] = max(trial)[1]
        print("bias", bias, "nb" if nb else "", flush=True)
    return bias


def damaged_spaces(ref_cls, space_bit: int, drop: float, add: float, seed: int = 1) -> list[np.ndarray]:
    """The states of dev documents whose spaces were damaged: each true space dropped with probability ``drop``, a
    wrong one added after any other grapheme with probability ``add`` (seeded, so every trial sees the same input);
    GIVEN_SPACE where the damaged input has a space, GIVEN_JOIN where it has none."""
    rng, out = np.random.default_rng(seed), []
    for ref in ref_cls:
        true = (ref & space_bit) != 0
        r = rng.random(len(ref))
        out.append(np.where(true & (r >= drop) | ~true & (r < add), GIVEN_SPACE, GIVEN_JOIN).astype(np.int32))
    return out


def tune_given_spaces(engine, docs, ref_cls, logits, bias, penalty, spaces, joins, damage,
                      nb: bool = False) -> tuple[dict, list]:
    """How much restored spaces follow the spaces (``given_space``) and joins (``given_join``) of spaced input
    (``--spaces restore``: spacing correction), by the mean of SPACE F on dev documents with their spaces ``damage``d
    (drop, add) and on the same documents with their spaces intact, which correcting should leave as they are (ko:
    two settings within 0.0003 on the damaged ones differed by 0.004-0.008 on intact text); on a tie the smaller
    values."""
    inputs = [damaged_spaces(ref_cls, engine.space_bit, *damage), damaged_spaces(ref_cls, engine.space_bit, 0, 0)]
    plain = inputs  # the states decoded with at 0 and 0
    if nb:  # the NB segmenter's cuts, which weighed the typed spaces: where they agree with the typed text, the pair
        # weighs them (CharEngine.encode); at 0 and 0 NB's own states (soft or enforced)
        plain = [[engine.segmented(base, spaced=typed == GIVEN_SPACE) for (base, _, _), typed in zip(docs, states)]
                 for states in inputs]
        inputs = [[agreed(cut, typed == GIVEN_SPACE) for cut, typed in zip(cuts, states)]
                  for cuts, states in zip(plain, inputs)]
    trials = []
    for v in spaces:
        for j in joins:
            trial = engine.configured(given_space=v, given_join=j)
            s, whole = (feature_scores(engine.pack, ref_cls, decode(trial, docs, logits, bias, penalty=penalty,
                                                                    states=states))
                        for states in (inputs if v or j else plain))
            trials.append({"given_space": v, "given_join": j, **s, "SPACE_intact": whole["SPACE"]})
            print(trials[-1], flush=True)
    best = max(trials, key=lambda t: (t["SPACE"] + t["SPACE_intact"], -t["given_space"], -t["given_join"]))
    return {"given_space": best["given_space"], "given_join": best["given_join"]}, trials


def nb_soft_states(docs) -> list[np.ndarray]:
    """The NB segmenter's spaces of ``docs`` (their ``enforce``) as evidence: NB_SPACE where it cuts, NB_JOIN
    elsewhere."""
    return [np.where(e == HAS_SPACE, NB_SPACE, NB_JOIN).astype(np.int32) for _, _, e in docs]


def tune_nb_soft(engine, docs, ref_cls, logits, bias, spaces, joins, to_beat,
                 tolerance: float = 0.0) -> tuple[dict | None, list, list]:
    """Whether the NB segmenter's spaces (``enforce`` of ``docs``) do better as evidence the model may overrule:
    a bonus ``nb_space`` of a space where NB cuts, a cost ``nb_join`` where it joins. Of the pairs whose ALL F is
    within ``tolerance`` of the best, the strongest evidence (the largest sum, then ``nb_join``): the dev text is
    the model's own register, where it may overrule NB most safely, while NB's counts also hold wordfreq's modern
    words, which news and other text bring. That pair if it beats ``to_beat``, else None; the soft states; the grid."""
    states = nb_soft_states(docs)
    trials = []
    for v in spaces:
        for j in joins:
            trial = engine.configured(nb_space=v, nb_join=j)
            trials.append({"nb_space": v, "nb_join": j,
                           **feature_scores(engine.pack, ref_cls, decode(trial, docs, logits, bias, states=states))})
            print(trials[-1], flush=True)
    top = max((t["ALL"] for t in trials), default=None)
    near = [t for t in trials if t["ALL"] >= top - tolerance]
    best = max(near, key=lambda t: (t["nb_space"] + t["nb_join"], t["nb_join"], t["ALL"]), default=None)
    chosen = {"nb_space": best["nb_space"], "nb_join": best["nb_join"]} if best and best["ALL"] > to_beat else None
    return chosen, states, trials


def tune_pair_bonus(engine, docs, ref_cls, logits, bias, penalty, spaces, grid) -> tuple[float, list]:
    """What a sentence gains by taking both ends of the pack's paired marks (``pair_bonus``), by the mean F of
    the paired marks + 0.5 ALL; on a tie the smaller bonus."""
    marks = [m for pair in engine.pack.pairs.items() for m in pair]
    trials = []
    for v in grid:
        s = feature_scores(engine.pack, ref_cls, decode(engine.configured(pair_bonus=v), docs, logits, bias,
                                                        penalty=penalty, states=spaces))
        trials.append({"pair_bonus": v, **s, "objective": objective(s, marks)})
        print(trials[-1], flush=True)
    return max(trials, key=lambda t: (t["objective"], -t["pair_bonus"]))["pair_bonus"], trials


def decoding_scores(engine: CharEngine, nb_spaces: bool, docs, ref_cls) -> dict:
    """The scores on ``docs`` decoded as the runtime decodes unspaced input under ``engine``'s settings (its
    windows, biases, penalty, pair bonus and, with ``nb_spaces``, the NB segmenter's spaces, enforced or soft)."""
    s = engine.settings
    states = (nb_soft_states(docs) if s.soft_nb else [e for _, _, e in docs]) if nb_spaces else None
    preds = decode(engine, docs, merged_logits(engine, docs), s.bias, penalty=s.capital_after_mark_penalty,
                   states=states)
    return feature_scores(engine.pack, ref_cls, preds)


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


def tune(engine: CharEngine, refs: list[str], windows, overlaps, biases, tolerance, penalties,
         given_spaces=((0.0,), (0.0,)), damage=(0.5, 0.05), pair_bonuses=(0.0,), nb_soft=((), ()),
         min_support: int = 0) -> dict:
    """The tuned card keys (window, overlap, cut, bias, nb_spaces, nb_space, nb_join, capital_after_mark_penalty,
    pair_bonus, given_space, given_join; ``given_spaces``, ``nb_soft``: grids of two of them each) and a
    ``tuning`` record of every grid, from the even-numbered ``refs``. ``engine`` holds the NB segmenter
    when the pack has one (its spaces are compared with the model's). A feature with fewer than ``min_support``
    marks keeps bias 0 and is left out of the keep rule's mean F (``supported``)."""
    pack, incoming = engine.pack, engine
    engine = engine.configured(nb_space=math.inf, nb_join=math.inf)  # NB's spaces enforced: the soft ones follow
    ref_cls, docs = decodable(refs[0::2], engine)
    odd_cls, odd = decodable(refs[1::2], engine)
    if not odd:  # a single dev document judges its own fit
        odd, odd_cls = docs, ref_cls
    card_nb = bool(incoming.card.get("nb_spaces", False))
    card_keys = {k: incoming.card[k] for k in DECODING_KEYS if k in incoming.card}
    card_scores = decoding_scores(incoming, card_nb, docs, ref_cls)
    print(f"tuning on {len(docs)} dev documents, {sum(len(d[0]) for d in docs)} graphemes", flush=True)
    engine, grid, cut_grid = tune_windows(engine, docs, ref_cls, windows, overlaps, tolerance)
    logits = merged_logits(engine, docs)

    fitted, judged = supported(pack, ref_cls, min_support), supported(pack, odd_cls, min_support)
    bias = tune_biases(engine, docs, ref_cls, logits, fitted, biases)
    final = feature_scores(pack, ref_cls, decode(engine, docs, logits, bias))
    print("tuned on the even dev documents:", final, flush=True)
    spaces, nb_scores, soft, soft_grid = None, None, None, []  # spaces: the states decoded with (None: own)
    if engine.segmenter is not None:  # the model's spaces, or the NB segmenter's (marks and case still the model's)?
        nb_bias = tune_biases(engine, docs, ref_cls, logits, [f for f in fitted if f != "SPACE"], biases,
                              nb=True)
        nb_scores = feature_scores(pack, ref_cls, decode(engine, docs, logits, nb_bias, nb=True))
        print("with NB spaces:", nb_scores, flush=True)
        if nb_scores["ALL"] > final["ALL"]:
            spaces, bias = [enforce for _, _, enforce in docs], {**nb_bias, "SPACE": bias["SPACE"]}
        soft, soft_states, soft_grid = tune_nb_soft(engine, docs, ref_cls, logits, bias, *nb_soft,
                                                    max(final["ALL"], nb_scores["ALL"]), tolerance)
        if soft:
            spaces, engine = soft_states, engine.configured(**soft)
    nb_spaces = spaces is not None

    penalty, penalty_grid = math.inf, []
    if engine.caps_bit and engine.space_bit and engine.other_marks:  # a capital after a comma: a name, or an error?
        for v in penalties:
            s = feature_scores(pack, ref_cls, decode(engine, docs, logits, bias, penalty=v, states=spaces))
            penalty_grid.append({"penalty": v if np.isfinite(v) else None, **s})  # None: every pair kept
            print(penalty_grid[-1], flush=True)
        penalty = max(penalty_grid, key=lambda g: g["ALL"])["penalty"]
        penalty = math.inf if penalty is None else penalty
    pair_bonus, pair_grid = 0.0, []
    if engine.pairing:
        pair_bonus, pair_grid = tune_pair_bonus(engine, docs, ref_cls, logits, bias, penalty, spaces, pair_bonuses)
        engine = engine.configured(pair_bonus=pair_bonus)
    given, given_grid = {"given_space": 0.0, "given_join": 0.0}, []
    if engine.space_bit:  # may the input's spaces (through NB's cuts where it cuts) guide the restored ones?
        given, given_grid = tune_given_spaces(engine, docs, ref_cls, logits, bias, penalty, *given_spaces, damage,
                                              nb=nb_spaces)
    s = engine.settings
    retuned = feature_scores(pack, ref_cls, decode(engine, docs, logits, bias, penalty=penalty, states=spaces))
    keys = {"window": s.window, "overlap": s.overlap, "cut": s.cut, "bias": bias, "nb_spaces": nb_spaces,
            "nb_space": soft and soft["nb_space"], "nb_join": soft and soft["nb_join"],
            "capital_after_mark_penalty": None if penalty == math.inf else penalty, "pair_bonus": pair_bonus, **given}
    engine = engine.configured(bias=bias, capital_after_mark_penalty=penalty)
    odd_retuned = decoding_scores(engine, nb_spaces, odd, odd_cls)
    odd_card = decoding_scores(incoming, card_nb, odd, odd_cls)
    kept = objective(odd_card, judged) > objective(odd_retuned, judged)
    print("retuned:", retuned, "the card's decoding:", card_scores, "on the odd documents:", odd_retuned, odd_card,
          "kept: the card's" if kept else "", flush=True)
    # the spacing-correction settings act on spaced input only, which the odd documents' judge never sees: tuned,
    # they are taken whichever decoding stays
    return {**(card_keys if kept else keys), **(given if given_grid else {}),
            "tuning": {"decoding": "the card's (it beat the retuned by the objective on the odd documents)" if kept
                       else "retuned",
                       "scores_retuned": retuned, "scores_card": card_scores,
                       "scores_retuned_odd": odd_retuned, "scores_card_odd": odd_card,
                       "retuned_keys": keys if kept else None,
                       "documents": "fit on the even-numbered dev documents; the retuned and the card's decoding "
                                    "compared on the odd ones", "window_grid": grid,
                       "window_choice": f"cheapest within {tolerance} ALL of the best",
                       "cut_grid": cut_grid, "bias_grid": list(biases), "objective": "F(feature) + 0.5 ALL",
                       "keep_objective": "mean F of the features + 0.5 ALL, on the odd documents",
                       "min_support": min_support, "biases_fitted": fitted, "features_judged": judged,
                       "scores_after": final, "scores_after_nb_spaces": nb_scores,
                       "nb_soft_grid": soft_grid, "nb_soft_objective": NB_SOFT_OBJECTIVE.format(tolerance),
                       "capital_after_mark_grid": penalty_grid, "capital_after_mark_objective": "ALL",
                       "pair_bonus_grid": pair_grid,
                       "pair_bonus_objective": "mean F of the paired marks + 0.5 ALL",
                       "given_spaces_grid": given_grid, "given_spaces_damage": {"drop": damage[0], "add": damage[1]},
                       "given_spaces_objective": "the mean SPACE F on the damaged and on the intact spaced documents"}}


NB_SOFT_OBJECTIVE = ("ALL; of the pairs within {} of the best, the largest nb_space + nb_join (chosen if it beats "
                     "own and enforced)")


def add_arguments(p) -> None:
    p.add_argument("--windows", type=int, nargs="+", default=[200, 300, 400])
    p.add_argument("--overlaps", type=int, nargs="+", default=[40, 80, 120])
    p.add_argument("--biases", type=float, nargs="+", default=[-1.0, -0.5, 0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0])
    p.add_argument("--tolerance", type=float, default=0.0005,
                   help="take the cheapest window/overlap whose ALL F is within this of the best")
    p.add_argument("--penalties", type=float, nargs="+", default=[math.inf, 4.0, 2.0, 1.0, 0.5, 0.0],
                   help="grid of the cost of keeping a capital after a non-final mark")
    p.add_argument("--pair-bonuses", type=float, nargs="+", default=[0.0, 0.5, 1.0, 1.5, 2.0, 3.0],
                   help="grid of what a sentence gains by taking both ends of a pair of marks (packs with [pairs])")
    p.add_argument("--given-spaces", type=float, nargs="+", default=[0.0, 1.0, 2.0, 3.0, 4.0, 6.0],
                   help="grid of the bonus of a space where spaced input has one (the model restoring spaces)")
    p.add_argument("--given-joins", type=float, nargs="+", default=[0.0, 0.5, 1.0, 2.0, 3.0, 4.0, 6.0],
                   help="grid of the cost of a space where spaced input has none")
    p.add_argument("--nb-spaces", type=float, nargs="+", default=[1.0, 2.0, 3.0, 4.0, 6.0],
                   help="grid of the bonus of a space where the NB segmenter cuts (its spaces as evidence)")
    p.add_argument("--nb-joins", type=float, nargs="+", default=[1.0, 2.0, 3.0, 4.0, 6.0],
                   help="grid of the cost of a space where the NB segmenter joins")
    p.add_argument("--damage", type=float, nargs=2, default=[0.5, 0.05], metavar=("DROP", "ADD"),
                   help="the spaced dev text that the two grids are tuned on: its spaces each dropped with "
                        "probability DROP, a wrong one added after a grapheme with probability ADD")
    p.add_argument("--min-support", type=int, default=100,
                   help="a feature with fewer marks in the dev documents keeps bias 0 and does not judge the decoding")
    p.add_argument("--max-docs", type=int, default=2000,
                   help="dev paragraphs read, in fair shares of the dev files (the even ones are tuned on)")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--given-only", action="store_true",
                   help="tune only given_space and given_join (spacing correction) under the card's decoding")
    p.add_argument("--nb-only", action="store_true",
                   help="tune only nb_space and nb_join (NB's spaces as evidence) under the card's other decoding")
    p.add_argument("--reread-only", action="store_true",
                   help="tune only reread (a second reading given the restored spaces) under the card's decoding")
    p.add_argument("--rereads", type=float, nargs="+", default=[0.25, 0.5, 0.75, 1.0],
                   help="grid of the second reading's weight in the logits (0, one reading, is always tried)")
    p.add_argument("--end-only", action="store_true",
                   help="tune only end_bias (the sentence marks against each other at the input's end) under the "
                        "card's decoding, on the dev documents cut into sentences, each restored on its own")
    p.add_argument("--end-biases", type=float, nargs="+", default=[-2.0, -1.5, -1.0, -0.5, -0.25, 0.0, 0.25, 0.5, 1.0,
                                                                 1.5, 2.0],
                   help="grid of each sentence mark's offset at the end (the pack's first sentence mark stays at 0)")
    p.add_argument("--reread-biases", action="store_true",
                   help="with --reread-only: then fit the biases of the marks and case to the two readings (the "
                        "odd dev documents judge whether they replace the card's)")


def run(args, command: str) -> dict:
    pack = load_pack(args.lang)
    models = Path(args.models_dir) if args.models_dir else None
    nb = "nb" if "nb" in pack.models and pack.bit("SPACE") else "none"
    engine = CharEngine.load(pack, models, EngineOptions(args.threads, 64, "auto" if args.given_only else nb))
    refs = load_dev(args.dev, pack, args.holdout, args.max_docs)
    if args.given_only:
        return run_given(args, engine, refs, command)
    if args.nb_only:
        return run_nb(args, engine, refs, command)
    if args.reread_only:
        return run_reread(args, engine, refs, command)
    if args.end_only:
        return run_end(args, engine, refs, command)
    tuned = tune(engine, refs, args.windows, args.overlaps, args.biases, args.tolerance, args.penalties,
                 (args.given_spaces, args.given_joins), args.damage, args.pair_bonuses, (args.nb_spaces, args.nb_joins),
                 args.min_support)
    tuned["tuning"] = {"dev": [Path(d).name for d in args.dev], "holdout": str(args.holdout), **tuned["tuning"],
                       "command": command}
    register = engine.card.get("tuning", {}).get("register_bias")
    if register and register["feature"] in tuned["bias"]:  # chosen on text of other registers: a retune keeps it
        feature, own = register["feature"], tuned["tuning"].get("retuned_keys") or tuned
        tuned["tuning"]["register_bias"] = {**register, "tuned": own["bias"][feature]}
        tuned["bias"] = {**tuned["bias"], feature: register["chosen"]}
    if args.write_card:
        update_card(card_path(args.lang, pack.models["char"], models), tuned, args.lang)
    print(json.dumps({k: v for k, v in tuned.items() if k != "tuning"}, ensure_ascii=False))
    return tuned


def run_nb(args, engine: CharEngine, refs: list[str], command: str) -> dict:
    """``--nb-only``: ``nb_space`` and ``nb_join`` (``tune_nb_soft``) under the card's other decoding, for a card that
    takes NB's spaces, on the even dev documents; to beat, NB's spaces enforced. The card's other keys stay."""
    if engine.segmenter is None or not engine.card.get("nb_spaces"):
        raise ValueError(f"{args.lang}: the char card takes no NB spaces (nb_spaces); nothing to tune")
    engine = engine.configured(nb_space=math.inf, nb_join=math.inf)  # NB's cuts enforced: the soft ones follow
    ref_cls, docs = decodable(refs[0::2], engine)
    logits, bias = merged_logits(engine, docs), engine.settings.bias
    enforced = feature_scores(engine.pack, ref_cls, decode(engine, docs, logits, bias, nb=True))["ALL"]
    soft, _, grid = tune_nb_soft(engine, docs, ref_cls, logits, bias, args.nb_spaces, args.nb_joins, enforced,
                                 args.tolerance)
    return write_pair(args, engine, soft or {"nb_space": None, "nb_join": None},
                      {"nb_soft_grid": grid, "nb_soft_command": command,
                       "nb_soft_objective": NB_SOFT_OBJECTIVE.format(args.tolerance)})


def run_given(args, engine: CharEngine, refs: list[str], command: str) -> dict:
    """``--given-only``: the spacing-correction pair under the card's decoding (with NB's cuts where the card takes
    NB spaces), on the even dev documents; the card's other keys and records stay."""
    ref_cls, docs = decodable(refs[0::2], engine)
    s = engine.settings
    given, grid = tune_given_spaces(engine, docs, ref_cls, merged_logits(engine, docs), s.bias,
                                    s.capital_after_mark_penalty, args.given_spaces, args.given_joins, args.damage,
                                    nb=engine.segmenter is not None)
    return write_pair(args, engine, given, {"given_spaces_grid": grid, "given_spaces_command": command,
                                            "given_spaces_damage": {"drop": args.damage[0], "add": args.damage[1]}})
