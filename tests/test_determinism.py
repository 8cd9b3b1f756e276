"""Determinism by construction (#22): the shipped models give byte-identical restorations for any batch size and
thread count, both engines and every pack, on documents many windows long.

The models were made batch-independent by ``scripts/dequantize_models.py`` (one window per Loop iteration, its
int8 activations quantized over that window alone): ``quantize_dynamic`` took one activation scale over the whole
batch, and a float GEMM's rows are not independent of the batch either (MLAS tiles rows; a lone row takes another
kernel), so int8 weights with float activations alone would not do. This fails on the batched models (every pack).
The documents are the fixture texts shuffled into long lines, lower-cased without marks (and without spaces for
the space-restoring engines), so every window of several batches is exercised.
"""

import random
from pathlib import Path

import numpy as np
import pytest
import regex

from charrestore import Restorer, load_pack

TEXTS = Path(__file__).resolve().parent / "fixtures" / "text"
BATCH_SIZES = (1, 2, 7, 32, 64)
THREADS = (1, 2)
ENGINES = [("en", "pipeline"), ("en", "char"), ("ja", "char"), ("gu", "char")]


def long_documents(lang: str, n: int = 3, length: int = 2600) -> list[str]:
    """``n`` documents of about ``length`` characters (6-7 char windows, ~4 token windows each)."""
    lines = [l for l in (TEXTS / f"{lang}.txt").read_text(encoding="utf-8").splitlines() if l.strip()]
    rng = random.Random(22)
    docs = []
    for _ in range(n):
        parts: list[str] = []
        while sum(len(p) + 1 for p in parts) < length:
            parts.append(rng.choice(lines))
        docs.append(" ".join(parts))
    return docs


def variants(lang: str, engine: str) -> list[str]:
    docs = [regex.sub(r"\s+", " ", regex.sub(r"[.,?!。、？]", "", d)).strip().lower() for d in long_documents(lang)]
    if load_pack(lang).has_space and engine == "char":
        docs.append(docs[0].replace(" ", ""))
    return docs


@pytest.mark.parametrize("lang,engine", ENGINES)
def test_output_does_not_depend_on_batch_size_or_threads(lang, engine):
    docs = variants(lang, engine)
    expected = [Restorer(lang=lang, engine=engine, batch_size=1, threads=1)(d) for d in docs]
    for threads in THREADS:
        for batch_size in BATCH_SIZES:
            if (threads, batch_size) == (1, 1):
                continue
            restorer = Restorer(lang=lang, engine=engine, batch_size=batch_size, threads=threads)
            got = [restorer(d) for d in docs]
            changed = [i for i, (a, b) in enumerate(zip(expected, got)) if a != b]
            assert not changed, (f"{lang} {engine}: batch_size={batch_size} threads={threads} changes "
                                 f"document(s) {changed} against batch_size=1 threads=1")


def _matmul_integer_model(weights, scale):
    """x -> DynamicQuantizeLinear -> MatMulInteger(x_q, W_q) -> Cast -> Mul(x_scale * W_scale), as quantize_dynamic
    writes it (names included)."""
    from onnx import TensorProto, helper, numpy_helper

    inits = [numpy_helper.from_array(weights, "W_quantized"), numpy_helper.from_array(np.float32(scale), "W_scale"),
             numpy_helper.from_array(np.int8(0), "W_zero_point")]
    nodes = [helper.make_node("DynamicQuantizeLinear", ["x"], ["xq", "xs", "xz"]),
             helper.make_node("MatMulInteger", ["xq", "W_quantized", "xz", "W_zero_point"], ["acc"]),
             helper.make_node("Cast", ["acc"], ["accf"], to=TensorProto.FLOAT),
             helper.make_node("Mul", ["xs", "W_scale"], ["s"]), helper.make_node("Mul", ["accf", "s"], ["y"])]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [None, None])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def test_seven_bit_weights_make_the_integer_gemm_exact_on_every_kernel():
    """Inputs at the top of u8 meet weights of 127 in adjacent pairs, where VPMADDUBSW (x86 without VNNI) would
    saturate: with the weights held to 7 bits, ORT's result is the exact integer product, and the dequantized
    weights stay within half a (new) step of the old ones."""
    import onnxruntime as ort

    numpy_helper = pytest.importorskip("onnx.numpy_helper", reason="onnx comes with the [train] extra")
    from charrestore.training.dequantize import SEVEN_BITS, seven_bit_weights

    rng = np.random.default_rng(52)
    weights = rng.integers(-127, 128, (64, 16)).astype(np.int8)
    weights[:, 0] = 127
    model = _matmul_integer_model(weights, 0.01)
    assert seven_bit_weights(model) == 1 and seven_bit_weights(model) == 0
    inits = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    new, scale = inits["W_quantized"], float(inits["W_scale"])
    assert np.abs(new.astype(int)).max() == SEVEN_BITS
    assert np.abs(new * scale - weights * 0.01).max() <= scale / 2 + 1e-7
    x = np.abs(rng.normal(size=(8, 64))).astype(np.float32)
    x[:, :] = np.maximum(x, 0.9 * x.max())  # many inputs quantize to 255 (zero point 0)
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    got = session.run(None, {"x": x})[0]
    x_scale = float(x.max()) / 255
    x_q = np.clip(np.round(x / x_scale), 0, 255).astype(np.int64)
    exact = (x_q @ new.astype(np.int64)).astype(np.float32) * np.float32(x_scale) * np.float32(scale)
    np.testing.assert_allclose(got, exact, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("lang", sorted(p.parent.name for p in (Path(__file__).resolve().parent.parent / "models")
                                        .glob("*/char.onnx")))
def test_shipped_char_models_hold_their_weights_to_seven_bits(lang):
    onnx = pytest.importorskip("onnx", reason="onnx comes with the [train] extra")
    from charrestore.training.dequantize import seven_bit_weights

    model = onnx.load(str(Path(__file__).resolve().parent.parent / "models" / lang / "char.onnx"))
    assert seven_bit_weights(model) == 0, f"{lang}: run scripts/dequantize_models.py models/{lang}/char.onnx --seven-bits"
