"""Tune the token model's decoding on dev talks and write it into its card (``charrestore tune token``).

First window / overlap / min_words_cut on whole talks (each talk's paragraphs joined, so that windows and seams
matter), by punctuation + casing overall F1 of the restored text, words given; then per-label offsets added to
the punctuation logits (the model's recall is below its precision), then to the casing logits, by coordinate
ascent on punctuation F1 and casing F1 (with the consistency rule and the card's names list); last, offsets for a
document's last word on the dev paragraphs cut into sentences, each restored on its own (the short inputs users
type). ``--extra-dev`` adds documents of another kind (Brown's written dev share) to the offsets' ascent alone:
offsets tuned on talks alone put too many periods into written text, whose sentences are longer.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np

from ..engines.base import EngineOptions
from ..engines.pipeline import PipelineEngine
from ..evaluation import evaluate_token
from ..holdout import Holdout
from ..labels import labelled_words, punct_label
from ..packs import load_pack
from .dev import load_dev, load_talks, sentences, spaced_input
from .record import card_path, update_card

OFFSET_STEPS = tuple(np.arange(-1.0, 3.01, 0.25))


class CachedSession:
    """Memoizes ORT calls by input bytes: for one window size and overlap the batches are the same
    whatever min_words_cut is (only the kept parts move), so each cut costs no extra model call."""

    def __init__(self, session):
        self.session, self.cache = session, {}

    def run(self, names, feeds):
        key = tuple(feeds[k].tobytes() + bytes(str(feeds[k].shape), "ascii") for k in sorted(feeds))
        if key not in self.cache:
            self.cache[key] = self.session.run(names, feeds)
        return self.cache[key]


def tune_windows(engine: PipelineEngine, refs: list[str], windows, overlaps, cuts,
                 tolerance: float = 0.0) -> tuple[PipelineEngine, dict, list]:
    """Grid over window / overlap / cut on ``refs`` (restored from their spaced, mark-free words). The chosen row
    is the cheapest (model words per word, window / (window - overlap)) whose punct + casing overall F1 is within
    ``tolerance`` of the best (of equal cost, the higher score; 0: the best). Returns the engine configured so,
    the chosen row, the grid."""
    pack, model = engine.pack, engine.model
    inputs = [spaced_input(r, pack) for r in refs]
    rows = []
    for window in windows:
        for overlap in overlaps:
            if overlap >= window:
                continue
            session = CachedSession(model.session)
            for cut in cuts:
                if cut > overlap:
                    continue
                settings = replace(model.settings, window=window, overlap=overlap, cut=cut)
                trial = PipelineEngine(pack, model.configured(settings, session=session), engine.models_dir)
                r = evaluate_token(refs, trial.restore(inputs, "keep"), pack, spaces="keep")
                casing = r.casing_overall.f1 if r.casing_overall is not None else 0.0  # an uncased pack: none
                rows.append({"window": window, "overlap": overlap, "cut": cut, "punct_f1": r.punct_overall.f1,
                             "casing_f1": casing, "cost": round(window / (window - overlap), 3)})
                print(f"tune {rows[-1]}", flush=True)
    top = max(r["punct_f1"] + r["casing_f1"] for r in rows)
    best = min((r for r in rows if r["punct_f1"] + r["casing_f1"] >= top - tolerance - 1e-12),
               key=lambda r: (r["cost"], -(r["punct_f1"] + r["casing_f1"])))
    return engine.configured(window=best["window"], overlap=best["overlap"], cut=best["cut"]), best, rows


def labelled_talks(model, pack, refs: list[str]) -> list[tuple[list[str], np.ndarray, np.ndarray]]:
    """Documents as (word forms, gold punctuation ids, gold casing ids) in the label order of ``model``
    (the words are given, so predictions align with them one to one)."""
    labels = list(model.punct_labels)
    punct_of_class = np.array([labels.index(punct_label(c, pack)) for c in range(pack.n_classes)], np.int64)
    talks = [labelled_words(ref, pack, True, punct_of_class) for ref in refs]
    return [t for t in talks if t[0]]


def micro_f1(preds, gold) -> float:
    """Overall F1 over the non-O labels (id 0 is O)."""
    tp = fp = fn = 0
    for pred, g in zip(preds, gold):
        tp += int(((pred == g) & (g > 0)).sum())
        fp += int(((pred != g) & (pred > 0)).sum())
        fn += int(((pred != g) & (g > 0)).sum())
    return 2 * tp / max(2 * tp + fp + fn, 1)


def ascend(score, n: int, steps, rounds: int, key: str) -> tuple[np.ndarray, list[dict]]:
    """Coordinate ascent of per-label offsets (label 0, O, stays at 0) on ``score(offsets)``."""
    bias = np.zeros(n, np.float32)
    best = score(bias)
    rows = [{"bias": bias.tolist(), key: best}]
    for _ in range(rounds):
        for k in range(1, n):
            for v in steps:
                trial = bias.copy()
                trial[k] = v
                f = score(trial)
                if f > best + 1e-6:
                    best, bias = f, trial
        rows.append({"bias": bias.tolist(), key: best})
        print(f"tune {key} {rows[-1]}", flush=True)
        if rows[-1]["bias"] == rows[-2]["bias"]:
            break
    return bias, rows


def logit_talks(model, talks) -> list[tuple]:
    """``labelled_talks`` as ``tune_offsets`` reads them: (punct logits, case logits, gold punct, gold case, the
    names mask of ``model.named``)."""
    return [(*model.logits(forms), punct, case, model.named(forms)) for forms, punct, case in talks]


def tune_offsets(model, talks, steps=OFFSET_STEPS, rounds: int = 6,
                 cased: bool = True) -> tuple[np.ndarray, np.ndarray, list, list]:
    """Coordinate ascent of the logit offsets on ``talks`` (``logit_talks``): first the punctuation offsets on
    punctuation F1, then, with those and a ``cased`` pack, the casing offsets on casing F1 with the consistency rule
    and the names list, as the runtime decodes. The casing offsets only lower a capital class: a positive CAP offset
    bought 0.07 F1 on ted_dev by capitalizing the words that start sentences in training after a comma as well
    (", And", ", But": twice as many as before), which F1 barely sees and readers do. Returns both offset vectors
    and the ascent rows (the last row holds the best F1)."""
    def punct_f1(bias):
        return micro_f1([model.decode(lp, lc, bias_punct=bias)[0] for lp, lc, *_ in talks], [t[2] for t in talks])

    bias, rows = ascend(punct_f1, len(model.punct_labels), steps, rounds, "punct_f1")

    def casing_f1(case_bias):
        preds = [model.decode(lp, lc, bias_punct=bias, bias_case=case_bias, named=named)[1]
                 for lp, lc, _, _, named in talks]
        return micro_f1(preds, [t[3] for t in talks])

    if not cased:
        return bias, np.zeros(len(model.case_labels), np.float32), rows, []
    lower = tuple(v for v in steps if v <= 0)
    case_bias, case_rows = ascend(casing_f1, len(model.case_labels), lower, rounds, "casing_f1")
    return bias, case_bias, rows, case_rows


def tune_bias(engine: PipelineEngine, refs: list[str], steps=OFFSET_STEPS,
              rounds: int = 6) -> tuple[PipelineEngine, list[dict]]:
    """The engine with punctuation and casing offsets (card keys "bias" and "case_bias") tuned on ``refs`` by
    ``tune_offsets`` under its window settings, and the ascent rows (offsets by label name)."""
    model = engine.model
    labels = list(model.punct_labels)
    talks = logit_talks(model, labelled_talks(model, engine.pack, refs))
    bias, case_bias, rows, case_rows = tune_offsets(model, talks, steps, rounds, engine.pack.has_caps)
    return engine.configured(bias=nonzero(bias, labels), case_bias=nonzero(case_bias, model.case_labels)), \
        named(rows, labels) + named(case_rows, model.case_labels)


def tune_end_bias(engine: PipelineEngine, refs: list[str], steps=OFFSET_STEPS,
                  rounds: int = 6) -> tuple[PipelineEngine, list[dict]]:
    """The engine with offsets for a document's last word (card key "end_bias") tuned on ``refs`` cut into
    sentences, each restored on its own (``dev.sentences``), by coordinate ascent on the F1 of those last words'
    marks under the engine's other offsets. The talks that tune "bias" have one last word each; in a short
    input the last word's PERIOD or QUESTION is most of what is decided."""
    model = engine.model
    labels = list(model.punct_labels)
    docs = [(*model.logits(forms), punct) for forms, punct, _ in
            labelled_talks(model, engine.pack, sentences(refs, engine.pack))]
    gold = [punct[-1:] for _, _, punct in docs]

    def end_f1(bias_end):
        return micro_f1([model.decode(lp, lc, bias_end=bias_end)[0][-1:] for lp, lc, _ in docs], gold)

    bias, rows = ascend(end_f1, len(labels), steps, rounds, "end_f1")
    return engine.configured(end_bias=nonzero(bias, labels)), named(rows, labels)


def named(rows: list[dict], names: list[str]) -> list[dict]:
    """Ascent rows with their offsets by label name, as the card's tuning record keeps them."""
    return [{**r, "bias": dict(zip(names, r["bias"]))} for r in rows]


def nonzero(bias: np.ndarray, names: list[str]) -> dict:
    """Offsets as the card keeps them: by label name, zeros left out."""
    return {lab: float(v) for lab, v in zip(names, bias) if v}


def settings_of(engine: PipelineEngine) -> dict:
    """The card keys of the engine's tuned decoding settings."""
    s = engine.settings
    return {"window": s.window, "overlap": s.overlap, "cut": s.cut, "bias": dict(s.bias),
            "case_bias": dict(s.case_bias), "end_bias": dict(s.end_bias)}


def add_arguments(p) -> None:
    p.add_argument("--windows", type=int, nargs="+", default=[64, 96, 128])
    p.add_argument("--overlaps", type=int, nargs="+", default=[16, 32])
    p.add_argument("--cuts", type=int, nargs="+", default=[0, 4, 8, 12, 16])
    p.add_argument("--tolerance", type=float, default=0.001,
                   help="take the cheapest window/overlap within this much punct + casing F1 of the best "
                        "(default: 0.001, a tenth of a point)")
    p.add_argument("--only", choices=("windows", "offsets"),
                   help="tune only the windows (the card's offsets stay) or only the offsets (under the card's windows)")
    p.add_argument("--extra-dev", nargs="+", default=[], metavar="FILE",
                   help="dev files of another kind (e.g. Brown's written text) added to the offsets' ascent alone")
    p.add_argument("--extra-holdout", type=Holdout.parse, default=Holdout(), metavar="N[:R]",
                   help="the --extra-dev documents whose id %% N == R (default: all), as --holdout")
    p.add_argument("--threads", type=int, default=1)


def run(args, command: str) -> dict:
    pack = load_pack(args.lang)
    models = Path(args.models_dir) if args.models_dir else None
    engine = PipelineEngine.load(pack, models, EngineOptions(args.threads, 64))
    refs = load_talks(args.dev, pack, args.holdout)
    print(f"tuning on {len(refs)} dev talks, {sum(len(r.split()) for r in refs):,} words", flush=True)
    grid, offset_rows = [], []
    if args.only != "offsets":
        engine, _, grid = tune_windows(engine, refs, args.windows, args.overlaps, args.cuts, args.tolerance)
    if args.only != "windows":
        extra = load_talks(args.extra_dev, pack, args.extra_holdout)
        if extra:
            print(f"offsets: {len(extra)} more documents, {sum(len(r.split()) for r in extra):,} words", flush=True)
        engine, offset_rows = tune_bias(engine, refs + extra)
        engine, end_rows = tune_end_bias(engine, load_dev(args.dev, pack, args.holdout))
        offset_rows += end_rows
    tuned = {**settings_of(engine), "tuning_command": command,
             "tuning": {"dev": [Path(d).name for d in args.dev], "holdout": str(args.holdout),
                        **({"offsets_extra_dev": [Path(d).name for d in args.extra_dev],
                            "offsets_extra_holdout": str(args.extra_holdout)} if args.extra_dev else {}),
                        "documents": "talks (a document's paragraphs joined), words given",
                        "window_grid": grid, "window_objective": "punct + casing overall F1",
                        "window_choice": f"cheapest within {args.tolerance} of the best",
                        "offset_ascent": offset_rows}}
    if args.write_card:
        update_card(card_path(args.lang, pack.models["token"], models), tuned)
    print(json.dumps(settings_of(engine)))
    return tuned
