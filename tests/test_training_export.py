"""training.export: the shared Keras -> ONNX -> checks -> int8 -> card flow, on tiny char and token runs.
The cards keep the keys of the committed fixture cards; runs that cannot be exported are a TrainingError."""

import argparse
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

keras = pytest.importorskip("keras")
pytest.importorskip("tf2onnx")
pytest.importorskip("sentencepiece")

from charrestore import runtime  # noqa: E402
from charrestore.cards import sha256_of  # noqa: E402
from charrestore.training import export as flow  # noqa: E402
from charrestore.training.char_model import build_char_model  # noqa: E402
from charrestore.training import export_char, export_token, train_char, train_token  # noqa: E402
from charrestore.training.runs import TrainingError  # noqa: E402

FIXTURES = Path(__file__).parent / "fixtures"
TEXT = FIXTURES / "text" / "en.txt"


def trained(module, out: Path, *options: str) -> Path:
    parser = argparse.ArgumentParser()
    module.add_arguments(parser)
    return module.train(parser.parse_args(["--lang", "en", "--corpus", str(TEXT), "--dev", str(TEXT), "--out",
                                           str(out), "--batch", "4", "--steps", "2", "--epochs", "1", *options]))


@pytest.fixture(scope="module")
def char_run(tmp_path_factory):
    return trained(train_char, tmp_path_factory.mktemp("char"), "--min-count", "1", "--window", "24", "--emb", "4",
                   "--conv", "8", "--kernel", "3", "--dilations", "1", "--lstm", "4", "--dev-windows", "8")


@pytest.fixture(scope="module")
def token_run(tmp_path_factory):
    return trained(train_token, tmp_path_factory.mktemp("token"), "--vocab", "120", "--lexicon-min", "1",
                   "--window", "8", "--emb", "4", "--lstm", "4", "--dev-windows", "8")


def card_of(path: Path) -> dict:
    return json.loads(path.with_suffix(".json").read_text())


def test_char_export_writes_a_checked_card(char_run, tmp_path):
    onnx_path = export_char.export([char_run], "en", tmp_path, "char", 48, 16, 8, check_windows=8, quantize=False)
    card = card_of(onnx_path)
    assert list(card) == list(json.loads((FIXTURES / "models" / "en" / "char.json").read_text()))
    assert card["sha256"] == sha256_of(onnx_path) and card["quantization"] == "none (fp32)"
    checks = card["export_checks"]
    assert checks["fp32_vs_keras_max_abs_diff"] <= 1e-4 and checks["int8_vs_fp32_argmax_agreement"] == 1.0
    assert checks["positions"] == 8 * 24
    ids = np.arange(3, 27, dtype=np.int32)[None]
    assert runtime.run(runtime.session(onnx_path, 1), ids).shape == (1, 24, len(card["classes"]))


def test_a_card_names_the_gpu_that_a_run_trained_on(char_run, tmp_path):
    """A run trained on a lent GPU (KERAS_BACKEND=torch) records the device and its wall time; the card shows
    them beside the CPU hours. A CPU run's card has no such field."""
    assert "gpu" not in card_of(export_char.export([char_run], "en", tmp_path / "cpu", "char", 48, 16, 8,
                                                   check_windows=8, quantize=False))["training"]
    run = tmp_path / "run"
    shutil.copytree(char_run, run)
    state = json.loads((run / "state.json").read_text())
    (run / "state.json").write_text(json.dumps({**state, "gpu_seconds": 5400.0, "gpu": "NVIDIA H200"}))
    card = card_of(export_char.export([run], "en", tmp_path / "gpu", "char", 48, 16, 8, check_windows=8,
                                      quantize=False))
    assert card["training"]["gpu"] == {"name": "NVIDIA H200", "wall_hours": 1.5}
    assert card["training"]["machine"] == "2-core CPU and a lent GPU (gpu)"


def test_char_reexport_keeps_the_tuned_decoding_of_the_card_it_replaces(char_run, tmp_path):
    """A retrained model starts from its predecessor's tuned decoding (``tune char`` then keeps it or not); the
    windows are the export's, and a card of other features passes nothing on."""
    path = export_char.export([char_run], "en", tmp_path, "char", 48, 16, 8, check_windows=8, quantize=False)
    tuned = {"window": 96, "bias": {".": 1.5, "SPACE": -0.5}, "nb_spaces": True, "nb_space": 3.0, "nb_join": 2.0,
             "capital_after_mark_penalty": 0.5, "pair_bonus": 1.0, "common_capital_penalty": 1.0,
             "common_words": ["the", "and"]}
    path.with_suffix(".json").write_text(json.dumps({**card_of(path), **tuned}))
    card = card_of(export_char.export([char_run], "en", tmp_path, "char", 48, 16, 8, check_windows=8, quantize=False))
    assert {k: card[k] for k in tuned if k != "window"} == {k: v for k, v in tuned.items() if k != "window"}
    assert card["window"] == 48 and card["sha256"] == sha256_of(path)
    path.with_suffix(".json").write_text(json.dumps({**card, "features": ["CAPS"]}))
    card = card_of(export_char.export([char_run], "en", tmp_path, "char", 48, 16, 8, check_windows=8, quantize=False))
    assert card["bias"] == {} and "nb_space" not in card


def test_token_export_writes_a_checked_card_and_the_tokenizer(token_run, tmp_path):
    onnx_path = export_token.export([token_run], "en", tmp_path, "token", 16, 6, 3, check_windows=8, quantize=False)
    card = card_of(onnx_path)
    assert list(card) == list(json.loads((FIXTURES / "models" / "en" / "token.json").read_text()))
    assert card["tokenizer"]["sha256"] == sha256_of(tmp_path / "token.spm")
    assert card["export_checks"]["int8_vs_fp32_argmax_agreement"] == {"punct": 1.0, "case": 1.0}
    assert card["export_checks"]["words"] == 8 * 8



def test_a_weight_average_exports_one_model_of_one_members_size(token_run, tmp_path):
    """``--average weights`` of a run with itself is that run: the same outputs, one member's parameters."""
    one = export_token.export([token_run], "en", tmp_path / "one", "token", 16, 6, 3, check_windows=8, quantize=False)
    both = export_token.export([token_run, token_run], "en", tmp_path / "soup", "token", 16, 6, 3, check_windows=8,
                               quantize=False, average="weights")
    assert card_of(both)["parameters"] == card_of(one)["parameters"]
    assert card_of(both)["ensemble"].startswith("mean of the members' weights")
    ids = np.arange(1, 13, dtype=np.int32)[None]
    feeds = {"ids": ids, "starts": np.array([[0, 3, 5, 9]], np.int32)}
    for a, b in zip(flow.predict(one, feeds), flow.predict(both, feeds)):
        np.testing.assert_allclose(a, b, atol=1e-5)


def confident_model():
    """A tiny untrained char model whose argmax is class 0 everywhere, so that int8 agrees with fp32."""
    keras.utils.set_random_seed(0)
    model = build_char_model(30, 8, emb=4, conv=8, kernel=3, dilations=(1,), lstm=4)
    kernel, bias = model.get_layer("logits").get_weights()
    model.get_layer("logits").set_weights([kernel, bias + np.eye(8, dtype=np.float32)[0] * 50])
    return model


DEV = {"ids": np.random.default_rng(0).integers(0, 30, size=(40, 16)).astype(np.int32)}


@pytest.mark.parametrize("conv_fp16", [False, True])
def test_int8_export_quantizes_and_stores_conv_kernels_as_asked(tmp_path, conv_fp16):
    import onnx

    path = tmp_path / "char.onnx"
    checks = flow.to_onnx(confident_model(), DEV, path, quantize=True, conv_fp16=conv_fp16)
    assert checks["int8_vs_fp32_argmax_agreement"] == 1.0 and checks["positions"] == 40 * 16
    types = {t.data_type for t in onnx.load(str(path)).graph.initializer}
    assert onnx.TensorProto.INT8 in types
    assert (onnx.TensorProto.FLOAT16 in types) == conv_fp16


def test_a_failed_check_removes_the_file(tmp_path, monkeypatch):
    path = tmp_path / "char.onnx"
    real = flow.predict
    monkeypatch.setattr(flow, "predict", lambda p, feeds: [-o for o in real(p, feeds)] if p == path else real(p, feeds))
    with pytest.raises(TrainingError, match="export check failed"):
        flow.to_onnx(confident_model(), DEV, path, quantize=True, conv_fp16=False)
    assert not path.exists()


def test_quantization_notes_are_those_of_the_shipped_cards():
    assert flow.quantization(True, conv_fp16=False) == "int8 dynamic weights for LSTM/MatMul/Gather (Conv stays fp32)"
    assert flow.quantization(False, conv_fp16=True) == "none (fp32)"


def test_a_run_without_a_model_is_a_training_error(tmp_path):
    with pytest.raises(TrainingError, match="run 'charrestore train token' first"):
        export_token.export([tmp_path], "en", tmp_path / "models", "token", 16, 6, 3)


def test_ensemble_members_must_share_their_vocabulary(char_run, tmp_path):
    other = tmp_path / "other"
    (other / "data").mkdir(parents=True)
    for name in ("state.json", "last.keras"):
        (other / name).write_bytes((char_run / name).read_bytes())
    meta = json.loads((char_run / "data" / "meta.json").read_text())
    (other / "data" / "meta.json").write_text(json.dumps({**meta, "vocab": meta["vocab"][:-1]}))
    with pytest.raises(TrainingError, match="share one vocabulary"):
        export_char.export([char_run, other], "en", tmp_path / "models", "char", 48, 16, 8)


def test_card_corpora_take_the_weights_and_licenses_the_training_used(tmp_path):
    """A run that samples a shared encoded mix with ``--corpus PATH@WEIGHT`` has those weights on its card."""
    sources = [{"path": str(tmp_path / "ted_train.tsv"), "weight": 1.0}, {"path": str(tmp_path / "ami_meetings.tsv"),
                                                                          "weight": 1.0}]
    command = f"charrestore train token --corpus {tmp_path}/ted_train.tsv@8 --dev d.tsv --out r"
    cards = flow.corpora(sources, ["first command", command])
    assert [(c["path"], c["weight"], c["license"]) for c in cards] == [
        ("ted_train.tsv", 8.0, "CC BY-NC-ND 4.0 (TED)"), ("ami_meetings.tsv", 1.0, "CC BY 4.0 (AMI)")]
    assert [c["weight"] for c in flow.corpora(sources)] == [1.0, 1.0]
