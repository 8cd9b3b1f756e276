"""Small schema checks for the data files the runtime trusts: ``pack.toml`` and the model cards.

A damaged or hand-edited file must fail at load with one line that names the file and the field, never later
with a KeyError, a TypeError or a numpy broadcast error in the middle of a run. The callers (packs.py,
cards.py) add the file's path to a :class:`SchemaError` and raise their own error type.
"""

from __future__ import annotations

import math
import re
import unicodedata

MAX_DEPTH = 8  # the deepest nesting a pack or card needs is 3 (a card's dev metrics); anything far deeper is junk
_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")
_HEX64 = re.compile(r"[0-9a-f]{64}")


class SchemaError(ValueError):
    """A field of a pack or card is missing or has the wrong type or value."""


def check_depth(value, limit: int = MAX_DEPTH) -> None:
    """Refuse nesting deeper than ``limit`` (checked without recursion, so any depth is safe to check)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        for child in children:
            if isinstance(child, (dict, list)):
                if depth + 1 > limit:
                    raise SchemaError(f"nested deeper than {limit} levels")
                stack.append((child, depth + 1))


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _is_str_list(v) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def _is_str_map(v) -> bool:
    return isinstance(v, dict) and all(isinstance(x, str) for x in v.values())


def _is_number_map(v) -> bool:
    return isinstance(v, dict) and all(_is_number(x) for x in v.values())


KINDS = {  # a check and what it means, for the error line
    "str": (lambda v: isinstance(v, str), "a string"),
    "bool": (lambda v: isinstance(v, bool), "true or false"),
    "int": (_is_int, "a whole number"),
    "number": (_is_number, "a number"),
    "number?": (lambda v: v is None or _is_number(v), "a number or null"),
    "int?": (lambda v: v is None or _is_int(v), "a whole number or null"),
    "list": (_is_str_list, "a list of strings"),
    "map": (_is_str_map, "a table of strings"),
    "numbers": (_is_number_map, "a table of numbers"),
    "table": (lambda v: isinstance(v, dict), "a table"),
    "name": (lambda v: isinstance(v, str) and safe_name(v), "a file name inside the models folder (no '/', '\\' or '..')"),
    "sha256": (lambda v: isinstance(v, str) and _HEX64.fullmatch(v) is not None, "64 lower-case hex digits"),
}


def safe_name(name: str) -> bool:
    """A plain file name: no folder, no '..', nothing hidden (a model must stay inside its models folder)."""
    return _NAME.fullmatch(name) is not None and ".." not in name


def fields(data: dict, required: dict[str, str], optional: dict[str, str] | None = None) -> None:
    """Check ``data``'s fields against kinds of ``KINDS``: every ``required`` one present, every present one typed."""
    if not isinstance(data, dict):
        raise SchemaError("must be a table of fields")
    for key, kind in {**required, **(optional or {})}.items():
        if key not in data:
            if key in required:
                raise SchemaError(f"'{key}' is missing")
            continue
        ok, meaning = KINDS[kind]
        if not ok(data[key]):
            raise SchemaError(f"'{key}' must be {meaning}, not {_show(data[key])}")


def _show(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


# --- pack.toml ---------------------------------------------------------------------------------------------------

PACK_FIELDS = {"code": "str", "name": "str", "cased": "bool", "normalization": "str", "features": "list",
               "sentence_marks": "list", "engine": "str", "map": "map", "map_between_words": "map",
               "map_before_lower": "map", "map_after_sentence_end": "map", "models": "map",
               "opening_marks": "list", "pairs": "map", "space_before": "map", "abbreviations": "list",
               "abbreviation_forms": "list", "spellings": "list", "scripts": "list", "units": "list", "joining_units": "list",
               "thousands": "str", "capital_after": "list", "elisions": "list", "longest_word": "int",
               "plain_typing": "bool", "keyboard_letters": "str", "ordinal_suffixes": "list",
               "dotted_capitals": "list", "small_words": "list", "demonyms": "table",
               "nouns_after": "list"}
NORMALIZATIONS = ("NFC", "NFD", "NFKC", "NFKD")
# the char and token models, the NB counts, apostrophes, proper forms
MODEL_KINDS = ("char", "token", "nb", "apostrophes", "proper")


def check_pack(data: dict) -> None:
    """The fields of a parsed ``pack.toml``: known keys of the right types, features that are CAPS, SPACE or
    single punctuation characters, model names that stay inside the models folder ("char", or "deru/char": a model
    that several packs share, in its own folder)."""
    check_depth(data)
    unknown = sorted(set(data) - set(PACK_FIELDS))
    if unknown:
        raise SchemaError(f"unknown field '{unknown[0]}' (known: {', '.join(PACK_FIELDS)})")
    fields(data, {"features": "list"}, {k: v for k, v in PACK_FIELDS.items() if k != "features"})
    for feature in data["features"]:
        if feature not in ("CAPS", "SPACE") and not is_mark(feature):
            raise SchemaError(f"'features': {feature!r} is neither CAPS, SPACE nor one punctuation character")
    if data.get("normalization", "NFC") not in NORMALIZATIONS:
        raise SchemaError(f"'normalization' must be one of {', '.join(NORMALIZATIONS)}")
    for kind, name in data.get("models", {}).items():
        if kind not in MODEL_KINDS:
            raise SchemaError(f"'models': unknown kind {kind!r} (known: {', '.join(MODEL_KINDS)})")
        if not (isinstance(name, str) and all(safe_name(part) for part in name.split("/", 1))):
            raise SchemaError(f"'models': {kind} = {name!r} must be a plain name inside the models folder, or "
                              "'<folder>/<name>' for a model that several packs share")


def is_mark(feature: str) -> bool:
    """A feature mark: one character that is neither a letter, a digit, white space nor a control."""
    return len(feature) == 1 and not feature.isalnum() and not feature.isspace() \
        and unicodedata.category(feature)[0] in "PS"


# --- model cards -------------------------------------------------------------------------------------------------

WINDOWED = {"window": "int", "overlap": "int", "cut": "int"}
CARD_FIELDS = {
    "char_e2e": ({"features": "list", "vocab": "list", **WINDOWED},
                 {"bias": "numbers", "capital_after_mark_penalty": "number?", "nb_spaces": "bool",
                  "given_space": "number", "given_join": "number", "pair_bonus": "number", "packs": "table",
                  "nb_space": "number?", "nb_join": "number?", "end_bias": "numbers"}),
    "token_cnn_bilstm": ({"features": "list", "punct_labels": "list", "case_labels": "list", "tokenizer": "table",
                          **WINDOWED},
                         {"bias": "numbers", "case_bias": "numbers", "end_bias": "numbers", "lexicon": "map",
                          "proper": "list", "proper_pairs": "list", "mixed": "map", "read_as": "map", "edge_id": "int?", "final_mark": "bool",
                          "pause_bias": "table"}),
    "nb": ({}, {"params": "table", "total": "number"}),
    "rerank": ({}, {"char_model": "name"}),
    # charrestore.detect: the languages' order is the model's; prefer_odds: what --lang auto:en needs to leave English
    "detect": ({"languages": "list"}, {"prefer_odds": "number"}),
    "apostrophes": ({"params": "table", "total": "number"}, {"cased": "map"}),
    "proper_case": ({}, {"forms": "int?"}),
}


def check_card(card: dict) -> None:
    """The fields of a model card that the runtime reads, by the card's ``kind``."""
    check_depth(card)
    fields(card, {"kind": "str", "file": "name", "sha256": "sha256"})
    if card["kind"] not in CARD_FIELDS:
        raise SchemaError(f"'kind' must be one of {', '.join(CARD_FIELDS)}, not {card['kind']!r}")
    required, optional = CARD_FIELDS[card["kind"]]
    fields(card, required, optional)
    if "window" in required and not 0 <= card["cut"] <= card["overlap"] < card["window"]:
        raise SchemaError(f"need 0 <= 'cut' <= 'overlap' < 'window', got {card['cut']}, {card['overlap']}, "
                          f"{card['window']}")
    if card["kind"] == "char_e2e" and len(card["vocab"]) < 2:
        raise SchemaError("'vocab' must hold at least <pad> and <unk>")
    if card["kind"] == "token_cnn_bilstm":
        try:
            fields(card["tokenizer"], {"file": "name", "sha256": "sha256"})
        except SchemaError as exc:
            raise SchemaError(f"'tokenizer': {exc}") from None
        if "pause_bias" in card:
            try:
                check_pause_bias(card["pause_bias"], card["punct_labels"])
            except SchemaError as exc:
                raise SchemaError(f"'pause_bias': {exc}") from None


PAUSE_MEASURES = ("gap", "ioi", "excess")  # as charrestore.engines.token.pause_values measures them


def check_pause_bias(pause: dict, punct_labels: list[str]) -> None:
    """A token card's pause offsets: a measure, ascending bucket edges (seconds) and, per punctuation label other
    than O, one offset per bucket (one more than the edges)."""
    fields(pause, {"measure": "str"})
    if pause["measure"] not in PAUSE_MEASURES:
        raise SchemaError(f"'measure' must be one of {', '.join(PAUSE_MEASURES)}, not {_show(pause['measure'])}")
    edges = pause.get("edges")
    if not (isinstance(edges, list) and edges and all(_is_number(e) and math.isfinite(e) for e in edges)
            and all(a < b for a, b in zip(edges, edges[1:]))):
        raise SchemaError(f"'edges' must be a non-empty list of ascending finite numbers, not {_show(edges)}")
    for label in punct_labels:
        if label == "O" or label not in pause:
            continue
        row = pause[label]
        if not (isinstance(row, list) and len(row) == len(edges) + 1
                and all(_is_number(x) and math.isfinite(x) for x in row)):
            raise SchemaError(f"'{label}' must be a list of {len(edges) + 1} numbers (one per bucket), "
                              f"not {_show(row)}")


def check_graph(card: dict, inputs: list, outputs: list) -> None:
    """The ONNX graph's inputs and outputs (onnxruntime NodeArg lists) against what the runtime feeds and reads
    for the card: a swapped file whose sha256 was copied into the card fails here, not in numpy mid-run."""
    if card["kind"] == "char_e2e":
        names, last = None, (1 << len(card["features"]),)
        if len(inputs) != 1:
            raise SchemaError(f"the model takes {len(inputs)} inputs; a char model takes one (ids)")
    elif card["kind"] == "token_cnn_bilstm":
        names, last = ["ids", "starts"], (len(card["punct_labels"]), len(card["case_labels"]))
    else:
        return
    if names is not None and sorted(i.name for i in inputs) != names:
        raise SchemaError(f"the model's inputs are {[i.name for i in inputs]}, the card's kind needs {names}")
    if any(len(i.shape) != 2 for i in inputs):
        raise SchemaError(f"the model's inputs have shapes {[i.shape for i in inputs]}, not [batch, time]")
    got = tuple(o.shape[-1] if len(o.shape) == 3 else None for o in outputs)
    if got != last:
        raise SchemaError(f"the model's outputs end in {list(got)} classes, the card's features and labels "
                          f"give {list(last)}")
