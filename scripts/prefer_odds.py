"""How much likelier another language must be before ``--lang auto:en`` (the CLI's default) leaves English.

A short line is often about as likely in a neighbour language ("das", "gracias"), so the default keeps English unless
the detector finds another language at least ODDS times as likely (``Detector.detect``'s ``prefer``). Per odds of a
grid, on held-out snippets (seeded, as scripts/compare_detect.py draws them) among the installed packs: the share of
short English lines (12-40 characters, ASR-like and de-spaced: what the CLI gets) kept English, and the share of
the lines of every other language that writes the Latin script named right (a script of its own decides the rest).
The odds chosen are the smallest at which English lines of every length keep at least ``--keep`` (the mean of the
two forms; a few lines stay another language's at any odds: names, quotes); at them, the held-out English documents
kept English are counted too. ``--card`` writes them into models/detect/detect.json (``prefer_odds``).
Writes reports/prefer_odds.{md,json}.

    nice -n 10 python scripts/prefer_odds.py [--per 500] [--seed 48] [--keep 0.995] [--card]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from charrestore.auto import installed
from charrestore.detect import WRITES, Detector
from charrestore.training.train_detect import shared_corpora_plan, snippets

ROOT = Path(__file__).resolve().parent.parent
GRID = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)
ENGLISH_LENGTHS, OTHER_LENGTHS, FORMS = (12, 20, 30, 40), (12, 25, 50), ("asr", "despaced")


def shares(detector: Detector, items, among, odds: float) -> dict[str, float]:
    """Share of the snippets named right, per ``lang|form|length``, with English preferred at ``odds``."""
    right: dict[str, list[bool]] = {}
    for s in items:
        named = detector.detect(s.text, among, prefer="en", odds=odds)
        right.setdefault(f"{s.lang}|{s.form}|{s.length}", []).append(named == s.lang)
    return {key: round(sum(v) / len(v), 4) for key, v in sorted(right.items())}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora")
    p.add_argument("--per", type=int, default=500, help="snippets per language, form and length")
    p.add_argument("--seed", type=int, default=48)
    p.add_argument("--keep", type=float, default=0.995,
                   help="share of short English lines of every length kept English")
    p.add_argument("--card", action="store_true", help="write the chosen odds into models/detect/detect.json")
    args = p.parse_args()
    _, dev = shared_corpora_plan(args.corpora)
    detector, among = Detector.load(), installed()
    english = snippets([s for s in dev if s.lang == "en"], per=args.per, lengths=ENGLISH_LENGTHS, forms=FORMS,
                       seed=args.seed)
    others = snippets([s for s in dev if s.lang != "en"], per=args.per // 5, lengths=OTHER_LENGTHS, forms=FORMS,
                      seed=args.seed)
    others = [s for s in others if s.lang in among and s.lang not in WRITES]  # a script of its own decides the rest
    signature = (f"prefer-odds|among={','.join(among)}|forms={','.join(FORMS)}|per={args.per}|seed={args.seed}|"
                 f"model={detector.card['sha256'][:12]}")
    print(signature)
    grid = []
    for odds in GRID:
        row = {"odds": odds, "english": shares(detector, english, among, odds),
               "others": shares(detector, others, among, odds)}
        grid.append(row)
        print(odds, row["english"])
    def mean(cells: dict, lang: str, length: int) -> float:
        values = [cells[f"{lang}|{form}|{length}"] for form in FORMS]
        return 100 * sum(values) / len(values)

    chosen = next((r["odds"] for r in grid if min(mean(r["english"], "en", n) for n in ENGLISH_LENGTHS)
                   >= 100 * args.keep), GRID[-1])
    langs = sorted({s.lang for s in others}, key=among.index)
    documents = [doc for s in dev if s.lang == "en" for doc in s.documents()]
    kept = sum(detector.detect(doc, among, prefer="en", odds=chosen) == "en" for doc in documents)
    report = {"signature": signature, "keep": args.keep, "chosen": chosen, "grid": grid,
              "english_documents": len(documents), "english_documents_kept": kept}
    (ROOT / "reports" / "prefer_odds.json").write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")

    md = ["# How much likelier another language must be before `--lang auto:en` leaves English", "",
          f"`{signature}`", "",
          f"Command: `nice -n 10 python scripts/prefer_odds.py --per {args.per} --seed {args.seed} --keep {args.keep}`",
          "",
          f"Share named right in %, the mean of the ASR-like and the de-spaced form. Chosen: odds **{chosen}**, the "
          f"smallest at which short English lines of every length keep at least {100 * args.keep:g}%. With them, "
          f"{kept} of the {len(documents)} held-out English documents are named English.", "",
          "| odds | " + " | ".join(f"en {n}" for n in ENGLISH_LENGTHS) + " | "
          + " | ".join(f"{lang} {n}" for lang in langs for n in OTHER_LENGTHS) + " |",
          "|---:|" + "---:|" * (len(ENGLISH_LENGTHS) + len(langs) * len(OTHER_LENGTHS))]
    for r in grid:
        cells = [f"{mean(r['english'], 'en', n):.1f}" for n in ENGLISH_LENGTHS]
        cells += [f"{mean(r['others'], lang, n):.1f}" for lang in langs for n in OTHER_LENGTHS]
        odds = f"**{r['odds']}**" if r["odds"] == chosen else str(r["odds"])
        md.append(f"| {odds} | " + " | ".join(cells) + " |")
    (ROOT / "reports" / "prefer_odds.md").write_text("\n".join(md) + "\n", encoding="utf-8")
    if args.card:
        path = ROOT / "models" / "detect" / "detect.json"
        card = json.loads(path.read_text(encoding="utf-8"))
        card["prefer_odds"] = chosen
        card["prefer_odds_command"] = (f"nice -n 10 python scripts/prefer_odds.py --per {args.per} --seed {args.seed} "
                                       f"--keep {args.keep} --card")
        path.write_text(json.dumps(card, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print("chosen odds", chosen)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
