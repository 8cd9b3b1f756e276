"""One batch of records in, one batch of output records out: the per-batch function of both runners.

A record's payload is bytes: a txt line or a JSONL line without its ``\\n``, or a Parquet text value as
UTF-8 (None when the row has no string). A txt line is restored exactly as ``charrestore fix`` restores a
stdin line (invalid UTF-8 kept as surrogate escapes, a final ``\\r`` kept aside), so the outputs are equal
byte for byte. Every record gives one output, so nothing is ever dropped; a record that cannot be
restored passes through with an error message.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Sequence


@dataclass(frozen=True)
class Fields:
    """Where JSONL/Parquet records hold their text and receive the restoration."""
    text: str = "text"
    output: str = "restored"


def _decode(raw: bytes) -> tuple[str, str | None]:
    """The text of a txt line as ``fix`` reads it, and a warning when it is not valid UTF-8."""
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        return raw.decode("utf-8", "surrogateescape"), f"invalid UTF-8 at byte {exc.start}, passed through unchanged"


def _restore_texts(restorer, texts: list[str]) -> list[str]:
    """``fix``'s rule: a final ``\\r`` is not part of the document and comes back after it."""
    cr = [t.endswith("\r") for t in texts]
    out = restorer.restore_many([t[:-1] if c else t for t, c in zip(texts, cr)])
    return [o + "\r" if c else o for o, c in zip(out, cr)]


def _json_line(record) -> bytes:
    text = json.dumps(record, ensure_ascii=False)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate from a "\ud800" escape: keep it escaped
        return json.dumps(record).encode("ascii")


def restore_batch(restorer, kind: str, payloads: Sequence[bytes | None],
                  fields: Fields = Fields()) -> tuple[list[bytes | None], list[str | None], list[int]]:
    """(outputs, errors, characters restored) per record of one batch of one kind (txt, jsonl, parquet)."""
    if kind == "txt":
        decoded = [_decode(raw) for raw in payloads]
        texts = [t for t, _ in decoded]
        out = _restore_texts(restorer, texts)
        return [o.encode("utf-8", "surrogateescape") for o in out], [e for _, e in decoded], [len(t) for t in texts]
    if kind == "parquet":
        texts = [None if p is None else p.decode("utf-8") for p in payloads]
        good = [t for t in texts if t is not None]
        restored = iter(_restore_texts(restorer, good))
        outputs = [None if t is None else next(restored).encode("utf-8") for t in texts]
        errors = [f"no string in field {fields.text!r}" if t is None else None for t in texts]
        return outputs, errors, [0 if t is None else len(t) for t in texts]
    return _restore_jsonl(restorer, payloads, fields)


def _restore_jsonl(restorer, payloads, fields: Fields):
    records, errors, todo = [], [], []
    for raw in payloads:
        record, error = None, None
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            line, error = raw.decode("utf-8", "replace"), f"invalid UTF-8 at byte {exc.start}"
        if error is None and line.strip():
            try:
                record = json.loads(line)
            except ValueError as exc:
                error = f"invalid JSON: {exc}"
            else:
                if not isinstance(record, dict):
                    record, error = None, "not a JSON object"
                elif not isinstance(record.get(fields.text), str):
                    error = f"no string in field {fields.text!r}"
                else:
                    todo.append(len(records))
        if error is not None and record is None:
            record = {"line": line}
        records.append(record)
        errors.append(error)
    texts = [records[i][fields.text] for i in todo]
    chars = [0] * len(records)
    for i, text, out in zip(todo, texts, _restore_texts(restorer, texts)):
        records[i][fields.output], chars[i] = out, len(text)
    outputs = []
    for raw, record, error in zip(payloads, records, errors):
        if record is None:  # a blank line stays as it is
            outputs.append(raw)
            continue
        if error is not None:
            record.setdefault(fields.output, None)
            record["error"] = error
        outputs.append(_json_line(record))
    return outputs, errors, chars
