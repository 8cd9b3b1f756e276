"""ONNX Runtime sessions: created once per (model file, thread count), checked against the model's card, and
shared by every call."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from .cards import ModelError, check_session


@lru_cache(maxsize=16)
def session(path: Path, threads: int = 1):
    """An inference session; ``threads`` bounds intra-op parallelism (1 = one core)."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.log_severity_level = 3
    try:
        sess = ort.InferenceSession(str(path), sess_options=options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own exception types for bad files
        raise ModelError(f"{path}: cannot load ONNX model ({str(exc).splitlines()[0]})") from None
    check_session(sess, path)  # a graph that does not fit its card fails here, not mid-run
    return sess


def int8_kernels() -> str:
    """The x86 instruction sets that pick ONNX Runtime's int8 kernels on this CPU (numpy's CPU probe): the
    kernels round differently, so an int8 model's logits, and a rare near-tie decision, differ between them."""
    try:
        from numpy._core._multiarray_umath import __cpu_features__ as features
    except ImportError:  # another numpy layout, or not x86
        return "unknown"
    tags = ("AVX512_VNNI", "AVX512BW", "AVX_VNNI", "AVX2")
    return "+".join(t.lower() for t in tags if features.get(t)) or "other"


def run(sess, ids: np.ndarray) -> np.ndarray:
    """Logits [batch, time, classes] for int32 ids [batch, time]."""
    return sess.run(None, {sess.get_inputs()[0].name: ids.astype(np.int32, copy=False)})[0]
