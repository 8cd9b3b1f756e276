"""Files with structure: plain text, SRT, WebVTT and ASR JSON, read into words (with their cue or segment and
their times), restored as one document, and written back with everything but the words unchanged.

>>> from charrestore.formats import detect
>>> detect("talk.srt", ""), detect("-", "WEBVTT\\n"), detect("-", '{"segments": []}')
('srt', 'vtt', 'whisper-json')
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterator

FORMATS = ("auto", "text", "srt", "vtt", "whisper-json", "vosk-json")
_SRT_START = re.compile(r"\s*(?:\d+\s*\n)?\s*\d+:\d{2}:\d{2}[,.]\d{1,3}\s*-->")

__all__ = ["FORMATS", "detect", "file_pieces", "read", "restore_file"]  # the rest (FormatError, Word, Parsed) is in .base


def detect(name: str, text: str) -> str:
    """The format from the file's extension, else from its content (the package imports nothing heavy, so that
    ``charrestore --help`` stays fast)."""
    suffix = Path(name).suffix.lower()
    if suffix in (".srt", ".vtt", ".txt"):
        return {".srt": "srt", ".vtt": "vtt", ".txt": "text"}[suffix]
    body = text.removeprefix("\ufeff")
    if body.startswith("WEBVTT"):
        return "vtt"
    if _SRT_START.match(body):
        return "srt"
    if suffix == ".json" or body.lstrip()[:1] in ("{", "["):
        from .asr_json import kind, load
        from .base import FormatError

        try:
            found = kind(load(text))
        except FormatError:
            found = None
        return found or ("whisper-json" if suffix == ".json" else "text")
    return "text"


def read(text: str, fmt: str):
    """The file's words and its writer; ``fmt`` is one of ``FORMATS`` but "auto" (see ``detect``)."""
    if fmt in ("srt", "vtt"):
        from .subtitles import read_srt, read_vtt

        return (read_srt if fmt == "srt" else read_vtt)(text)
    if fmt in ("whisper-json", "vosk-json"):
        from .asr_json import read_json

        return read_json(text, fmt)
    if fmt == "text":
        return read_text(text)
    raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {fmt!r}")


def read_text(text: str):
    """Plain text: every run of non-space characters is a word (one cue per line); white space is kept."""
    from .base import PlainText

    return PlainText(text)


def restore_file(text: str, fmt: str, restorer, resegment: bool = False, timing: bool = True) -> str:
    """The file restored: all its words as one document, each put back in its place (with ``resegment``, in new
    cues cut at sentence ends: SRT and VTT only). Plain text whose spaces are to be restored
    (``spaces="restore"``, or "auto" on text with no space inside a line) is one document for the restorer, its
    line breaks read as spaces and then put back (with the white space around them) after the marks at their
    place. Word times (ASR JSON words, inline VTT times) shift the punctuation by the pauses between words when
    the engine's model has pause offsets; ``timing=False`` (``--no-timing``) ignores them."""
    return "".join(file_pieces(text, fmt, restorer, resegment, timing))


def file_pieces(text: str, fmt: str, restorer, resegment: bool = False, timing: bool = True) -> Iterator[str]:
    """``restore_file``'s output in consecutive pieces, so that ``fix -i`` writes a long text file as it goes."""
    from .base import keep_line_breaks, own_times, restore_words

    if resegment and fmt not in ("srt", "vtt"):
        raise ValueError(f"--resegment writes SRT or VTT cues, not {fmt}")
    if fmt == "text" and (restorer.config.spaces == "restore" or (
            restorer.config.spaces == "auto" and not re.search(r"\S[^\S\n]+\S", text))):
        one_line = re.sub(r"\s+", " ", text).strip()
        return iter(keep_line_breaks(text, restorer(one_line, spaces="restore")))
    parsed = read(text, fmt)
    if not resegment:
        return parsed.restore_iter(restorer, timing)
    from . import resegment as cut

    restored = restore_words(restorer, [w.text for w in parsed.words], own_times(parsed.words, restorer, timing))
    return iter([cut.write(parsed, restored, fmt, restorer.pack.sentence_marks)])
