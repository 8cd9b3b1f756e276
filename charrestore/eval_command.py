"""``charrestore eval``: the same scores as :func:`charrestore.evaluation.evaluate`, from two files (kept
outside the evaluation package so that the CLI starts without numpy)."""

from __future__ import annotations

import sys

from .cli_util import CLIError, add_command


def add_eval(sub) -> None:
    p = add_command(sub, run_eval,
        "eval", help="score restored text against a reference",
        description="Score hypotheses against references, one document per line in both files. "
                    "char level: P/R/F per feature, ALL (micro) and WER (Dyer et al.); token level: P/R/F per "
                    "punctuation (O/COMMA/PERIOD/QUESTION) and casing (O/UPP/CAP/MIX) class with micro overall "
                    "over the non-O classes, and confusion matrices. Both files are read with the pack's "
                    "mapping. Lines only in one file, and lines whose base characters differ, are reported; "
                    "such lines are aligned and only their equal part is scored. Every score is printed "
                    "with a signature of the settings that change it.",
        epilog="examples:\n  charrestore eval --lang en --ref ref.txt --hyp hyp.txt\n"
               "  charrestore eval --lang en --ref ref.txt --hyp hyp.txt --level token --plot confusion.png\n"
               "  charrestore eval --lang ja --ref ref.txt --hyp hyp.txt --json")
    p.add_argument("--lang", required=True, help="language pack (see 'charrestore packs')")
    p.add_argument("--ref", required=True, metavar="REF", help="reference file, UTF-8, one document per line")
    p.add_argument("--hyp", required=True, metavar="HYP", help="hypothesis file, UTF-8, one document per line")
    p.add_argument("--level", choices=("char", "token"), default="char",
                   help="char: per-feature P/R/F + WER (default); token: per-class P/R/F + confusion matrices")
    p.add_argument("--spaces", choices=("auto", "keep", "restore"), default=None,
                   help="how the hypotheses were made; only recorded in the signature")
    p.add_argument("--json", action="store_true", help="print the scores as one JSON object")
    p.add_argument("--plot", metavar="FILE.png", help="write the confusion matrix as a PNG (needs matplotlib)")


def _read_documents(path: str, what: str) -> list[str]:
    """One document per line; only \\n ends a line (a trailing \\r is dropped); invalid UTF-8 is replaced."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as exc:
        raise CLIError(f"cannot read {what} file {path}: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        print(f"charrestore: warning: {path}: invalid UTF-8 (first at byte {exc.start}) replaced by U+FFFD",
              file=sys.stderr)
        text = raw.decode("utf-8", "replace")
    text = text.removeprefix("\ufeff")
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def run_eval(args) -> int:
    import json

    if args.plot:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise CLIError("--plot needs matplotlib: pip install 'charrestore[plot]'") from None
    from .evaluation import evaluate, plot_confusion
    from .packs import load_pack

    pack = load_pack(args.lang)
    if args.level == "token" and not pack.has_space:
        raise CLIError(f"--level token needs words, and pack {pack.code!r} has no SPACE feature; use --level char")
    refs = _read_documents(args.ref, "reference")
    hyps = _read_documents(args.hyp, "hypothesis")
    result = evaluate(refs, hyps, pack, args.level, spaces=args.spaces)
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False))
        for line in result.warnings():
            print(f"charrestore: {line}", file=sys.stderr)
    else:
        print(result.format_table())
    if args.plot:
        try:
            plot_confusion(result, args.plot)
        except OSError as exc:
            raise CLIError(f"cannot write {args.plot}: {exc.strerror or exc}") from None
    return 0
