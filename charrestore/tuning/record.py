"""What tuning and evaluation write into a model card: tuned decoding settings and dev metrics.

Cards are the runtime's source of truth for decoding, so every write goes through here: the card is read
with its sha256 check (a card whose model changed is not silently re-stamped) and written by
:func:`charrestore.cards.write_card`.
"""

from __future__ import annotations

from pathlib import Path

from ..cards import load_card, write_card
from ..paths import models_dir


def card_path(lang: str, name: str, root: Path | str | None = None) -> Path:
    """``<root>/<lang>/<name>.json`` (default root: the shipped models)."""
    return Path(root or models_dir()) / lang / f"{name}.json"


def _read(path: Path) -> dict:
    card, _ = load_card(path.parent.name, path.stem, path.parent.parent)
    return card


def update_card(path: Path, changes: dict) -> dict:
    """Set top-level keys of the card at ``path``; returns the new card."""
    card = {**_read(Path(path)), **changes}
    write_card(Path(path), card)
    return card


def record_dev_metrics(path: Path, key: str, metrics) -> dict:
    """Record ``metrics`` as the card's ``dev_metrics[key]`` (the other keys stay)."""
    card = _read(Path(path))
    return update_card(path, {"dev_metrics": {**card.get("dev_metrics", {}), key: metrics}})
