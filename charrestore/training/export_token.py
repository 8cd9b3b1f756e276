"""Export a trained token model: Keras -> ONNX (tf2onnx) -> int8 (dynamic quantization) -> card + tokenizer.

As for the char model, the export fails unless ORT fp32 matches Keras within 1e-4 and the int8 argmax
agrees with fp32 on at least 99.5% of dev words, for both heads. Several runs that share one tokenizer
export as one averaged model (see ``ensemble``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

import numpy as np

from ..cards import sha256_of, write_card
from ..packs import load_pack
from . import ensemble
from .export_char import QUANTIZED_OPS, license_of, store_conv_weights_fp16, versions
from .train_token import TOKENIZER, dev_windows, load_stream


def predict(path: Path, x, batch: int = 64) -> list[np.ndarray]:
    """(punct, case) outputs of an ONNX model over dev windows, in batches."""
    from .. import runtime

    sess = runtime.session(path, 2)
    outs = [sess.run(None, {"ids": x[0][i:i + batch], "starts": x[1][i:i + batch]}) for i in range(0, len(x[0]), batch)]
    return [np.concatenate([o[k] for o in outs]) for k in range(2)]


def export(runs: list[Path], lang: str, out_dir: Path, name: str, window: int, overlap: int, cut: int,
           check_windows: int = 300, quantize: bool = True) -> Path:
    import tensorflow as tf
    import tf2onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    from . import token_model  # noqa: F401  (registers the custom layers for loading)

    run = runs[0]
    state = json.loads((run / "state.json").read_text())
    meta = json.loads((run / "data" / "meta.json").read_text())
    ensemble.require_shared(runs, lambda r: sha256_of(r / "data" / TOKENIZER), "tokenizer")
    ensemble.require_shared(runs, lambda r: bool(json.loads((r / "state.json").read_text())["hyper"].get("edges")),
                            "edge training (all or none)")
    edge = meta["vocab_size"] if state["hyper"].get("edges") else None
    members = [ensemble.load_trained(r) for r in runs]
    model = ensemble.combine(members)
    pack = load_pack(lang)
    dev_x, _ = dev_windows(load_stream(run / "data", "dev"), state["hyper"]["window"], check_windows)
    out_dir.mkdir(parents=True, exist_ok=True)
    onnx_path, tok_path = out_dir / f"{name}.onnx", out_dir / f"{name}.spm"
    with tempfile.TemporaryDirectory() as tmp:
        fp32 = Path(tmp) / "fp32.onnx"
        spec = [tf.TensorSpec([None, None], tf.int32, name="ids"), tf.TensorSpec([None, None], tf.int32, name="starts")]
        tf2onnx.convert.from_keras(model, input_signature=spec, opset=17, output_path=str(fp32))
        if quantize:
            # Convolutions compute in fp32 (ORT's ConvInteger is slower on CPUs); their kernels are stored fp16.
            quantize_dynamic(str(fp32), str(onnx_path), weight_type=QuantType.QInt8, op_types_to_quantize=QUANTIZED_OPS)
            store_conv_weights_fp16(onnx_path)
        else:
            shutil.copyfile(fp32, onnx_path)
        probe = (dev_x[0][:32], dev_x[1][:32])
        keras_out = [o.numpy() for o in model(probe, training=False)]
        fp32_out = predict(fp32, probe)
        diff = max(float(np.abs(a - b).max()) for a, b in zip(fp32_out, keras_out))
        fp32_pred = [o.argmax(-1) for o in predict(fp32, dev_x)]
    int8_pred = [o.argmax(-1) for o in predict(onnx_path, dev_x)]
    agree = {head: float((a == b).mean()) for head, a, b in zip(("punct", "case"), int8_pred, fp32_pred)}
    print(f"ORT fp32 vs Keras max |diff| {diff:.2e}; int8 vs fp32 argmax agreement {agree} "
          f"on {fp32_pred[0].size} dev words", flush=True)
    if diff > 1e-4 or min(agree.values()) < 0.995:
        onnx_path.unlink()
        raise SystemExit(f"export check failed: fp32 diff {diff:.2e} (max 1e-4), int8 agreement {agree} (min 99.5%)")
    shutil.copyfile(run / "data" / TOKENIZER, tok_path)
    card = {
        "file": onnx_path.name,
        "kind": "token_cnn_bilstm",
        "lang": pack.code,
        "features": list(pack.features),
        "punct_labels": meta["punct_labels"],
        "case_labels": meta["case_labels"],
        "input": "ids [batch, subwords] (SentencePiece ids, 0 = padding), starts [batch, words] (first subword of "
                 "each word); outputs punct and case logits [batch, words, 4]" + (
                     f"; id {edge} (edge) precedes a document's first window and follows its last" if edge else ""),
        **({"edge_id": edge} if edge is not None else {}),
        "tokenizer": {"file": tok_path.name, "sha256": sha256_of(tok_path), "type": "SentencePiece BPE",
                      "vocab_size": meta["vocab_size"]},
        "lexicon": meta["lexicon"],
        "window": window, "overlap": overlap, "cut": cut,
        "quantization": f"int8 dynamic weights for {'/'.join(QUANTIZED_OPS)}; Conv kernels stored fp16, computed fp32" if quantize else "none (fp32)",
        "export_checks": {"fp32_vs_keras_max_abs_diff": diff, "int8_vs_fp32_argmax_agreement": agree,
                          "words": int(fp32_pred[0].size)},
        "corpora": [{**s, "license": license_of(s["path"]), "path": Path(s["path"]).name} for s in meta["sources"]],
        "dev": [Path(p).name for p in meta["dev"]],
        **ensemble.training_record(runs, members, "words",
                                   "2-core CPU, no GPU (TensorFlow on 1 thread beside another training)"),
        "export_command": " ".join(sys.argv),
        "versions": versions(),
    }
    card_path = out_dir / f"{name}.json"
    write_card(card_path, card)
    print(f"wrote {onnx_path} ({onnx_path.stat().st_size / 1e6:.2f} MB), {tok_path} and {card_path}")
    return onnx_path


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--run", required=True, nargs="+",
                   help="training folder (train token --out); several share a tokenizer and export as one averaged model")
    p.add_argument("--lang", required=True)
    p.add_argument("--out", required=True, help="models/<lang>")
    p.add_argument("--name", default="token")
    p.add_argument("--window", type=int, default=64, help="words per window at run time")
    p.add_argument("--overlap", type=int, default=16)
    p.add_argument("--cut", type=int, default=8, help="min_words_cut: words dropped at the end of a window")
    p.add_argument("--fp32", action="store_true", help="skip int8 quantization (fixtures)")


def run(args) -> Path:
    return export([Path(r) for r in args.run], args.lang, Path(args.out), args.name, args.window, args.overlap, args.cut,
                  quantize=not args.fp32)


if __name__ == "__main__":
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    parser = argparse.ArgumentParser(description=__doc__)
    add_arguments(parser)
    run(parser.parse_args())
