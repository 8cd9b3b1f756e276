"""The ``charrestore`` command: a thin argparse face over the library.

Each subcommand has an ``add_<name>`` (its arguments) and a ``run_<name>`` (its work): fix, segment and packs
here, the others beside what they run (bench.py, eval_command.py, training/, tuning/, batch/, serve/,
hashtag_command.py). Heavy imports happen inside ``run_*`` so that ``--help`` stays instant. Errors are one line
on stderr: exit 2 for usage, 1 for runtime errors, never a traceback (cli_util.py).
"""

from __future__ import annotations

import argparse
import sys

from .auto import DEFAULT_LANG, AutoRestorer, is_auto, preferred
from .batch.command import add_batch
from .bench import add_bench
from .cli_util import (CLIError, Parser, Version, add_command, add_text_and_lang, all_written, json_text,
                       run_main, threads)
from .cli_util import emit as _emit
from .cli_util import lines as _lines
from .detect_command import add_detect
from .eval_command import add_eval
from .hashtag_command import HASHTAGS_HELP, add_hashtag
from .training.command import add_export, add_train
from .tuning.command import add_tune

# --- packs -------------------------------------------------------------------------------

def add_packs(sub) -> None:
    add_command(sub, run_packs, "packs", help="list the language packs, their features and models",
                description="List the language packs with their features and the models shipped for each.",
                epilog="example: charrestore packs")


def run_packs(args) -> int:
    from .packs import available_packs, load_pack

    for code in available_packs():
        pack = load_pack(code)
        models = ", ".join(pack.available_models()) or "none"
        print(f"{code}\t{pack.name}\tfeatures: {' '.join(pack.features)} ({pack.n_classes} classes)\tmodels: {models}"
              f"\tdefault engine: {pack.engine}")
    return 0


# --- fix ---------------------------------------------------------------------------------

def add_fix(sub) -> None:
    p = add_command(sub, run_fix,
        "fix", help="restore spaces, punctuation and capitalization",
        description="Restore spaces, punctuation and capitalization. With no TEXT, read stdin: one document "
                    "per line, exactly one output line per input line, flushed per line. Invalid UTF-8 "
                    "bytes pass through unchanged, with the spaces beside them (a warning names the line); "
                    "--json gives each as U+FFFD. '--' ends the options: a TEXT after it may start with '-'.",
        epilog='examples:\n  charrestore fix "willaichangeourfuture"\n'
               '  charrestore fix --spaces keep "will ai change our future"\n  cat asr.txt | charrestore fix > out.txt\n'
               '  charrestore fix -- "-5 degrees tonight"')
    add_text_and_lang(p, "text to restore (joined by spaces); default: stdin", DEFAULT_LANG)
    p.add_argument("--engine", choices=("auto", "char", "pipeline"), default="auto",
                   help="char E2E model, NB + token model (pipeline), or auto: the language pack's choice, the "
                        "engine that scored better on its dev sets (default; see 'charrestore packs')")
    p.add_argument("--spaces", choices=("auto", "keep", "restore"), default="auto",
                   help="keep the input's spaces, restore all spaces (the input's count as evidence where the model "
                        "decides spaces: spacing correction), or auto: keep if the input has any (default)")
    p.add_argument("--segmenter", choices=("auto", "nb", "none", "char"), default="auto",
                   help="unspaced input: spaces from the NB segmenter (nb), the char engine's own (none), or the "
                        "char model's under the pipeline's marks and case (char); auto: as tuned on dev (the cards)")
    p.add_argument("--threads", type=threads, default=1,
                   help="ONNX Runtime threads, at most this machine's cores (default: 1)")
    p.add_argument("--batch-size", type=int, default=32, help="windows per model call (default: 32)")
    p.add_argument("--hashtags", choices=("camel", "split", "keep"), default="camel", help=HASHTAGS_HELP)
    p.add_argument("--apostrophes", choices=("restore", "keep"), default="restore",
                   help="restore: put back apostrophes inside words (\"cant\" -> \"can't\") in text that has none, "
                        "where the pack has that model (en); keep: add none (default: restore)")
    p.add_argument("--json", action="store_true", help="one JSON object per line")
    p.add_argument("--stream", action="store_true",
                   help="live: read stdin as it arrives (e.g. an ASR piped in) and print each word once it is final; "
                        "with --json, one {final, provisional} object per update")
    p.add_argument("--lookahead", type=int, default=None, metavar="K",
                   help="--stream: words of right context before a word is final (default: measured on dev)")
    from .formats.command import add_file_options

    add_file_options(p)


def run_fix(args) -> int:
    import json

    from .restorer import Restorer, RestorerConfig

    if args.stream and preferred(args.lang):
        args.lang = preferred(args.lang)  # a stream is one language from its first word on: the preferred one
    restorer = Restorer(RestorerConfig(lang=args.lang, engine=args.engine, spaces=args.spaces, segmenter=args.segmenter,
                                       threads=args.threads, batch_size=args.batch_size, hashtags=args.hashtags,
                                       apostrophes=args.apostrophes))
    if args.input is None and args.format != "auto":
        args.input = "-"  # --format srt < in.srt > out.srt
    if args.input is None and (args.output is not None or args.resegment):
        raise CLIError("-o and --resegment go with -i FILE (or --format FORMAT for stdin)")
    if args.input:
        from .formats.command import run_file

        return run_file(args, restorer)
    if args.stream:
        return _stream(args, restorer)
    for _, text in _lines(args):
        cr = "\r" if text.endswith("\r") else ""
        if cr:
            text = text[:-1]
        if args.json:  # with --lang auto, the language chosen for this line and its engine
            auto = isinstance(restorer, AutoRestorer)
            chosen = restorer.restorer_for(restorer.language(text)) if auto else restorer
            out = json_text(chosen(text) + cr)
            _emit(json.dumps({"text": out, "lang": chosen.config.lang, "engine": chosen.config.engine,
                              "spaces": args.spaces}))
        else:
            _emit(restorer.restore_pieces(text), cr)
    return all_written(args)


def _stream(args, restorer) -> int:
    from .streaming import run

    if args.text:
        raise CLIError("--stream reads stdin; give no TEXT")
    if is_auto(args.lang):
        raise CLIError("--stream needs its language before the first word: give --lang (see 'charrestore detect')")

    def write(text: str) -> None:
        sys.stdout.buffer.write(text.encode("utf-8", "surrogateescape"))
        sys.stdout.buffer.flush()

    run(restorer.stream(args.lookahead), sys.stdin.fileno(), write, args.json)
    return 0


# --- segment -----------------------------------------------------------------------------

def add_segment(sub) -> None:
    p = add_command(sub, run_segment,
        "segment", help="insert spaces between words (NB segmenter, reranked)",
        description="Insert spaces between words: the Naive Bayes segmenter's k best segmentations, reranked by the "
                    "language's learned weights (models/<lang>/rerank.json; a language without one uses the plain NB). "
                    "No other character is changed and the case of the input is kept. With no TEXT, read stdin: one "
                    "document per line, exactly one output line per input line, flushed per line.",
        epilog='examples:\n  charrestore segment "FollowFriday"\n  cat hashtags.txt | charrestore segment --lang en\n'
               '  charrestore segment --json mariscoming')
    add_text_and_lang(p, "text to segment (joined by spaces); default: stdin", DEFAULT_LANG)
    p.add_argument("--method", choices=("rerank", "nb", "char"), default="rerank",
                   help="rerank the NB k best (default), the plain NB best, or the char model's spaces (every space "
                        "decided again: spacing correction; the default for a pack with a char model and no NB counts)")
    p.add_argument("--json", action="store_true",
                   help="one JSON object per line: the text and the candidates with their scores, best first")
    p.add_argument("--L", type=int, metavar="N", help="longest word considered, in characters (default: the model's)")
    p.add_argument("--smoothing", type=float, metavar="X", help="λ of the unknown-word penalty, > 1 (default: the model's)")


def run_segment(args) -> int:
    import json

    from functools import lru_cache

    from .auto import language_of, per_line
    from .packs import load_pack
    from .rerank import best_segmenter, ranked, spaced
    from .segmenter import Segmenter

    params = {k: v for k, v in (("L", args.L), ("smoothing", args.smoothing)) if v is not None}

    @lru_cache(maxsize=None)
    def segmenter(lang: str):
        pack = load_pack(lang)  # an unknown language is a pack error, not a missing model
        if args.method == "char" or (not pack.ready("nb") and pack.ready("char")):
            from .char_spaces import CharSpaces

            return CharSpaces.load(lang)
        model = best_segmenter(lang) if args.method == "rerank" else Segmenter.load(lang)
        return model.configured(**params) if params else model

    args.lang, among = per_line(args.lang, "nb")  # auto: the packs with an NB model, one per line
    prefer = preferred(args.lang)
    if among is None:
        segmenter(args.lang)  # fails before the first line
    for _, text in _lines(args):
        cr = text.endswith("\r")
        text = text[:-1] if cr else text
        lang = language_of(text, among, prefer) if among else args.lang
        model = segmenter(lang)
        if args.json and not hasattr(model, "cuts"):  # the char model's spaces: no candidates
            _emit(json.dumps({"text": json_text(model.segment(text)), "lang": lang, "method": "char"}))
        elif args.json:
            found = ranked(model, text)
            candidates = [{"text": json_text(spaced(text, c.cuts)), "score": _number(c.score), "nb": _number(c.nb)}
                          for c in found]
            _emit(json.dumps({"text": json_text(spaced(text, found[0].cuts)), "lang": lang, "method": args.method,
                              "candidates": candidates}))
        else:
            _emit(model.segment(text) + ("\r" if cr else ""))
    return all_written(args)


def _number(x: float) -> float | None:
    """A score for JSON: rounded, and null where there is none (NaN: a text too long for k-best)."""
    return None if x != x else round(x, 4)


# --- parser ------------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="charrestore",
        description="Restore spaces, punctuation and capitalization to unformatted text.",
        epilog='example: charrestore fix "willaichangeourfuture"',
    )
    parser.add_argument("--version", action=Version, help="show program's version number and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    from .serve.command import add_serve

    for add in (add_fix, add_segment, add_detect, add_eval, add_bench, add_train, add_export, add_tune, add_batch, add_packs,
                add_serve, add_hashtag):
        add(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    return run_main(build_parser, argv)


if __name__ == "__main__":
    raise SystemExit(main())
