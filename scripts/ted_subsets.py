"""TED training subsets for the token model's data-scaling runs: a seeded random share of ted_train's talks
(whole talks, so that no talk is split), written as ``ted_train_<share>.tsv`` in the same format.

    python scripts/ted_subsets.py --out /tmp/ted_subsets --shares 0.5 0.25

Each subset then replaces ted_train in the usual corpus mix (``charrestore train token``, same weights), so
that only the amount of TED text changes; ``scripts/token_members.py`` scores the exported members.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

TED = Path(__file__).resolve().parent.parent.parent / "shared" / "corpora" / "en" / "ted_train.tsv"


def subsets(lines: list[str], shares: list[float], seed: int) -> dict[float, list[str]]:
    """Lines of the talks in each share; the talks are one random order's prefixes, so smaller shares nest."""
    talks = sorted({line.split("\t", 1)[0] for line in lines})
    order = np.random.default_rng(seed).permutation(len(talks))
    out = {}
    for share in shares:
        keep = {talks[i] for i in order[: round(share * len(talks))]}
        out[share] = [line for line in lines if line.split("\t", 1)[0] in keep]
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True)
    p.add_argument("--shares", type=float, nargs="+", default=[0.5, 0.25])
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    lines = TED.read_text(encoding="utf-8").splitlines()
    for share, kept in subsets(lines, args.shares, args.seed).items():
        path = out / f"ted_train_{share:g}.tsv"
        path.write_text("\n".join(kept) + "\n", encoding="utf-8")
        words = sum(len(line.split("\t", 1)[1].split()) for line in kept)
        print(f"{path}: {len({line.split(chr(9), 1)[0] for line in kept})} talks, {words:,} words")


if __name__ == "__main__":
    main()
