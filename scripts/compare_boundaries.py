"""Word boundaries on letters-only text: charrestore against wordninja-pp, same input, same run (issue 46).

Held-out paragraphs of each language (its dev file in ../shared/corpora) are read as the runtime sees words (the
pack's mapping, no marks, lower case) and kept to their letters (an apostrophe, hyphen or digit inside a word goes:
"l'homme" is the one word "lhomme", as neither system may split at a character it no longer sees), joined without
spaces and cut into pieces of about ``--chars`` letters at word ends. Each system inserts spaces; a boundary is a position in the letters-only piece, and precision, recall and
F1 are micro-averaged over all pieces. Systems: ``segment`` (charrestore's NB segmenter, reranked where the language
has a reranker), ``fix`` (the default engine, when the pack has its model; ``--models-dir`` points at others, e.g. a
model in training exported into runs/), and wordninja-pp's model of the language (``pip install wordninja-pp``); for ko also kiwipiepy's spacing (``Kiwi().space``).

``--digits`` keeps the digits in the words and measures only the pieces that hold one ("le 19e siècle", "1st and",
"5 thousand": where a pack's ``ordinal_suffixes`` start; give a large ``--max-chars``, as few paragraphs hold digits).

``--plain`` takes the diacritics off the held-out text first, as Vietnamese is often typed ("chucmungnammoi"),
for every system (charrestore/plain_letters.py).

Spacing correction (issue 47): ``--damage DROP ADD`` gives every system the pieces with their spaces instead, each
dropped with probability DROP and a wrong one added after a letter with probability ADD (seeded); then ``fix`` re-spaces
(``--spaces restore``) and kiwipiepy corrects as it offers to (``space()`` as is, and with ``reset_whitespace``).

    python scripts/compare_boundaries.py [--langs de es fr ru vi ko] [--chars 200] [--max-chars 60000] [--models-dir DIR]
    python scripts/compare_boundaries.py --langs ko --damage 0.5 0.05 --out reports/compare_spacing_ko.json
    python scripts/compare_boundaries.py --langs ru --extra ru=runs/fortunes/ru.tsv  # another register too
        (scripts/fortunes_dev.py builds modern aphorisms and jokes from Debian's fortune packages)
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

import regex

from charrestore import Restorer, base_text, load_pack
from charrestore.cards import ModelError
from charrestore.plain_letters import plain
from charrestore.rerank import best_segmenter
from charrestore.tuning.dev import load_despaced, sample

ROOT = Path(__file__).resolve().parent.parent
NOT_LETTER = regex.compile(r"[^\p{L}\p{M}]+")
NOT_WORD = regex.compile(r"[^\p{L}\p{M}\p{N}]+")
C = ROOT.parent / "shared" / "corpora"
DEV = {"en": [(C / "en" / "ted_dev.tsv", 0)], "gu": [(C / "gu" / "gu_wiki_train.tsv", "100:50")],
       "de": [(C / "de" / "de_bundestag_dev.tsv.xz", 0)], "es": [(C / "es" / "es_congreso_dev.tsv.xz", 0)],
       "fr": [(C / "fr" / "eltec_novels_dev.tsv.xz", 0)], "ru": [(C / "ru" / "ruslit_prose_dev.tsv.xz", 0)],
       "vi": [(C / "vi" / f"{name}_dev.tsv.xz", 0) for name in ("viwiki", "dantri", "baomoisapo")],
       "ko": [(C / "ko" / f"{name}_dev.tsv.xz", 0) for name in ("kowiki", "boddari", "petitions")]}


def pieces(lang: str, path: Path, holdout, chars: int, max_chars: int, digits: bool = False) -> list[list[str]]:
    """The words of held-out paragraphs in pieces of about ``chars`` letters (a sample spread over the file);
    ``digits``: the words keep theirs, and only the pieces that hold one are kept."""
    out, dropped = [], NOT_WORD if digits else NOT_LETTER
    for _, [words] in sample(load_despaced(load_pack(lang), path, holdout), max_chars):
        piece: list[str] = []
        for w in filter(None, (dropped.sub("", w) for w in words)):
            piece.append(w)
            if sum(map(len, piece)) >= chars:
                out.append(piece)
                piece = []
        if piece:
            out.append(piece)
    return [p for p in out if regex.search(r"\p{N}", "".join(p))] if digits else out


def cuts(words: list[str]) -> set[int]:
    """Positions between words in the joined string."""
    ends, at = set(), 0
    for w in words[:-1]:
        at += len(w)
        ends.add(at)
    return ends


def damaged(words: list[str], drop: float, add: float, rng: random.Random) -> str:
    """The words joined with their spaces, each dropped with probability ``drop``, and a wrong space added after a
    letter inside a word with probability ``add``."""
    out = []
    for k, w in enumerate(words):
        out.append("".join(c + (" " if i < len(w) - 1 and rng.random() < add else "") for i, c in enumerate(w)))
        if k < len(words) - 1 and rng.random() >= drop:
            out.append(" ")
    return "".join(out)


def score(gold: list[list[str]], predicted: list[list[str]]) -> dict:
    tp = fp = fn = 0
    for g, p in zip(gold, predicted):
        assert "".join(g).lower() == "".join(p).lower(), (g, p)
        a, b = cuts(g), cuts(p)
        tp, fp, fn = tp + len(a & b), fp + len(b - a), fn + len(a - b)
    precision, recall = tp / max(1, tp + fp), tp / max(1, tp + fn)
    return {"precision": round(precision, 4), "recall": round(recall, 4),
            "f1": round(2 * precision * recall / max(1e-9, precision + recall), 4)}


def systems(lang: str, models_dir: str | None, spaced: bool = False):
    """name -> function(letters) -> words, for every system that this language has (``spaced``: those that correct
    the spaces of spaced text)."""
    import wordninja

    found = {}
    try:
        if spaced:
            raise ModelError("the segmenter reads letters only")
        seg = best_segmenter(lang)
        found["charrestore segment"] = lambda s: seg.segment(s).split()
    except ModelError:
        pass
    try:
        restorer = Restorer(lang=lang, spaces="restore", models_dir=models_dir)
        found[f"charrestore fix ({restorer.config.engine})"] = lambda s: [
            base_text(w, restorer.pack) for w in restorer(s).split()]  # its marks dropped, lower case
    except ModelError:
        pass
    if lang in wordninja.LANGUAGES and not spaced:
        ninja = wordninja.LanguageModel(lang)
        found[f"wordninja-pp {wordninja.__version__}"] = ninja.split
    if lang == "ko":  # the Korean analyzer's spacing fixer, the one issue 47 names (pip install kiwipiepy)
        import kiwipiepy

        kiwi = kiwipiepy.Kiwi()
        found[f"kiwipiepy {kiwipiepy.__version__} space()"] = lambda s: kiwi.space(s).split()
        if spaced:
            found[f"kiwipiepy {kiwipiepy.__version__} space(reset_whitespace=True)"] = \
                lambda s: kiwi.space(s, reset_whitespace=True).split()
    return found


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--langs", nargs="+", default=["de", "es", "fr", "ru", "vi"], choices=sorted(DEV))
    ap.add_argument("--chars", type=int, default=200, help="letters per piece (default: 200)")
    ap.add_argument("--max-chars", type=int, default=60_000, help="letters per language (default: 60,000)")
    ap.add_argument("--models-dir", help="models folder for fix (default: the shipped models)")
    ap.add_argument("--damage", type=float, nargs=2, metavar=("DROP", "ADD"),
                    help="spaced input with spaces dropped and added at these rates (spacing correction)")
    ap.add_argument("--seed", type=int, default=1, help="for --damage (default: 1)")
    ap.add_argument("--digits", action="store_true", help="words keep their digits; only pieces holding one count")
    ap.add_argument("--plain", action="store_true",
                    help="the held-out text without its diacritics, as it is often typed (plain_letters.py)")
    ap.add_argument("--extra", nargs="+", default=[], metavar="LANG=PATH",
                    help="held-out text of another register for LANG, measured after its dev files")
    ap.add_argument("--out", type=Path, default=ROOT / "reports" / "compare_boundaries.json")
    args = ap.parse_args()
    rows, rng = [], random.Random(args.seed)
    extra = [item.split("=", 1) for item in args.extra]
    for lang in args.langs:
        found = systems(lang, args.models_dir, spaced=bool(args.damage))
        for path, holdout in DEV[lang] + [(Path(p), 0) for code, p in extra if code == lang]:
            gold = pieces(lang, path, holdout, args.chars, args.max_chars, args.digits)
            if args.plain:
                gold = [[plain(w) for w in p] for p in gold]
            letters = [damaged(p, *args.damage, rng) if args.damage else "".join(p) for p in gold]
            for name, split in found.items():
                t = time.perf_counter()
                predicted = [list(split(s)) for s in letters]
                seconds = time.perf_counter() - t
                n = sum(len(x.replace(" ", "")) for x in letters)
                given = score(gold, [s.split() for s in letters]) if args.damage else {}
                rows.append({"lang": lang, "set": path.name, "system": name, "pieces": len(gold),
                             "letters": n, "input_f1": given.get("f1"), **score(gold, predicted),
                             "letters_per_s": round(n / seconds)})
            print(json.dumps(rows[-1], ensure_ascii=False), flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"settings": vars(args) | {"out": str(args.out)}, "rows": rows}, indent=1,
                                   ensure_ascii=False, default=str) + "\n", encoding="utf-8")
    print("| lang | held-out set | system | boundary P | R | F1 | letters/s |\n|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['lang']} | {r['set']} | {r['system']} | {r['precision']:.4f} | {r['recall']:.4f} | "
              f"**{r['f1']:.4f}** | {r['letters_per_s']:,} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
