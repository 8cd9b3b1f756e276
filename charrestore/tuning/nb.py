"""Tune the NB segmenter on dev data and compare count variants (``charrestore tune nb``).

Hashtags (``--hashtags``, STAN-large style: exact match of the word boundaries) and de-spaced dev paragraphs
(``--dev``: space F on a sample spread over the file); the objective is their mean. First the boundary
evidence (capitals in a row, case changes, letter/digit changes: forced, forbidden, a bonus or a penalty) on
the hashtags at L=20, λ=10 (they alone have case and digits), then the L × λ grid on every set. The grid
point with the best space F on the paragraphs alone is also kept, as ``prose`` (the engines' setting), and for it
how far cuts follow the spaces of spaced text (``given_space``, ``given_join``: ``--spaces restore`` corrects
spacing; the paragraphs with their spaces damaged and intact; ``--given-only`` tunes these alone). Each
``--variant`` (a models folder with other counts) is tuned alike; the best eligible one is chosen.
"""

from __future__ import annotations

import json
import sys
import time
from itertools import accumulate
from pathlib import Path

import numpy as np

from ..packs import load_pack
from ..segmenter import HARD, Segmenter
from .dev import load_despaced, load_hashtags, sample
from .record import card_path, update_card

L_GRID = (8, 12, 16, 20, 24)
SMOOTHING_GRID = (4.0, 6.0, 8.0, 10.0, 12.0, 14.0, 16.0)
EVIDENCE_GRID = {"caps": ("never", -3.0, -2.0, -1.0, 0.0),
                 "camel": ("hard", 0.0, 1.0, 2.0, 3.0, 5.0),
                 "digits": ("hard", 0.0, 1.0, 2.0, 3.0, 5.0)}
SETTING = {"hard": HARD, "never": -HARD}
GIVEN_SPACE_GRID = (0.0, 0.5, 1.0, 2.0, 3.0, 5.0)
GIVEN_JOIN_GRID = (0.0, 0.5, 1.0, 2.0, 3.0)
DAMAGE = (0.5, 0.05)  # each space dropped, a wrong one added after a letter: as the char tuner (tuning/char.py)
HASHTAGS = "hashtags"


def boundaries(words) -> tuple[str, frozenset[int]]:
    """(letters and digits in lower case, offsets of the boundaries between words within them)."""
    chars, cuts, pos = [], set(), 0
    for w in words:
        kept = "".join(c for c in w.lower() if c.isalnum())
        if kept:
            if pos:
                cuts.add(pos)
            chars.append(kept)
            pos += len(kept)
    return "".join(chars), frozenset(cuts)


def prf(tp: int, fp: int, fn: int) -> dict:
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return {"P": p, "R": r, "F": 2 * p * r / (p + r) if p + r else 0.0}


def score(items, outputs) -> dict:
    """Exact match (any gold) and space P/R/F (against the gold closest to the output). Boundaries are
    compared over letters and digits only, lower-cased."""
    exact = tp = fp = fn = 0
    for (_, golds), out in zip(items, outputs):
        hyp_chars, hyp = boundaries(out)
        best = None
        for gold in golds:
            gold_chars, ref = boundaries(gold.split() if isinstance(gold, str) else gold)
            hit = (gold_chars == hyp_chars and ref == hyp, len(ref & hyp), -len(ref ^ hyp))
            if best is None or hit > best[0]:
                best = (hit, ref)
        (match, _, _), ref = best
        exact += match
        tp += len(ref & hyp)
        fp += len(hyp - ref)
        fn += len(ref - hyp)
    return {"exact": exact / len(items), **prf(tp, fp, fn), "n": len(items)}


def evaluate(seg: Segmenter, sets: dict) -> dict:
    out = {}
    for name, items in sets.items():
        s = score(items, [seg.segment(text).split() for text, _ in items])
        out[name] = {"exact": round(s["exact"], 4), "F": round(s["F"], 5)}
    return out


def objective(result: dict) -> float:
    """The mean of the hashtags' exact match and every paragraph set's space F."""
    parts = [result[HASHTAGS]["exact"]] if HASHTAGS in result else []
    parts += [v["F"] for k, v in result.items() if k != HASHTAGS]
    return sum(parts) / len(parts)


def tune(seg: Segmenter, sets: dict, case: dict | None = None) -> dict:
    """The evidence on the hashtags (else ``case``, another pack's choice of ``camel`` and ``caps``, or the hard
    defaults), then L × λ, then the spacing-correction pair of the prose point."""
    evidence = []
    chosen = {"camel": "hard", "digits": "hard", "caps": 0.0, **(case or {})}
    setting = lambda: {k: SETTING.get(v, v) for k, v in chosen.items()}  # noqa: E731
    if HASHTAGS in sets:  # case and digits only matter for hashtags: de-spaced dev text is lower case
        tags = {HASHTAGS: sets[HASHTAGS]}
        for kind, values in EVIDENCE_GRID.items():
            rows = []
            for value in values:
                chosen[kind] = value
                rows.append((evaluate(seg.configured(L=20, smoothing=10.0, **setting()), tags)[HASHTAGS]["exact"],
                             value))
            evidence.append({"kind": kind, "grid": [{"value": v, "exact": e} for e, v in rows]})
            chosen[kind] = max(rows, key=lambda r: r[0])[1]  # ties: the first, the harder setting
    grid = []
    for L in L_GRID:
        for lam in SMOOTHING_GRID:
            result = evaluate(seg.configured(L=L, smoothing=lam, **setting()), sets)
            grid.append({"L": L, "smoothing": lam, **result, "objective": round(objective(result), 5)})
            print(f"  L={L} λ={lam}: {result}", file=sys.stderr)
    best = max(grid, key=lambda g: g["objective"])
    paragraphs = [name for name in sets if name != HASHTAGS]
    prose = max(grid, key=lambda g: sum(g[name]["F"] for name in paragraphs)) if paragraphs else best
    given = tune_given(seg.configured(L=prose["L"], smoothing=prose["smoothing"], **setting()), sets) \
        if paragraphs else {"given_space": 0.0, "given_join": 0.0}
    return {"evidence": evidence, "grid": grid, "given_grid": given.get("grid", []),
            "choice": {"L": best["L"], "smoothing": best["smoothing"], **chosen, "objective": best["objective"],
                       **{k: v for k, v in best.items() if isinstance(v, dict)},
                       "prose": {"L": prose["L"], "smoothing": prose["smoothing"], "given_space": given["given_space"],
                                 "given_join": given["given_join"], **{name: prose[name] for name in paragraphs}}}}


def damaged_spaces(items, drop: float, add: float, seed: int = 1) -> list[np.ndarray]:
    """Where each paragraph keeps a space after damage: each of its words' boundaries with probability 1 - ``drop``,
    any other gap with probability ``add`` (seeded: every trial reads the same input)."""
    rng, out = np.random.default_rng(seed), []
    for text, golds in items:
        true = np.zeros(len(text) + 1, bool)
        words = golds[0].split() if isinstance(golds[0], str) else golds[0]
        true[list(accumulate(map(len, words)))[:-1]] = True
        r = rng.random(len(text) + 1)
        keep = true & (r >= drop) | ~true & (r < add)
        keep[[0, len(text)]] = False
        out.append(np.flatnonzero(keep))
    return out


def tune_given(seg: Segmenter, sets: dict, damage=DAMAGE) -> dict:
    """``given_space`` and ``given_join`` for ``seg``: the mean space F over the paragraph sets, each read with its
    spaces ``damage``d and intact (correcting should leave right spacing as it is); on a tie the smaller values."""
    inputs = {(name, kind): spaced for name, items in sets.items() if name != HASHTAGS
              for kind, spaced in (("damaged", damaged_spaces(items, *damage)), ("intact", damaged_spaces(items, 0, 0)))}
    grid = []
    for v in GIVEN_SPACE_GRID:
        for j in GIVEN_JOIN_GRID:
            trial, row = seg.configured(given_space=v, given_join=j), {"given_space": v, "given_join": j}
            for (name, kind), spaced in inputs.items():
                out = [trial.segment(text, spaced=at).split() for (text, _), at in zip(sets[name], spaced)]
                row[f"{name} {kind}"] = round(score(sets[name], out)["F"], 5)
            row["objective"] = round(sum(row[f"{n} {k}"] for n, k in inputs) / len(inputs), 5)
            grid.append(row)
            print(f"  given {row}", file=sys.stderr)
    best = max(grid, key=lambda g: (g["objective"], -g["given_space"], -g["given_join"]))
    return {"given_space": best["given_space"], "given_join": best["given_join"], "grid": grid,
            "damage": {"drop": damage[0], "add": damage[1]},
            "objective": "mean space F of the paragraphs with their spaces damaged and intact"}


def dev_sets(pack, args) -> tuple[dict, dict]:
    """(name -> items, name -> description): the hashtags, and a sample of each de-spaced dev file."""
    sets, desc = {}, {}
    if args.hashtags:
        sets[HASHTAGS] = load_hashtags(Path(args.hashtags))
        desc[HASHTAGS] = f"{Path(args.hashtags).name} (all)"
    for f in map(Path, args.dev):
        items = sample(load_despaced(pack, f, args.holdout), args.sample)
        sets[f.stem] = items
        desc[f.stem] = (f"{f.name}" + (f", {args.holdout.describe()}" if args.holdout else "")
                        + f", de-spaced, every k-th paragraph up to {args.sample} chars ({len(items)} paragraphs)")
    return sets, desc


def add_arguments(p) -> None:
    p.add_argument("--hashtags", metavar="FILE", help="hashtags with gold segmentations (hashtag<TAB>gold...)")
    p.add_argument("--sample", type=int, default=60000, help="chars of de-spaced dev paragraphs to score per file")
    p.add_argument("--variant", action="append", metavar="NAME=DIR",
                   help="a models folder holding <lang>/nb.json, tuned and compared (repeatable; "
                        "default: the one of --models-dir)")
    p.add_argument("--ship", nargs="*", metavar="NAME",
                   help="variants eligible for shipping (e.g. those within the size budget); default: all")
    p.add_argument("--json", metavar="FILE", help="also write the grids and the choice (the report) here")
    p.add_argument("--given-only", action="store_true",
                   help="tune only given_space and given_join of the shipped counts' prose setting (spacing correction);"
                        " the card's other keys stay, but for the case evidence of --case-evidence-from")
    p.add_argument("--case-evidence-from", metavar="LANG",
                   help="without hashtags of this language: take the case evidence (camel, caps) that LANG's NB card "
                        "chose on its hashtags (a case change is typed alike in every cased script)")


def run(args, command: str) -> dict:
    pack = load_pack(args.lang)
    sets, desc = dev_sets(pack, args)
    case = case_evidence(args.case_evidence_from) if args.case_evidence_from and HASHTAGS not in sets else None
    if args.given_only:
        return run_given(args, sets, desc, command, case)
    report = {"command": command, "dev": desc,
              "objective": "mean of hashtag exact match and de-spaced space F" if HASHTAGS in sets
              else "de-spaced space F", "case_evidence": case and {"from": args.case_evidence_from, **case},
              "variants": {}}
    variants = args.variant or [f"models={args.models_dir or ''}"]
    for spec in variants:
        name, _, folder = spec.partition("=")
        t = time.perf_counter()
        seg = Segmenter.load(args.lang, Path(folder) if folder else None)
        print(f"{name}: loaded in {time.perf_counter() - t:.2f} s", file=sys.stderr)
        report["variants"][name] = {"dir": folder, **tune(seg, sets, case)}
        print(f"{name}: {report['variants'][name]['choice']}", file=sys.stderr)
    eligible = args.ship or list(report["variants"])
    report["eligible"] = eligible
    report["chosen_variant"] = max(eligible, key=lambda n: report["variants"][n]["choice"]["objective"])
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    chosen = report["variants"][report["chosen_variant"]]
    if args.write_card:
        params = {k: chosen["choice"][k] for k in ("L", "smoothing", "camel", "digits", "caps")}
        prose = {k: chosen["choice"]["prose"][k] for k in ("L", "smoothing", "given_space", "given_join")}
        folder = chosen["dir"]
        update_card(card_path(args.lang, "nb", Path(folder) if folder else None),
                    {"params": params, "prose_params": prose, "tuning": report})
    print(json.dumps({n: v["choice"] for n, v in report["variants"].items()}, ensure_ascii=False))
    return report


def case_evidence(lang: str) -> dict:
    """``camel`` and ``caps`` of ``lang``'s shipped NB card (chosen on its hashtags)."""
    params = json.loads(card_path(lang, "nb").read_text(encoding="utf-8"))["params"]
    return {"camel": params["camel"], "caps": params["caps"]}


def run_given(args, sets: dict, desc: dict, command: str, case: dict | None = None) -> dict:
    """``--given-only``: the spacing-correction pair for the card's prose setting (with ``case``: that case evidence
    first), its other keys and record kept."""
    root = Path(args.models_dir) if args.models_dir else None
    seg = Segmenter.load(args.lang, root, prose=True)
    seg = seg.configured(**{k: SETTING.get(v, v) for k, v in case.items()}) if case else seg
    given = {**tune_given(seg, sets), "dev": desc, "command": command}
    if args.write_card:
        path = card_path(args.lang, "nb", root)
        card = json.loads(path.read_text(encoding="utf-8"))
        changes = {"prose_params": {**(card.get("prose_params") or {}), "given_space": given["given_space"],
                                    "given_join": given["given_join"]},
                   "tuning": {**(card.get("tuning") or {}), "given_spaces": given}}
        if case:
            changes["params"] = {**card["params"], **case}
            changes["tuning"]["case_evidence"] = {"from": args.case_evidence_from, **case, "command": command}
        update_card(path, changes)
    print(json.dumps({k: given[k] for k in ("given_space", "given_join")} | (case or {})))
    return given
