"""Evaluate a shipped engine at char level on a dev set, in the paper's setting and in ``--spaces keep`` mode.

Writes ref.txt, the inputs and the hypotheses to --out, scores them with ``charrestore eval`` (the
same command users run) and, with --card, records the numbers in the engine's model card (char: the char
model's; pipeline: the token model's). ``--engine pipeline`` scores the NB segmenter + token model on the
same inputs (modes restore and keep), so that both engines are compared on one scale.

- restore: de-spaced, lowercased, mark-free input (the paper's setting);
- keep: the same text with its spaces (lowercased, mark-free: ASR style), constrained decoding;
- nb: the restore input, with the spaces of the NB segmenter enforced (``--segmenter nb``; packs with an NB model);
- char: (``--engine pipeline``) the restore input, cut where the char model puts spaces (``--segmenter char``).

``--sentences`` cuts the dev documents after every sentence end and restores each sentence as an input of its own
(the short inputs users type). ``--plain`` takes the diacritics off the dev text first, as Vietnamese is often
typed (plain_letters.py).

    python scripts/eval_char.py --lang en --dev ../shared/corpora/en/ted_dev.tsv --set ted_dev --card
    python scripts/eval_char.py --lang en --dev ../shared/corpora/en/ted_dev.tsv --set ted_dev --engine pipeline --card
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import regex

from charrestore import Restorer, load_pack
from charrestore.codec import strip_features
from charrestore.holdout import Holdout
from charrestore.plain_letters import plain
from charrestore.tuning.dev import load_dev, sentences, spaced_input
from charrestore.tuning.record import card_path, record_dev_metrics


def score(lang: str, ref: Path, hyp: Path, spaces: str) -> dict:
    cmd = [sys.executable, "-m", "charrestore", "eval", "--lang", lang, "--ref", str(ref), "--hyp", str(hyp),
           "--level", "char", "--spaces", spaces, "--json"]
    res = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return json.loads(res.stdout)


# Published scores for comparison: Dyer et al., Table 3 (en, TED) and section 5.3 (ja, gu). F1; WER in %.
PAPER = {
    "en": ("BiLSTMCharE2E, paper Table 3 (TED)", {"SPACE": 0.98, "CAPS": 0.65, ".": 0.56, ",": 0.43, "ALL": 0.90, "WER": 20.48}),
    "ja": ("BiLSTMCharE2E, paper 5.3 (JapaneseQA)", {"。": 0.54, "、": 0.31, "？": 0.52}),
    "gu": ("BiLSTMCharE2E, paper 5.3 (GujaratiNews)", {"SPACE": 0.97, ".": 0.83, ",": 0.50, "WER": 13.85}),
}


def fmt(f1) -> str:
    """F1 with 3 decimals; a feature that the mode does not score (SPACE under keep) shows as a dash."""
    return "–" if f1 is None else f"{f1:.3f}"


def row_name(engine: str, mode: str, pack) -> str:
    """A report row's name: the engine and the flags that reproduce it."""
    if engine == "pipeline" and mode == "char":
        return "charrestore pipeline (char-model spaces + token model), `--engine pipeline --spaces restore --segmenter char`"
    if engine == "pipeline":
        return f"charrestore pipeline (NB spaces + token model), `--engine pipeline --spaces {mode}`"
    if mode == "nb":
        return "charrestore char + NB spaces, `--spaces restore --segmenter nb`"
    return f"charrestore char, `--spaces {mode}`" + (" `--segmenter none`" if mode == "restore" and "nb" in pack.models else "")


def report(lang: str, name: str, pack, results: dict, command: str, engine: str = "char") -> str:
    """A markdown table of our scores per spaces mode, beside the paper's row."""
    cols = [*pack.features, "ALL", "WER"]
    lines = [f"### {lang} {name}", "", f"`{command}`", "",
             "| system | " + " | ".join(cols) + " | chars/s |", "|---" * (len(cols) + 2) + "|"]
    if lang in PAPER:
        label, row = PAPER[lang]
        lines.append(f"| {label} | " + " | ".join(f"{row[c]:.2f}" if c in row else "" for c in cols) + " | |")
    for mode, r in results.items():
        cells = [fmt(r["features"][c]["f1"]) for c in pack.features]
        cells += [f"{r['ALL']['f1']:.3f}", "–" if r["wer"] is None else f"{100 * r['wer']:.2f}"]
        lines.append(f"| {row_name(engine, mode, pack)} | " + " | ".join(cells) + f" | {r['chars_per_s']:,} |")
    signatures = sorted({r["signature"] for r in results.values()})
    return "\n".join(lines + ["", *(f"signature: `{s}`" for s in signatures), ""])


def applies(mode: str, engine: str, pack) -> bool:
    """Whether a mode runs: all but restore need a spaced language; nb is the char engine's with an NB model, char
    the pipeline's with a char model."""
    if mode != "restore" and not pack.has_space:
        return False
    if mode in ("nb", "char"):
        return engine == ("char" if mode == "nb" else "pipeline") and mode in pack.models
    return True


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--lang", required=True)
    p.add_argument("--dev", nargs="+", required=True)
    p.add_argument("--holdout", type=Holdout.parse, default=Holdout(), metavar="N[:R]",
                   help="dev = documents with numeric id %% N == R (default 0)")
    p.add_argument("--set", required=True, help="name of the dev set in reports and the card")
    p.add_argument("--engine", choices=("char", "pipeline"), default="char")
    p.add_argument("--name", help="model card to record in (default: the engine's model named by the pack)")
    p.add_argument("--modes", nargs="+", default=["restore", "keep", "nb"],
                   help="nb: char engine only; char: pipeline only (not run unless asked)")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--out", default="runs/eval")
    p.add_argument("--reports", default=str(Path(__file__).resolve().parent.parent / "reports"),
                   help="folder of the markdown report (default: reports/)")
    p.add_argument("--models-dir", help="models root (default: the shipped models/)")
    p.add_argument("--max-docs", type=int, help="only the first N dev documents (a quick check)")
    p.add_argument("--sentences", action="store_true",
                   help="restore every sentence of the dev documents as an input of its own")
    p.add_argument("--plain", action="store_true",
                   help="the dev text without its diacritics, as it is often typed (plain_letters.py)")
    p.add_argument("--plain-keeps", default="", metavar="LETTERS",
                   help="with --plain, these marked letters stay (a keyboard's own: es ñ)")
    p.add_argument("--card", action="store_true", help="record the numbers in the model card")
    p.add_argument("--decoding", nargs="+", default=[], metavar="KEY=VALUE",
                   help="decode with these card keys changed (char engine; e.g. nb_space=4 nb_join=6; bias:,=0.25 "
                        "one mark's bias): a trial, never recorded in the card")
    args = p.parse_args()
    trial = {k: float(v) for k, v in (item.split("=", 1) for item in args.decoding)}
    if trial and (args.card or args.engine != "char"):
        p.error("--decoding is a trial of the char engine's decoding: not with --card or --engine pipeline")

    pack = load_pack(args.lang)
    name = args.name or pack.models["char" if args.engine == "char" else "token"]
    refs = load_dev(args.dev, pack, args.holdout)[: args.max_docs]
    if args.sentences:
        refs = sentences(refs, pack)
    if args.plain:
        keep = args.plain_keeps + args.plain_keeps.upper()
        keeps = regex.compile(f"([{regex.escape(keep)}])") if keep else None
        refs = [plain(r) if keeps is None else "".join(plain(part) if k % 2 == 0 else part
                                                      for k, part in enumerate(keeps.split(r))) for r in refs]
    out = Path(args.out) / args.lang / args.set
    out.mkdir(parents=True, exist_ok=True)
    (out / "ref.txt").write_text("\n".join(refs) + "\n", encoding="utf-8")
    results = {}
    for mode in args.modes:
        if not applies(mode, args.engine, pack):
            continue
        segmenter = {"nb": "nb", "char": "char"}.get(mode, "nb" if args.engine == "pipeline" else "none")
        inputs = [strip_features(r, pack) if mode != "keep" else spaced_input(r, pack) for r in refs]
        (out / f"input_{mode}.txt").write_text("\n".join(inputs) + "\n", encoding="utf-8")
        restorer = Restorer(lang=args.lang, engine=args.engine, spaces="restore" if mode in ("nb", "char") else mode,
                            segmenter=segmenter, threads=args.threads, batch_size=64, models_dir=args.models_dir)
        if trial:
            marks = {k.split(":", 1)[1]: v for k, v in trial.items() if k.startswith("bias:")}
            keys = {k: v for k, v in trial.items() if not k.startswith("bias:")}
            if marks:
                keys["bias"] = {**restorer.engine.settings.bias, **marks}
            restorer.engine = restorer.engine.configured(**keys)
        t = time.perf_counter()
        hyps = [restorer(x) for x in inputs]
        seconds = time.perf_counter() - t
        (out / f"hyp_{mode}.txt").write_text("\n".join(hyps) + "\n", encoding="utf-8")
        scores = score(args.lang, out / "ref.txt", out / f"hyp_{mode}.txt", "restore" if mode in ("nb", "char") else mode)
        results[mode] = {k: v for k, v in scores.items() if k != "confusion"}
        results[mode]["documents"] = len(refs)
        results[mode]["chars_per_s"] = round(sum(map(len, inputs)) / seconds)
        print(f"{args.set} spaces={mode}: {json.dumps(results[mode])}", flush=True)
    command = "python " + " ".join(sys.argv)
    reports = Path(args.reports)
    reports.mkdir(parents=True, exist_ok=True)
    stem = args.set.replace("_", "-")  # report names never look like corpus files (those stay in ../shared)
    suffix = "" if args.engine == "char" else f"_{args.engine}"
    (reports / f"eval_char_{args.lang}_{stem}{suffix}.md").write_text(
        report(args.lang, args.set, pack, results, command, args.engine), encoding="utf-8")
    if args.card:
        key = args.set if args.engine == "char" else f"{args.set} char level"
        record_dev_metrics(card_path(args.lang, name, args.models_dir), key, {**results, "command": command},
                           args.lang)


if __name__ == "__main__":
    main()
