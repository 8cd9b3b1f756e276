"""Which token members to ship together: every subset of exported members, averaged as the ensemble export
averages them (mean log-softmax), scored on ted_dev talks with words given.

Each subset gets its own punctuation offsets and then casing offsets, tuned as ``eval_token.py --bias`` tunes
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
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from charrestore import Restorer, load_pack  # noqa: E402
from eval_token import labelled_talks, tune_offsets  # noqa: E402

STEPS = np.arange(-1.0, 3.01, 0.25)  # as eval_token.py --bias


def log_softmax(x: np.ndarray) -> np.ndarray:
    x = x - x.max(-1, keepdims=True)
    return x - np.log(np.exp(x).sum(-1, keepdims=True))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("members", nargs="+", help="models roots, each with en/token.onnx, token.json, token.spm")
    args = p.parse_args()
    pack = load_pack("en")
    shipped = Restorer(lang="en", engine="pipeline", spaces="keep", threads=1).engine.model
    models = [Restorer(lang="en", engine="pipeline", spaces="keep", threads=1, models_dir=m).engine.model
              for m in args.members]
    for m in models:
        m.window, m.overlap, m.cut = shipped.window, shipped.overlap, shipped.cut
    gold, outs = [], []  # outs[talk][member] = (punct, case) log-probabilities
    for forms, punct, case in labelled_talks(shipped, pack):
        gold.append((punct, case))
        outs.append([tuple(map(log_softmax, m.logits(forms))) for m in models])
    print(f"ted_dev talks: {len(gold)} talks, {sum(len(g[0]) for g in gold):,} words; "
          f"window {shipped.window} / overlap {shipped.overlap} / cut {shipped.cut}")
    print("| members | punct overall F1 | casing overall F1 | offsets (punct; case) |\n|---|---|---|---|")
    for k in range(1, len(models) + 1):
        for subset in itertools.combinations(range(len(models)), k):
            talks = [(*(sum(o[i][h] for i in subset) / k for h in (0, 1)), *g) for o, g in zip(outs, gold)]
            bias, case_bias, rows, case_rows = tune_offsets(shipped, talks, STEPS)
            names = " + ".join(Path(args.members[i]).name for i in subset)
            print(f"| {names} | {100 * rows[-1]['punct_f1']:.2f} | {100 * case_rows[-1]['casing_f1']:.2f} | "
                  f"{bias.tolist()}; {case_bias.tolist()} |", flush=True)


if __name__ == "__main__":
    main()
