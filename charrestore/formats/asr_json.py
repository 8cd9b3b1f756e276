"""ASR JSON: Whisper / faster-whisper / WhisperX (``segments[].words[]`` with ``word/start/end``) and Vosk
(``result[]`` with ``word/start/end/conf``, one utterance or a list of them).

Read with the standard json module, every field kept; only the words' text changes (its case and the marks
after it; a Whisper word keeps its leading space), and each segment's ``text`` (and Whisper's top-level
``text``, WhisperX's ``word_segments``) is rebuilt from its words. A Whisper segment without ``words`` has
its ``text`` restored in place. The objects remember their line, so a missing or bad field names it.
"""

from __future__ import annotations

import bisect
import json
import re
from json.decoder import JSONObject
from json.scanner import py_make_scanner

from .base import FormatError, Parsed, Template


class _Obj(dict):
    """A JSON object that knows the line it starts on."""
    line = 0


def load(text: str):
    """Parsed JSON whose objects are ``_Obj`` (the pure-Python scanner, since only it lets objects be
    wrapped with their position; ASR files are small enough)."""
    newlines = [m.start() for m in re.finditer("\n", text)]

    def parse_object(s_and_end, *rest):
        obj, end = JSONObject(s_and_end, *rest)
        wrapped = _Obj(obj)
        wrapped.line = bisect.bisect_right(newlines, s_and_end[1]) + 1
        return wrapped, end

    decoder = json.JSONDecoder()
    decoder.parse_object = parse_object
    decoder.scan_once = py_make_scanner(decoder)
    if not text.strip():
        raise FormatError(1, "empty JSON file")
    try:
        return decoder.decode(text)
    except json.JSONDecodeError as exc:
        raise FormatError(exc.lineno, f"invalid JSON: {exc.msg} (column {exc.colno})") from None


def kind(data) -> str | None:
    """"whisper-json", "vosk-json" or None, from the shape of the data."""
    if isinstance(data, dict) and "segments" in data:
        return "whisper-json"
    if isinstance(data, dict) and ("result" in data or "text" in data):
        return "vosk-json"
    if isinstance(data, list) and data and all(isinstance(u, dict) and ("result" in u or "text" in u) for u in data):
        return "vosk-json"
    return None


def _time(obj: _Obj, key: str, where: str, required: bool) -> float | None:
    value = obj.get(key)
    if value is None and not required:
        return None
    if key not in obj:
        raise FormatError(obj.line, f"{where} has no {key!r}")
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise FormatError(obj.line, f"{where}: {key!r} must be a number of seconds >= 0, not {value!r}")
    return float(value)


def _times(obj: _Obj, where: str, required: bool) -> tuple[float | None, float | None]:
    start, end = _time(obj, "start", where, required), _time(obj, "end", where, required)
    if start is not None and end is not None and end < start:
        raise FormatError(obj.line, f"{where} ends before it starts ({start} > {end})")
    return start, end


def _list(obj, key: str, where: str) -> list:
    value = obj.get(key)
    if not isinstance(value, list):
        raise FormatError(obj.line, f"{where}: {key!r} must be a list")
    return value


def _word(obj, where: str) -> str:
    if not isinstance(obj, _Obj):
        raise FormatError(1, f"{where} must be an object")
    if not isinstance(obj.get("word"), str):
        raise FormatError(obj.line, f"{where} has no 'word' string")
    return obj["word"]


class AsrJson(Parsed):
    """The data with each restored string field as a range of template pieces, and the texts to rebuild."""

    def __init__(self, data, text: str):
        self.data, self.template = data, Template()
        self.words = self.template.words
        self.fields: list[tuple[dict, str, int, int]] = []  # (object, key, first piece, end piece)
        self.rebuilt: list[tuple[dict, list[dict], str, str]] = []  # (segment, its words, prefix, joiner)
        self.style = _style(text)

    def field(self, obj: dict, key: str, cue: int, start=None, end=None) -> None:
        lo = len(self.template.pieces)
        self.template.add_text(obj[key], cue, start, end, key == "word" and start is not None and end is not None)
        self.fields.append((obj, key, lo, len(self.template.pieces)))

    def rebuild(self, segment: dict, words: list[dict], joiner: str | None = None) -> None:
        """Rebuild ``segment["text"]`` from ``words``: joined as they are when they carry their spaces (Whisper),
        else by one space, after the white space the text started with."""
        if "text" not in segment or not words:
            return
        spaced = all(w["word"][:1].isspace() for w in words[1:])
        joiner = joiner if joiner is not None else ("" if spaced and len(words) > 1 else " ")
        prefix = "" if words[0]["word"][:1].isspace() else re.match(r"\s*", str(segment["text"])).group()
        self.rebuilt.append((segment, words, prefix, joiner))

    def write(self, restored, pack) -> str:
        texts = self.template.texts(restored, pack)
        for obj, key, lo, hi in self.fields:
            obj[key] = "".join(texts[lo:hi])
        for segment, words, prefix, joiner in self.rebuilt:
            segment["text"] = prefix + joiner.join(w["word"] for w in words)
        self.after_write()
        indent, separators, ascii_only, newline = self.style
        return json.dumps(self.data, indent=indent, separators=separators, ensure_ascii=ascii_only) + newline

    def after_write(self) -> None:
        """Fields derived from the rebuilt ones (Whisper's top-level text, WhisperX's word_segments)."""


def _style(text: str):
    """How the input was dumped (indent, separators, \\u escapes, final newline), to write it the same way."""
    m = re.search(r"\n([ \t]+)\S", text)
    indent = None if m is None else ("\t" if m.group(1).startswith("\t") else len(m.group(1)))
    compact = indent is None and not re.search(r"[,:] ", text) and re.search(r"[,:]", text)
    separators = (",", ":") if compact else ((",", ": ") if indent is not None else (", ", ": "))
    return indent, separators, "\\u" in text, "\n" if text.endswith("\n") else ""


class Whisper(AsrJson):
    def __init__(self, data, text: str):
        super().__init__(data, text)
        flat = []
        for i, segment in enumerate(_list(data, "segments", "the file")):
            where = f"segment {i}"
            if not isinstance(segment, _Obj):
                raise FormatError(1, f"{where} must be an object")
            start, end = _times(segment, where, False)
            if "words" in segment:
                words = _list(segment, "words", where)
                for j, w in enumerate(words):
                    _word(w, f"{where} word {j}")
                    self.field(w, "word", i, *_times(w, f"{where} word {j}", False))
                self.rebuild(segment, words)
                flat.extend(words)
            elif isinstance(segment.get("text"), str):
                self.field(segment, "text", i, start, end)
            else:
                raise FormatError(segment.line, f"{where} has neither 'words' nor a 'text' string")
        self.flat = flat
        self.top_text = isinstance(data.get("text"), str) and not data["text"][:1].isspace()
        copies = data.get("word_segments")
        self.copies = copies if (isinstance(copies, list) and len(copies) == len(flat) and all(
            isinstance(c, dict) and c.get("word") == w["word"] for c, w in zip(copies, flat))) else None

    def after_write(self) -> None:
        if isinstance(self.data.get("text"), str):
            text = "".join(str(s.get("text", "")) for s in self.data["segments"])
            self.data["text"] = text.lstrip() if self.top_text else text
        for copy, word in zip(self.copies or (), self.flat):
            copy["word"] = word["word"]


class Vosk(AsrJson):
    def __init__(self, data, text: str):
        super().__init__(data, text)
        utterances = data if isinstance(data, list) else [data]
        for i, utterance in enumerate(utterances):
            where = f"utterance {i}" if isinstance(data, list) else "the file"
            if not isinstance(utterance, _Obj):
                raise FormatError(1, f"{where} must be an object")
            if "result" not in utterance and isinstance(utterance.get("text"), str):
                if utterance["text"].strip():
                    raise FormatError(utterance.line, f"{where} has a 'text' but no 'result' words")
                continue
            words = _list(utterance, "result", where)
            for j, w in enumerate(words):
                _word(w, f"{where} word {j}")
                start, end = _times(w, f"{where} word {j}", True)
                if "conf" in w and (isinstance(w["conf"], bool) or not isinstance(w["conf"], (int, float))):
                    raise FormatError(w.line, f"{where} word {j}: 'conf' must be a number")
                self.field(w, "word", i, start, end)
            self.rebuild(utterance, words, " ")


def read_json(text: str, fmt: str = "auto") -> AsrJson:
    data = load(text)
    found = kind(data)
    if fmt == "auto":
        fmt = found
    if found is None or found != fmt:
        raise FormatError(1, f"not {fmt or 'ASR JSON'}: expected Whisper 'segments' or Vosk 'result'"
                             + (f" (this looks like {found})" if found else ""))
    return Whisper(data, text) if fmt == "whisper-json" else Vosk(data, text)
