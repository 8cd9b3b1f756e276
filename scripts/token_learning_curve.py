"""Learning curve of the token model: punctuation F1 on iwslt dev2012 against cumulative training CPU time,
and how much more training a target F1 would take (a rough extrapolation, not a promise).

Each point is a checkpoint: a training folder (``state.json`` + ``last.keras`` + ``data/``, as saved by
``charrestore train token`` every epoch; it is exported to a temporary folder with the same checks as
``charrestore export token``) or an already exported model root (``<root>/en/token.{onnx,json,spm}``).
For each, the offsets are tuned on ted_dev talks as ``charrestore tune token --only offsets`` does, and the
punctuation overall F1 on iwslt dev2012 (ASR-style input) is computed on the labels directly (the words are
given, so they align one to one; ``eval_token.py`` gives the same number through ``charrestore eval``),
and cached as ``curve_point.json`` in the checkpoint folder (``--fresh`` recomputes).
F1 is fitted as linear in log(CPU hours) over the points from ``--fit-from`` on, and the fit is solved for ``--target``.
The dev loss of every epoch in ``--state`` is listed beside it.

    python scripts/token_learning_curve.py --checkpoints runs/token-en-snapshots/ep* \\
        --state training_state/en-token/state.json --target 0.65
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
from pathlib import Path

import numpy as np

from charrestore import Restorer, load_pack
from charrestore.tuning.dev import iwslt_reference, load_talks
from charrestore.tuning.token import labelled_talks, micro_f1, tune_bias

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT.parent / "shared" / "corpora" / "en"


def iwslt_f1(models: Path, pack) -> tuple[float, float, dict]:
    """(F1 without offsets, F1 with offsets tuned on ted_dev talks, the punctuation offsets) of an exported
    model, on iwslt dev2012."""
    engine = Restorer(lang="en", engine="pipeline", spaces="keep", threads=1, batch_size=64,
                      models_dir=str(models)).engine
    model = engine.model
    [(forms, gold, _)] = labelled_talks(model, pack, [iwslt_reference(CORPORA / "iwslt_dev2012_labels.tsv")])
    lp, lc = model.logits(forms)
    zero = np.zeros(len(model.punct_labels), np.float32)
    tuned, _ = tune_bias(engine, load_talks([CORPORA / "ted_dev.tsv"], pack))
    return (micro_f1([model.decode(lp, lc, bias_punct=zero)[0]], [gold]),
            micro_f1([tuned.model.decode(lp, lc)[0]], [gold]), dict(tuned.settings.bias))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--checkpoints", nargs="+", required=True, help="training folders or exported model roots")
    p.add_argument("--state", help="state.json whose per-epoch dev losses to list")
    p.add_argument("--target", type=float, default=0.65)
    p.add_argument("--fit-from", type=int, default=6, help="fit only checkpoints from this epoch on")
    p.add_argument("--fresh", action="store_true", help="ignore the curve_point.json cached in each checkpoint")
    p.add_argument("--report", default=str(ROOT / "reports" / "token_learning_curve_en.md"))
    args = p.parse_args()

    pack = load_pack("en")
    points = []
    for ckpt in map(Path, args.checkpoints):
        cached = ckpt / "curve_point.json"
        if cached.is_file() and not args.fresh:
            points.append(json.loads(cached.read_text()))
            print(f"{points[-1]} (cached)", flush=True)
            continue
        if (ckpt / "state.json").is_file():
            from charrestore.training.export_token import export

            state = json.loads((ckpt / "state.json").read_text())
            with tempfile.TemporaryDirectory() as tmp:
                export([ckpt], "en", Path(tmp) / "en", "token", 64, 16, 8)
                f0, f1, bias = iwslt_f1(Path(tmp), pack)
            epoch, cpu_h = state["epoch"], state["cpu_seconds"] / 3600
            stage = state["history"][state.get("stage_start", 0):]
            dev_loss = min(h["val_loss"] for h in stage) if stage else None
        else:
            card = json.loads((ckpt / "en" / "token.json").read_text())
            f0, f1, bias = iwslt_f1(ckpt, pack)
            tr = card["training"]  # an ensemble's card: its members' epochs, their CPU hours in all
            epoch = tr.get("epochs") or max(m["epochs"] for m in tr["members"])
            cpu_h = tr["cpu_hours"]
            dev_loss = None
        points.append({"checkpoint": str(ckpt), "epoch": epoch, "cpu_hours": round(cpu_h, 3), "ted_dev_loss": dev_loss,
                       "iwslt_punct_f1": round(f0, 4), "iwslt_punct_f1_tuned_offsets": round(f1, 4),
                       "offsets": bias})
        cached.write_text(json.dumps(points[-1]) + "\n")
        print(points[-1], flush=True)
    points.sort(key=lambda q: q["cpu_hours"])

    lines = ["# Learning curve of the token model (en)", "", f"Command: `python {' '.join(sys.argv)}`", "",
             "| checkpoint | epoch | CPU h | best ted_dev loss | iwslt dev2012 punct F1 (no offsets) | with offsets tuned "
             "on ted_dev talks |", "|---|---|---|---|---|---|"]
    lines += [f"| {Path(q['checkpoint']).name} | {q['epoch']} | {q['cpu_hours']:.2f} | "
              f"{'' if q.get('ted_dev_loss') is None else format(q['ted_dev_loss'], '.4f')} | "
              f"{100 * q['iwslt_punct_f1']:.2f} | {100 * q['iwslt_punct_f1_tuned_offsets']:.2f} |" for q in points]
    fit = None
    fitted = [q for q in points if q["epoch"] >= args.fit_from]
    if len(fitted) >= 2:
        x = np.log([q["cpu_hours"] for q in fitted])
        y = np.array([q["iwslt_punct_f1_tuned_offsets"] for q in fitted])
        slope, intercept = np.polyfit(x, y, 1)
        need = math.exp((args.target - intercept) / slope) if slope > 0 else float("inf")
        last = points[-1]["cpu_hours"]
        fit = {"slope_per_e_fold": slope, "intercept": intercept, "cpu_hours_for_target": need,
               "more_cpu_hours": need - last}
        lines += ["", f"Fit: F1 = {intercept:.4f} + {slope:.4f} ln(CPU h) over the {len(fitted)} points from epoch "
                  f"{args.fit_from} on. "
                  f"F1 {args.target:.2f} at about {need:.2f} CPU h, i.e. {max(need - last, 0):.2f} more CPU h "
                  f"than the last point ({last:.2f} h), if the curve keeps its slope (with a learning-rate "
                  f"decay it usually bends up first, then flattens)."]
    if args.state:
        hist = json.loads(Path(args.state).read_text())["history"]
        lines += ["", f"Dev losses per epoch (`{args.state}`):", "", "| epoch | lr | val punct loss | val case loss |",
                  "|---|---|---|---|"]
        lines += [f"| {h['epoch']} | {h['lr']:.2e} | {h['val_punct_loss']:.4f} | {h['val_case_loss']:.4f} |"
                  for h in hist]
    report = Path(args.report)
    report.parent.mkdir(parents=True, exist_ok=True)
    report.write_text("\n".join(lines) + "\n", encoding="utf-8")
    report.with_suffix(".json").write_text(json.dumps({"points": points, "fit": fit}, indent=1) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
