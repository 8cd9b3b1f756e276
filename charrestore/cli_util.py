"""The plumbing under ``charrestore.cli``: one-line usage errors, standard streams that may be closed, input
lines with invalid bytes, and an exit code for every way a run ends (never a traceback).

Kept apart from cli.py so that the subcommands there stay short; nothing here imports the runtime.
"""

from __future__ import annotations

import argparse
import atexit
import os
import signal
import sys
from collections.abc import Iterable

INTERRUPTED = 130  # 128 + SIGINT, as a shell reports it


class CLIError(Exception):
    """A runtime error to report in one line (exit 1)."""


def add_command(sub, run, name: str, defaults: dict | None = None, **kwargs) -> argparse.ArgumentParser:
    """A subcommand's parser (its epilog of examples kept as written); ``run(args)`` is what ``main`` calls,
    with ``defaults`` set on its arguments too."""
    parser = sub.add_parser(name, formatter_class=argparse.RawDescriptionHelpFormatter, **kwargs)
    parser.set_defaults(run=run, **(defaults or {}))
    return parser


def add_text_and_lang(parser, text_help: str, default: str = "en") -> None:
    """TEXT (joined by spaces; none: stdin) and --lang, as fix, segment and bench read them."""
    parser.add_argument("text", nargs="*", metavar="TEXT", help=text_help)
    parser.add_argument("--lang", default=default,
                        help="language pack; auto: each line in the language that 'charrestore detect' names; "
                             "auto:L: language L unless 'charrestore detect' finds another clearly more likely "
                             f"(default: {default}; see 'charrestore packs')")


def err(message: str, code: int) -> int:
    print(f"charrestore: error: {message}", file=sys.stderr)
    return code


def warn(message: str) -> None:
    print(f"charrestore: warning: {message}", file=sys.stderr)


class Parser(argparse.ArgumentParser):
    """An argparse parser whose usage errors are one line on stderr (exit 2) and that takes no abbreviated
    options (``--thr`` is an error, not ``--threads``). Subcommand parsers are built from the same class."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str):
        print(f"{self.prog}: error: {message} (usage: {self.prog} --help)", file=sys.stderr)
        raise SystemExit(2)


def threads(value: str) -> int:
    """``--threads``: from 1 to the machine's cores (more only slows ONNX Runtime down)."""
    cores = os.cpu_count() or 1
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {value!r}") from None
    if not 1 <= n <= cores:
        raise argparse.ArgumentTypeError(f"must be from 1 to {cores} (this machine's cores), not {n}")
    return n


class Version(argparse.Action):
    """``--version`` prints ``charrestore.__version__``, read from the installed metadata only when asked."""

    def __init__(self, option_strings, dest, help=None):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        from . import __version__

        print(f"charrestore {__version__}")
        parser.exit()


def lines(args):
    """Input documents as (line number, text); invalid UTF-8 kept as surrogate escapes (written back as the
    same bytes; ``--json`` gives each as U+FFFD)."""
    if args.text:
        yield 1, " ".join(args.text)
        return
    for n, raw in enumerate(sys.stdin.buffer, 1):
        raw = raw.rstrip(b"\n")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            where = "written as U+FFFD in the JSON" if getattr(args, "json", False) else "passed through unchanged"
            warn(f"line {n}: invalid UTF-8 at byte {exc.start}, {where}")
            text = raw.decode("utf-8", "surrogateescape")
        del raw  # a long line is held once, as text, while it is restored
        yield n, text


def emit(text: str | Iterable[str], end: str = "") -> None:
    """One output line (a string, or its pieces, written as they come), its invalid bytes as they came in, and
    ``end`` before the newline; flushed (one line out per line in)."""
    out = sys.stdout.buffer
    for piece in [text] if isinstance(text, str) else text:
        out.write(piece.encode("utf-8", "surrogateescape"))
    out.write(end.encode() + b"\n")
    out.flush()


def all_written(args) -> int:
    """0, every output line written and flushed: as the program, ``run_main`` may now end the process without
    tearing the interpreter down (freeing the NB counts' hundreds of thousands of objects took 0.06 s of a short
    ``fix``)."""
    args.all_written = True
    return 0


def json_text(text: str) -> str:
    """``text`` with each invalid input byte as U+FFFD: JSON has no way to carry a lone byte."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


# running: inside the run a Ctrl-C is a KeyboardInterrupt (finally blocks run), else a quiet exit; seen: one came
_ctrl_c = {"running": False, "seen": False}


def _interrupted(signum, frame) -> None:
    _ctrl_c["seen"] = True
    if _ctrl_c["running"]:
        _ctrl_c["running"] = False  # a second Ctrl-C, say while the first is being handled, ends the process at once
        raise KeyboardInterrupt
    os._exit(INTERRUPTED)


def run_main(build_parser, argv: list[str] | None) -> int:
    """Parse ``argv`` and run its subcommand: the exit code of every outcome, one line on stderr for errors.

    As the program (``argv`` None), a closed stderr becomes /dev/null (warnings go nowhere, never to stdout),
    a closed stdout is an error, and a Ctrl-C exits 130 without a traceback at any point of the run, after it
    (before the interpreter exits) too; once the interpreter is shutting down, a Ctrl-C is ignored.
    """
    if argv is None:
        _ctrl_c["running"] = True
        signal.signal(signal.SIGINT, _interrupted)
        atexit.register(signal.signal, signal.SIGINT, signal.SIG_IGN)
    try:
        if sys.stderr is None:
            sys.stderr = open(os.devnull, "w")
        if sys.stdout is None:
            return err("standard output is closed", 1)
        return _dispatch(build_parser, argv)
    except KeyboardInterrupt:
        return INTERRUPTED
    finally:
        _ctrl_c["running"] = False


def _dispatch(build_parser, argv) -> int:
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # the parser has printed its one-line usage error, or --help
        return int(exc.code or 0)
    from .cards import ModelError
    from .packs import PackError

    try:
        code = args.run(args)
        if argv is None and getattr(args, "all_written", False):
            for stream in (sys.stdout, sys.stderr):
                stream.flush()
            os._exit(code)
        return code
    except BrokenPipeError:  # the reader went away (| head): not an error; before OSError, its base class
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        except (OSError, ValueError):
            pass
        return 0
    except Exception as exc:
        if _ctrl_c["seen"]:  # an extension module turned the Ctrl-C into its own error (onnxruntime: ImportError)
            return INTERRUPTED
        if isinstance(exc, (CLIError, PackError, ModelError, OSError, ValueError)):
            return err(str(exc) or exc.__class__.__name__, 1)
        return err(f"unexpected {exc.__class__.__name__}: {exc}", 1)  # last resort: one line, never a traceback
