"""``charrestore tune KIND``: hand over to ``charrestore.tuning.<kind>`` (decoding settings on dev data)."""

from __future__ import annotations

import argparse

from ..cli_util import Parser, add_command
from . import KINDS


def add_tune(sub) -> None:
    p = add_command(sub, run_tune,
        "tune", help="tune a model's decoding on dev data and write it into its card",
        description="Tune the decoding settings of a model (windows, logit offsets, segmenter parameters) on dev "
                    "files, print them and, with --write-card, write them into its model card. KIND picks the model; "
                    "'charrestore tune KIND --help' lists its options.",
        epilog="examples:\n"
               "  charrestore tune char --lang en --dev ted_dev.tsv --models-dir /tmp/models --write-card\n"
               "  charrestore tune token --lang en --dev ted_dev.tsv --windows 128 --overlaps 32 --cuts 16\n"
               "  charrestore tune nb --lang en --dev ted_dev.tsv --hashtags stan_large_dev.tsv\n"
               "  charrestore tune rerank --lang en --train stan_large_train.tsv --dev stan_large_dev.tsv --write-card")
    p.add_argument("kind", choices=KINDS, metavar="KIND", help=", ".join(KINDS))
    p.add_argument("options", nargs=argparse.REMAINDER, help="options of that KIND")


def run_tune(args) -> int:
    """Hand over to ``charrestore.tuning.<kind>``: the common arguments, its own, and its ``run``."""
    import importlib
    import shlex

    from . import add_common

    module = importlib.import_module(f"charrestore.tuning.{args.kind}")
    parser = Parser(prog=f"charrestore tune {args.kind}", description=module.__doc__)
    add_common(parser)
    module.add_arguments(parser)
    module.run(parser.parse_args(args.options), shlex.join(["charrestore", "tune", args.kind, *args.options]))
    return 0
