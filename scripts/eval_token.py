"""Evaluate the pipeline engine at token level (IWSLT convention) beside the paper and the char engine.

- iwslt dev2012 (``iwslt_dev2012_labels.tsv``): punctuation P/R/F per class and overall. Input as ASR gives
  it: lowercase words, clitics rejoined ("i 'm" -> "i'm", "do n't" -> "don't"), spaces kept. The file is
  one token stream without talk boundaries, so it is restored as one document (the windows merge it).
  The 166 "--" tokens are not words an ASR system outputs: they are dropped, and a mark they carried
  moves to the word before (if that word had none).
- iwslt dev2012 in the paper's sequences: the same words cut into inputs of whole sentences, at most 198
  subwords each (200 with the paper's <SOS> and <EOS>, section 4.2), each restored on its own, so every input
  starts and ends at a sentence boundary as in the paper's test; the setting its 71.0 was measured in.
- ted_dev (``ted_dev.tsv``, cleaned paragraphs, the talks behind iwslt dev2012): punctuation and casing
  per class and overall, for the pipeline and for the char engine, both with the words given
  (``--spaces keep``); the pipeline once more with the consistency rule off (its raw casing).
- iwslt dev2010 (``iwslt_dev2010_ref_cased.txt``, cased references, one segment per line, no talk
  boundaries): punctuation and casing, restored as one document from lowercase, mark-free words. Nothing is
  tuned or early-stopped on it, so it is the held-out check closest to the IWSLT2011 test set.
- ted_dev sentences: the same paragraphs cut after every sentence end, each sentence restored on its own
  (the short inputs users type: the first word starts and the last word ends a sentence).
- consistency: how often the raw casing head disagrees with "capital after PERIOD/QUESTION".
- latency of the 42-word Table-5 paragraph (median, 1 thread) and the int8 model size.

Every reported score comes from ``charrestore eval --level token`` (the command users run); ``--plot``
draws the confusion matrices. ``--tune`` (window / overlap / min_words_cut) and ``--bias`` (punctuation, then
casing logit offsets, then those of a document's last word on ted_dev sentences) first tune on ted_dev *talks*
(the offsets on Brown's dev documents too), as ``charrestore tune token --extra-dev`` does
(``charrestore.tuning.token``).
With ``--card`` the tuned values and the numbers go into the model card (through ``charrestore.tuning.record``).

    python scripts/eval_token.py --tune --bias --card
    python scripts/eval_token.py --models-dir /tmp/ckpt --no-char   # an intermediate export
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

from charrestore import Restorer, load_pack
from charrestore.bench import TABLE5, median_time
from charrestore.paths import models_dir
from charrestore.tuning.dev import iwslt_reference, load_dev, load_talks, sentences, sequences, spaced_input
from charrestore.tuning.record import card_path, record_dev_metrics, update_card
from charrestore.training.corpus import HELD_OUT
from charrestore.tuning.token import settings_of, tune_bias, tune_end_bias, tune_windows

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT.parent / "shared" / "corpora" / "en"
# Table 3 and Table 4 of Edge-Punct-Casing (CNN-BiLSTM, IWSLT2011 test): P, R, F per class.
PAPER_PUNCT = {"COMMA": (71.5, 54.0, 61.5), "PERIOD": (76.7, 82.6, 79.5), "QUESTION": (73.8, 70.5, 72.1),
               "overall": (74.4, 67.9, 71.0)}
PAPER_CASE = {"UPP": (98.9, 98.9, 98.9), "CAP": (85.4, 84.4, 84.9), "MIX": (80.0, 80.0, 80.0),
              "overall": (88.2, 87.3, 87.8)}
PAPER_SUBWORDS = 198  # a sequence's subwords in the paper: 200 tokens with <SOS> and <EOS>


def score(ref: Path, hyp: Path, spaces: str = "keep", plot: Path | None = None) -> dict:
    """``charrestore eval --level token --json`` (and ``--plot``) as a user runs it."""
    cmd = [sys.executable, "-m", "charrestore", "eval", "--lang", "en", "--ref", str(ref), "--hyp", str(hyp),
           "--level", "token", "--spaces", spaces, "--json"] + (["--plot", str(plot)] if plot else [])
    return json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)


OFFSETS_DEV = {"bias, case_bias": "ted_dev.tsv talks and brown_train_docs.tsv's dev documents (corpus.HELD_OUT: "
                                   "CRC-32 of the id % 5 == 0), words given",
               "end_bias": "ted_dev.tsv cut into sentences, each restored on its own"}


def restore_all(restorer, inputs: list[str]) -> tuple[list[str], float]:
    t = time.perf_counter()
    hyps = [restorer(x) for x in inputs]
    return hyps, time.perf_counter() - t


def run(restorer, name: str, refs: list[str], inputs: list[str], out: Path, plot: Path | None = None) -> dict:
    """Restore, write ref/input/hyp files, score them with the CLI; adds words/s."""
    (out / "ref.txt").write_text("\n".join(refs) + "\n", encoding="utf-8")
    (out / "input.txt").write_text("\n".join(inputs) + "\n", encoding="utf-8")
    hyps, seconds = restore_all(restorer, inputs)
    (out / f"hyp_{name}.txt").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    res = score(out / "ref.txt", out / f"hyp_{name}.txt", plot=plot)
    res["words_per_s"] = round(sum(len(x.split()) for x in inputs) / seconds)
    print(f"{out.name} {name}: punct overall F1 {res['punctuation']['overall']['f1']:.4f}, casing overall F1 "
          f"{res['casing']['overall']['f1']:.4f}, {res['words_per_s']:,} words/s", flush=True)
    return res


def latency(restorer, runs: int) -> float:
    """Median ms of one call on the Table-5 paragraph (after a warm-up)."""
    for _ in range(5):
        restorer(TABLE5)
    return 1000 * median_time(lambda: restorer(TABLE5), runs)


def prf(block: dict, cls: str) -> tuple:
    """(P, R, F) in percent of a class (or "overall") of an ``eval --json`` block."""
    d = block["overall"] if cls == "overall" else block["classes"][cls]
    return tuple(None if d[k] is None else 100 * d[k] for k in ("precision", "recall", "f1"))


def table(title: str, classes: list[str], rows: list[tuple[str, dict]]) -> list[str]:
    lines = [f"### {title}", "", "| system | " + " | ".join(f"{c} P / R / F1" for c in classes) + " |",
             "|---|" + "---|" * len(classes)]
    for name, vals in rows:
        cells = [" / ".join("n/a" if v is None else f"{v:.1f}" for v in vals[c]) for c in classes]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return lines + [""]


def describe_training(card: dict) -> str:
    """Hyper-parameters and training cost of a card's model, or of each member of an ensemble."""
    tr = card["training"]
    members = tr.get("members") or [{**tr, "hyper": card["hyper"]}]
    parts = [f"hyper-parameters `{json.dumps(m['hyper'])}`, trained {m['epochs']} epochs, {m['cpu_hours']} CPU h, "
             f"{m['words_seen']:,} words seen (best dev loss {m['best_val_loss']:.4f})" for m in members]
    if len(parts) == 1:
        return parts[0]
    return (f"an ensemble ({card['ensemble']}) of {len(parts)} members, {tr['cpu_hours']} CPU h in all: "
            + "; ".join(f"({i + 1}) {p}" for i, p in enumerate(parts)))


def consistency_line(stats: dict, docs: int, what: str) -> str:
    after = stats.get("sentence_starts", 0) - docs
    lower = stats.get("lower_after_end", 0)
    return (f"- {what}: {stats.get('words', 0):,} words, {after:,} words after a predicted PERIOD/QUESTION; the raw "
            f"casing head said O for {lower:,} of them ({100 * lower / max(after, 1):.2f}%), which the decoder "
            f"capitalizes. {stats.get('cap_not_after_end', 0):,} CAP words did not follow a sentence end "
            f"(names, 'I', titles: the rule leaves them).")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--models-dir", help="models root holding en/token.* (default: the shipped models/)")
    p.add_argument("--tune", action="store_true", help="tune window / overlap / min_words_cut on ted_dev talks")
    p.add_argument("--windows", type=int, nargs="+", default=[64, 96, 128])
    p.add_argument("--overlaps", type=int, nargs="+", default=[16, 32])
    p.add_argument("--cuts", type=int, nargs="+", default=[0, 4, 8, 12, 16])
    p.add_argument("--tolerance", type=float, default=0.001,
                   help="with --tune: the cheapest window/overlap within this much punct + casing F1 of the best")
    p.add_argument("--bias", action="store_true", help="tune punctuation, then casing logit offsets on ted_dev "
                   "talks and Brown's dev documents (after the windows), then the last word's on ted_dev's "
                   "sentences; else the card's are used")
    p.add_argument("--no-char", action="store_true", help="skip the char engine rows")
    p.add_argument("--latency-runs", type=int, default=200)
    p.add_argument("--out", default="runs/eval/en/token")
    p.add_argument("--report", default=str(ROOT / "reports" / "eval_token_en.md"))
    p.add_argument("--card", action="store_true", help="record the tuned windows and the numbers in the card")
    p.add_argument("--max-docs", type=int, help="only the first N documents of each dev set (a quick check)")
    args = p.parse_args()

    pack = load_pack("en")
    out = Path(args.out)
    for d in ("iwslt", "iwslt_sequences", "iwslt2010", "ted_dev", "ted_sentences"):
        (out / d).mkdir(parents=True, exist_ok=True)
    report = Path(args.report)
    report.parent.mkdir(parents=True, exist_ok=True)
    models = Path(args.models_dir) if args.models_dir else models_dir()
    engine = Restorer(lang="en", engine="pipeline", spaces="keep", threads=args.threads, batch_size=64,
                      models_dir=args.models_dir).engine
    card = engine.card
    onnx_path = models / "en" / card["file"]

    talks = load_talks([CORPORA / "ted_dev.tsv"], pack)[: args.max_docs]
    best, grid, bias_rows = None, [], []
    if args.tune:
        engine, best, grid = tune_windows(engine, talks, args.windows, args.overlaps, args.cuts, args.tolerance)
    if args.bias:  # talks and written text: offsets tuned on talks alone put too many periods into Brown
        written = load_talks([CORPORA / "brown_train_docs.tsv"], pack, HELD_OUT["brown_train_docs"])
        engine, bias_rows = tune_bias(engine, talks + written[: args.max_docs])
        engine, end_rows = tune_end_bias(engine, load_dev([CORPORA / "ted_dev.tsv"], pack)[: args.max_docs])
        bias_rows += end_rows
    bias, case_bias, end_bias = (dict(engine.settings.bias), dict(engine.settings.case_bias),
                                 dict(engine.settings.end_bias))
    model, pipeline = engine.model, partial(engine.restore_one, spaces="keep")

    iwslt_ref = [iwslt_reference(CORPORA / "iwslt_dev2012_labels.tsv")]
    iwslt_in = [spaced_input(r, pack) for r in iwslt_ref]
    subwords = lambda text: sum(map(len, model.sp.encode(spaced_input(text, pack).split())))  # noqa: E731
    seq_ref = sequences(iwslt_ref, pack, subwords, PAPER_SUBWORDS)
    seq_in = [spaced_input(r, pack) for r in seq_ref]
    dev2010_ref = [" ".join(load_dev([CORPORA / "iwslt_dev2010_ref_cased.txt"], pack))]
    dev2010_in = [spaced_input(r, pack) for r in dev2010_ref]
    ted_ref = load_dev([CORPORA / "ted_dev.tsv"], pack)[: args.max_docs]
    ted_in = [spaced_input(r, pack) for r in ted_ref]
    sent_ref = sentences(ted_ref, pack)
    sent_in = [spaced_input(r, pack) for r in sent_ref]
    plot = report.with_name("eval_token_en_confusion.png")

    results: dict[str, dict] = {"iwslt_dev2012": {}, "iwslt_dev2012_sequences": {}, "iwslt_dev2010": {}, "ted_dev": {},
                                "ted_dev_sentences": {}}
    stats = {}
    model.stats.clear()
    results["iwslt_dev2012"]["pipeline"] = run(pipeline, "pipeline", iwslt_ref, iwslt_in, out / "iwslt")
    stats["iwslt_dev2012"] = dict(model.stats)
    results["iwslt_dev2012_sequences"]["pipeline"] = run(pipeline, "pipeline", seq_ref, seq_in, out / "iwslt_sequences")
    results["iwslt_dev2010"]["pipeline"] = run(pipeline, "pipeline", dev2010_ref, dev2010_in, out / "iwslt2010")
    model.stats.clear()
    results["ted_dev"]["pipeline"] = run(pipeline, "pipeline", ted_ref, ted_in, out / "ted_dev", plot)
    stats["ted_dev"] = dict(model.stats)
    results["ted_dev_sentences"]["pipeline"] = run(pipeline, "pipeline", sent_ref, sent_in, out / "ted_sentences")
    raw = partial(engine.configured(consistency=False).restore_one, spaces="keep")
    results["ted_dev"]["pipeline_raw"] = run(raw, "pipeline_raw", ted_ref, ted_in, out / "ted_dev")
    ms = {"pipeline": latency(pipeline, args.latency_runs)}
    if not args.no_char:
        char = Restorer(lang="en", engine="char", spaces="keep", threads=args.threads, batch_size=64)
        results["iwslt_dev2012"]["char"] = run(char, "char", iwslt_ref, iwslt_in, out / "iwslt")
        results["iwslt_dev2010"]["char"] = run(char, "char", dev2010_ref, dev2010_in, out / "iwslt2010")
        results["ted_dev"]["char"] = run(char, "char", ted_ref, ted_in, out / "ted_dev")
        results["ted_dev_sentences"]["char"] = run(char, "char", sent_ref, sent_in, out / "ted_sentences")
        ms["char"] = latency(char, args.latency_runs)
        char_card = char.engine.card
    size_mb = onnx_path.stat().st_size / 1e6

    script = Path(sys.argv[0]).resolve()
    command = "python " + " ".join([str(script.relative_to(ROOT)) if script.is_relative_to(ROOT) else sys.argv[0]]
                                   + sys.argv[1:])
    names = {"pipeline": "pipeline (token CNN-BiLSTM)", "pipeline_raw": "pipeline, raw casing (no consistency rule)",
             "char": "char E2E BiLSTM"}
    punct_rows = [("CNN-BiLSTM (paper), IWSLT2011 test", PAPER_PUNCT)]
    case_rows = [("CNN-BiLSTM (paper), IWSLT2011 test", PAPER_CASE)]
    for s, engines in results.items():
        for e, v in engines.items():
            label = f"{names[e]}, {s}, `--spaces keep`"
            if e != "pipeline_raw":
                punct_rows.append((label, {c: prf(v["punctuation"], c) for c in PAPER_PUNCT}))
            if not s.startswith("iwslt_dev2012"):  # the iwslt labels carry no case
                case_rows.append((label, {c: prf(v["casing"], c) for c in PAPER_CASE}))
    lines = [
        "# Token-level evaluation of the pipeline engine (en)", "",
        f"Command: `{command}`", "",
        f"Token model: `{onnx_path.name}` ({size_mb:.2f} MB, {card['quantization']}), {card['parameters']:,} "
        f"parameters; {describe_training(card)}. "
        f"Run-time windows: {model.settings.window} words, overlap {model.settings.overlap}, "
        f"min_words_cut {model.settings.cut}.",
        "",
    ]
    if not args.no_char:
        lines += [f"Char model: `models/en/{char_card['file']}` as it was at this run "
                  f"(sha256 {char_card['sha256'][:12]}…).", ""]
    lines += [
        f"Signature: `{results['ted_dev']['pipeline']['signature']}`.", "",
        "The paper's rows are on the IWSLT2011 **test** set, which we do not have; ours are on dev sets. "
        "iwslt dev2012 has punctuation labels only, so casing is scored on ted_dev (the same talks, cleaned "
        "paragraphs, words given) and on iwslt dev2010 (cased references, used for nothing else). ted_dev is "
        "also the validation set of the training run (best epoch, learning-rate schedule), so it is not fully unseen. The paper counts single-letter words such as "
        "'I' as UPP; our metric counts them as CAP, so our UPP holds acronyms only (harder) and our CAP holds "
        "every 'I' (easier).", "",
    ]
    lines += table("Punctuation (beside Table 3)", list(PAPER_PUNCT), punct_rows)
    lines += table("Casing (beside Table 4)", list(PAPER_CASE), case_rows)
    lines += ["### Consistency rule (capital after PERIOD/QUESTION)", "",
              consistency_line(stats["iwslt_dev2012"], 1, "iwslt dev2012"),
              consistency_line(stats["ted_dev"], len(ted_ref), "ted_dev"),
              f"- Casing overall F1 on ted_dev: raw {100 * results['ted_dev']['pipeline_raw']['casing']['overall']['f1']:.2f}"
              f" -> with the rule {100 * results['ted_dev']['pipeline']['casing']['overall']['f1']:.2f}.", ""]
    lines += ["### Speed and size (this machine, 1 ORT thread; `scripts/bench.py` is the full benchmark)", "",
              "| engine | Table-5 paragraph (42 words), median ms | words/s on ted_dev paragraphs | model MB |",
              "|---|---|---|---|",
              f"| pipeline | {ms['pipeline']:.2f} | {results['ted_dev']['pipeline']['words_per_s']:,} | {size_mb:.2f} |"]
    if not args.no_char:
        char_mb = (models_dir() / "en" / char_card["file"]).stat().st_size / 1e6
        lines.append(f"| char | {ms['char']:.2f} | {results['ted_dev']['char']['words_per_s']:,} | {char_mb:.2f} |")
    lines += ["", f"Latency call: `Restorer(lang=\"en\", engine=\"pipeline\", threads=1)(TABLE5)`, median of "
              f"{args.latency_runs} calls after 5 warm-ups.", ""]
    if grid:
        lines += ["### Window tuning on ted_dev talks (punctuation / casing overall F1)", "",
                  "| window | overlap | min_words_cut | punct F1 | casing F1 |", "|---|---|---|---|---|"]
        lines += [f"| {r['window']} | {r['overlap']} | {r['cut']} | {100 * r['punct_f1']:.2f} | "
                  f"{100 * r['casing_f1']:.2f} |" for r in grid]
        lines += ["", f"Chosen: window {best['window']}, overlap {best['overlap']}, cut {best['cut']} (the cheapest "
                  f"within {args.tolerance} punct + casing F1 of the best).", ""]
    if bias_rows:
        lines += ["### Logit offsets (coordinate ascent on ted_dev talks and Brown's dev documents: punctuation "
                  "offsets on punctuation overall F1, then casing offsets on casing overall F1 with the rule and the "
                  "names list; then, on ted_dev cut into "
                  "sentences, each restored on its own, offsets for a document's last word on the F1 of those "
                  "last words' marks)", "", "| round | offsets | F1 |", "|---|---|---|"]
        kind = {"punct_f1": "punct", "casing_f1": "casing", "end_f1": "last word"}
        lines += [f"| {i} | {', '.join(f'{k} {v:+.2f}' for k, v in r['bias'].items() if k != 'O')} | "
                  + next(f"{kind[k]} {100 * r[k]:.2f} |" for k in kind if k in r) for i, r in enumerate(bias_rows)]
        lines += [""]
    lines += [f"Punctuation logit offsets in use: {json.dumps(bias) if bias else 'none'}; "
              f"casing: {json.dumps(case_bias) if case_bias else 'none'}; a document's last word: "
              f"{json.dumps(end_bias) if end_bias else 'none'}.", "",
              f"Confusion matrices (ted_dev, pipeline): `{plot.name}`.", ""]
    report.write_text("\n".join(lines), encoding="utf-8")
    slim = {s: {e: {k: v[k] for k in ("punctuation", "casing", "words", "words_per_s", "signature")}
                for e, v in r.items()} for s, r in results.items()}
    report.with_suffix(".json").write_text(json.dumps(
        {"results": slim, "tuning": grid, "chosen": best, "bias": bias, "case_bias": case_bias, "end_bias": end_bias,
         "bias_tuning": bias_rows,
         "consistency": stats, "latency_ms": ms, "size_mb": size_mb, "command": command}, indent=1) + "\n")
    print("\n".join(lines))
    if args.card:
        path = card_path("en", pack.models["token"], models)
        if args.tune or args.bias:
            update_card(path, {**settings_of(engine), "tuning_command": command,
                               **({"offsets_dev": OFFSETS_DEV} if args.bias else {})})
        heads = {"iwslt_dev2012": ("punctuation",), "iwslt_dev2012_sequences": ("punctuation",), "iwslt_dev2010": ("punctuation", "casing"),
                 "ted_dev": ("punctuation", "casing"), "ted_dev_sentences": ("punctuation", "casing")}
        metrics = {**{s: {e: {k: v[k]["overall"] for k in heads[s]} for e, v in r.items()} for s, r in results.items()},
                   "latency_ms_table5_1thread": round(ms["pipeline"], 3), "consistency": stats, "command": command}
        for key, value in metrics.items():  # other keys (eval_char's "ted_dev char level") stay
            record_dev_metrics(path, key, value)


if __name__ == "__main__":
    main()
