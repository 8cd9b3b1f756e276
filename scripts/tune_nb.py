"""Tune the NB segmenter on dev data only, and compare count variants (e.g. with or without Google counts).

en: STAN-large dev (exact match) and a sample of de-spaced TED dev paragraphs (space F); the objective is
their mean. First the boundary evidence (capitals in a row, case changes, letter/digit changes: forced,
forbidden, a bonus or a penalty) on STAN at L=20, λ=10, then the L × λ grid on both. Other languages: held-out paragraphs of a training
file (``--dev FILE --holdout N``), space F only, L × λ.

    python scripts/tune_nb.py --lang en --variant ours=runs/nb/en-ours --variant google=runs/nb/en-google \\
        --json runs/nb/tune-en.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from bench_segment import STAN_DEV, TED_DEV, load_despaced, load_stan, sample, score

from charrestore.packs import load_pack
from charrestore.segmenter import HARD, Segmenter

L_GRID = (8, 12, 16, 20, 24)
SMOOTHING_GRID = (4.0, 6.0, 8.0, 10.0, 12.0, 14.0, 16.0)
EVIDENCE_GRID = {"caps": ("never", -3.0, -2.0, -1.0, 0.0),
                 "camel": ("hard", 0.0, 1.0, 2.0, 3.0, 5.0),
                 "digits": ("hard", 0.0, 1.0, 2.0, 3.0, 5.0)}
SETTING = {"hard": HARD, "never": -HARD}


def evaluate(seg: Segmenter, sets: dict) -> dict:
    out = {}
    for name, items in sets.items():
        s = score(items, [seg.segment(text).split() for text, _ in items])
        out[name] = {"exact": round(s["exact"], 4), "F": round(s["F"], 5)}
    return out


def objective(result: dict) -> float:
    parts = [result["stan"]["exact"]] if "stan" in result else []
    parts += [v["F"] for k, v in result.items() if k != "stan"]
    return sum(parts) / len(parts)


def tune(seg: Segmenter, sets: dict) -> dict:
    evidence = []
    chosen = {"camel": "hard", "digits": "hard", "caps": 0.0}
    setting = lambda: {k: SETTING.get(v, v) for k, v in chosen.items()}  # noqa: E731
    if "stan" in sets:  # case and digits only matter for hashtags: de-spaced dev text is lower case
        stan = {"stan": sets["stan"]}
        for kind, values in EVIDENCE_GRID.items():
            rows = []
            for value in values:
                chosen[kind] = value
                rows.append((evaluate(seg.configured(L=20, smoothing=10.0, **setting()), stan)["stan"]["exact"], value))
            evidence.append({"kind": kind, "grid": [{"value": v, "stan_exact": e} for e, v in rows]})
            chosen[kind] = max(rows, key=lambda r: r[0])[1]  # ties: the first, the harder setting
    grid = []
    for L in L_GRID:
        for lam in SMOOTHING_GRID:
            result = evaluate(seg.configured(L=L, smoothing=lam, **setting()), sets)
            grid.append({"L": L, "smoothing": lam, **result, "objective": round(objective(result), 5)})
            print(f"  L={L} λ={lam}: {result}", file=sys.stderr)
    best = max(grid, key=lambda g: g["objective"])
    return {"evidence": evidence, "grid": grid,
            "choice": {"L": best["L"], "smoothing": best["smoothing"], **chosen, "objective": best["objective"],
                       **{k: v for k, v in best.items() if isinstance(v, dict)}}}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lang", default="en")
    ap.add_argument("--variant", action="append", required=True, metavar="NAME=DIR",
                    help="a models folder holding <lang>/nb.json (repeatable)")
    ap.add_argument("--dev", help="dev file for languages other than en (default for en: STAN + TED dev)")
    ap.add_argument("--holdout", type=int, default=0, help="with --dev: the documents whose id %% N == 0")
    ap.add_argument("--sample", type=int, default=60000, help="chars of de-spaced dev paragraphs to score")
    ap.add_argument("--ship", nargs="*", metavar="NAME",
                    help="variants eligible for shipping (e.g. those within the size budget); default: all")
    ap.add_argument("--json", required=True, help="where to write the grids and the choice")
    args = ap.parse_args(argv)

    pack = load_pack(args.lang)
    if args.lang == "en" and not args.dev:
        sets = {"stan": load_stan(STAN_DEV), "ted_dev": sample(load_despaced(pack, TED_DEV), args.sample)}
        dev_desc = {"stan": f"{STAN_DEV.name} (all)", "ted_dev": f"{TED_DEV.name}, de-spaced, every k-th paragraph "
                    f"up to {args.sample} chars ({len(sets['ted_dev'])} paragraphs)"}
    else:
        items = load_despaced(pack, Path(args.dev), args.holdout)
        sets = {"dev": sample(items, args.sample)}
        dev_desc = {"dev": f"{Path(args.dev).name}, documents with id % {args.holdout} == 0, de-spaced, "
                    f"every k-th paragraph up to {args.sample} chars ({len(sets['dev'])} paragraphs)"}
    report = {"script": "scripts/tune_nb.py " + " ".join(argv if argv is not None else sys.argv[1:]),
              "dev": dev_desc, "objective": "mean of STAN exact and de-spaced space F" if "stan" in sets
              else "de-spaced space F", "variants": {}}
    for spec in args.variant:
        name, _, folder = spec.partition("=")
        t = time.perf_counter()
        seg = Segmenter.load(args.lang, Path(folder))
        print(f"{name}: loaded in {time.perf_counter() - t:.2f} s", file=sys.stderr)
        report["variants"][name] = {"dir": folder, **tune(seg, sets)}
        print(f"{name}: {report['variants'][name]['choice']}", file=sys.stderr)
    eligible = args.ship or list(report["variants"])
    report["eligible"] = eligible
    report["chosen_variant"] = max(eligible, key=lambda n: report["variants"][n]["choice"]["objective"])
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    Path(args.json).write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(json.dumps({n: v["choice"] for n, v in report["variants"].items()}, ensure_ascii=False), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
