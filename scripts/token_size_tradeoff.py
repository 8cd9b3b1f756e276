"""Size trade-off of the token CNN-BiLSTM: parameters, int8 ONNX size and ORT latency per model size.

Inference cost does not depend on the weights' values, so each size is built untrained (Keras), exported
like ``charrestore export token`` (tf2onnx, int8 dynamic quantization of LSTM/MatMul/Gather) to a temporary
folder and timed with onnxruntime at 1 thread: the Table-5 paragraph (42 words, one window) and a
100-word window. Training cost per size is not measured here (this script trains nothing); the
shipped size's training cost is in its card.

    python scripts/token_size_tradeoff.py --sizes 64x128 100x384
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")


def median_ms(sess, feeds, runs: int) -> float:
    for _ in range(5):
        sess.run(None, feeds)
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        sess.run(None, feeds)
        times.append(time.perf_counter() - t)
    return 1000 * statistics.median(times)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", nargs="+", default=["64x128", "100x384"], help="EMBxLSTM")
    p.add_argument("--vocab", type=int, default=5000)
    p.add_argument("--runs", type=int, default=100)
    p.add_argument("--report", default=str(ROOT / "reports" / "token_size_tradeoff.md"))
    args = p.parse_args()

    import tensorflow as tf
    import tf2onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    from charrestore import runtime
    from charrestore.training.export import QUANTIZED_OPS
    from charrestore.training.token_model import build_token_model

    rng = np.random.default_rng(0)
    rows, load = [], os.getloadavg()
    for size in args.sizes:
        emb, lstm = map(int, size.split("x"))
        model = build_token_model(args.vocab, emb=emb, lstm=lstm)
        spec = [tf.TensorSpec([None, None], tf.int32, name="ids"), tf.TensorSpec([None, None], tf.int32, name="starts")]
        with tempfile.TemporaryDirectory() as tmp:
            fp32, int8 = Path(tmp) / "fp32.onnx", Path(tmp) / "int8.onnx"
            tf2onnx.convert.from_keras(model, input_signature=spec, opset=17, output_path=str(fp32))
            quantize_dynamic(str(fp32), str(int8), weight_type=QuantType.QInt8, op_types_to_quantize=QUANTIZED_OPS)
            row = {"emb": emb, "lstm": lstm, "params": int(model.count_params()),
                   "fp32_mb": fp32.stat().st_size / 1e6, "int8_mb": int8.stat().st_size / 1e6}
            for name, words in (("table5", 42), ("w100", 100)):
                pieces = int(words * 1.25)  # about 1.2 subwords per word on TED text
                feeds = {"ids": rng.integers(1, args.vocab, (1, pieces)).astype(np.int32),
                         "starts": np.sort(rng.choice(pieces, words, replace=False)).astype(np.int32)[None]}
                for kind, path in (("fp32", fp32), ("int8", int8)):
                    row[f"{name}_{kind}_ms"] = median_ms(runtime.session(path, 1), feeds, args.runs)
        rows.append(row)
        print(row, flush=True)

    lines = ["# Token model size trade-off (inference, 1 ORT thread)", "",
             f"Command: `python {' '.join(sys.argv)}`", "",
             "| emb x LSTM | parameters | fp32 MB | int8 MB | 42 words fp32 / int8 ms | 100 words fp32 / int8 ms |",
             "|---|---|---|---|---|---|"]
    lines += [f"| {r['emb']} x {r['lstm']} | {r['params']:,} | {r['fp32_mb']:.2f} | {r['int8_mb']:.2f} | "
              f"{r['table5_fp32_ms']:.2f} / {r['table5_int8_ms']:.2f} | {r['w100_fp32_ms']:.2f} / "
              f"{r['w100_int8_ms']:.2f} |" for r in rows]
    lines += ["", f"Untrained weights (inference cost does not depend on them). Load average (1 min) before and after "
              f"the run: {load[0]:.2f} and {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; under load the times "
              "are upper bounds.", ""]
    Path(args.report).parent.mkdir(parents=True, exist_ok=True)
    Path(args.report).write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
