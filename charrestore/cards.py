"""Model cards: the json beside every shipped model, and the sha256 check that guards it.

A card names its artifact (``"file"``) and carries that file's ``"sha256"``; the runtime refuses
a model whose bytes do not match, so a truncated or swapped file fails loudly, naming the file.

A pack names its model ``char`` (``models/<code>/char.json``) or ``deru/char``: one model that several packs share,
in its own folder, with one card. That card's ``packs`` holds, per pack, what is the pack's own (tuned decoding,
dev scores); a pack reads the shared fields with its section over them.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from .paths import models_dir
from .validate import SchemaError, check_card, check_graph

_loaded: dict[Path, tuple[dict, Path]] = {}  # artifact -> (card, card path): what runtime.session checks a graph against
_hashed: dict[tuple[Path, int, int], str] = {}  # (artifact, size, mtime): its sha256, so a file is hashed once a process


class ModelError(RuntimeError):
    """A model is missing, unreadable or does not match its card."""


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def card_location(lang: str, name: str, root: Path | None = None) -> Path:
    """``<root>/<lang>/<name>.json``, or ``<root>/<folder>/<name>.json`` for a shared model ``<folder>/<name>``."""
    folder, _, stem = name.rpartition("/")
    return Path(root or models_dir()) / (folder or lang) / f"{stem}.json"


def load_card(lang: str, name: str, root: Path | None = None, kind: str | None = None) -> tuple[dict, Path]:
    """Read the card of pack ``lang``'s model ``name`` (of the ``kind`` given, if one is) and check its artifact;
    returns (card, artifact path). A shared model's card is read with the pack's section of ``packs`` over it."""
    card_path = card_location(lang, name, root)
    if not card_path.is_file():
        raise ModelError(f"no model {name!r} for language {lang!r}: {card_path} not found")
    card, artifact = read_card(card_path, kind)
    if "packs" in card:
        card = pack_view(card, lang, card_path)
        _loaded[artifact.resolve()] = card, card_path
    return card, artifact


def pack_view(card: dict, lang: str, card_path: Path) -> dict:
    """A shared model's card as pack ``lang`` reads it: its section of ``packs`` over the shared fields."""
    if lang not in card["packs"]:
        raise ModelError(f"{card_path}: a model of {', '.join(card['packs'])}, not of {lang!r}")
    return {**{k: v for k, v in card.items() if k != "packs"}, **card["packs"][lang]}


def read_card(card_path: Path, kind: str | None = None) -> tuple[dict, Path]:
    """A card as written (a shared model's with all its packs), checked with its artifact; (card, artifact)."""
    if not card_path.is_file():
        raise ModelError(f"{card_path}: model card not found")
    folder = card_path.parent
    try:
        card = json.loads(card_path.read_text(encoding="utf-8"))
    except (ValueError, RecursionError) as exc:
        raise ModelError(f"{card_path}: unreadable model card ({exc})") from None
    try:
        check_card(card)
        for lang, section in card.get("packs", {}).items():
            if not isinstance(section, dict) or {"file", "sha256", "kind", "packs"} & set(section):
                raise SchemaError(f"'packs': {lang} must be a table of that pack's own fields")
            check_card({**card, **section})
        if kind is not None and card["kind"] != kind:
            raise SchemaError(f"'kind' must be {kind!r}, not {card['kind']!r}")
    except SchemaError as exc:
        raise ModelError(f"{card_path}: {exc}") from None
    artifact, expected = folder / card["file"], card["sha256"]
    if not artifact.is_file():
        raise ModelError(f"{artifact}: model file missing")
    if _sha256_once(artifact) != expected:
        raise ModelError(f"{artifact}: sha256 does not match its card {card_path.name} (corrupt or replaced)")
    _loaded[artifact.resolve()] = card, card_path
    return card, artifact


def _sha256_once(path: Path) -> str:
    """``sha256_of`` a file, remembered while its size and modification time stay the same (a model checked when
    a Restorer is built is not hashed again when it loads)."""
    stat = path.stat()
    key = (path.resolve(), stat.st_size, stat.st_mtime_ns)
    if key not in _hashed:
        _hashed[key] = sha256_of(path)
    return _hashed[key]


def check_session(sess, path: Path) -> None:
    """A new ONNX Runtime session against the card its file was loaded with (if any): its inputs' names and
    ranks and its outputs' last dimension must be what the runtime feeds and reads."""
    card, card_path = _loaded.get(Path(path).resolve(), (None, None))
    if card is None:
        return
    try:
        check_graph(card, sess.get_inputs(), sess.get_outputs())
    except SchemaError as exc:
        raise ModelError(f"{path}: does not fit its card {card_path.name}: {exc}") from None


def write_card(path: Path, card: dict) -> None:
    """Write a card, filling in the sha256 of its artifact."""
    card = dict(card)
    card["sha256"] = sha256_of(path.parent / card["file"])
    path.write_text(json.dumps(card, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
