"""Distillation targets: a shipped (ensemble) model teaches a single, smaller one.

The teacher is an exported model (``token.onnx`` or ``char.onnx``) run by ONNX Runtime on the very windows the
sampler draws, so it needs no TensorFlow model and costs one int8 forward pass per batch. The student's target per
word or grapheme is ``hard * one_hot(gold) + (1 - hard) * softmax(teacher)``: cross-entropy is linear in its
target, so training on that blend is the usual sum of a hard-label and a soft-label loss (temperature 1), with no
custom train step. An ensemble's outputs (mean log-probabilities) serve as logits like a single model's.
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


def read_card(onnx_path: Path) -> dict:
    """The card beside an exported model: what it reads and predicts, to check against the student's run."""
    return json.loads(Path(onnx_path).with_suffix(".json").read_text())


class Teacher:
    """An exported token model (``token.onnx`` beside its card ``token.json``) that labels training windows.

    ``targets`` feeds a batch's arrays to the model's inputs in their order and blends each output head with its
    gold labels, so a model of other inputs and heads (``CharTeacher``) only checks another card.
    """

    def __init__(self, onnx_path: Path, tokenizer: Path, labels: tuple[list[str], list[str]], threads: int = 1):
        card = read_card(onnx_path)
        if card["tokenizer"]["sha256"] != sha256_of(tokenizer):
            raise TrainingError(f"{onnx_path}: the teacher reads another tokenizer than this run's {tokenizer}")
        if (card["punct_labels"], card["case_labels"]) != tuple(labels):
            raise TrainingError(f"{onnx_path}: the teacher's labels differ from this run's")
        self.open(onnx_path, threads)

    def open(self, onnx_path: Path, threads: int) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads, options.inter_op_num_threads = threads, 1
        self.session = ort.InferenceSession(str(onnx_path), options, providers=["CPUExecutionProvider"])
        self.inputs = [i.name for i in self.session.get_inputs()]
        self.path = str(onnx_path)

    def targets(self, x: tuple[np.ndarray, ...], y: tuple[np.ndarray, ...], hard: float) -> tuple[np.ndarray, ...]:
        """Blended targets [batch, positions, labels], one per output head, for a batch ``x`` (one array per model
        input: ids and word starts) with gold ``y`` (one array per head: punctuation and casing)."""
        feeds = {name: a.astype(np.int32) for name, a in zip(self.inputs, x)}
        return tuple(hard * one_hot(gold, t.shape[-1]) + (1 - hard) * softmax(t)
                     for gold, t in zip(y, self.session.run(None, feeds)))


class CharTeacher(Teacher):
    """An exported char model (``char.onnx`` beside ``char.json``, an averaged ensemble too): one input of
    ``3 * vocab_id + space_state`` ids, so its vocabulary, features and classes must be the student's."""

    def __init__(self, onnx_path: Path, vocab: list[str], features: list[str], classes: list[str], threads: int = 1):
        card = read_card(onnx_path)
        for key, mine in (("vocab", vocab), ("features", features), ("classes", classes)):
            if card[key] != mine:
                raise TrainingError(f"{onnx_path}: the teacher's {key} ({len(card[key])}) is not this run's "
                                    f"({len(mine)}); start the run from the teacher run's data/meta.json")
        self.open(onnx_path, threads)

    def targets(self, x: np.ndarray, y: np.ndarray, hard: float) -> np.ndarray:
        """Blended targets [batch, window, classes] for input ids ``x`` with gold classes ``y``."""
        return super().targets((x,), (y,), hard)[0]
