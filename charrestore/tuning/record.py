"""What tuning and evaluation write into a model card: tuned decoding settings and dev metrics.

Cards are the runtime's source of truth for decoding, so every write goes through here: the card is read
with its sha256 check (a card whose model changed is not silently re-stamped) and written by
:func:`charrestore.cards.write_card`.
"""

from __future__ import annotations

from pathlib import Path

from ..cards import load_card, write_card


def card_path(lang: str, name: str, models_dir: Path | None = None) -> Path:
    """``<models_dir>/<lang>/<name>.json`` (default: the shipped models)."""
    from ..paths import models_dir as shipped

    return Path(models_dir or shipped()) / lang / f"{name}.json"


def update_card(path: Path, changes: dict) -> dict:
    """Set top-level keys of the card at ``path``; returns the new card."""
    path = Path(path)
    card, _ = load_card(path.parent.name, path.stem, path.parent.parent)
    card.update(changes)
    write_card(path, card)
    return card


def record_dev_metrics(path: Path, key: str, metrics) -> dict:
    """Record ``metrics`` as the card's ``dev_metrics[key]`` (the other keys stay)."""
    path = Path(path)
    card, _ = load_card(path.parent.name, path.stem, path.parent.parent)
    card.setdefault("dev_metrics", {})[key] = metrics
    write_card(path, card)
    return card

