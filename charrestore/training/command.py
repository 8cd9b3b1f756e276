"""``charrestore train|export KIND``: hand over to ``charrestore.training.<stage>_<kind>``.

Imported by the CLI at start, so it imports nothing heavy itself: TensorFlow loads only in the KIND's module.
"""

from __future__ import annotations

import argparse

from ..cli_util import CLIError, Parser, add_command

TRAIN_EXTRA = {"tensorflow", "keras", "tf2onnx", "onnx", "sentencepiece"}


def _add_training(sub, name: str, kinds: tuple[str, ...], help: str, examples: str) -> None:
    p = add_command(
        sub, run_training, name, help=help, defaults={"stage": name},
        description=f"{help[0].upper()}{help[1:]} (needs the [train] extra). KIND picks the model; "
                    f"'charrestore {name} KIND --help' lists its options.",
        epilog="examples:\n" + examples)
    p.add_argument("kind", choices=kinds, metavar="KIND", help=", ".join(kinds))
    p.add_argument("options", nargs=argparse.REMAINDER, help="options of that KIND")


def add_train(sub) -> None:
    _add_training(sub, "train", ("char", "nb", "token", "apostrophes"), "train a model from corpus text",
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
    parser = Parser(prog=f"charrestore {args.stage} {args.kind}", description=module.__doc__)
    module.add_arguments(parser)
    try:
        module.run(parser.parse_args(args.options))
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] in TRAIN_EXTRA:
            raise CLIError(f"{args.stage} needs the [train] extra ({exc.name} is missing): "
                           "pip install 'charrestore[train]'") from None
        raise
    return 0
