"""Evaluate a shipped char model on a dev set, in the paper's setting and in ``--spaces keep`` mode.

Writes ref.txt, the inputs and the hypotheses to --out, scores them with ``charrestore eval`` (the
same command users run) and, with --card, records the numbers in the model card.

- restore: de-spaced, lowercased, mark-free input (the paper's setting);
- keep: the same text with its spaces (lowercased, mark-free: ASR style), constrained decoding.

    python scripts/eval_char.py --lang en --dev ../shared/corpora/en/ted_dev.tsv --set ted_dev --card
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from charrestore import Restorer, load_pack
from charrestore.cards import load_card, write_card
from charrestore.codec import parse, render, strip_features
from charrestore.paths import models_dir
from dev_sets import load_dev


def spaced_input(text: str, pack) -> str:
    """Lower-case words without marks, spaces kept: what an ASR system outputs."""
    base, classes = parse(text, pack)
    return render(base, classes & pack.bit("SPACE"), pack)


def score(lang: str, ref: Path, hyp: Path, spaces: str) -> dict:
    cmd = [sys.executable, "-m", "charrestore", "eval", "--lang", lang, "--ref", str(ref), "--hyp", str(hyp),
           "--level", "char", "--spaces", spaces, "--json"]
    res = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return json.loads(res.stdout)


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--lang", required=True)
    p.add_argument("--dev", nargs="+", required=True)
    p.add_argument("--holdout", type=int, default=0, help="dev = documents with numeric id %% N == 0")
    p.add_argument("--set", required=True, help="name of the dev set in reports and the card")
    p.add_argument("--name", default="char")
    p.add_argument("--modes", nargs="+", default=["restore", "keep"])
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--out", default="runs/eval")
    p.add_argument("--card", action="store_true", help="record the numbers in the model card")
    args = p.parse_args()

    pack = load_pack(args.lang)
    refs = load_dev(args.dev, pack, args.holdout)
    out = Path(args.out) / args.lang / args.set
    out.mkdir(parents=True, exist_ok=True)
    (out / "ref.txt").write_text("\n".join(refs) + "\n", encoding="utf-8")
    results = {}
    for mode in args.modes:
        if mode == "keep" and not pack.has_space:
            continue
        inputs = [strip_features(r, pack) if mode == "restore" else spaced_input(r, pack) for r in refs]
        (out / f"input_{mode}.txt").write_text("\n".join(inputs) + "\n", encoding="utf-8")
        restorer = Restorer(lang=args.lang, engine="char", spaces=mode, threads=args.threads, batch_size=64)
        t = time.perf_counter()
        hyps = [restorer(x) for x in inputs]
        seconds = time.perf_counter() - t
        (out / f"hyp_{mode}.txt").write_text("\n".join(hyps) + "\n", encoding="utf-8")
        results[mode] = score(args.lang, out / "ref.txt", out / f"hyp_{mode}.txt", mode)
        results[mode]["documents"] = len(refs)
        results[mode]["chars_per_s"] = round(sum(map(len, inputs)) / seconds)
        print(f"{args.set} spaces={mode}: {json.dumps(results[mode])}", flush=True)
    if args.card:
        card, _ = load_card(args.lang, args.name)
        card.setdefault("dev_metrics", {})[args.set] = {**results, "command": "python " + " ".join(sys.argv)}
        write_card(models_dir() / args.lang / f"{args.name}.json", card)


if __name__ == "__main__":
    main()
