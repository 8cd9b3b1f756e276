"""Out-of-register dev text from Debian's fortune packages: modern aphorisms, jokes and quotes (fortunes-ru: 2001-2006
Russian web humour; fortunes-de; fortunes-es), for the packs whose training text is one old or formal register.
Debian has no French fortunes; for fr the text is the French Debian FAQ (debian-faq-fr, GPL-2+): its prose paragraphs
that the detector names French, modern text whose typography ("« … »", a space before "?") is today's.

The packages come from the Debian archive (``apt-get download fortunes-<lang>``, GPL-2+ data) into ``--work``; each
fortune becomes one document (``<file>:<n><TAB>text``: its lines joined, the ``-- Author`` lines and ASCII art
dropped) in ``runs/fortunes/<lang>.tsv`` (git-ignored, never committed). Used to measure, never to tune:
``python scripts/compare_boundaries.py --langs ru --extra ru=runs/fortunes/ru.tsv``; no shipped model trains on it
(``--split``'s training part fed a trial that did not ship, docs/results.md).

    python scripts/fortunes_dev.py --lang ru de es fr
    python scripts/fortunes_dev.py --lang ru --split 10   # also <lang>-sample.tsv (every 10th) and <lang>-train.tsv
"""

from __future__ import annotations

import argparse
import gzip
import subprocess
import unicodedata
from pathlib import Path

import regex

ROOT = Path(__file__).resolve().parent.parent
AUTHOR = regex.compile(r"^\s*(--|—|―)\s*\S")
LETTERS = regex.compile(r"\p{L}")
CODE = regex.compile(r"[|_/\\<>{}@#=*~^$]|https?:|\.deb\b")  # paths, commands, addresses
FAQ_ONLY = ("fr",)  # Debian has no fortunes in these languages
ODD = regex.compile(r"[|_/\\<>{}@#=*~^]|[ \t]{3,}\S")  # ASCII art, tables, code, chat logs with columns


def entries(text: str):
    """The fortunes of one file: its ``%``-separated entries, attribution lines dropped, lines joined."""
    for raw in regex.split(r"(?m)^%\s*$", text):
        lines = [ln for ln in raw.strip("\n").splitlines() if ln.strip() and not AUTHOR.match(ln)]
        if not lines or any(ODD.search(ln) for ln in lines):
            continue
        body = " ".join(ln.strip() for ln in lines)
        if len(LETTERS.findall(body)) >= 20:
            yield unicodedata.normalize("NFC", body)


def fortune_files(folder: Path):
    for f in sorted(folder.rglob("*")):
        if f.is_file() and not f.is_symlink() and f.suffix not in (".dat", ".u8", ".gz") and "off" not in f.parts:
            yield f


def faq_paragraphs(text: str, lang: str):
    """The prose paragraphs of a Debian FAQ's text form (indented, lines joined, a list's bullet dropped), in
    ``lang`` by the shipped detector, with at least 80 letters, ending a sentence, and without paths or code."""
    from charrestore.detect import Detector
    detector = Detector.load()
    for raw in regex.split(r"\n\s*\n", text):
        lines = raw.splitlines()
        if not lines or not all(ln[:1] in (" ", "\xa0") for ln in lines):
            continue
        body = regex.sub(r"^\* ", "", regex.sub(r"\s+", " ", " ".join(ln.strip() for ln in lines)).strip())
        if (len(LETTERS.findall(body)) >= 80 and body.endswith((".", "?", "!")) and not CODE.search(body)
                and detector.detect(body) == lang):
            yield unicodedata.normalize("NFC", body)


def unpacked(package: str, work: Path) -> Path | None:
    """The Debian package's files, downloaded and unpacked into ``work`` once (None where Debian has no such
    package; handbook_text.py reads its books this way too)."""
    work.mkdir(parents=True, exist_ok=True)
    deb = next(work.glob(f"{package}_*.deb"), None)
    if deb is None:
        if subprocess.run(["apt-get", "download", package], cwd=work).returncode:
            return None
        deb = next(work.glob(f"{package}_*.deb"))
    tree = work / package
    if not tree.is_dir():
        subprocess.run(["dpkg-deb", "-x", str(deb), str(tree)], check=True)
    return tree


def required(package: str, work: Path) -> Path:
    tree = unpacked(package, work)
    if tree is None:
        raise SystemExit(f"apt-get could not download {package}")
    return tree


def build_faq(lang: str, work: Path, out: Path) -> int:
    tree = required(f"debian-faq-{lang}", work)
    text = gzip.decompress(next(tree.rglob(f"debian-faq.{lang}.txt.gz")).read_bytes()).decode("utf-8")
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", encoding="utf-8") as fh:
        n = 0
        for n, body in enumerate(faq_paragraphs(text, lang), 1):
            fh.write(f"faq:{n}\t{body}\n")
    print(f"{out}: {n} paragraphs of debian-faq-{lang}")
    return n


def build(lang: str, work: Path, out: Path) -> int:
    if lang in FAQ_ONLY:
        return build_faq(lang, work, out)
    tree = required(f"fortunes-{lang}", work)
    deb = next(work.glob(f"fortunes-{lang}_*.deb"))
    games = tree / "usr" / "share" / "games"
    folder = next(p for p in (games / "fortunes" / lang, games / f"fortunes-{lang}", games / "fortunes") if p.is_dir())
    n = 0
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", encoding="utf-8") as fh:
        for f in fortune_files(folder):
            try:
                text = f.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue
            for k, body in enumerate(entries(text)):
                fh.write(f"{f.name}:{k}\t{body}\n")
                n += 1
    print(f"{out}: {n} fortunes from {deb.name}")
    return n


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lang", nargs="+", default=["ru", "de", "es", "fr"])
    ap.add_argument("--work", type=Path, default=ROOT / "runs" / "fortunes" / "debs")
    ap.add_argument("--split", type=int, default=0, metavar="N",
                    help="also write every N-th line to <lang>-sample.tsv (measures) and the rest to <lang>-train.tsv")
    args = ap.parse_args(argv)
    for lang in args.lang:
        out = ROOT / "runs" / "fortunes" / f"{lang}.tsv"
        build(lang, args.work, out)
        if args.split:
            lines = out.read_text(encoding="utf-8").splitlines(keepends=True)
            for name, keep in (("sample", True), ("train", False)):
                part = [ln for i, ln in enumerate(lines) if (i % args.split == args.split - 1) == keep]
                out.with_name(f"{lang}-{name}.tsv").write_text("".join(part), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
