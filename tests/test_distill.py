"""train token/char --teacher: the student learns the blend of gold labels and an exported model's probabilities.

The fixture token model (tests/fixtures/models/en) is the token teacher; the student reads its tokenizer, as a
distilled model must. The char teacher is a tiny char run exported in the test; its student starts from the
teacher run's vocabulary (data/meta.json). A teacher with another tokenizer or vocabulary, or a distilled run
without its teacher, is a one-line training error.
"""

import argparse
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("keras")

from charrestore.engines.token_input import load_tokenizer, pack_windows, word_pieces  # noqa: E402
from charrestore.packs import load_pack  # noqa: E402
from charrestore.training import export_char, train_char  # noqa: E402
from charrestore.training.distill import CharTeacher, Teacher, read_card, softmax  # noqa: E402
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


def char_args(out: Path, *extra: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    train_char.add_arguments(parser)
    return parser.parse_args([
        "--lang", "en", "--corpus", str(TEXT), "--dev", str(TEXT), "--out", str(out), "--min-count", "1",
        "--window", "24", "--batch", "4", "--steps", "2", "--epochs", "1", "--emb", "4", "--conv", "8", "--kernel", "3",
        "--dilations", "1", "--lstm", "4", "--dev-windows", "8", *extra])


@pytest.fixture(scope="module")
def char_teacher(tmp_path_factory) -> tuple[Path, Path]:
    """(a tiny trained char run, its export ``char.onnx``)."""
    pytest.importorskip("tf2onnx")
    run = train_char.train(char_args(tmp_path_factory.mktemp("teacher") / "run"))
    onnx_path = export_char.export([run], "en", tmp_path_factory.mktemp("models"), "char", 48, 16, 8,
                                   check_windows=8, quantize=False)
    return run, onnx_path


def classes_of(pack) -> list[str]:
    return [pack.class_name(c) for c in range(pack.n_classes)]


def test_char_targets_blend_gold_and_teacher(char_teacher):
    _, onnx_path = char_teacher
    pack, card = load_pack("en"), read_card(onnx_path)
    teacher = CharTeacher(onnx_path, card["vocab"], list(pack.features), classes_of(pack))
    assert teacher.inputs == ["ids"]  # read from the model, not assumed
    rng = np.random.default_rng(0)
    x = rng.integers(0, 3 * len(card["vocab"]), (3, 24))
    gold = rng.integers(0, pack.n_classes, (3, 24))
    (logits,) = teacher.session.run(None, {"ids": x.astype(np.int32)})
    for hard in (0.0, 0.4, 1.0):
        t = teacher.targets(x, gold, hard)
        assert t.shape == (3, 24, pack.n_classes) and t.dtype == np.float32
        np.testing.assert_allclose(t.sum(-1), 1.0, rtol=1e-5)
        np.testing.assert_allclose(t, hard * np.eye(pack.n_classes)[gold] + (1 - hard) * softmax(logits),
                                   rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(teacher.targets(x, gold, 1.0).argmax(-1), gold)
    assert set(np.unique(teacher.targets(x, gold, 1.0))) == {0.0, 1.0}


def test_a_char_student_trains_on_the_teachers_vocabulary(char_teacher, tmp_path):
    import keras

    run, onnx_path = char_teacher
    assert json.loads((run / "state.json").read_text())["hyper"]["hard"] == 1.0  # gold labels alone, as before
    assert "sparse_categorical_accuracy" in json.loads((run / "state.json").read_text())["history"][-1]
    out = tmp_path / "student"
    (out / "data").mkdir(parents=True)
    shutil.copyfile(run / "data" / "meta.json", out / "data" / "meta.json")  # as scripts/train_char.sh does
    train_char.train(char_args(out, "--lstm", "6", "--teacher", str(onnx_path), "--hard", "0.5"))
    state = json.loads((out / "state.json").read_text())
    assert state["hyper"]["hard"] == 0.5 and state["hyper"]["lstm"] == 6 and state["epoch"] == 1
    assert "categorical_accuracy" in state["history"][-1]
    # The val loss is the cross-entropy against the gold dev classes alone, as in a run without a teacher.
    data = out / "data"
    dev_x, dev_y = train_char.dev_windows(np.load(data / "dev_ids.npy"), np.load(data / "dev_cls.npy"), 24, 8)
    logits = keras.ops.convert_to_numpy(keras.saving.load_model(out / "last.keras")(dev_x, training=False))
    gold_loss = -np.log(np.take_along_axis(softmax(logits), dev_y[..., None], -1)).mean()
    np.testing.assert_allclose(state["history"][-1]["val_loss"], gold_loss, rtol=1e-4)
    with pytest.raises(TrainingError, match="give --teacher"):  # a resumed student keeps its hard weight
        train_char.train(char_args(out))


def test_a_char_teacher_of_another_vocabulary_is_refused(char_teacher, tmp_path):
    _, onnx_path = char_teacher
    with pytest.raises(TrainingError, match="the teacher's vocab "):  # its own vocabulary: min count 20, not 1
        train_char.train(char_args(tmp_path / "student", "--min-count", "20", "--teacher", str(onnx_path),
                                   "--hard", "0.5"))
    pack, card = load_pack("en"), read_card(onnx_path)
    with pytest.raises(TrainingError, match="the teacher's classes "):
        CharTeacher(onnx_path, card["vocab"], list(pack.features), classes_of(pack)[::-1])


def test_a_distilled_char_run_needs_a_teacher(tmp_path):
    with pytest.raises(TrainingError, match="give --teacher"):
        train_char.train(char_args(tmp_path / "student", "--hard", "0.5"))
    with pytest.raises(TrainingError, match="between 0 and 1"):
        train_char.train(char_args(tmp_path / "other", "--hard", "1.5"))
