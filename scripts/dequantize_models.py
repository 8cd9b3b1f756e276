"""Make exported int8 models batch-independent: one window per Loop iteration, int8 or float activations.

``charrestore export`` quantizes with ``onnxruntime.quantization.quantize_dynamic``, whose activation scale is
taken over the whole batch tensor, so a window's output depends on its batch. Run this after every export (it
is the export's last step until the export does it itself):

    charrestore export char --run runs/char-en --lang en --out models/en
    python scripts/dequantize_models.py models/en/char.onnx

The int8 activations path also holds the weights to 7 bits (``seven_bit_weights``: VPMADDUBSW on CPUs without VNNI
saturates u8 x s8 pairs of full 8-bit weights, so results would depend on the machine and differ from the page's);
``--seven-bits`` does only that, to models rewritten before it existed:

    python scripts/dequantize_models.py models/*/char.onnx --seven-bits

Each model is rewritten in place (or under ``--out-dir DIR/<lang>/``) by ``charrestore.training.dequantize``:
the graph runs as a Loop over the windows of its batch (a batch of one each, padding stripped for the token
model), so neither an activation scale nor a row of any GEMM depends on another window or on the thread count.
By default the int8 activations stay (quantized per window: as fast as before). ``--float-activations`` also
turns DynamicQuantizeLinear + MatMulInteger into MatMul(x, DequantizeLinear(W_int8)) and DynamicQuantizeLSTM
into LSTM on DequantizeLinear(W_int8, R_int8): int8 weights, float activations, as accurate on dev, but 1.5-2.5x
slower with ORT's float LSTM on CPU. The card beside the model gets the new quantization, the command, a logit
comparison with the model it replaces and the new sha256 (``cards.write_card``); a model already rewritten is
refused, so running the script twice changes nothing.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

import numpy as np

from charrestore.cards import write_card
from charrestore.training.dequantize import DequantizeError, dequantize_model, loop_over_windows, seven_bit_weights

SEVEN_BIT_WEIGHTS = ("int8 weights held to 7 bits (|w| <= 64: the integer GEMMs are exact on every CPU kernel and in "
                     "WebAssembly)")
QUANTIZATION_INT8 = (SEVEN_BIT_WEIGHTS + ", int8 activations quantized per window (batch-independent): {before}; "
                     "one window per Loop iteration by scripts/dequantize_models.py, so the dynamic activation "
                     "scale is taken over that window alone (never over its batch)")
QUANTIZATION = ("int8 weights, float activations (batch-independent): {before}; rewritten by "
                "scripts/dequantize_models.py --float-activations (DynamicQuantizeLinear+MatMulInteger -> MatMul on "
                "DequantizeLinear weights, DynamicQuantizeLSTM -> LSTM on DequantizeLinear weights, one window per "
                "Loop iteration)")


def compare(old: Path, new: Path, card: dict, windows: int = 24, seed: int = 0) -> dict:
    """Logits of the old and the new model on random windows (a batch each): max and mean |difference| and
    argmax agreement per output."""
    import onnxruntime as ort

    rng = np.random.default_rng(seed)
    opts = ort.SessionOptions()
    opts.intra_op_num_threads, opts.log_severity_level = 1, 3
    sess = [ort.InferenceSession(str(p), opts, providers=["CPUExecutionProvider"]) for p in (old, new)]
    if "starts" in [i.name for i in sess[0].get_inputs()]:
        ids = rng.integers(1, card["edge_id"] + 1, (windows, card["window"] + 8)).astype(np.int32)
        starts = np.stack([np.sort(rng.choice(card["window"] + 8, card["window"], replace=False))
                           for _ in range(windows)]).astype(np.int32)
        feeds = {"ids": ids, "starts": starts}
    else:
        shape = (windows, card["window"])
        feeds = {"ids": (3 * rng.integers(2, len(card["vocab"]), shape) + rng.integers(0, 3, shape)).astype(np.int32)}
    a, b = (s.run(None, feeds) for s in sess)
    return {o.name: {"max_abs_diff": round(float(np.abs(x - y).max()), 4),
                     "mean_abs_diff": round(float(np.abs(x - y).mean()), 5),
                     "argmax_agreement": round(float((x.argmax(-1) == y.argmax(-1)).mean()), 5)}
            for o, x, y in zip(sess[0].get_outputs(), a, b)}


def rewrite(model_path: Path, out_dir: Path | None, command: str, int8_activations: bool = False) -> Path:
    import onnx

    card_path = model_path.with_suffix(".json")
    card = json.loads(card_path.read_text(encoding="utf-8"))
    dst_dir = (out_dir / model_path.parent.name) if out_dir else model_path.parent
    dst_dir.mkdir(parents=True, exist_ok=True)
    dst = dst_dir / model_path.name
    model = onnx.load(str(model_path))
    if any(n.op_type == "Loop" and n.name == "windows" for n in model.graph.node):
        raise DequantizeError(f"{model_path}: already rewritten (it runs one window per Loop iteration)")
    if not int8_activations:
        dequantize_model(model)
    else:
        seven_bit_weights(model)
    loop_over_windows(model, strip_padding="ids" if card.get("kind", "").startswith("token") else None)
    model.producer_name = "charrestore.dequantize"
    onnx.checker.check_model(model, full_check=True)
    tmp = dst.with_suffix(".tmp.onnx")
    onnx.save(model, str(tmp))
    checks = compare(model_path, tmp, card)
    tmp.replace(dst)
    before = card.get("quantization", "int8 dynamic").replace("int8 dynamic weights", "weights int8")
    card["quantization"] = (QUANTIZATION_INT8 if int8_activations else QUANTIZATION).format(before=before)
    card["dequantize_command"] = command
    card.setdefault("export_checks", {})["rewritten_vs_batched_dynamic_int8_random_windows"] = checks
    write_card(dst_dir / card_path.name, card)
    extra = card.get("tokenizer", {}).get("file")  # the tokenizer travels with the model
    if extra and not (dst_dir / extra).exists():
        shutil.copy2(model_path.parent / extra, dst_dir / extra)
    return dst


def seven_bits(model_path: Path, command: str) -> dict | None:
    """A model already rewritten (one window per Loop iteration, int8 activations): its weights requantized to
    7 bits in place, the card updated (quantization, command, logits against the 8-bit weights, sha256).
    Returns that logit comparison, or None when the weights were 7-bit already."""
    import onnx

    card_path = model_path.with_suffix(".json")
    card = json.loads(card_path.read_text(encoding="utf-8"))
    model = onnx.load(str(model_path))
    if not seven_bit_weights(model):
        return None
    tmp = model_path.with_suffix(".tmp.onnx")
    onnx.save(model, str(tmp))
    checks = compare(model_path, tmp, card)
    tmp.replace(model_path)
    card["quantization"] = card["quantization"].replace("int8 weights, int8 activations",
                                                        SEVEN_BIT_WEIGHTS + ", int8 activations", 1)
    card["seven_bit_command"] = command
    card.setdefault("export_checks", {})["seven_bit_vs_eight_bit_weights_random_windows"] = checks
    write_card(card_path, card)
    return checks


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0], allow_abbrev=False)
    p.add_argument("models", nargs="+", type=Path, help="models/<lang>/<name>.onnx (its card beside it)")
    p.add_argument("--out-dir", type=Path, help="write DIR/<lang>/<name>.onnx and .json (default: in place)")
    p.add_argument("--float-activations", action="store_true",
                   help="int8 weights, float activations (DequantizeLinear + float MatMul/LSTM): as deterministic, "
                        "as accurate on dev, but 1.5-2.5x slower (ORT's float LSTM); default: int8 activations "
                        "quantized per window")
    p.add_argument("--seven-bits", action="store_true",
                   help="for models already rewritten: only hold their int8 weights to 7 bits (a new export gets "
                        "that in the rewrite)")
    args = p.parse_args(argv)
    command = "python scripts/dequantize_models.py " + " ".join(str(m) for m in args.models) + (
        " --float-activations" if args.float_activations else "") + (" --seven-bits" if args.seven_bits else "")
    for path in args.models:
        size = path.stat().st_size
        try:
            if args.seven_bits:
                checks = seven_bits(path, command)
                print(f"{path}: " + (f"7-bit weights; vs 8-bit on random windows: {checks}" if checks
                                     else "already 7-bit"))
                continue
            dst = rewrite(path, args.out_dir, command, not args.float_activations)
        except DequantizeError as exc:
            print(f"dequantize_models: {exc}", file=sys.stderr)
            return 1
        card = json.loads(dst.with_suffix(".json").read_text(encoding="utf-8"))
        checks = card["export_checks"]["rewritten_vs_batched_dynamic_int8_random_windows"]
        print(f"{dst}: {dst.stat().st_size} bytes (was {size}); vs dynamic int8 on random windows: {checks}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
