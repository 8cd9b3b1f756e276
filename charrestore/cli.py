"""The ``charrestore`` command: a thin argparse face over the library.

Each subcommand has an ``add_<name>`` (its arguments) and a ``run_<name>`` (its work); heavy
imports happen inside ``run_*`` so that ``--help`` stays instant. Errors are one line on stderr:
exit 2 for usage, 1 for runtime errors, never a traceback.
"""

from __future__ import annotations

import argparse
import sys


class CLIError(Exception):
    """A runtime error to report in one line (exit 1)."""


def _err(message: str, code: int) -> int:
    print(f"charrestore: error: {message}", file=sys.stderr)
    return code


# --- packs -------------------------------------------------------------------------------

def add_packs(sub) -> None:
    p = sub.add_parser("packs", help="list the language packs, their features and models",
                       description="List the language packs with their features and the models shipped for each.",
                       epilog="example: charrestore packs")
    p.set_defaults(run=run_packs)


def run_packs(args) -> int:
    from .packs import available_packs, load_pack

    for code in available_packs():
        pack = load_pack(code)
        models = ", ".join(pack.available_models()) or "none"
        print(f"{code}\t{pack.name}\tfeatures: {' '.join(pack.features)} ({pack.n_classes} classes)\tmodels: {models}")
    return 0


# --- parser ------------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="charrestore",
        description="Restore spaces, punctuation and capitalization to unformatted text.",
        epilog='example: charrestore fix "willaichangeourfuture"',
    )
    parser.add_argument("--version", action="version", version="charrestore 0.1.0")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for add in (add_packs,):
        add(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse has printed its one-line usage error
        return int(exc.code or 0)
    from .packs import PackError

    try:
        return args.run(args)
    except (CLIError, PackError, OSError, ValueError) as exc:
        return _err(str(exc) or exc.__class__.__name__, 1)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
