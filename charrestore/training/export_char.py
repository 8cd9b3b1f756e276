"""Export a trained char model: Keras -> ONNX (tf2onnx) -> int8 (dynamic quantization) -> card.

Several runs that share one vocabulary export as one averaged model (see ``ensemble``).

The export fails unless ORT fp32 matches Keras within 1e-4 and the int8 argmax agrees with fp32 on
at least 99.5% of dev positions: a shipped model must be the model that was trained.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import sys
import tempfile
from pathlib import Path

import numpy as np

from ..cards import write_card
from ..packs import load_pack
from . import ensemble
from .train_char import dev_windows

LICENSES = {
    "ted_": "CC BY-NC-ND 4.0 (TED)",
    "iwslt_": "CC BY-NC-ND 4.0 (TED)",
    "gutenberg": "public domain",
    "state_of_the_union": "public domain",
    "inaugural": "public domain",
    "brown": "non-commercial (NLTK distribution of the Brown corpus)",
    "asdc_": "CC BY 4.0",
    "jaquad_": "CC BY-SA 3.0",
    "ud_gsd": "CC BY-SA 4.0",
    "gu_wiki": "CC BY-SA",
}


QUANTIZED_OPS = ["LSTM", "MatMul", "Gather"]


def store_conv_weights_fp16(path: Path) -> int:
    """Store the fp32 Conv kernels of an ONNX file as fp16, cast back to fp32 when the session loads.

    Dynamic quantization leaves Conv in fp32 (ORT's ConvInteger is slower on CPUs), so its kernels are
    most of what is left of the file; fp16 storage halves them while the arithmetic stays fp32.
    Returns the number of kernels converted.
    """
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    model = onnx.load(str(path))
    inits = {t.name: t for t in model.graph.initializer}
    casts = []
    for node in model.graph.node:
        w = inits.pop(node.input[1], None) if node.op_type == "Conv" else None
        if w is None or w.data_type != TensorProto.FLOAT:
            continue
        model.graph.initializer.remove(w)
        half = numpy_helper.from_array(numpy_helper.to_array(w).astype(np.float16), f"{w.name}_fp16")
        model.graph.initializer.append(half)
        casts.append(helper.make_node("Cast", [half.name], [w.name], to=TensorProto.FLOAT))
    for cast in reversed(casts):
        model.graph.node.insert(0, cast)
    onnx.save(model, str(path))
    return len(casts)


def license_of(path: str) -> str:
    name = Path(path).name
    return next((lic for key, lic in LICENSES.items() if name.startswith(key) or key in name), "unknown")


def versions() -> dict:
    import keras
    import onnx
    import onnxruntime
    import tensorflow as tf
    import tf2onnx

    return {"python": platform.python_version(), "tensorflow": tf.__version__, "keras": keras.__version__,
            "tf2onnx": tf2onnx.__version__, "onnx": onnx.__version__, "onnxruntime": onnxruntime.__version__,
            "numpy": np.__version__}


def export(runs: list[Path], lang: str, out_dir: Path, name: str, window: int, overlap: int, cut: int,
           check_windows: int = 500, quantize: bool = True) -> Path:
    for run in runs:
        for need in ("state.json", "last.keras", "data/meta.json"):
            if not (run / need).is_file():
                raise FileNotFoundError(f"{run} holds no trained char model ({need} is missing); "
                                        "run 'charrestore train char' first")
    import tensorflow as tf
    import tf2onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    from .. import runtime

    run = runs[0]
    state = json.loads((run / "state.json").read_text())
    meta = json.loads((run / "data" / "meta.json").read_text())
    ensemble.require_shared(runs, lambda r: json.loads((r / "data" / "meta.json").read_text())["vocab"], "vocabulary")
    members = [ensemble.load_trained(r) for r in runs]
    model = ensemble.combine(members)
    pack = load_pack(lang)
    dev_x, dev_y = dev_windows(np.load(run / "data" / "dev_ids.npy"), np.load(run / "data" / "dev_cls.npy"),
                               state["hyper"]["window"], check_windows)
    out_dir.mkdir(parents=True, exist_ok=True)
    onnx_path = out_dir / f"{name}.onnx"
    with tempfile.TemporaryDirectory() as tmp:
        fp32 = Path(tmp) / "fp32.onnx"
        spec = [tf.TensorSpec([None, None], tf.int32, name="ids")]
        tf2onnx.convert.from_keras(model, input_signature=spec, opset=17, output_path=str(fp32))
        if quantize:
            # Convolutions stay fp32: ORT's ConvInteger is slower than its fp32 Conv on CPUs.
            quantize_dynamic(str(fp32), str(onnx_path), weight_type=QuantType.QInt8, op_types_to_quantize=QUANTIZED_OPS)
        else:
            shutil.copyfile(fp32, onnx_path)
        probe = dev_x[:32]
        keras_out = model(probe, training=False).numpy()
        fp32_out = runtime.run(runtime.session(fp32, 2), probe)
        diff = float(np.abs(fp32_out - keras_out).max())
        fp32_pred = np.concatenate([runtime.run(runtime.session(fp32, 2), dev_x[i:i + 64]).argmax(-1)
                                    for i in range(0, len(dev_x), 64)])
    int8_pred = np.concatenate([runtime.run(runtime.session(onnx_path, 2), dev_x[i:i + 64]).argmax(-1)
                                for i in range(0, len(dev_x), 64)])
    agree = float((int8_pred == fp32_pred).mean())
    print(f"ORT fp32 vs Keras max |diff| {diff:.2e}; int8 vs fp32 argmax agreement {agree:.4%} "
          f"on {fp32_pred.size} dev positions", flush=True)
    if diff > 1e-4 or agree < 0.995:
        onnx_path.unlink()
        raise SystemExit(f"export check failed: fp32 diff {diff:.2e} (max 1e-4), int8 agreement {agree:.4%} (min 99.5%)")
    card = {
        "file": onnx_path.name,
        "kind": "char_e2e",
        "lang": pack.code,
        "features": list(pack.features),
        "classes": [pack.class_name(c) for c in range(pack.n_classes)],
        "input": "ids = 3 * vocab_id + space_state (0 unknown, 1 no space, 2 space); vocab 0=<pad>, 1=<unk>",
        "vocab": meta["vocab"],
        "window": window, "overlap": overlap, "cut": cut,
        "bias": {},
        "quantization": f"int8 dynamic weights for {'/'.join(QUANTIZED_OPS)} (Conv stays fp32)" if quantize else "none (fp32)",
        "export_checks": {"fp32_vs_keras_max_abs_diff": diff, "int8_vs_fp32_argmax_agreement": agree,
                          "positions": int(fp32_pred.size)},
        "corpora": [{**s, "license": license_of(s["path"]), "path": Path(s["path"]).name} for s in meta["sources"]],
        "dev": meta["dev"] if isinstance(meta["dev"], str) else [Path(p).name for p in meta["dev"]],
        "dev_unk_rate": meta["dev_unk_rate"],
        **ensemble.training_record(runs, members, "chars", "2-core CPU, no GPU"),
        "export_command": " ".join(sys.argv),
        "versions": versions(),
    }
    card_path = out_dir / f"{name}.json"
    write_card(card_path, card)
    print(f"wrote {onnx_path} ({onnx_path.stat().st_size / 1e6:.2f} MB) and {card_path}")
    return onnx_path


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--run", required=True, nargs="+",
                   help="training folder (train char --out); several share a vocabulary and export as one averaged model")
    p.add_argument("--lang", required=True)
    p.add_argument("--out", required=True, help="models/<lang>")
    p.add_argument("--name", default="char")
    p.add_argument("--window", type=int, default=256)
    p.add_argument("--overlap", type=int, default=64)
    p.add_argument("--cut", type=int, default=32)


def run(args) -> Path:
    return export([Path(r) for r in args.run], args.lang, Path(args.out), args.name, args.window, args.overlap, args.cut)


if __name__ == "__main__":
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    parser = argparse.ArgumentParser(description=__doc__)
    add_arguments(parser)
    run(parser.parse_args())
