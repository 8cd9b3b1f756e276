"""Which token members to ship together: every subset of exported members, averaged as the ensemble export
averages them (mean log-softmax), scored on ted_dev talks with words given.

Each subset gets its own punctuation offsets and then casing offsets, tuned as ``charrestore tune token`` tunes
them (coordinate ascent on the same talks), so that no subset is judged with another's offsets. The window
settings are the shipped card's. Members are exported one by one first, e.g.

    charrestore export token --run runs/token-en-c --lang en --out /tmp/members/c/en --window 128 --overlap 32 --cut 8
    python scripts/token_members.py /tmp/members/small /tmp/members/wide /tmp/members/c

Each argument is a models root holding ``en/token.*``. Each member reads the words with its own tokenizer;
to ship a subset as one model, its runs must share one (``export`` checks).
"""

from __future__ import annotations

import argparse
import itertools
from dataclasses import replace
from pathlib import Path

import numpy as np

from charrestore import Restorer, load_pack
from charrestore.tuning.dev import load_talks
from charrestore.tuning.token import labelled_talks, tune_offsets

CORPORA = Path(__file__).resolve().parent.parent.parent / "shared" / "corpora" / "en"


def log_softmax(x: np.ndarray) -> np.ndarray:
    x = x - x.max(-1, keepdims=True)
    return x - np.log(np.exp(x).sum(-1, keepdims=True))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("members", nargs="+", help="models roots, each with en/token.onnx, token.json, token.spm")
    args = p.parse_args()
    pack = load_pack("en")
    shipped = Restorer(lang="en", engine="pipeline", spaces="keep", threads=1).engine.model
    windows = {k: getattr(shipped.settings, k) for k in ("window", "overlap", "cut")}
    models = [Restorer(lang="en", engine="pipeline", spaces="keep", threads=1, models_dir=m).engine.model
              for m in args.members]
    models = [m.configured(replace(m.settings, **windows)) for m in models]
    gold, outs = [], []  # outs[talk][member] = (punct, case) log-probabilities
    for forms, punct, case in labelled_talks(shipped, pack, load_talks([CORPORA / "ted_dev.tsv"], pack)):
        gold.append((punct, case, shipped.named(forms)))
        outs.append([tuple(map(log_softmax, m.logits(forms))) for m in models])
    print(f"ted_dev talks: {len(gold)} talks, {sum(len(g[0]) for g in gold):,} words; "
          f"window {windows['window']} / overlap {windows['overlap']} / cut {windows['cut']}")
    print("| members | punct overall F1 | casing overall F1 | offsets (punct; case) |\n|---|---|---|---|")
    for k in range(1, len(models) + 1):
        for subset in itertools.combinations(range(len(models)), k):
            talks = [(*(sum(o[i][h] for i in subset) / k for h in (0, 1)), *g) for o, g in zip(outs, gold)]
            bias, case_bias, rows, case_rows = tune_offsets(shipped, talks)
            names = " + ".join(Path(args.members[i]).name for i in subset)
            print(f"| {names} | {100 * rows[-1]['punct_f1']:.2f} | {100 * case_rows[-1]['casing_f1']:.2f} | "
                  f"{bias.tolist()}; {case_bias.tolist()} |", flush=True)


if __name__ == "__main__":
    main()
