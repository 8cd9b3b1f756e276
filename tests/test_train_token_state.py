"""train token: a weights-only compact state resumes with the saved weights, epoch count and tokenizer."""

import argparse
import json
from pathlib import Path

import numpy as np
import pytest

keras = pytest.importorskip("keras")
pytest.importorskip("sentencepiece")

from charrestore.training.train_token import WEIGHTS, add_arguments, train  # noqa: E402

TEXT = Path(__file__).parent / "fixtures" / "text" / "en.txt"


def tiny_args(out: Path, *extra: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser.parse_args([
        "--lang", "en", "--corpus", str(TEXT), "--dev", str(TEXT), "--out", str(out), "--vocab", "120",
        "--lexicon-min", "1", "--window", "8", "--batch", "4", "--steps", "2", "--epochs", "1", "--emb", "4",
        "--lstm", "4", "--dev-windows", "4", *extra])


def test_weights_only_state_resumes(tmp_path):
    state_dir = tmp_path / "state"
    train(tiny_args(tmp_path / "a", "--save-state", str(state_dir), "--state-weights-only"))
    assert sorted(p.name for p in state_dir.iterdir()) == ["meta.json", "state.json", "tokenizer.model", WEIGHTS]

    # The resumed optimizer starts at the state's learning rate: at 0, the weights must come back unchanged.
    state = json.loads((state_dir / "state.json").read_text())
    state["history"][-1]["lr"] = 0.0
    (state_dir / "state.json").write_text(json.dumps(state))
    out = train(tiny_args(tmp_path / "b", "--resume-from", str(state_dir)))

    resumed = json.loads((out / "state.json").read_text())
    assert resumed["epoch"] == 2 and resumed["history"][0] == state["history"][0]
    assert (out / "data" / "tokenizer.model").read_bytes() == (state_dir / "tokenizer.model").read_bytes()
    saved = np.load(state_dir / WEIGHTS)
    weights = keras.saving.load_model(out / "last.keras").get_weights()
    assert len(weights) == len(saved.files)
    for i, w in enumerate(weights):
        np.testing.assert_array_equal(w, saved[f"w{i}"])
