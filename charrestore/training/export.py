"""The export flow that every neural model shares: Keras -> ONNX (tf2onnx) -> checks against Keras -> int8
(dynamic quantization) -> fp16 Conv storage (where the model asks for it) -> card with the sha256 of the file.

The export fails unless ORT fp32 matches Keras within 1e-4 and the int8 argmax agrees with fp32 on at least
99.5% of dev positions (of each head): a shipped model must be the model that was trained. Several runs that
share their input ids export as one averaged model (``ensemble.combine``, or ``ensemble.soup`` for their weights).
"""

from __future__ import annotations

import importlib
import json
import platform
import shlex
import shutil
import sys
import tempfile
from pathlib import Path

import numpy as np

from ..cards import write_card
from . import ensemble
from .corpus import given_weights, parse_corpus_arg
from .runs import LAST, STATE, TrainingError, load_trained

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
    "scotus_": "CC BY-NC 4.0 (Oyez)",
    "earnings_": "CC BY-SA 4.0 (Rev)",
    "ami_": "CC BY 4.0 (AMI)",
    "de_bundestag": "official documents of the Deutscher Bundestag (open data, § 5 UrhG); \"Deutscher Bundestag, "
                    "Plenarprotokolle\"",
    "ruslit_": "public domain",
    "kowiki": "CC BY-SA 3.0/4.0 (Korean Wikipedia)",
    "boddari": "CC BY 2.5 / CC BY / CC BY 2.0 KR / public domain / CC BY 4.0, by document (Korean Wikinews and others)",
    "petitions": "KOGL Type 1 (Korean government open licence)",
    "es_congreso": "CC BY 4.0 (ParlaMint-ES 3.0a, Congreso de los Diputados)",
    "eltec_": "CC BY 4.0 (ELTeC French novels)",
    "viwiki": "CC BY-SA 3.0 (Vietnamese Wikipedia)",
    "dantri_": "no explicit licence, (c) Dân trí; research use only (Vietnamese news)",
    "baomoisapo_": "no explicit licence, (c) the publishers; research use only (Vietnamese news leads, baomoi.com)",
    "thaigov": "public domain (Thai government news, Copyright Act B.E. 2537 s.7)",
    "law_": "official PRC state documents, not copyrightable (PRC Copyright Law art. 5)",
    "wiki_": "CC BY-SA 4.0 / CC BY-SA 3.0 (Chinese Wikipedia: CMRC 2018, DRCD)",
    "dialogue_": "Apache-2.0 (CrossWOZ, KdConv)",
}
QUANTIZED_OPS = ["LSTM", "MatMul", "Gather"]


def add_arguments(p, kind: str, shared: str, unit: str, window: int, overlap: int, cut: int) -> None:
    """The options of ``charrestore export <kind>``; the window settings go to the card as run-time defaults."""
    p.add_argument("--run", required=True, nargs="+", help=f"training folder (train {kind} --out); several share "
                                                           f"a {shared} and export as one averaged model")
    p.add_argument("--average", choices=("outputs", "weights"), default="outputs",
                   help="several runs: the mean of their log-softmax outputs (an ensemble) or of their weights "
                        "(one model; runs that continued one another)")
    if kind == "char":
        p.add_argument("--lang", required=True, nargs="+", help="the pack, or the packs of a multilingual run (one "
                       "model that they share: --out models/<folder>, and each pack names <folder>/<name>)")
    else:
        p.add_argument("--lang", required=True)
    p.add_argument("--out", required=True, help="models/<lang>")
    p.add_argument("--name", default=kind)
    p.add_argument("--window", type=int, default=window, help=f"{unit} per window at run time")
    p.add_argument("--overlap", type=int, default=overlap, help=f"{unit} shared by neighbouring windows")
    p.add_argument("--cut", type=int, default=cut, help=f"{unit} dropped at the end of a window (the card's cut)")


def load_runs(runs: list[Path], kind: str, data_files: tuple[str, ...], shared: dict, average: str = "outputs"):
    """``(first state, first meta, members, model)`` of the runs to export; ``shared`` maps what the members
    must have in common (a description) to a function of a run folder. The checks come before TensorFlow
    starts; ``<kind>_model`` is imported for the custom layers that loading needs."""
    for run in runs:
        for need in (STATE, LAST, *(f"data/{name}" for name in data_files)):
            if not (run / need).is_file():
                raise TrainingError(f"{run} holds no trained {kind} model ({need} is missing); "
                                    f"run 'charrestore train {kind}' first")
    for what, key in shared.items():
        first = key(runs[0])
        if any(key(r) != first for r in runs[1:]):  # members are averaged position by position
            raise TrainingError(f"export: the runs of an ensemble must share one {what}")
    importlib.import_module(f"{__package__}.{kind}_model")
    members = [load_trained(r) for r in runs]
    state, meta = (json.loads(p.read_text()) for p in (runs[0] / STATE, runs[0] / "data" / "meta.json"))
    model = ensemble.combine(members) if average == "outputs" or len(members) == 1 else ensemble.soup(members)
    return state, meta, members, model


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


def predict(path: Path, feeds: dict[str, np.ndarray], batch: int = 64) -> list[np.ndarray]:
    """The outputs (one array per head) of an ONNX model over dev windows, in batches."""
    from .. import runtime

    sess = runtime.session(path, 2)
    n = len(next(iter(feeds.values())))
    outs = [sess.run(None, {k: v[i:i + batch] for k, v in feeds.items()}) for i in range(0, n, batch)]
    return [np.concatenate([o[k] for o in outs]) for k in range(len(outs[0]))]


def to_onnx(model, dev: dict[str, np.ndarray], onnx_path: Path, quantize: bool, conv_fp16: bool,
            unit: str = "positions", heads: tuple[str, ...] | None = None, probe: int = 32) -> dict:
    """Write ``model`` to ``onnx_path`` (int8 unless ``quantize`` is off) and check it on the ``dev`` inputs.

    Returns the card's ``export_checks``: the fp32-vs-Keras max |diff|, the int8-vs-fp32 argmax agreement (a
    dict by head name when ``heads`` names them) and the number of dev ``unit``s. A failed check removes the
    file and raises TrainingError.
    """
    import tensorflow as tf
    import tf2onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    from .runs import outputs

    onnx_path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        fp32 = Path(tmp) / "fp32.onnx"
        spec = [tf.TensorSpec([None, None], tf.int32, name=name) for name in dev]
        tf2onnx.convert.from_keras(model, input_signature=spec, opset=17, output_path=str(fp32))
        if quantize:
            # Convolutions compute in fp32: ORT's ConvInteger is slower than its fp32 Conv on CPUs.
            quantize_dynamic(str(fp32), str(onnx_path), weight_type=QuantType.QInt8, op_types_to_quantize=QUANTIZED_OPS)
            if conv_fp16:
                store_conv_weights_fp16(onnx_path)
        else:
            shutil.copyfile(fp32, onnx_path)
        sample = {k: v[:probe] for k, v in dev.items()}
        keras_out = outputs(model, list(sample.values()) if len(sample) > 1 else next(iter(sample.values())))
        diff = max(float(np.abs(a - b).max()) for a, b in zip(predict(fp32, sample), keras_out))
        fp32_pred = [o.argmax(-1) for o in predict(fp32, dev)]
    int8_pred = [o.argmax(-1) for o in predict(onnx_path, dev)]
    agreement = [float((a == b).mean()) for a, b in zip(int8_pred, fp32_pred)]
    agree = dict(zip(heads, agreement)) if heads else agreement[0]
    shown, n = agree if heads else f"{agree:.4%}", int(fp32_pred[0].size)
    print(f"ORT fp32 vs Keras max |diff| {diff:.2e}; int8 vs fp32 argmax agreement {shown} on {n} dev {unit}",
          flush=True)
    if diff > 1e-4 or min(agreement) < 0.995:
        onnx_path.unlink()
        raise TrainingError(f"export check failed: fp32 diff {diff:.2e} (max 1e-4), int8 agreement {shown} (min 99.5%)")
    return {"fp32_vs_keras_max_abs_diff": diff, "int8_vs_fp32_argmax_agreement": agree, unit: n}


def quantization(quantize: bool, conv_fp16: bool) -> str:
    """The card's ``quantization`` note."""
    if not quantize:
        return "none (fp32)"
    conv = "; Conv kernels stored fp16, computed fp32" if conv_fp16 else " (Conv stays fp32)"
    return f"int8 dynamic weights for {'/'.join(QUANTIZED_OPS)}{conv}"


def license_of(path: str) -> str:
    name = Path(path).name
    return next((lic for key, lic in LICENSES.items() if name.startswith(key) or key in name), "unknown")


def corpora(sources: list[dict], commands: list[str] = ()) -> list[dict]:
    """The card's ``corpora``: each training source with its license (by file name) and the sampling weight that
    the last training command gave it (``--corpus PATH@WEIGHT``, ``corpus.given_weights``)."""
    words = shlex.split(commands[-1]) if commands else []
    specs = words[words.index("--corpus") + 1:] if "--corpus" in words else []
    specs = specs[:next((i for i, w in enumerate(specs) if w.startswith("--")), len(specs))]
    weights = given_weights(sources, [parse_corpus_arg(spec) for spec in specs])
    return [{**s, "weight": w, "license": license_of(s["path"]), "path": Path(s["path"]).name}
            for s, w in zip(sources, weights)]


def versions() -> dict:
    import keras
    import onnx
    import onnxruntime
    import tensorflow as tf
    import tf2onnx

    return {"python": platform.python_version(), "tensorflow": tf.__version__, "keras": keras.__version__,
            "tf2onnx": tf2onnx.__version__, "onnx": onnx.__version__, "onnxruntime": onnxruntime.__version__,
            "numpy": np.__version__}


def write(card_path: Path, card: dict, runs: list[Path], members: list, seen: str, machine: str,
          also: tuple[Path, ...] = (), average: str = "outputs") -> None:
    """Complete a card with the training record, the export command and the versions, and write it
    (``write_card`` adds the sha256 of its file); ``also`` names further files written for the log line."""
    card = {**card, **ensemble.training_record(runs, members, seen, machine, average),
            "export_command": " ".join(sys.argv), "versions": versions()}
    write_card(card_path, card)
    onnx_path = card_path.parent / card["file"]
    print(f"wrote {onnx_path} ({onnx_path.stat().st_size / 1e6:.2f} MB){''.join(f', {p}' for p in also)} "
          f"and {card_path}")
