"""Export a trained char model: Keras -> ONNX (tf2onnx) -> int8 (dynamic quantization) -> card.

Several runs that share one vocabulary export as one averaged model (see ``ensemble``). The flow and its
checks (ORT fp32 against Keras, int8 against fp32 on dev positions) are ``export``'s, shared with the token model.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from ..engines.char_settings import DECODING_KEYS, WINDOW_KEYS
from ..packs import load_pack
from . import export as flow
from .train_char import DATA_FILES, dev_windows


# what decoding reads beside its settings (build_common_words.py, build_sentence_openers.py)
CARD_DATA = ("common_words", "common_words_command", "sentence_openers", "sentence_openers_command")


def carried_decoding(card_path: Path, pack) -> dict:
    """The tuned decoding (biases, spaces, penalties; not the windows, which the export sets) of the card that this
    export replaces, when that is one pack's with the same features: a retrained model starts from its
    predecessor's decoding, and ``tune char`` keeps it where it beats a retune."""
    try:
        old = json.loads(card_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if "packs" in old or old.get("features") != list(pack.features):
        return {}
    return {k: old[k] for k in (*DECODING_KEYS, *CARD_DATA) if k in old and k not in WINDOW_KEYS}


def export(runs: list[Path], lang: str | list[str], out_dir: Path, name: str, window: int, overlap: int, cut: int,
           check_windows: int = 500, quantize: bool = True, average: str = "outputs") -> Path:
    """Write ``<out_dir>/<name>.onnx`` and its card; several packs (``lang`` a list of more than one, with the same
    features): one model that they share, whose card holds a section per pack (``cards.load_card``)."""
    langs = [lang] if isinstance(lang, str) else list(lang)
    state, meta, members, model = flow.load_runs(runs, "char", DATA_FILES, {
        "vocabulary": lambda r: json.loads((r / "data" / "meta.json").read_text())["vocab"]}, average)
    packs = [load_pack(code) for code in langs]
    pack = packs[0]
    if any(p.features != pack.features for p in packs):
        raise SystemExit(f"packs {', '.join(langs)} do not share their features: one model cannot serve them")
    data = runs[0] / "data"
    dev_x, _ = dev_windows(np.load(data / "dev_ids.npy"), np.load(data / "dev_cls.npy"), state["hyper"]["window"],
                           check_windows)
    onnx_path = out_dir / f"{name}.onnx"
    checks = flow.to_onnx(model, {"ids": dev_x.astype(np.int32)}, onnx_path, quantize, conv_fp16=False)
    card = {
        "file": onnx_path.name,
        "kind": "char_e2e",
        **({"lang": pack.code} if len(packs) == 1 else {"langs": langs, "packs": {code: {} for code in langs}}),
        "features": list(pack.features),
        "classes": [pack.class_name(c) for c in range(pack.n_classes)],
        "input": "ids = 3 * vocab_id + space_state (0 unknown, 1 no space, 2 space); vocab 0=<pad>, 1=<unk>",
        "vocab": meta["vocab"],
        "window": window, "overlap": overlap, "cut": cut,
        "bias": {},
        "quantization": flow.quantization(quantize, conv_fp16=False),
        "export_checks": checks,
        "corpora": flow.corpora(meta["sources"]),
        "dev": meta["dev"] if isinstance(meta["dev"], str) else [Path(p).name for p in meta["dev"]],
        "dev_unk_rate": meta["dev_unk_rate"],
    }
    if len(packs) == 1:
        card.update(carried_decoding(out_dir / f"{name}.json", pack))
    flow.write(out_dir / f"{name}.json", card, runs, members, "chars", "2-core CPU, no GPU", average=average)
    return onnx_path


def add_arguments(p: argparse.ArgumentParser) -> None:
    flow.add_arguments(p, "char", "vocabulary", "graphemes", window=256, overlap=64, cut=32)


def run(args) -> Path:
    return export([Path(r) for r in args.run], args.lang, Path(args.out), args.name, args.window, args.overlap,
                  args.cut, average=args.average)
