"""Several trained runs of one vocabulary exported as one model: the mean of their log-probabilities, or of
their weights.

Runs trained from different seeds or sizes make partly different errors, and averaging their log-softmax
outputs (a geometric-mean ensemble) removes some of them. The runtime does not change: it still sees one
ONNX model with the same inputs and outputs, and log-probabilities serve as its logits. Runs that continued
one another (``train --init-from``) share one basin, so the mean of their weights (a "model soup") is itself
a good model, at one member's cost. ``export.load_runs`` loads the members and checks that they read the same
input ids.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from .runs import TrainingError


def combine(models: list):
    """One model for many: a single member is returned as it is; several share fresh copies of the first
    member's inputs, and each output head becomes the mean of the members' log-softmax."""
    if len(models) == 1:
        return models[0]
    import keras
    from keras import layers, ops

    inputs = [keras.Input(shape=t.shape[1:], dtype=t.dtype, name=t.name.split(":")[0]) for t in models[0].inputs]
    feed = inputs if len(inputs) > 1 else inputs[0]
    for i, m in enumerate(models):
        m.name = f"member{i}"  # nested models need unique names
    outs = [m(feed) for m in models]
    outs = [list(o) if isinstance(o, (list, tuple)) else [o] for o in outs]
    heads = [layers.Average(name=f"mean_log_prob{k}")([ops.log_softmax(o[k]) for o in outs])
             for k in range(len(outs[0]))]
    return keras.Model(feed, heads if len(heads) > 1 else heads[0], name="ensemble")


def soup(models: list):
    """The first member with the mean of all members' weights; members must have the same shapes."""
    shapes = [[tuple(w.shape) for w in m.weights] for m in models]
    if any(s != shapes[0] for s in shapes[1:]):
        raise TrainingError("export --average weights: the runs' models differ in shape")
    mean = [np.mean([m.weights[i].numpy().astype(np.float64) for m in models], axis=0)
            for i in range(len(shapes[0]))]
    models[0].set_weights([a.astype(w.dtype) for a, w in zip(mean, models[0].weights)])
    return models[0]


def training_record(runs: list[Path], models: list, seen_key: str, machine: str, average: str = "outputs") -> dict:
    """Card fields ``hyper``, ``parameters`` and ``training``: as before for one run, and for an ensemble
    a list of members plus the total CPU time that every member cost (for a soup, the largest member's:
    runs that continue one another count the CPU time before them)."""
    records = []
    for run, model in zip(runs, models):
        state = json.loads((run / "state.json").read_text())
        records.append({
            "run": run.name, "hyper": state["hyper"], "parameters": int(model.count_params()),
            "epochs": state["epoch"], "cpu_hours": round(state["cpu_seconds"] / 3600, 3),
            "wall_hours": round(state["wall_seconds"] / 3600, 3),
            f"{seen_key}_seen": state["history"][-1][seen_key] if state["history"] else 0,
            "best_val_loss": min((h["val_loss"] for h in state["history"][state.get("stage_start", 0):]),
                                 default=None),
            "commands": state["commands"]} | ({"gpu": {"name": state["gpu"], "wall_hours": round(
                state["gpu_seconds"] / 3600, 3)}} if "gpu" in state else {}))
    if len(records) == 1:
        r = records[0]
        return {"hyper": r["hyper"], "parameters": r["parameters"],
                "training": {k: r[k] for k in ("epochs", "cpu_hours", "wall_hours", f"{seen_key}_seen",
                                               "best_val_loss")} | {"machine": machine, "commands": r["commands"]}
                            | ({"machine": f"{machine.removesuffix(', no GPU')} and a lent GPU (gpu)", "gpu": r["gpu"]}
                               if "gpu" in r else {})}
    total = sum if average == "outputs" else max
    return {"hyper": [r["hyper"] for r in records],
            "parameters": total(r["parameters"] for r in records),
            "ensemble": "mean of the members' log-softmax outputs" if average == "outputs" else
                        "mean of the members' weights (one model of one member's size)",
            "training": {"members": records, "cpu_hours": round(total(r["cpu_hours"] for r in records), 3),
                         "wall_hours": round(total(r["wall_hours"] for r in records), 3), "machine": machine}}
