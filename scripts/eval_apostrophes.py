"""Apostrophes removed from dev text, put back: char-level apostrophe F1 of the shipped path, and the step alone.

Each dev document's apostrophes ("'" and "’") are removed; an apostrophe of the output counts as right where the
reference has one after the same letter (the letters never change: checked). Conditions:
- ``step``: the reference without apostrophes, marks and case kept, through ``Apostrophes.restore`` alone;
- ``spaced``: lower-case words without marks or apostrophes, ``fix --spaces keep`` (the Restorer of the pack);
- ``despaced``: the same letters without spaces, ``fix --spaces restore``.
``--plain``: the documents without their diacritics, as chat types them (plain_letters.plain; fr "cetait", "jespere").
``--marks``: also the marks, case and WER of the ``spaced`` and ``despaced`` outputs (``charrestore eval``'s scorer,
each document whole; the apostrophes the output lacks or adds are left unaligned, as the scorer does).
``--speed N``: the default engine's chars/s on the de-spaced B set with the step (``--apostrophes restore``) and
without it (``keep``), interleaved, the median of N passes each.
Sets, en: TED dev talks (``ted_dev.tsv``) in two halves by talk, A (tuned on with ``--tune``) and B; Brown's held-out
written documents (``brown_train_docs.tsv``, id % 5 == 0, never counted into the model). fr: the novels' dev
documents (``eltec_novels_dev.tsv.xz``) in two halves the same way.

    python scripts/eval_apostrophes.py --tune --card     # grid on TED A (step), write the values into the card
    python scripts/eval_apostrophes.py --speed 5         # every set and condition, reports/eval_apostrophes.json
    python scripts/eval_apostrophes.py --lang fr --tune --card --speed 5   # reports/eval_apostrophes_fr.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import regex

from charrestore import Restorer, RestorerConfig
from charrestore.apostrophes import Apostrophes
from charrestore.cards import load_card, write_card
from charrestore.evaluation.results import evaluate_char
from charrestore.holdout import held_out
from charrestore.packs import load_pack
from charrestore.paths import models_dir
from charrestore.plain_letters import plain
from charrestore.training.corpus import read_documents

CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"
C = CORPORA / "en"
DEV = {"fr": ("novels", CORPORA / "fr" / "eltec_novels_dev.tsv.xz")}  # other packs: one dev file, halved
_APOS = regex.compile(r"['’]")
_LETTER = regex.compile(r"[\p{L}\p{N}\p{M}]")
_MARKS = regex.compile(r"[^\p{L}\p{N}\p{M}\s]")


def documents(max_docs: int, lang: str = "en") -> dict[str, list[str]]:
    """The sets (A: tuned on; B, and en's Brown: not), each document holding an apostrophe."""
    if lang != "en":
        name, path = DEV[lang]
        docs = read_documents(path, load_pack(lang))
        sets = {f"{name}_A": docs[0::2], f"{name}_B": docs[1::2]}
        return {k: [d for d in v if _APOS.search(d)][:max_docs] for k, v in sets.items()}
    pack = load_pack("en")
    ted = read_documents(C / "ted_dev.tsv", pack)
    brown: dict[str, list[str]] = {}
    with open(C / "brown_train_docs.tsv", encoding="utf-8") as fh:
        for line in fh:
            cols = line.rstrip("\n").split("\t")
            if held_out(cols[0], 5):
                brown.setdefault(cols[0], []).append(cols[-1])
    sets = {"ted_A": ted[0::2], "ted_B": ted[1::2], "brown_dev": [" ".join(p) for p in brown.values()]}
    return {k: [d for d in v if _APOS.search(d)][:max_docs] for k, v in sets.items()}


def positions(text: str) -> tuple[str, set[int]]:
    """(the text's letters, lower case; the letter indices an apostrophe follows)."""
    letters, at = [], set()
    for c in text:
        if _LETTER.match(c):
            letters.append(c.lower())
        elif c in "'’" and letters:
            at.add(len(letters) - 1)
    return "".join(letters), at


def inputs(ref: str, condition: str) -> str:
    bare = _APOS.sub("", ref)
    if condition == "step":
        return bare
    words = _MARKS.sub(" ", bare.lower()).split()
    return " ".join(words) if condition == "spaced" else "".join(words)


def score(pairs) -> dict:
    tp = fp = fn = 0
    for ref, out in pairs:
        ref_letters, want = positions(ref)
        out_letters, got = positions(out)
        if ref_letters != out_letters:
            raise SystemExit(f"letters changed: {out[:200]!r}")
        tp, fp, fn = tp + len(want & got), fp + len(got - want), fn + len(want - got)
    p, r = tp / max(tp + fp, 1), tp / max(tp + fn, 1)
    return {"P": round(p, 4), "R": round(r, 4), "F1": round(2 * p * r / max(p + r, 1e-9), 4), "apostrophes": tp + fn}


def tune(docs: list[str], model: Apostrophes, tuned_on: str) -> dict:
    best = None
    for smoothing in (10, 100, 1000, 1e4, 1e5):
        for bias in (-0.5, -0.25, 0.0, 0.25, 0.5, 1.0):
            model.smoothing, model.bias = smoothing, bias * 2.302585
            f = score((d, model.restore(inputs(d, "step"))) for d in docs)["F1"]
            print(f"smoothing {smoothing:g} bias {bias:+.2f}: F1 {f:.4f}", file=sys.stderr)
            if best is None or f > best[0]:
                best = (f, smoothing, bias)
    return {"smoothing": best[1], "bias": best[2], "tuned_on": tuned_on, "F1": best[0]}


def speed(docs: list[str], runs: int, lang: str) -> dict:
    """Median chars/s of the default engine on de-spaced ``docs``, with and without the step, interleaved."""
    texts = [inputs(d, "despaced") for d in docs]
    chars = sum(len(t) for t in texts)
    restorers = {mode: Restorer(RestorerConfig(lang=lang, apostrophes=mode)) for mode in ("restore", "keep")}
    for r in restorers.values():
        r(texts[0])  # warm: the counts and the apostrophes model load on first use
    times: dict[str, list[float]] = {mode: [] for mode in restorers}
    for _ in range(runs):
        for mode, r in restorers.items():
            t = time.perf_counter()
            for text in texts:
                r(text)
            times[mode].append(time.perf_counter() - t)
    rate = {mode: chars / statistics.median(ts) for mode, ts in times.items()}
    return {"chars": chars, "runs": runs, **{f"chars_per_s_{m}": round(v) for m, v in rate.items()},
            "cost": round(rate["keep"] / rate["restore"] - 1, 4)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lang", default="en", choices=["en", *DEV], help="the pack (default: en)")
    ap.add_argument("--tune", action="store_true", help="grid the smoothing and bias on the A set first")
    ap.add_argument("--card", action="store_true", help="write the tuned values and the scores into the card")
    ap.add_argument("--max-docs", type=int, default=200)
    ap.add_argument("--marks", action="store_true", help="also score the marks, case and WER of the outputs")
    ap.add_argument("--plain", action="store_true", help="the documents without their diacritics")
    ap.add_argument("--speed", type=int, default=0, metavar="N", help="also time the step: median of N passes")
    ap.add_argument("--out", help="default: reports/eval_apostrophes.json (en), reports/eval_apostrophes_<lang>.json")
    args = ap.parse_args()
    lang = args.lang
    out = args.out or f"reports/eval_apostrophes{'' if lang == 'en' else '_' + lang}.json"
    sets = documents(args.max_docs, lang)
    if args.plain:
        sets = {name: [plain(d) for d in docs] for name, docs in sets.items()}
    first, second = list(sets)[:2]
    card, _ = load_card(lang, "apostrophes")
    model = Apostrophes.load(lang)
    if args.tune:
        where = "ted_dev.tsv, even talks" if lang == "en" else f"{DEV[lang][1].name}, even documents"
        tuned = tune(sets[first], model, f"{where} (step alone)")
        card["params"].update(smoothing=tuned["smoothing"], bias=tuned["bias"])
        card["tuning"] = tuned
        write_card(models_dir() / lang / "apostrophes.json", card)
    restorer, pack = Restorer(RestorerConfig(lang=lang)), load_pack(lang)
    model = restorer.engine.apostrophe_model()
    results = {}
    for name, docs in sets.items():
        for condition in ("step", "spaced", "despaced"):
            t = time.perf_counter()
            if condition == "step":
                outs = [model.restore(inputs(d, condition)) for d in docs]
            else:
                outs = [restorer(inputs(d, condition), spaces="keep" if condition == "spaced" else "restore")
                        for d in docs]
            results[f"{name}/{condition}"] = {**score(zip(docs, outs)), "docs": len(docs),
                                              "seconds": round(time.perf_counter() - t, 1)}
            if args.marks and condition != "step":
                scored = evaluate_char(docs, outs, pack).to_dict()
                results[f"{name}/{condition}"]["marks"] = {
                    **{f: round(scored["features"][f]["f1"], 4) for f in ("CAPS", ".", ",")},
                    "ALL": round(scored["ALL"]["f1"], 4), "WER": round(scored["wer"], 4)}
            print(name, condition, results[f"{name}/{condition}"], file=sys.stderr)
    if args.speed:
        results[f"speed_{second}_despaced"] = speed(sets[second], args.speed, lang)
        print(results[f"speed_{second}_despaced"], file=sys.stderr)
    card = load_card(lang, "apostrophes")[0]
    signature = f"charrestore.apostrophes|lang:{lang}|model:{card['sha256'][:12]}|params:{json.dumps(card['params'])}"
    report = {"signature": signature, "command": "python scripts/eval_apostrophes.py " + " ".join(sys.argv[1:]),
              "results": results}
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    Path(out).write_text(json.dumps(report, indent=1) + "\n")
    if args.card:
        card["dev_scores"] = {"signature": signature, **results}
        write_card(models_dir() / lang / "apostrophes.json", card)
    print(signature)


if __name__ == "__main__":
    main()
