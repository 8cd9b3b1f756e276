"""Which mix of the English corpora the token model should train on (#21): runs at equal compute, one per mix.

Every run starts from the same weights (the committed state of the small member, training_state/en-token,
epoch 61, trained on the old mix) and trains for the same number of steps on one encoded copy of all the corpora,
sampled with the mix's weights (``charrestore train token`` takes the weights from its command line; 0 leaves a
corpus out). "control" continues on the old mix, so any gain of the others is the data's, not the extra
epochs'. The spoken share is the share of sampled windows that come from court, earnings and meeting speech.
``scripts/token_learning_curve.py --checkpoints runs/mix-*`` then scores each run on iwslt dev2012.

    python scripts/token_mix_curve.py prepare                  # encode every corpus once (about 10 min)
    python scripts/token_mix_curve.py run control --epochs 16  # one run; resumable, like any training
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EN = ROOT.parent / "shared" / "corpora" / "en"
CORPORA = {"ted_train": EN / "ted_train.tsv", "gutenberg": EN / "public_domain" / "gutenberg_books.tsv",
           "sotu": EN / "public_domain" / "state_of_the_union_1945_2006.tsv",
           "inaugural": EN / "public_domain" / "inaugural_addresses_1789_2021.tsv", "brown": EN / "brown_train_docs.tsv",
           "ted_extra": EN / "ted_extra.tsv", "scotus": EN / "scotus_oral_arguments.tsv",
           "earnings": EN / "earnings_calls.tsv", "ami": EN / "ami_meetings.tsv"}
OLD = {"ted_train": 8.0, "gutenberg": 0.6, "sotu": 0.6, "inaugural": 0.3, "brown": 0.5}  # the shipped members' mix
EXTRA = {**OLD, "ted_extra": 0.7}  # TED extra at TED train's rate per word


def spoken(share: float) -> dict[str, float]:
    """EXTRA plus court, earnings and meeting speech as ``share`` of all windows (half court, a quarter each other)."""
    total = sum(EXTRA.values()) * share / (1 - share)
    return {**EXTRA, "scotus": total / 2, "earnings": total / 4, "ami": total / 4}


MIXES = {"control": OLD, "extra": EXTRA, "spoken25": spoken(0.25), "spoken50": spoken(0.5)}
START_STATE = ROOT / "training_state" / "en-token"
DATA = ROOT / "runs" / "mix-data"


def corpus_args(weights: dict[str, float]) -> list[str]:
    return [f"{CORPORA[name]}@{weights.get(name, 0.0):g}" for name in CORPORA]


def train_command(out: Path, weights: dict[str, float], epochs: int) -> list[str]:
    return [sys.executable, "-m", "charrestore", "train", "token", "--lang", "en", "--corpus", *corpus_args(weights),
            "--dev", str(EN / "ted_dev.tsv"), "--out", str(out), "--steps", "100", "--dev-windows", "300",
            "--max-minutes", "600", "--epochs", str(epochs), "--seed", "3"]


def prepare() -> None:
    """Encode all corpora with the start state's tokenizer: a run of 0 epochs on a scratch folder."""
    scratch = ROOT / "runs" / "mix-prepare"
    (scratch / "data").mkdir(parents=True, exist_ok=True)
    shutil.copyfile(START_STATE / "tokenizer.model", scratch / "data" / "tokenizer.model")
    subprocess.run(train_command(scratch, {name: 1.0 for name in CORPORA}, 0), check=False)
    if DATA.exists():
        shutil.rmtree(DATA)
    shutil.move(scratch / "data", DATA)
    shutil.rmtree(scratch)


def run(mix: str, epochs: int) -> None:
    """Train ``epochs`` more epochs of the mix (equal steps: equal compute), from where its folder stopped."""
    out = ROOT / "runs" / f"mix-{mix}"
    if not (out / "state.json").is_file():  # a new run: the start state's weights and the shared data
        out.mkdir(parents=True, exist_ok=True)
        state = json.loads((START_STATE / "state.json").read_text())
        state["stage_start"] = state["epoch"]  # its best weights are this stage's best, not the old run's
        (out / "state.json").write_text(json.dumps(state))
        shutil.copyfile(START_STATE / "weights.npz", out / "weights.npz")
        if not (out / "data").exists():
            (out / "data").symlink_to(DATA)
    done = json.loads((out / "state.json").read_text())["epoch"] - json.loads((START_STATE / "state.json").read_text())["epoch"]
    if epochs > done:
        subprocess.run(train_command(out, MIXES[mix], epochs - done), check=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("action", choices=("prepare", "run"))
    p.add_argument("mix", nargs="?", choices=sorted(MIXES))
    p.add_argument("--epochs", type=int, default=16, help="epochs of 100 steps after the start state (default: 16)")
    args = p.parse_args()
    if args.action == "prepare":
        prepare()
    elif args.mix is None:
        p.error("run needs a MIX")
    else:
        run(args.mix, args.epochs)


if __name__ == "__main__":
    main()
