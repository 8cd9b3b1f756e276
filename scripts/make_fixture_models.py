"""Train the tiny char models that the tests use (tests/fixtures/models/<lang>/char.*).

They learn a few hand-written sentences (tests/fixtures/text/<lang>.txt) in seconds, so the tests exercise the real
training, export and runtime code on a fresh clone without ../shared. Their outputs are not meant to be good.

    python scripts/make_fixture_models.py [LANG ...]     # default: every language with a fixture text
"""

import argparse
import sys
import tempfile
from pathlib import Path

from charrestore.training.export_char import export
from charrestore.training.train_char import add_arguments, train

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"

for lang in sys.argv[1:] or sorted(p.stem for p in (FIXTURES / "text").glob("*.txt") if p.stem != "nb_en"):
    text = FIXTURES / "text" / f"{lang}.txt"
    with tempfile.TemporaryDirectory() as tmp:
        parser = argparse.ArgumentParser()
        add_arguments(parser)
        args = parser.parse_args([
            "--lang", lang, "--corpus", str(text), "--dev", str(text), "--out", tmp, "--min-count", "1",
            "--window", "48", "--batch", "16", "--steps", "30", "--epochs", "4", "--emb", "8", "--conv", "16",
            "--kernel", "3", "--dilations", "1", "2", "--lstm", "8", "--dev-windows", "8", "--lr", "0.01"])
        train(args)
        export([Path(tmp)], lang, FIXTURES / "models" / lang, "char", window=48, overlap=16, cut=8,
               check_windows=8, quantize=False)
