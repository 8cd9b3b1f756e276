"""``charrestore fix -i FILE -o FILE [--format ...]``: the command's glue (its options and its run), kept here
so that cli.py only calls in."""

from __future__ import annotations

import os
import sys
import tempfile

from . import FORMATS


def add_file_options(parser) -> None:
    parser.add_argument("-i", "--input", metavar="FILE",
                        help="restore this file as ONE document and write it to -o ('-': stdin); subtitles and "
                             "ASR JSON keep their cues, timings, settings and tags")
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="with -i: where to write ('-': stdout, default)")
    parser.add_argument("--format", choices=FORMATS, default="auto",
                        help="with -i: the file's format (default auto: from the extension, else the content); "
                             "without -i, a format other than auto reads that format from stdin")
    parser.add_argument("--resegment", action="store_true",
                        help="with -i, SRT or VTT: new cues cut at sentence ends (at most 42 characters a line, "
                             "2 lines, 7 s; word times where the file has them); without it, cue timing never changes")
    parser.add_argument("--no-timing", action="store_true",
                        help="with -i: ignore word times (ASR JSON words, inline VTT times); by default the pauses "
                             "between words count as evidence for punctuation (docs/timing.md)")


def _read(path: str) -> str:
    from .base import FormatError

    try:
        raw = sys.stdin.buffer.read() if path == "-" else open(path, "rb").read()
    except OSError as exc:
        raise OSError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FormatError(raw[:exc.start].count(b"\n") + 1, f"not UTF-8 (byte {exc.start})") from None


def words_of(text: str, fmt: str, chars: int = 20_000) -> str:
    """The start of a file's words (not its timestamps, cue numbers or JSON keys), enough to name its language."""
    from . import read

    if fmt == "text":
        return text[:chars]
    return " ".join(w.text for w in read(text, fmt).words)[:chars]


def run_file(args, restorer) -> int:
    """Read, restore and write one file; a malformed file is a one-line error naming the file and the line.
    The output is written piece by piece as it is restored (a long text file is never held twice); a file
    output goes to a temporary file beside it, renamed into place at the end, so that a failed run (or
    ``-o`` naming the input) never leaves a half-written file."""
    from . import detect, file_pieces
    from .base import FormatError

    if args.text or args.stream:
        raise ValueError("-i reads a file: give no TEXT and no --stream")
    args.output = args.output or "-"
    name = "stdin" if args.input == "-" else args.input
    try:
        text = _read(args.input)
        fmt = detect(args.input, text) if args.format == "auto" else args.format
        if hasattr(restorer, "language"):  # --lang auto: one decision for the file, on its words
            restorer = restorer.restorer_for(restorer.language(words_of(text, fmt)))
        pieces = file_pieces(text, fmt, restorer, args.resegment, not args.no_timing)
    except FormatError as exc:
        raise ValueError(f"{name}, line {exc.line}: {exc.detail}") from None
    if args.output == "-":
        _write(pieces, sys.stdout.buffer)
        return 0
    try:
        _write_file(pieces, os.path.realpath(args.output))
    except OSError as exc:
        raise OSError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    return 0


def _write_file(pieces, path: str) -> None:
    """A regular file is written beside itself and renamed into place, with the mode it had (or a new file's);
    anything else (/dev/null, a pipe) is written in place."""
    exists = os.path.exists(path)
    if exists and not os.path.isfile(path):
        with open(path, "wb") as f:
            return _write(pieces, f)
    if exists:
        mode = os.stat(path).st_mode & 0o7777
    else:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    f = tempfile.NamedTemporaryFile("wb", dir=os.path.dirname(path), prefix=".charrestore-", delete=False)
    try:
        with f:
            _write(pieces, f)
        os.chmod(f.name, mode)
        os.replace(f.name, path)
    except BaseException:
        os.unlink(f.name)
        raise


def _write(pieces, out) -> None:
    for piece in pieces:
        out.write(piece.encode("utf-8"))
    out.flush()
