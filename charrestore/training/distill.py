"""Distillation targets for the token model: a shipped (ensemble) model teaches a single, smaller one.

The teacher is an exported ``token.onnx`` run by ONNX Runtime on the very windows the sampler draws, so it
needs no TensorFlow model and costs one int8 forward pass per batch. The student's target per word is
``hard * one_hot(gold) + (1 - hard) * softmax(teacher)``: cross-entropy is linear in its target, so training on
that blend is the usual sum of a hard-label and a soft-label loss (temperature 1), with no custom train step.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from ..cards import sha256_of
from .runs import TrainingError


def one_hot(labels: np.ndarray, n: int) -> np.ndarray:
    return np.eye(n, dtype=np.float32)[labels]


def softmax(logits: np.ndarray) -> np.ndarray:
    e = np.exp(logits - logits.max(-1, keepdims=True))
    return (e / e.sum(-1, keepdims=True)).astype(np.float32)


class Teacher:
    """An exported token model (``token.onnx`` beside its card ``token.json``) that labels training windows."""

    def __init__(self, onnx_path: Path, tokenizer: Path, labels: tuple[list[str], list[str]], threads: int = 1):
        import onnxruntime as ort

        card = json.loads(Path(onnx_path).with_suffix(".json").read_text())
        if card["tokenizer"]["sha256"] != sha256_of(tokenizer):
            raise TrainingError(f"{onnx_path}: the teacher reads another tokenizer than this run's {tokenizer}")
        if (card["punct_labels"], card["case_labels"]) != tuple(labels):
            raise TrainingError(f"{onnx_path}: the teacher's labels differ from this run's")
        options = ort.SessionOptions()
        options.intra_op_num_threads, options.inter_op_num_threads = threads, 1
        self.session = ort.InferenceSession(str(onnx_path), options, providers=["CPUExecutionProvider"])
        self.path = str(onnx_path)

    def targets(self, x: tuple[np.ndarray, np.ndarray], y: tuple[np.ndarray, np.ndarray],
                hard: float) -> tuple[np.ndarray, np.ndarray]:
        """Blended punctuation and casing targets [batch, words, labels] for a batch ``x`` with gold ``y``."""
        ids, starts = x
        p, c = self.session.run(None, {"ids": ids.astype(np.int32), "starts": starts.astype(np.int32)})
        return tuple(hard * one_hot(gold, t.shape[-1]) + (1 - hard) * softmax(t) for gold, t in zip(y, (p, c)))
