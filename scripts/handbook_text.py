"""Modern expository prose from Debian's books: The Debian Administrator's Handbook (``debian-handbook``, GPL-2+ or
CC BY-SA 3.0; written in French, translated into de, es, ru, vi and more), the Debian Reference
(``debian-reference-<lang>``, GPL-2+) and the Debian Installation Guide (``installation-guide-amd64``, GPL-2+): text of
today's register for the packs whose training text is one old or formal register (fr: novels 1840-1920).

The packages come from the Debian archive (``apt-get download``) into ``--work``. Each page's prose paragraphs
whose letters the shipped detector names the page's language (untranslated paragraphs stay English), with at least
60 letters, ending a sentence, and holding no code, file name, command or address, become one document per page
(``<book>/<page><TAB>paragraph``) in ``runs/handbook/<lang>_train.tsv`` or, every ``--dev-every``-th page of a book
in name order, ``runs/handbook/<lang>_dev.tsv`` (git-ignored, never committed):

    python scripts/handbook_text.py --lang fr de es ru vi
"""

from __future__ import annotations

import argparse
import html
import unicodedata
from pathlib import Path

import regex

from fortunes_dev import unpacked  # a sibling in scripts/: a Debian package downloaded and unpacked once

ROOT = Path(__file__).resolve().parent.parent
LOCALES = {"de": "de-DE", "es": "es-ES", "fr": "fr-FR", "ru": "ru-RU", "vi": "vi-VN", "ko": "ko-KR", "zh": "zh-CN"}
DIV_PARA = regex.compile(r'<div class="para">(.*?)</div>', regex.S)
P_PARA = regex.compile(r"<p>(.*?)</p>", regex.S)
# book: (package, its pages of one language, their paragraphs)
BOOKS = {
    "handbook": ("debian-handbook", lambda lang: f"usr/share/doc/debian-handbook/html/{LOCALES.get(lang, lang)}/*.html",
                 DIV_PARA),
    "reference": ("debian-reference-{lang}", lambda lang: f"usr/share/debian-reference/*.{lang}.html", P_PARA),
    "install": ("installation-guide-amd64", lambda lang: f"usr/share/doc/installation-guide-amd64/{lang}/*.html",
                P_PARA),
}
TAGGED_CODE = regex.compile(r'<(code|pre|span class="(?:command|filename|replaceable|literal))\b')
TAG = regex.compile(r"<[^>]+>")
LETTERS = regex.compile(r"\p{L}")
CODE = regex.compile(r"[|_/\\<>{}@#=*~^$]|https?:|\.deb\b|\b\w+\.(?:conf|list|d|sh|py|html?)\b")
ENDS = (".", "?", "!", "»", ".)", "…")


def page_paragraphs(page: str, lang: str, detector, para=DIV_PARA) -> list[str]:
    """The prose paragraphs of one HTML page, in ``lang`` by the detector, without code or paths."""
    out = []
    for raw in para.findall(page):
        if TAGGED_CODE.search(raw):
            continue
        body = regex.sub(r"\s+", " ", html.unescape(TAG.sub("", raw))).strip()
        body = unicodedata.normalize("NFC", body)
        if (len(LETTERS.findall(body)) >= 60 and body.endswith(ENDS) and not CODE.search(body)
                and detector.detect(body) == lang):
            out.append(body)
    return out


def build(lang: str, work: Path, out: Path, dev_every: int) -> tuple[int, int]:
    from charrestore.detect import Detector
    detector = Detector.load()
    out.mkdir(parents=True, exist_ok=True)
    counts = [0, 0]
    with open(out / f"{lang}_train.tsv", "w", encoding="utf-8") as train, \
            open(out / f"{lang}_dev.tsv", "w", encoding="utf-8") as dev:
        for book, (package, pages, para) in BOOKS.items():
            tree = unpacked(package.format(lang=lang), work)
            for k, page in enumerate(sorted(tree.glob(pages(lang))) if tree else []):
                side = int(k % dev_every == dev_every - 1)
                for body in page_paragraphs(page.read_text(encoding="utf-8"), lang, detector, para):
                    (dev if side else train).write(f"{book}/{page.stem}\t{body}\n")
                    counts[side] += len(body)
    print(f"{out}/{lang}_{{train,dev}}.tsv: {counts[0]:,} and {counts[1]:,} characters")
    return counts[0], counts[1]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lang", nargs="+", default=["fr"])
    ap.add_argument("--work", type=Path, default=ROOT / "runs" / "handbook" / "debs")
    ap.add_argument("--dev-every", type=int, default=5, help="every N-th page is dev text (default 5)")
    args = ap.parse_args(argv)
    for lang in args.lang:
        build(lang, args.work, ROOT / "runs" / "handbook", args.dev_every)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
