"""How a pack's training text writes the letters of each of its abbreviation forms (charrestore/abbreviation_forms.py).

A form belongs in a pack's ``abbreviation_forms`` only if its letters, alone or run together, are no word of the
language: where the text has them, it should write them as the form. Per form, over the first ``--chars``
characters of each training corpus named in the pack's char card (../shared/corpora/<lang>/), every run of words
whose letters are the form's (one word, or the form's words): how many, how many written as the form (the first
letter in either case, its inner spaces or none, any marks after it), how many without any mark, where the form has one (the risk: "те" for "т. е."),
and the commonest spellings. ``--forms`` checks other candidates instead of the pack's list.

    python scripts/abbreviation_forms.py --lang de
    python scripts/abbreviation_forms.py --lang ru --forms "т. е." "т. к." "им."
"""

from __future__ import annotations

import argparse
import json
import lzma
from collections import Counter
from pathlib import Path

from charrestore import load_pack

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT.parent / "shared" / "corpora"
EDGES = "\"'«»„“”‚‘’()[]¿¡!?,;:…—–"  # what may stand around a word without being part of its spelling


def letters(word: str, marks: str) -> str:
    return "".join(c for c in word.lower() if c not in marks and c not in EDGES and not c.isspace())


def squeeze(text: str) -> str:
    return "".join(text.split())


def corpora(lang: str) -> list[Path]:
    card = json.loads((ROOT / "models" / lang / "char.json").read_text(encoding="utf-8"))
    return [p for c in card.get("corpora", []) if (p := CORPORA / lang / c["path"]).is_file()]


def count(forms: list[str], paths: list[Path], marks: str, chars: int) -> dict[str, Counter]:
    """Per form: Counter of the spellings of the word runs that have its letters."""
    keys = {f: [letters(w, marks) for w in f.split()] for f in forms}
    seen = {f: Counter() for f in forms}
    for path in paths:
        read = 0
        with (lzma.open if path.suffix == ".xz" else open)(path, "rt", encoding="utf-8") as fh:
            for line in fh:
                words = line.rstrip("\n").split("\t", 1)[-1].split()
                keyed = [letters(w, marks) for w in words]
                for i, key in enumerate(keyed):
                    for form, parts in keys.items():
                        n = len(parts)
                        if keyed[i:i + n] == parts or (n > 1 and key == "".join(parts)):
                            run = words[i:i + n] if keyed[i:i + n] == parts else words[i:i + 1]
                            seen[form][" ".join(w.strip(EDGES) for w in run)] += 1
                read += len(line)
                if read > chars:
                    break
    return seen


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lang", required=True)
    ap.add_argument("--forms", nargs="+", help="candidates to check (default: the pack's abbreviation_forms)")
    ap.add_argument("--chars", type=int, default=30_000_000, help="characters read from each corpus")
    args = ap.parse_args()
    pack = load_pack(args.lang)
    forms = args.forms or list(pack.abbreviation_forms)
    marks = "".join(pack.marks)
    paths = corpora(args.lang)
    seen = count(forms, paths, marks, args.chars)
    print(f"{args.lang}: {', '.join(p.name for p in paths)} (first {args.chars:,} characters each)\n")
    print("| form | runs | as the form | without a mark | commonest |")
    print("|---|---|---|---|---|")
    for form in forms:
        spellings = seen[form]
        total = sum(spellings.values())
        same = sum(c for s, c in spellings.items() if squeeze(s)[1:] == squeeze(form)[1:]
                   and s[:1].lower() == form[:1].lower())
        plain = sum(c for s, c in spellings.items() if not any(m in s for m in marks))
        plain = plain if any(m in form for m in marks) else "-"
        common = ", ".join(f"{s} {c}" for s, c in spellings.most_common(3))
        print(f"| {form} | {total} | {same} | {plain} | {common} |")


if __name__ == "__main__":
    main()
