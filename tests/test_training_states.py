"""The committed training states are weights-only (models/README.md) and fit the models their state describes."""

import json
from pathlib import Path

import numpy as np
import pytest

keras = pytest.importorskip("keras")

from charrestore.packs import load_pack  # noqa: E402
from charrestore.training.char_model import build_char_model  # noqa: E402
from charrestore.training.runs import WEIGHTS, load_weights, read_state  # noqa: E402
from charrestore.training.token_model import build_token_model  # noqa: E402

FOLDER = Path(__file__).parent.parent / "training_state"  # none committed while every state is out of the tree
STATES = sorted(FOLDER.iterdir()) if FOLDER.is_dir() else []


def model_of(folder: Path):
    hyper, meta = read_state(folder)["hyper"], json.loads((folder / "meta.json").read_text())
    if folder.name.split("-")[1] == "char":
        # a multilingual state (deru-char) names its packs in its sources; they share their classes
        code = meta["sources"][0].get("lang", folder.name.split("-")[0])
        return build_char_model(len(meta["vocab"]) * 3, load_pack(code).n_classes,
                                emb=hyper["emb"], conv=hyper["conv"], kernel=hyper["kernel"],
                                dilations=tuple(hyper["dilations"]), lstm=hyper["lstm"],
                                lstm_layers=hyper["lstm_layers"], dropout=hyper["dropout"])
    return build_token_model(meta["vocab_size"] + (1 if hyper.get("edges") else 0), emb=hyper["emb"],
                             lstm=hyper["lstm"], conv_layers=hyper["conv_layers"], kernel=hyper["kernel"],
                             dropout=hyper["dropout"])


@pytest.mark.parametrize("folder", STATES, ids=[f.name for f in STATES])
def test_state_is_weights_only_and_loads(folder):
    kind = folder.name.split("-")[1]
    data = {"char": ["meta.json"], "token": ["meta.json", "tokenizer.model"]}[kind]
    assert sorted(p.name for p in folder.iterdir()) == sorted(["state.json", WEIGHTS, *data])
    state = read_state(folder)
    assert state["epoch"] == len(state["history"]) and state["history"][-1]["lr"] > 0
    model = model_of(folder)
    load_weights(model, folder / WEIGHTS)
    assert all(np.isfinite(w).all() for w in model.get_weights())
