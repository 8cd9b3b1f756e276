"""Pauses as punctuation evidence (#18): per-pause-bucket logit offsets for the token model, measured on AMI.

The AMI meeting corpus (``ami_meetings_timed.tsv``: one word per line with its times and its manual
punctuation) is cut into speaker turns (runs of one speaker's consecutive lines in a meeting); each turn is one
document, given to the shipped English token model as lower-case, mark-free, spaced words, as an ASR system
with one speaker per file gives them (``--docs meeting``: a whole meeting is one document, speakers mixed, as
an ASR file of the meeting without speaker turns). The pause after a word is measured to the next word of its
document in one of three ways (``pause_values``: gap, inter-onset interval, or that beyond 70 ms per letter);
the last word of a document has none (the document end ends a sentence by the pipeline's rule).

Meetings are split by series (the meeting id without its last character, so that no speaker group is in two
parts; IB/IN ids have no letter, so their series are coarser): crc32(series) % 10 in 0-5 fits the offsets,
6-7 chooses the pause measure and the bucket edges, 8-9 is held out (never tuned on). For each measure and
candidate set of bucket edges, one additive punctuation offset per (bucket, COMMA/PERIOD/QUESTION) is fitted on
the fit meetings by coordinate ascent on overall punctuation F1, on top of the card's offsets; the measure and
edges with the best tune F1 are the chosen ones. A control fits one offset per class with no bucket at all
(AMI calibration without timing), the same way: timing helps only where the buckets beat it. A paired
bootstrap over the held-out series gives the interval of each difference.

Scores: ``charrestore.evaluation.evaluate_token`` (the metric of ``charrestore eval --level token``: punctuation
P/R/F per class and the micro "overall" over the non-O classes) of the restored turns against the AMI text.
The token model's logits of every document are cached (``--cache``, checked against the model's sha256 and the
word count), so that refits cost no model call. Results go to /tmp/ami_pause_en[_meeting].{json,md}.

    OMP_NUM_THREADS=1 nice -n 5 python scripts/ami_pause.py                  # ~3 min for the logits, ~10 min in all
    OMP_NUM_THREADS=1 nice -n 5 python scripts/ami_pause.py --docs meeting
    OMP_NUM_THREADS=1 nice -n 5 python scripts/ami_pause.py --card           # also write models/en/token.json pause_bias
"""

from __future__ import annotations

import argparse
import json
import time
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from charrestore import Restorer
from charrestore.engines.token import pause_values
from charrestore.evaluation import evaluate_token
from charrestore.labels import labelled_words, punct_label
from charrestore.tuning.dev import spaced_input

from ami_pause_stats import bootstrap, counts, f1, per_class_counts, prf  # a sibling in scripts/

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpora" / "en" / "ami_meetings_timed.tsv"
# Candidate bucket edges (seconds) per pause measure; the tune meetings choose one measure and one edge set.
EDGE_SETS = {
    "gap": ([0.25], [0.1, 0.3, 0.6, 1.0], [0.05, 0.15, 0.3, 0.6, 1.0, 2.0]),
    "ioi": ([0.5, 1.0, 2.0], [0.3, 0.5, 0.8, 1.2, 1.8, 2.8], [0.25, 0.4, 0.6, 0.8, 1.0, 1.3, 1.7, 2.2, 3.0]),
    "excess": ([0.2, 0.5, 1.0, 2.0], [0.1, 0.3, 0.5, 0.8, 1.2, 1.8, 2.6],
               [0.0, 0.15, 0.3, 0.5, 0.7, 1.0, 1.4, 2.0, 3.0]),
}
# The form that ships: no offset below the first edge (a word followed closely by the next keeps the text's
# marks), and PERIOD and QUESTION share each bucket's offset (a pause says that a sentence ends, not its kind).
LONG_EDGE_SETS = {
    "gap": ([0.3, 0.6, 1.0, 2.0], [0.6, 1.0, 2.0]),
    "ioi": ([0.6, 0.8, 1.2, 1.8, 2.8], [0.8, 1.2, 1.8, 2.8], [1.2, 1.8, 2.8]),
    "excess": ([0.3, 0.5, 0.8, 1.2, 2.0], [0.5, 0.8, 1.2, 2.0], [0.8, 1.2, 2.0]),
}
STEPS = np.round(np.arange(-4.0, 4.01, 0.25), 2)
PARTS = ("fit", "tune", "test")


@dataclass
class Turn:
    meeting: str
    words: list[str]  # as in AMI, with their marks
    starts: np.ndarray  # seconds
    ends: np.ndarray


def turn_pauses(t: Turn, measure: str) -> np.ndarray:
    """The pause after each word of a document, measured as the runtime measures it (``pause_values``: ``gap``,
    the next word's start minus this one's end; ``ioi``, minus this one's start: the word and the silence after
    it, which AMI, like many aligners, puts inside the word; ``excess``: ``ioi`` beyond 70 ms a letter)."""
    return pause_values(t.words, np.stack([t.starts, t.ends], 1), measure)


def part_of(meeting: str) -> str:
    """fit / tune / test by the meeting's series (ES2002a-d share their speakers)."""
    h = zlib.crc32(meeting[:-1].encode()) % 10
    return "fit" if h < 6 else "tune" if h < 8 else "test"


def load_turns(path: Path, docs: str = "turn") -> list[Turn]:
    """Documents of the timed corpus: speaker turns (``turn``), or whole meetings (``meeting``: every word in
    file order, the gap to the next word whoever speaks it, as an ASR file of the meeting without speakers
    gives them; a negative gap, where speakers overlap, falls in the first bucket)."""
    turns, key, words, times = [], None, [], []

    def flush():
        if words:
            turns.append(Turn(key[0], list(words), np.array([t[0] for t in times]), np.array([t[1] for t in times])))
        words.clear()
        times.clear()

    for line in path.read_text(encoding="utf-8").splitlines():
        meeting, speaker, start, end, word = line.split("\t")
        if (meeting, speaker if docs == "turn" else "") != key:
            flush()
            key = (meeting, speaker if docs == "turn" else "")
        words.append(word)
        times.append((float(start), float(end)))
    flush()
    return turns


def bucket_ids(gaps: np.ndarray, edges) -> np.ndarray:
    """Bucket of each gap (0 .. len(edges)); -1 for no gap (a turn's last word): no offset there."""
    ids = np.searchsorted(np.asarray(edges), np.nan_to_num(gaps, nan=0.0), side="right")
    return np.where(np.isnan(gaps), -1, ids)


class Cache:
    """Per turn: the model's merged punctuation and casing logits and the gold punctuation ids (model order)."""

    def __init__(self, restorer: Restorer, turns: list[Turn], path: Path):
        model, pack = restorer.engine.model, restorer.pack
        labels = list(model.punct_labels)
        to_id = np.array([labels.index(punct_label(c, pack)) for c in range(pack.n_classes)], np.int64)
        self.inputs = [[spaced_input(w, pack) for w in t.words] for t in turns]
        self.gold = [labelled_words(" ".join(t.words), pack, True, to_id)[1] for t in turns]
        assert all(len(g) == len(t.words) for g, t in zip(self.gold, turns)), "a word that is not one word"
        key = f"{model.card['sha256']} {sum(len(w) for w in self.inputs)} {len(self.inputs)}"
        data = np.load(path) if path.is_file() else None
        if data is not None and "key" in data.files and str(data["key"]) == key:  # the same model and the same turns
            p, c, offsets = data["p"], data["c"], data["offsets"]
        else:
            t0, out = time.time(), [model.logits(words) for words in self.inputs]
            offsets = np.cumsum([0] + [len(w) for w in self.inputs])
            p, c = np.concatenate([o[0] for o in out]), np.concatenate([o[1] for o in out])
            np.savez(path, p=p, c=c, offsets=offsets, key=key)
            print(f"logits of {offsets[-1]} words in {time.time() - t0:.0f} s", flush=True)
        self.p = [p[a:b] for a, b in zip(offsets[:-1], offsets[1:])]
        self.c = [c[a:b] for a, b in zip(offsets[:-1], offsets[1:])]


def decode(model, cache: Cache, idx: list[int], pauses, edges, table) -> list[np.ndarray]:
    """Punctuation ids of turns ``idx`` as the pipeline decodes them, with ``table[bucket]`` (the pause
    offsets) added to the card's offsets of every word that has a gap."""
    out = []
    for i in idx:
        bias = np.repeat(model.bias_punct[None, :], len(cache.p[i]), 0)
        if table is not None:
            b = bucket_ids(pauses[i], edges)
            bias[b >= 0] += table[b[b >= 0]]
        out.append(model.decode(cache.p[i], cache.c[i], bias_punct=bias)[0])
    return out


def fit(model, cache: Cache, idx: list[int], pauses, edges, base=None, first_free: int = 0,
        tie_ends: bool = False) -> np.ndarray:
    """Offsets [buckets, labels] (O stays 0) by coordinate ascent on overall F1 of the fit turns. A last word's
    label takes no offset, so its counts are fixed; every other word is an argmax of its bucket's logits.

    ``base`` (per label): offsets every word with a pause takes first (the control's), the buckets' on top.
    ``first_free``: buckets below it keep no offset of their own (short pauses say nothing).
    ``tie_ends``: PERIOD and QUESTION move together (a pause says that a sentence ends, not which kind)."""
    n_b = (len(edges) + 1) if edges is not None else 1
    labels = list(model.punct_labels)
    base = np.zeros(len(labels), np.float32) if base is None else np.asarray(base, np.float32)
    groups = ([[labels.index("COMMA")], [labels.index("PERIOD"), labels.index("QUESTION")]] if tie_ends
              else [[j] for j in range(1, len(labels))])
    table = np.zeros((n_b, len(labels)), np.float32)
    fixed = np.zeros(3, np.int64)
    logits, golds = [[] for _ in range(n_b)], [[] for _ in range(n_b)]
    for i, pred in zip(idx, decode(model, cache, idx, pauses, edges, None)):
        fixed += counts(pred[-1:], cache.gold[i][-1:])
        b = bucket_ids(pauses[i], edges) if edges is not None else np.where(np.isnan(pauses[i]), -1, 0)
        for k in range(n_b):
            logits[k].append(cache.p[i][b == k] + model.bias_punct + base)
            golds[k].append(cache.gold[i][b == k])
    logits = [np.concatenate(x) for x in logits]
    golds = [np.concatenate(x) for x in golds]
    per = [counts(logits[k].argmax(-1), golds[k]) for k in range(n_b)]
    best = f1(fixed + sum(per))
    for _ in range(6):
        improved = False
        for k in range(first_free, n_b):
            for group in groups:
                for step in STEPS:
                    trial = table[k].copy()
                    trial[group] = step
                    c = counts((logits[k] + trial).argmax(-1), golds[k])
                    score = f1(fixed + sum(per) - per[k] + c)
                    if score > best + 1e-9:
                        best, table[k], per[k], improved = score, trial, c, True
        if not improved:
            break
    return table + base


def score(restorer: Restorer, turns, idx, preds) -> dict:
    """evaluate_token of the restored turns (words with the decoded marks) against the AMI text."""
    marks = {lab: m or "" for lab, m in zip(restorer.engine.model.punct_labels, restorer.engine.model.marks)}
    labels = restorer.engine.model.punct_labels
    refs = [" ".join(turns[i].words) for i in idx]
    hyps = [" ".join(w + marks[labels[p]] for w, p in zip(restorer_inputs[i], pred)) for i, pred in zip(idx, preds)]
    r = evaluate_token(refs, hyps, restorer.pack, spaces="keep")
    out = {k: r.punct[k].to_dict() for k in labels if k != "O"}
    out["overall"] = r.punct_overall.to_dict()
    out["words"] = r.aligned_words
    return out


restorer_inputs: list[list[str]] = []


def meeting_counts(cache: Cache, turns, idx, preds, n_labels: int) -> dict[str, np.ndarray]:
    """Per meeting, per label (tp, fp, fn): what the bootstrap resamples."""
    out: dict[str, np.ndarray] = {}
    for i, pred in zip(idx, preds):
        m = turns[i].meeting
        out[m] = out.get(m, 0) + per_class_counts(pred, cache.gold[i], n_labels)
    return out


def pause_stats(pauses, idx, cache: Cache, labels, measure: str) -> list[dict]:
    """How often each gold label follows a word, by pause (the evidence the offsets can use)."""
    vals = np.concatenate([pauses[i] for i in idx])
    gold = np.concatenate([cache.gold[i] for i in idx])
    edges = max(EDGE_SETS[measure], key=len)
    b = bucket_ids(vals, edges)
    rows = []
    for k in range(-1, len(edges) + 1):
        sel = b == k
        name = "document end" if k < 0 else f"[{'-inf' if k == 0 else edges[k - 1]}, {'inf' if k == len(edges) else edges[k]})"
        rows.append({measure: name, "words": int(sel.sum()),
                     **{lab: round(float((gold[sel] == j).mean()), 4) if sel.any() else 0.0
                        for j, lab in enumerate(labels)}})
    return rows


def card_field(measure: str, edges, table, labels) -> dict:
    """The model card's ``pause_bias``: the pause measure, bucket edges (seconds) and one offset per bucket and
    label (added to ``bias`` for each word with a pause after it)."""
    return {"measure": measure, "edges": [float(e) for e in edges],
            **{lab: [round(float(x), 2) for x in table[:, j]] for j, lab in enumerate(labels) if lab != "O"},
            "fitted_on": "AMI Meeting Corpus (CC BY 4.0), ami_meetings_timed.tsv: speaker turns of the meetings "
                         "with crc32(series) % 10 < 6; measure and edges chosen on % 10 in 6-7; no offset below "
                         "the first edge, PERIOD and QUESTION tied (docs/timing.md)",
            "command": "OMP_NUM_THREADS=1 nice -n 5 python scripts/ami_pause.py --card"}


def markdown(results: dict) -> str:
    labels = ["COMMA", "PERIOD", "QUESTION"]
    rows = ["| run | part | overall P | overall R | overall F1 | " + " | ".join(f"{lab} F1" for lab in labels) + " |",
            "|---|---|---|---|---|" + "---|" * len(labels)]
    for name, r in results["runs"].items():
        for p in PARTS:
            s = r[p]
            mark = " (chosen on tune)" if name in (results["chosen"], results["chosen_free"]) else ""
            rows.append(f"| {name}{mark} | {p} | "
                        f"{s['overall']['precision']:.4f} | {s['overall']['recall']:.4f} | {s['overall']['f1']:.4f} | "
                        + " | ".join(f"{s[lab]['f1']:.4f}" for lab in labels) + " |")
    info = "\n".join(f"- {p}: {v['meetings']} meetings, {v['turns']} documents, {v['words']} words"
                     for p, v in results["parts"].items())
    b = "\n".join(f"- {k}: {v}" for k, v in results["bootstrap"].items())
    return (f"# AMI pauses as punctuation evidence ({results['docs']} documents)\n\n{info}\n\n" + "\n".join(rows)
            + f"\n\nPaired bootstrap over test series:\n{b}\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--docs", choices=("turn", "meeting"), default="turn",
                    help="one document per speaker turn (default) or per meeting")
    ap.add_argument("--cache", type=Path, default=None, help="default: /tmp/ami_pause_logits_<docs>.npz")
    ap.add_argument("--json", type=Path, default=None, help="default: /tmp/ami_pause_en[_meeting].json")
    ap.add_argument("--md", type=Path, default=None, help="default: /tmp/ami_pause_en[_meeting].md")
    ap.add_argument("--card", action="store_true",
                    help="write the chosen pause offsets into models/en/token.json (field pause_bias)")
    args = ap.parse_args()
    suffix = "" if args.docs == "turn" else "_meeting"
    args.cache = args.cache or Path(f"/tmp/ami_pause_logits_{args.docs}.npz")
    args.json = args.json or Path(f"/tmp/ami_pause_en{suffix}.json")
    args.md = args.md or Path(f"/tmp/ami_pause_en{suffix}.md")

    restorer = Restorer(lang="en", threads=1)
    model = restorer.engine.model
    labels = list(model.punct_labels)
    turns = load_turns(args.corpus, args.docs)
    cache = Cache(restorer, turns, args.cache)
    restorer_inputs[:] = cache.inputs
    parts = {p: [i for i, t in enumerate(turns) if part_of(t.meeting) == p] for p in PARTS}
    parts_info = {p: {"meetings": len({turns[i].meeting for i in idx}), "turns": len(idx),
                      "words": sum(len(turns[i].words) for i in idx)} for p, idx in parts.items()}
    for p, v in parts_info.items():
        print(p, v, flush=True)
    series = {p: {turns[i].meeting[:-1] for i in idx} for p, idx in parts.items()}
    assert not (series["fit"] & series["tune"] or series["fit"] & series["test"] or series["tune"] & series["test"])
    pauses = {m: [turn_pauses(t, m) for t in turns] for m in EDGE_SETS}
    no_pause = pauses["gap"]  # only where the nan (document end) falls matters for the control

    t0 = time.time()
    control = fit(model, cache, parts["fit"], no_pause, None)
    runs = {"shipped": (None, None, None), "control": (None, [np.inf], control)}
    for measure, edge_sets in EDGE_SETS.items():  # free offsets for every bucket: what the pauses can tell
        for edges in edge_sets:
            runs[f"free {measure} {edges}"] = (measure, edges, fit(model, cache, parts["fit"], pauses[measure], edges))
    for measure, edge_sets in LONG_EDGE_SETS.items():  # the form that ships: long pauses only, ends tied
        for edges in edge_sets:
            runs[f"long {measure} {edges}"] = (measure, edges, fit(model, cache, parts["fit"], pauses[measure], edges,
                                                                  first_free=1, tie_ends=True))
    if model.pause_measure is not None:  # the offsets the card ships, as the runtime reads them
        runs["card pause_bias"] = (model.pause_measure, model.pause_edges.tolist(), model.pause_table)
    print(f"fitted in {time.time() - t0:.0f} s", flush=True)
    results = {"docs": args.docs, "parts": parts_info,
               "pauses_fit": {m: pause_stats(pauses[m], parts["fit"], cache, labels, m) for m in EDGE_SETS},
               "runs": {}}
    mcounts = {}

    def evaluate(name, measure, edges, table):
        vals = pauses[measure] if measure else no_pause
        results["runs"][name] = {"measure": measure, "edges": edges if measure else None,
                                 "offsets": None if table is None else
                                 {lab: table[:, j].round(2).tolist() for j, lab in enumerate(labels) if lab != "O"}}
        for p in PARTS:
            preds = decode(model, cache, parts[p], vals, edges, table)
            mc = meeting_counts(cache, turns, parts[p], preds, len(labels))
            results["runs"][name][p] = prf(sum(mc.values()), labels)
            if p == "test":  # the held-out scores are charrestore's own metric (the counts above agree with it)
                mcounts[name] = mc
                official = score(restorer, turns, parts[p], preds)
                for k in (*labels[1:], "overall"):
                    assert abs(official[k]["f1"] - results["runs"][name][p][k]["f1"]) < 1e-9, (name, k)
                results["runs"][name][p] = official
        print(name, {p: round(results["runs"][name][p]["overall"]["f1"], 4) for p in PARTS}, flush=True)

    for name, run in list(runs.items()):
        evaluate(name, *run)

    def best(prefix):
        return max((n for n in results["runs"] if n.startswith(prefix)),
                   key=lambda n: results["runs"][n]["tune"]["overall"]["f1"])

    free, chosen = best("free "), best("long ")
    # The chosen long-pause form on top of the control's calibration: what the pauses add beyond it.
    measure, edges, _ = runs[chosen]
    name = f"control + {chosen}"
    runs[name] = (measure, edges, fit(model, cache, parts["fit"], pauses[measure], edges, base=control[0],
                                      first_free=1, tie_ends=True))
    evaluate(name, *runs[name])
    boot = {f"{free} - control": bootstrap(mcounts["control"], mcounts[free]),
            f"{name} - control": bootstrap(mcounts["control"], mcounts[name]),
            f"{chosen} - shipped": bootstrap(mcounts["shipped"], mcounts[chosen]),
            f"{chosen} - control": bootstrap(mcounts["control"], mcounts[chosen]),
            "control - shipped": bootstrap(mcounts["shipped"], mcounts["control"])}
    if "card pause_bias" in mcounts:
        boot["card pause_bias - control"] = bootstrap(mcounts["control"], mcounts["card pause_bias"])
        boot["card pause_bias - shipped"] = bootstrap(mcounts["shipped"], mcounts["card pause_bias"])
    results.update(chosen=chosen, chosen_free=free, bootstrap=boot,
                   command="OMP_NUM_THREADS=1 nice -n 5 python scripts/ami_pause.py" + (" --docs meeting" if suffix else ""))
    print("chosen on tune:", chosen, json.dumps(boot), flush=True)
    args.json.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    args.md.write_text(markdown(results), encoding="utf-8")
    print(f"wrote {args.json} and {args.md}")
    if args.card:
        if args.docs != "turn":
            raise SystemExit("--card writes the offsets fitted on speaker turns (the default --docs)")
        card_path = ROOT / "models" / "en" / "token.json"
        card = json.loads(card_path.read_text(encoding="utf-8"))
        measure, edges, table = runs[chosen]
        card["pause_bias"] = card_field(measure, edges, table, labels)
        card_path.write_text(json.dumps(card, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote pause_bias ({chosen}) into {card_path}")


if __name__ == "__main__":
    main()
