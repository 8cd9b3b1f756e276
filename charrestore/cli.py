"""The ``charrestore`` command: a thin argparse face over the library.

Each subcommand has an ``add_<name>`` (its arguments) and a ``run_<name>`` (its work); heavy
imports happen inside ``run_*`` so that ``--help`` stays instant. Errors are one line on stderr:
exit 2 for usage, 1 for runtime errors, never a traceback.
"""

from __future__ import annotations

import argparse
import sys

from .batch.command import add_batch
from .cli_util import (CLIError, Parser, Version, emit as _emit, json_text, lines as _lines, run_main,
                       threads)
from .hashtag_command import HASHTAGS_HELP, add_hashtag


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
        print(f"{code}\t{pack.name}\tfeatures: {' '.join(pack.features)} ({pack.n_classes} classes)\tmodels: {models}"
              f"\tdefault engine: {pack.engine}")
    return 0


# --- fix ---------------------------------------------------------------------------------

def add_fix(sub) -> None:
    p = sub.add_parser(
        "fix", help="restore spaces, punctuation and capitalization",
        description="Restore spaces, punctuation and capitalization. With no TEXT, read stdin: one document "
                    "per line, exactly one output line per input line, flushed per line. Invalid UTF-8 "
                    "bytes pass through unchanged, with the spaces beside them (a warning names the line); "
                    "--json gives each as U+FFFD. '--' ends the options: a TEXT after it may start with '-'.",
        epilog='examples:\n  charrestore fix "willaichangeourfuture"\n'
               '  charrestore fix --spaces keep "will ai change our future"\n  cat asr.txt | charrestore fix > out.txt\n'
               '  charrestore fix -- "-5 degrees tonight"',
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("text", nargs="*", metavar="TEXT", help="text to restore (joined by spaces); default: stdin")
    p.add_argument("--lang", default="en", help="language pack (default: en; see 'charrestore packs')")
    p.add_argument("--engine", choices=("auto", "char", "pipeline"), default="auto",
                   help="char E2E model, NB + token model (pipeline), or auto: the language pack's choice, the "
                        "engine that scored better on its dev sets (default; see 'charrestore packs')")
    p.add_argument("--spaces", choices=("auto", "keep", "restore"), default="auto",
                   help="keep the input's spaces, restore all spaces, or auto: keep if the input has any (default)")
    p.add_argument("--segmenter", choices=("auto", "nb", "none"), default="auto",
                   help="char engine on unspaced input: spaces from the NB segmenter (nb) or the model (none); "
                        "auto: as tuned on dev for the model (see its card)")
    p.add_argument("--threads", type=threads, default=1,
                   help="ONNX Runtime threads, at most this machine's cores (default: 1)")
    p.add_argument("--batch-size", type=int, default=32, help="windows per model call (default: 32)")
    p.add_argument("--hashtags", choices=("camel", "split", "keep"), default="camel", help=HASHTAGS_HELP)
    p.add_argument("--json", action="store_true", help="one JSON object per line")
    p.add_argument("--stream", action="store_true",
                   help="live: read stdin as it arrives (e.g. an ASR piped in) and print each word once it is final; "
                        "with --json, one {final, provisional} object per update")
    p.add_argument("--lookahead", type=int, default=None, metavar="K",
                   help="--stream: words of right context before a word is final (default: measured on dev)")
    from .formats.command import add_file_options

    add_file_options(p)
    p.set_defaults(run=run_fix)


def run_fix(args) -> int:
    import json

    from .restorer import Restorer, RestorerConfig

    restorer = Restorer(RestorerConfig(lang=args.lang, engine=args.engine, spaces=args.spaces, segmenter=args.segmenter,
                                       threads=args.threads, batch_size=args.batch_size, hashtags=args.hashtags))
    segmenter = getattr(restorer.engine, "segmenter", None)
    if callable(segmenter) and args.spaces != "keep":  # loaded lazily by the pipeline: a bad file fails before any output
        segmenter()
    if args.input:
        from .formats.command import run_file

        return run_file(args, restorer)
    if args.stream:
        return _stream(args, restorer)
    for _, text in _lines(args):
        cr = text.endswith("\r")
        out = restorer(text[:-1] if cr else text) + ("\r" if cr else "")
        if args.json:
            out = json.dumps({"text": json_text(out), "lang": args.lang, "engine": restorer.config.engine, "spaces": args.spaces})
        _emit(out)
    return 0


def _stream(args, restorer) -> int:
    from .streaming import run

    if args.text:
        raise CLIError("--stream reads stdin; give no TEXT")

    def write(text: str) -> None:
        sys.stdout.buffer.write(text.encode("utf-8", "surrogateescape"))
        sys.stdout.buffer.flush()

    run(restorer.stream(args.lookahead), sys.stdin.fileno(), write, args.json)
    return 0


# --- segment -----------------------------------------------------------------------------

def add_segment(sub) -> None:
    p = sub.add_parser(
        "segment", help="insert spaces between words (Naive Bayes segmenter)",
        description="Insert spaces between words with the Naive Bayes segmenter; no other character is changed "
                    "and the case of the input is kept. With no TEXT, read stdin: one document per line, exactly "
                    "one output line per input line, flushed per line.",
        epilog='examples:\n  charrestore segment "FollowFriday"\n  cat hashtags.txt | charrestore segment --lang en',
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("text", nargs="*", metavar="TEXT", help="text to segment (joined by spaces); default: stdin")
    p.add_argument("--lang", default="en", help="language pack (default: en; see 'charrestore packs')")
    p.add_argument("--L", type=int, metavar="N", help="longest word considered, in characters (default: the model's)")
    p.add_argument("--smoothing", type=float, metavar="X", help="λ of the unknown-word penalty, > 1 (default: the model's)")
    p.set_defaults(run=run_segment)


def run_segment(args) -> int:
    from .packs import load_pack
    from .segmenter import Segmenter

    load_pack(args.lang)  # an unknown language is a pack error, not a missing model
    segmenter = Segmenter.load(args.lang)
    params = {k: v for k, v in (("L", args.L), ("smoothing", args.smoothing)) if v is not None}
    if params:
        segmenter = segmenter.configured(**params)
    for _, text in _lines(args):
        cr = text.endswith("\r")
        _emit(segmenter.segment(text[:-1] if cr else text) + ("\r" if cr else ""))
    return 0


# --- bench -------------------------------------------------------------------------------

def add_bench(sub) -> None:
    p = sub.add_parser(
        "bench", help="time the installed models on this machine",
        description="Time each engine of a language on TEXT, on stdin (one document per line) or, for en, on the "
                    "42-word Table-5 paragraph of the CNN-BiLSTM paper: load time, median ms per document and "
                    "chars/s over --runs passes after a warm-up. scripts/bench.py is the full benchmark.",
        epilog="examples:\n  charrestore bench\n  charrestore bench --engines pipeline --threads 2 < docs.txt",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("text", nargs="*", metavar="TEXT", help="one document (joined by spaces); default: stdin, or Table 5 for en")
    p.add_argument("--lang", default="en", help="language pack (default: en)")
    p.add_argument("--engines", nargs="+", choices=("char", "pipeline"),
                   help="engines to time (default: every engine the pack has models for)")
    p.add_argument("--threads", type=int, default=1, help="ONNX Runtime threads (default: 1)")
    p.add_argument("--runs", type=int, default=20, help="timed passes; the median is reported (default: 20)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run_bench)


def run_bench(args) -> int:
    import json
    import time

    from .bench import TABLE5, measure
    from .evaluation import Signature
    from .packs import load_pack
    from .paths import models_dir
    from .restorer import Restorer

    pack = load_pack(args.lang)
    if args.runs < 1:
        raise CLIError("--runs must be at least 1")
    docs = [" ".join(args.text)] if args.text else ([] if sys.stdin.isatty() else
                                                    [t for _, t in _lines(args) if t.strip()])
    if not docs:
        if args.lang != "en":
            raise CLIError(f"give TEXT or documents on stdin: the built-in Table-5 paragraph is English, not {args.lang!r}")
        docs, source = [TABLE5], "table5"
    else:
        source = f"{len(docs)} docs"
    engines = args.engines or [e for e, kind in (("char", "char"), ("pipeline", "token")) if kind in pack.models]
    rows = []
    for engine in engines:
        t = time.perf_counter()
        restorer = Restorer(lang=args.lang, engine=engine, threads=args.threads)
        load_s = time.perf_counter() - t
        card = restorer.engine.card
        rows.append({"engine": engine, "load_s": round(load_s, 3), **{k: round(v, 2) for k, v in
                     measure(restorer, docs, args.runs).items()},
                     "model_mb": round((models_dir() / args.lang / card["file"]).stat().st_size / 1e6, 2)})
    signature = str(Signature.of("bench", lang=args.lang, threads=args.threads, runs=args.runs, text=source,
                                 chars=sum(map(len, docs)), engines="+".join(engines)))
    if args.json:
        print(json.dumps({"signature": signature, "rows": rows}))
        return 0
    print(signature)
    print(f"{'engine':<10}{'load s':>8}{'ms/doc':>10}{'chars/s':>12}{'model MB':>10}")
    for r in rows:
        print(f"{r['engine']:<10}{r['load_s']:>8.2f}{r['ms_per_doc']:>10.2f}{r['chars_per_s']:>12,.0f}{r['model_mb']:>10.2f}")
    return 0


# --- eval --------------------------------------------------------------------------------

def add_eval(sub) -> None:
    p = sub.add_parser(
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
               "  charrestore eval --lang ja --ref ref.txt --hyp hyp.txt --json",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--lang", required=True, help="language pack (see 'charrestore packs')")
    p.add_argument("--ref", required=True, metavar="REF", help="reference file, UTF-8, one document per line")
    p.add_argument("--hyp", required=True, metavar="HYP", help="hypothesis file, UTF-8, one document per line")
    p.add_argument("--level", choices=("char", "token"), default="char",
                   help="char: per-feature P/R/F + WER (default); token: per-class P/R/F + confusion matrices")
    p.add_argument("--spaces", choices=("auto", "keep", "restore"), default=None,
                   help="how the hypotheses were made; only recorded in the signature")
    p.add_argument("--json", action="store_true", help="print the scores as one JSON object")
    p.add_argument("--plot", metavar="FILE.png", help="write the confusion matrix as a PNG (needs matplotlib)")
    p.set_defaults(run=run_eval)


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


# --- train / export ----------------------------------------------------------------------

TRAIN_EXTRA = {"tensorflow", "keras", "tf2onnx", "onnx", "sentencepiece"}


def _add_training(sub, name: str, kinds: tuple[str, ...], help: str, examples: str) -> None:
    p = sub.add_parser(
        name, help=help,
        description=f"{help[0].upper()}{help[1:]} (needs the [train] extra). KIND picks the model; "
                    f"'charrestore {name} KIND --help' lists its options.",
        epilog="examples:\n" + examples, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("kind", choices=kinds, metavar="KIND", help=", ".join(kinds))
    p.add_argument("options", nargs=argparse.REMAINDER, help="options of that KIND")
    p.set_defaults(run=run_training, stage=name)


def add_train(sub) -> None:
    _add_training(sub, "train", ("char", "nb", "token"), "train a model from corpus text",
                  "  charrestore train char --lang en --corpus ted_train.tsv@8 brown_train_docs.tsv --dev ted_dev.tsv --out runs/char-en\n"
                  "  charrestore train nb --lang en --corpus ted_train.tsv --out models/en")


def add_export(sub) -> None:
    _add_training(sub, "export", ("char", "token"), "export a trained model to ONNX int8 with its card",
                  "  charrestore export char --run runs/char-en --lang en --out models/en")


def run_training(args) -> int:
    """Hand over to ``charrestore.training.<stage>_<kind>``: its ``add_arguments`` and ``run``."""
    import importlib
    import os

    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    name = f"charrestore.training.{args.stage}_{args.kind}"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name == name:
            raise CLIError(f"{args.stage} {args.kind} is not available in this version") from None
        raise
    parser = Parser(prog=f"charrestore {args.stage} {args.kind}", description=module.__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    module.add_arguments(parser)
    try:
        module.run(parser.parse_args(args.options))
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] in TRAIN_EXTRA:
            raise CLIError(f"{args.stage} needs the [train] extra ({exc.name} is missing): "
                           "pip install 'charrestore[train]'") from None
        raise
    return 0


# --- tune --------------------------------------------------------------------------------

def add_tune(sub) -> None:
    p = sub.add_parser(
        "tune", help="tune a model's decoding on dev data and write it into its card",
        description="Tune the decoding settings of a model (windows, logit offsets, segmenter parameters) on dev "
                    "files, print them and, with --write-card, write them into its model card. KIND picks the model; "
                    "'charrestore tune KIND --help' lists its options.",
        epilog="examples:\n"
               "  charrestore tune char --lang en --dev ted_dev.tsv --models-dir /tmp/models --write-card\n"
               "  charrestore tune token --lang en --dev ted_dev.tsv --windows 128 --overlaps 32 --cuts 16\n"
               "  charrestore tune nb --lang en --dev ted_dev.tsv --hashtags stan_large_dev.tsv",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("kind", choices=("char", "token", "nb"), metavar="KIND", help="char, token, nb")
    p.add_argument("options", nargs=argparse.REMAINDER, help="options of that KIND")
    p.set_defaults(run=run_tune)


def run_tune(args) -> int:
    """Hand over to ``charrestore.tuning.<kind>``: the common arguments, its own, and its ``run``."""
    import importlib
    import shlex

    from .tuning import add_common

    module = importlib.import_module(f"charrestore.tuning.{args.kind}")
    parser = Parser(prog=f"charrestore tune {args.kind}", description=module.__doc__,
                    formatter_class=argparse.RawDescriptionHelpFormatter)
    add_common(parser)
    module.add_arguments(parser)
    module.run(parser.parse_args(args.options), shlex.join(["charrestore", "tune", args.kind, *args.options]))
    return 0


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

    for add in (add_fix, add_segment, add_eval, add_bench, add_train, add_export, add_tune, add_batch, add_packs, add_serve, add_hashtag):
        add(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    return run_main(build_parser, argv)


if __name__ == "__main__":
    raise SystemExit(main())
