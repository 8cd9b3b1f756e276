"""``charrestore fix -i FILE -o FILE [--format ...]``: the command's glue (its options and its run), kept here
so that cli.py only calls in."""

from __future__ import annotations

import sys

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


def run_file(args, restorer) -> int:
    """Read, restore and write one file; a malformed file is a one-line error naming the file and the line."""
    from . import detect, restore_file
    from .base import FormatError

    if args.text or args.stream:
        raise ValueError("-i reads a file: give no TEXT and no --stream")
    args.output = args.output or "-"
    name = "stdin" if args.input == "-" else args.input
    try:
        text = _read(args.input)
        fmt = detect(args.input, text) if args.format == "auto" else args.format
        out = restore_file(text, fmt, restorer, args.resegment, not args.no_timing)
    except FormatError as exc:
        raise ValueError(f"{name}, line {exc.line}: {exc.detail}") from None
    data = out.encode("utf-8")
    if args.output == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    else:
        try:
            with open(args.output, "wb") as f:
                f.write(data)
        except OSError as exc:
            raise OSError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    return 0
