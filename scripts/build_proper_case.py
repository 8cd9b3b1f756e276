"""Build a pack's list of proper forms (``charrestore/proper_case.py``): the modern words that are always written
with capitals, which a char model trained on old or narrow text has never seen ("НАТО", "Путин").

ru: the 300,000 most frequent words of wordfreq's large Russian list (modern text: news, subtitles, Wikipedia, web),
each analysed by pymorphy3 with the OpenCorpora dictionary. A word all of whose analyses are known to the dictionary
and that is a proper noun (a first name, surname, patronymic, place, organisation or trademark) in at least
``--share`` of them (by pymorphy3's scores) takes a capital; one that is an abbreviation of a place or an
organisation in at least 0.95 of them is written in capitals ("сша" -> "США"). Adjectives ("украинский") and
words that are as often common nouns ("роза", "орёл", "мир") are left out.

    pip install wordfreq pymorphy3 pymorphy3-dicts-ru
    python scripts/build_proper_case.py --lang ru
"""

from __future__ import annotations

import argparse
import gzip
import json
import shlex
import sys
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from charrestore.cards import write_card  # noqa: E402
from charrestore.proper_case import FORMAT, ProperCase  # noqa: E402

PROPER = {"Name", "Surn", "Patr", "Geox", "Orgn", "Trad"}  # OpenCorpora's grammemes of proper nouns
ACRONYM = {"Geox", "Orgn"}  # with Abbr: written in capitals


def russian_forms(n_words: int, share: float) -> tuple[list[str], dict]:
    """The cased forms, most frequent first, and what was counted."""
    import pymorphy3
    import wordfreq

    morph = pymorphy3.MorphAnalyzer()
    forms, seen = [], {"words": 0, "known": 0, "capital": 0, "capitals": 0}
    for word in wordfreq.top_n_list("ru", n_words, wordlist="large"):
        if len(word) < 2 or not word.isalpha():
            continue
        seen["words"] += 1
        parses = morph.parse(word)
        if not parses or not all(p.is_known for p in parses):
            continue
        seen["known"] += 1
        total = sum(p.score for p in parses) or 1.0
        proper = sum(p.score for p in parses if p.tag.POS == "NOUN" and PROPER & p.tag.grammemes) / total
        if proper < share:
            continue
        acronym = sum(p.score for p in parses if "Abbr" in p.tag.grammemes and ACRONYM & p.tag.grammemes) / total
        forms.append(word.upper() if acronym >= 0.95 else word.capitalize())
        seen["capitals" if acronym >= 0.95 else "capital"] += 1
    return forms, seen


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--lang", choices=["ru"], default="ru")
    p.add_argument("--words", type=int, default=300000, help="the most frequent words of wordfreq's list read")
    p.add_argument("--share", type=float, default=0.8, help="the least share of proper-noun analyses")
    p.add_argument("--out", type=Path, default=ROOT / "models", help="models root")
    args = p.parse_args()
    forms, seen = russian_forms(args.words, args.share)
    folder = args.out / args.lang
    folder.mkdir(parents=True, exist_ok=True)
    data = gzip.compress(("\n".join(forms) + "\n").encode("utf-8"), 9, mtime=0)
    (folder / "proper.txt.gz").write_bytes(data)
    card = {
        "name": "proper", "kind": "proper_case", "lang": args.lang, "file": "proper.txt.gz", "format": FORMAT,
        "forms": len(ProperCase(forms)), "counts": seen,
        "rule": f"a word of the list all of whose pymorphy3 analyses are in the dictionary, at least {args.share} of "
                "them (by score) a proper noun (Name, Surn, Patr, Geox, Orgn, Trad), takes a capital; at least 0.95 "
                "an abbreviation of a place or organisation (Abbr with Geox or Orgn): all capitals",
        "sources": [
            {"what": f"wordfreq {version('wordfreq')}: the {args.words} most frequent words of the large ru list "
                     "(Wikipedia, subtitles, news, books, web text)", "license": "CC BY-SA 4.0 (data)"},
            {"what": f"pymorphy3 {version('pymorphy3')} with pymorphy3-dicts-ru {version('pymorphy3-dicts-ru')}: "
                     "the OpenCorpora dictionary's analyses", "license": "CC BY-SA 3.0 (OpenCorpora data)"}],
        "command": "python scripts/build_proper_case.py " + shlex.join(sys.argv[1:]),
    }
    write_card(folder / "proper.json", card)
    print(json.dumps({"forms": card["forms"], "bytes": len(data), **seen}))


if __name__ == "__main__":
    main()
