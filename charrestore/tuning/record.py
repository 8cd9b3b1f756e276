"""What tuning and evaluation write into a model card: tuned decoding settings and dev metrics.

Cards are the runtime's source of truth for decoding, so every write goes through here: the card is read
with its sha256 check (a card whose model changed is not silently re-stamped) and written by
:func:`charrestore.cards.write_card`.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..cards import card_location, pack_view, read_card, write_card


def card_path(lang: str, name: str, root: Path | str | None = None) -> Path:
    """``<root>/<lang>/<name>.json`` (default root: the shipped models), or a shared model's card."""
    return card_location(lang, name, Path(root) if root else None)


def update_card(path: Path, changes: dict, lang: str | None = None) -> dict:
    """Set top-level keys of the card at ``path`` (of a shared model's card: of pack ``lang``'s section); returns
    the card as that pack reads it."""
    card, _ = read_card(Path(path))
    if "packs" in card:
        pack_view(card, lang, path)  # a pack it serves
        card["packs"][lang] = {**card["packs"][lang], **changes}
        write_card(Path(path), card)
        return pack_view(card, lang, path)
    card = {**card, **changes}
    write_card(Path(path), card)
    return card


def record_dev_metrics(path: Path, key: str, metrics, lang: str | None = None) -> dict:
    """Record ``metrics`` as the card's ``dev_metrics[key]`` (the other keys stay)."""
    card, _ = read_card(Path(path))
    section = card["packs"].get(lang, {}) if "packs" in card else card
    return update_card(path, {"dev_metrics": {**section.get("dev_metrics", {}), key: metrics}}, lang)


def write_pair(args, engine, keys: dict, records: dict) -> dict:
    """A one-pair run's keys, printed and, with ``--write-card``, written into the card beside its other keys and
    records (``records`` added to its ``tuning``)."""
    if args.write_card:
        path = card_path(args.lang, engine.pack.models["char"], Path(args.models_dir) if args.models_dir else None)
        update_card(path, {**keys, "tuning": {**engine.card.get("tuning", {}), **records}}, args.lang)
    print(json.dumps(keys))
    return keys
