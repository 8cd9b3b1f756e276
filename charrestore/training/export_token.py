"""Export a trained token model: Keras -> ONNX (tf2onnx) -> int8 (dynamic quantization) -> card + tokenizer.

As for the char model (the flow and its checks are ``export``'s), the export fails unless ORT fp32 matches
Keras within 1e-4 and the int8 argmax agrees with fp32 on at least 99.5% of dev words, for both heads.
Conv kernels are stored fp16. Several runs that share one tokenizer export as one averaged model (see ``ensemble``).
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from ..cards import sha256_of
from ..packs import load_pack
from . import export as flow
from ..holdout import Holdout
from .runs import read_state
from .train_token import DATA_FILES, TOKENIZER, dev_windows, load_stream


def export(runs: list[Path], lang: str, out_dir: Path, name: str, window: int, overlap: int, cut: int,
           check_windows: int = 300, quantize: bool = True, average: str = "outputs") -> Path:
    state, meta, members, model = flow.load_runs(runs, "token", DATA_FILES, {
        "tokenizer": lambda r: sha256_of(r / "data" / TOKENIZER),
        "edge training (all or none)": lambda r: bool(read_state(r)["hyper"].get("edges"))}, average)
    edge = meta["vocab_size"] if state["hyper"].get("edges") else None
    dev_holdout = Holdout.parse(meta.get("dev_holdout", 0))
    pack = load_pack(lang)
    (ids, starts), _ = dev_windows(load_stream(runs[0] / "data", "dev"), state["hyper"]["window"], check_windows)
    onnx_path, tok_path = out_dir / f"{name}.onnx", out_dir / f"{name}.spm"
    checks = flow.to_onnx(model, {"ids": ids, "starts": starts}, onnx_path, quantize, conv_fp16=True,
                          unit="words", heads=("punct", "case"))
    shutil.copyfile(runs[0] / "data" / TOKENIZER, tok_path)
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
        "quantization": flow.quantization(quantize, conv_fp16=True),
        "export_checks": checks,
        "corpora": flow.corpora(meta["sources"], read_state(runs[0]).get("commands", [])),
        "dev": [Path(p).name for p in meta["dev"]] + ([dev_holdout.describe()] if dev_holdout else []),
    }
    flow.write(out_dir / f"{name}.json", card, runs, members, "words",
               "2-core CPU, no GPU (TensorFlow on 1 thread beside another training)", also=(tok_path,),
               average=average)
    return onnx_path


def add_arguments(p: argparse.ArgumentParser) -> None:
    flow.add_arguments(p, "token", "tokenizer", "words", window=64, overlap=16, cut=8)
    p.add_argument("--fp32", action="store_true", help="skip int8 quantization (fixtures)")


def run(args) -> Path:
    return export([Path(r) for r in args.run], args.lang, Path(args.out), args.name, args.window, args.overlap,
                  args.cut, quantize=not args.fp32, average=args.average)
