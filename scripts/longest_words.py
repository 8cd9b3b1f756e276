"""How long a word of each pack's training text gets: the ``longest_word`` of a pack.toml.

A word is a run of letters (``\\p{L}``, with the marks inside it) between white space, digits and punctuation,
measured in letters. For each pack, the training files its char card names (``corpora``) are read (at most
``--chars`` characters of each) and the script prints the length that fewer than one word in ``--rarer``
(default 100,000) exceeds, with the longest seen. With ``--spaces auto``, spaced input that holds a longer word
than its pack's ``longest_word`` is read as run-together text (engines/base.py ``keeps_spaces``). The last column
is how many of the paragraphs of the dev files the card names (``dev``) hold such a word by the pack as shipped
(``long_text.runs_together``): spaced text of the register that ``auto`` would no longer keep as typed.

    python scripts/longest_words.py --lang en de es fr ru vi ko gu th
"""

from __future__ import annotations

import argparse
import json
import lzma
from collections import Counter
from pathlib import Path

import regex

from charrestore import load_pack
from charrestore.long_text import runs_together

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT.parent / "shared" / "corpora"
WORD = regex.compile(r"\p{L}[\p{L}\p{M}]*")


def corpus_file(lang: str, name: str) -> Path:
    """A card's corpus file in ``../shared/corpora/<lang>/`` (or a folder below it)."""
    found = sorted((CORPORA / lang).rglob(name))
    if not found:
        raise SystemExit(f"{name}: not under {CORPORA / lang}")
    return found[0]


def lengths(path: Path, chars: int) -> Counter:
    """Letters per word over the first ``chars`` characters of a ``doc<TAB>text`` file."""
    counts: Counter = Counter()
    read = 0
    opener = lzma.open if path.suffix == ".xz" else open
    with opener(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            text = line.rstrip("\n").split("\t", 1)[-1]
            counts.update(len(regex.findall(r"\p{L}", w)) for w in WORD.findall(text))
            read += len(text)
            if read >= chars:
                break
    return counts


def run_together_share(lang: str, dev_files: list[str]) -> tuple[int, int]:
    """(paragraphs that ``runs_together`` flags, paragraphs) over the dev files, by the shipped pack."""
    pack = load_pack(lang)
    flagged = paragraphs = 0
    for name in dev_files if isinstance(dev_files, list) else []:
        path = corpus_file(lang, name)
        with (lzma.open if path.suffix == ".xz" else open)(path, "rt", encoding="utf-8") as fh:
            for line in fh:
                paragraphs += 1
                flagged += runs_together(line.rstrip("\n").split("\t", 1)[-1], pack)
    return flagged, paragraphs


def longest(counts: Counter, rarer: float) -> int:
    """The smallest length that fewer than ``total / rarer`` words exceed."""
    total, longer = sum(counts.values()), sum(counts.values())
    for n in range(1, max(counts) + 1):
        longer -= counts.get(n, 0)
        if longer * rarer < total:
            return n
    return max(counts)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lang", nargs="+", required=True)
    ap.add_argument("--rarer", type=float, default=100_000)
    ap.add_argument("--chars", type=int, default=6_000_000, help="characters read from each file")
    args = ap.parse_args(argv)
    print(f"| pack | words read | longest seen | longer than this: under 1 in {args.rarer:,.0f} | dev paragraphs "
          "read as run together |")
    print("|---|---|---|---|---|")
    for lang in args.lang:
        card = json.loads((ROOT / "models" / lang / "char.json").read_text(encoding="utf-8"))
        counts: Counter = Counter()
        for corpus in card["corpora"]:
            counts += lengths(corpus_file(lang, Path(corpus["path"]).name), args.chars)
        flagged, paragraphs = run_together_share(lang, card.get("dev", []))
        print(f"| {lang} | {sum(counts.values()):,} | {max(counts)} | {longest(counts, args.rarer)} | "
              f"{flagged} of {paragraphs:,} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
