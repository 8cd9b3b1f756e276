"""train token --teacher: the student learns the blend of gold labels and an exported model's probabilities.

The fixture token model (tests/fixtures/models/en) is the teacher; the student reads its tokenizer, as a
distilled model must. A teacher with another tokenizer, or a distilled state resumed without its teacher, is a
one-line training error.
"""

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("keras")

from charrestore.engines.token_input import load_tokenizer, pack_windows, word_pieces  # noqa: E402
from charrestore.training.distill import Teacher, softmax  # noqa: E402
from charrestore.training.runs import TrainingError  # noqa: E402
from charrestore.training.train_token import train  # noqa: E402
from test_train_token_state import tiny_args  # noqa: E402

MODELS = Path(__file__).parent / "fixtures" / "models" / "en"
LABELS = (["O", "COMMA", "PERIOD", "QUESTION"], ["O", "UPP", "CAP", "MIX"])
TEXT = Path(__file__).parent / "fixtures" / "text" / "en.txt"


def batch():
    sp = load_tokenizer(MODELS / "token.spm")
    forms = TEXT.read_text().lower().replace(".", "").replace(",", "").replace("?", "").split()[:40]
    flat, offsets = word_pieces(sp, forms)
    x = pack_windows(flat, offsets, [(0, 16), (10, 26), (20, 36)])
    rng = np.random.default_rng(0)
    return x, (rng.integers(0, 4, (3, 16)), rng.integers(0, 4, (3, 16)))


def test_targets_blend_gold_and_teacher():
    teacher = Teacher(MODELS / "token.onnx", MODELS / "token.spm", LABELS)
    x, y = batch()
    logits = teacher.session.run(None, {"ids": x[0], "starts": x[1]})
    for hard in (0.0, 0.3, 1.0):
        for t, gold, raw in zip(teacher.targets(x, y, hard), y, logits):
            assert t.shape == (3, 16, 4)
            np.testing.assert_allclose(t.sum(-1), 1.0, rtol=1e-5)
            expected = hard * np.eye(4)[gold] + (1 - hard) * softmax(raw)
            np.testing.assert_allclose(t, expected, rtol=1e-5, atol=1e-6)


def test_a_teacher_with_another_tokenizer_is_refused(tmp_path):
    other = tmp_path / "other.spm"
    other.write_bytes((MODELS / "token.spm").read_bytes() + b"\0")
    with pytest.raises(TrainingError, match="another tokenizer"):
        Teacher(MODELS / "token.onnx", other, LABELS)


def test_a_distilled_run_trains_resumes_and_needs_its_teacher(tmp_path):
    out = tmp_path / "student"
    (out / "data").mkdir(parents=True)
    shutil.copyfile(MODELS / "token.spm", out / "data" / "tokenizer.model")  # the teacher's subwords
    train(tiny_args(out, "--teacher", str(MODELS / "token.onnx"), "--hard", "0.5"))
    state = json.loads((out / "state.json").read_text())
    assert state["hyper"]["hard"] == 0.5 and state["epoch"] == 1
    assert np.isfinite(state["history"][-1]["val_loss"]) and state["history"][-1]["val_loss"] > 0
    train(tiny_args(out, "--teacher", str(MODELS / "token.onnx")))  # resumes as a distilled run
    assert json.loads((out / "state.json").read_text())["epoch"] == 2
    with pytest.raises(TrainingError, match="give --teacher"):
        train(tiny_args(out))
