"""Train the tiny char models that the tests use (tests/fixtures/models/<lang>/char.*; a model that several packs
share: tests/fixtures/models/<folder>/char.*, trained on each of their texts).

They learn a few hand-written sentences (tests/fixtures/text/<lang>.txt) in seconds, so the tests exercise the real
training, export and runtime code on a fresh clone without ../shared. Their outputs are not meant to be good.

    python scripts/make_fixture_models.py [LANG ...]     # default: every language with a fixture text
"""

import argparse
import sys
import tempfile
from pathlib import Path

from charrestore.packs import available_packs, load_pack
from charrestore.training.export_char import export
from charrestore.training.train_char import add_arguments, train

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"

def groups(langs: list[str]) -> dict[str, list[str]]:
    """Models folder -> the packs whose fixture model it is: a pack's own folder, or the folder of the model that
    several packs share ("deru/char": every pack that names it learns it)."""
    out: dict[str, list[str]] = {}
    for lang in langs:
        folder = load_pack(lang).models.get("char", "char").rpartition("/")[0]
        out[folder or lang] = [code for code in available_packs() if folder and
                               load_pack(code).models.get("char", "").startswith(f"{folder}/")] or [lang]
    return out


texts = sorted(p.stem for p in (FIXTURES / "text").glob("*.txt") if p.stem != "nb_en")
for folder, langs in groups(sys.argv[1:] or texts).items():
    corpus = [str(FIXTURES / "text" / f"{langs[0]}.txt")] if len(langs) == 1 else \
        [f"{code}:{FIXTURES / 'text' / f'{code}.txt'}" for code in langs]
    with tempfile.TemporaryDirectory() as tmp:
        parser = argparse.ArgumentParser()
        add_arguments(parser)
        args = parser.parse_args([
            "--lang", *langs, "--corpus", *corpus, "--dev", *corpus, "--out", tmp, "--min-count", "1",
            "--window", "48", "--batch", "16", "--steps", "30", "--epochs", "4", "--emb", "8", "--conv", "16",
            "--kernel", "3", "--dilations", "1", "2", "--lstm", "8", "--dev-windows", "8", "--lr", "0.01"])
        train(args)
        export([Path(tmp)], langs if len(langs) > 1 else langs[0], FIXTURES / "models" / folder, "char", window=48,
               overlap=16, cut=8, check_windows=8, quantize=False)
