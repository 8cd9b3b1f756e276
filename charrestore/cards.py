"""Model cards: the json beside every shipped model, and the sha256 check that guards it.

A card names its artifact (``"file"``) and carries that file's ``"sha256"``; the runtime refuses
a model whose bytes do not match, so a truncated or swapped file fails loudly, naming the file.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from .paths import models_dir


class ModelError(RuntimeError):
    """A model is missing, unreadable or does not match its card."""


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def load_card(lang: str, name: str, root: Path | None = None) -> tuple[dict, Path]:
    """Read ``models/<lang>/<name>.json`` and check its artifact; returns (card, artifact path)."""
    folder = (root or models_dir()) / lang
    card_path = folder / f"{name}.json"
    if not card_path.is_file():
        raise ModelError(f"no model {name!r} for language {lang!r}: {card_path} not found")
    try:
        card = json.loads(card_path.read_text(encoding="utf-8"))
        artifact = folder / card["file"]
        expected = card["sha256"]
    except (ValueError, KeyError, TypeError) as exc:
        raise ModelError(f"{card_path}: unreadable model card ({exc})") from None
    if not artifact.is_file():
        raise ModelError(f"{artifact}: model file missing")
    if sha256_of(artifact) != expected:
        raise ModelError(f"{artifact}: sha256 does not match its card {card_path.name} (corrupt or replaced)")
    return card, artifact


def write_card(path: Path, card: dict) -> None:
    """Write a card, filling in the sha256 of its artifact."""
    card = dict(card)
    card["sha256"] = sha256_of(path.parent / card["file"])
    path.write_text(json.dumps(card, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
