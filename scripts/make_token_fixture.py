"""Train the tiny token model that the tests use (tests/fixtures/models/en/token.*), in seconds.

It learns a few hand-written sentences, so the tests exercise the real training, export and runtime
code on a fresh clone without ../shared. Its outputs are not meant to be good.

    python scripts/make_token_fixture.py
"""

import argparse
import tempfile
from pathlib import Path

from charrestore.training.export_token import export
from charrestore.training.train_token import add_arguments, train

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"

text = FIXTURES / "text" / "en.txt"
with tempfile.TemporaryDirectory() as tmp:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args([
        "--lang", "en", "--corpus", str(text), "--dev", str(text), "--out", tmp, "--vocab", "200",
        "--lexicon-min", "1", "--window", "16", "--batch", "16", "--steps", "30", "--epochs", "3", "--emb", "8",
        "--lstm", "8", "--dev-windows", "8", "--lr", "0.01"])
    train(args)
    export([Path(tmp)], "en", FIXTURES / "models" / "en", "token", window=16, overlap=6, cut=3, check_windows=8,
           quantize=False)
