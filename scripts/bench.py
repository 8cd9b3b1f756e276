"""Speed and size benchmarks of the shipped engines (medians of several runs; not a test).

- latency on the 42-word paragraph of Table 5 of the CNN-BiLSTM paper, at 1 and 2 threads;
- throughput (chars/s) on a 1 MB document, unspaced (spaces restored: the engine's default segmenter choice, and
  the char model alone) and spaced (``--spaces keep``), at 1 and 2 threads;
- cold start of ``charrestore fix "…"`` as a whole process;
- peak RSS (VmHWM) of a fresh process that restores the 1 MB document;
- model file size;
- for en, spaces alone on an unspaced document: the NB segmenter beside wordsegment (``--peer-size`` characters);
  for ko, spacing alone: kiwipiepy's ``space()`` on the same unspaced document.

``charrestore bench`` is the quick version (Table 5 or the user's text, same median timer).
Engines run interleaved in one process, so rows compare with each other on the same (possibly busy) machine.
The long documents are dev text when ../shared is there (en: TED dev; ja: JaQuAD dev; gu: held-out articles; ko:
Korean Wikipedia dev; de, ru, es, th, fr: their dev files; zh: Wikipedia dev), else the fixture texts. ``graphemes_per_char`` converts the
chars/s to graphemes/s (the char model's step: a Thai or Gujarati grapheme is often two or three characters).

    python scripts/bench.py [--lang en] [--engines char pipeline] [--out reports/bench_en.md]
"""

from __future__ import annotations

import argparse
import json
import lzma
import platform
import subprocess
import sys
from pathlib import Path

from charrestore.bench import TABLE5, median_time

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT.parent / "shared" / "corpora"
DEV_TEXT = {"en": (CORPORA / "en" / "ted_dev.tsv", 0), "ja": (CORPORA / "ja" / "jaquad_wiki_paragraphs_dev.tsv", 0),
            "gu": (CORPORA / "gu" / "gu_wiki_train.tsv", 50), "ko": (CORPORA / "ko" / "kowiki_dev.tsv.xz", 0),
            "de": (CORPORA / "de" / "de_bundestag_dev.tsv.xz", 0), "ru": (CORPORA / "ru" / "ruslit_prose_dev.tsv.xz", 0),
            "es": (CORPORA / "es" / "es_congreso_dev.tsv.xz", 0), "th": (CORPORA / "th" / "thaigov_dev.tsv.xz", 0),
            "fr": (CORPORA / "fr" / "eltec_novels_dev.tsv.xz", 0), "zh": (CORPORA / "zh" / "wiki_dev.tsv.xz", 0),
            "vi": (CORPORA / "vi" / "viwiki_dev.tsv.xz", 0)}
_PEAK_RSS = "next(int(l.split()[1]) / 1024 for l in open('/proc/self/status') if l.startswith('VmHWM'))"


def long_document(lang: str, size: int, spaced: bool) -> str:
    """``size`` characters of lower-case, mark-free text; spaced (ASR style) or with its spaces removed."""
    from charrestore import load_pack
    from charrestore.codec import parse, render

    pack = load_pack(lang)
    path, holdout = DEV_TEXT.get(lang, (None, 0))
    if path and path.is_file():
        with (lzma.open(path, "rt", encoding="utf-8") if path.suffix == ".xz" else open(path, encoding="utf-8")) as fh:
            lines = [line.rstrip("\n").split("\t") for line in fh]
        text = " ".join(c[-1] for c in lines if not holdout or (c[0].isdigit() and int(c[0]) % holdout == 0))
    else:
        text = (ROOT / "tests" / "fixtures" / "text" / f"{lang}.txt").read_text(encoding="utf-8")
    base, classes = parse(text[: 2 * size], pack)
    text = render(base, classes & pack.bit("SPACE") if spaced else classes * 0, pack)
    return (text * (size // max(len(text), 1) + 1))[:size]


def cold_start(lang: str, engine: str, runs: int) -> float:
    """Median wall time of a whole ``charrestore fix`` process on a short input."""
    cmd = [sys.executable, "-m", "charrestore", "fix", "--lang", lang, "--engine", engine, "willaichangeourfuture"]
    return median_time(lambda: subprocess.run(cmd, check=True, capture_output=True), runs)


def peak_rss_mb(lang: str, engine: str, doc: str) -> float:
    """VmHWM of a fresh process that restores ``doc`` from stdin (ru_maxrss would carry this process's over)."""
    code = (f"import sys; from charrestore.cli import main; main(['fix', '--lang', {lang!r}, '--engine', {engine!r}]); "
            f"print({_PEAK_RSS}, file=sys.stderr)")
    res = subprocess.run([sys.executable, "-c", code], input=doc.encode(), capture_output=True, check=True)
    return float(res.stderr.decode().strip().splitlines()[-1])


def bench_engine(lang: str, engine: str, runs: int, size: int) -> dict:
    from charrestore import Restorer

    from charrestore.clusters import graphemes

    row = {"engine": engine, "lang": lang}
    unspaced, spaced = long_document(lang, size, False), long_document(lang, size, True)
    row["graphemes_per_char"] = len(graphemes(unspaced)) / len(unspaced)  # Thai, Gujarati: chars/s > graphemes/s
    for threads in (1, 2):
        r = Restorer(lang=lang, engine=engine, threads=threads, batch_size=32)
        r(TABLE5)  # warm-up
        row[f"table5_ms_{threads}t"] = 1000 * median_time(lambda: r(TABLE5), runs * 10)
        row[f"unspaced_chars_per_s_{threads}t"] = len(unspaced) / median_time(lambda: r(unspaced), runs)
        row[f"spaced_chars_per_s_{threads}t"] = len(spaced) / median_time(lambda: r(spaced, spaces="keep"), runs)
    if engine == "char":
        alone = Restorer(lang=lang, engine=engine, threads=1, batch_size=32, segmenter="none")
        row["unspaced_model_alone_chars_per_s_1t"] = len(unspaced) / median_time(lambda: alone(unspaced), runs)
        row["nb_spaces"] = bool(r.engine.segmenter)
    row["cold_start_s"] = cold_start(lang, engine, runs + 4)
    row["peak_rss_mb_1mb_doc"] = peak_rss_mb(lang, engine, unspaced + "\n")
    from charrestore.cards import card_location

    kind = "char" if engine == "char" else "token"
    row["model_mb"] = (card_location(lang, r.pack.models[kind]).parent / r.engine.card["file"]).stat().st_size / 1e6
    return row


def bench_segmenters(runs: int, size: int) -> list[dict]:
    """Spaces alone on the unspaced English document (``size`` characters): the NB segmenter (the pipeline's first
    stage) beside wordsegment, the usual peer, timed in the same process one after the other."""
    import wordsegment

    from charrestore.segmenter import Segmenter

    doc = long_document("en", size, False)
    seg = Segmenter.load("en")
    wordsegment.load()
    rows = []
    for name, fn in (("NB segmenter (spaces only)", seg.segment), ("wordsegment (spaces only)", wordsegment.segment)):
        fn(doc[:5000])  # warm-up (and the C loop's tables)
        rows.append({"engine": name, "lang": "en", "unspaced_chars_per_s_1t": len(doc) / median_time(lambda: fn(doc), runs)})
    return rows


def bench_kiwi(runs: int, size: int) -> list[dict]:
    """Spacing alone on the unspaced Korean document (``size`` characters): kiwipiepy's ``space()``, the peer
    issue 47 names."""
    import kiwipiepy

    doc, kiwi = long_document("ko", size, False), kiwipiepy.Kiwi()  # one string: one thread
    kiwi.space(doc[:2000])  # warm-up
    return [{"engine": f"kiwipiepy {kiwipiepy.__version__} space() (spaces only)", "lang": "ko",
             "unspaced_chars_per_s_1t": len(doc) / median_time(lambda: kiwi.space(doc), runs)}]


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--lang", default="en")
    p.add_argument("--engines", nargs="+", default=["char", "pipeline"])
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--size", type=int, default=1_000_000, help="long-document size in characters")
    p.add_argument("--peer-size", type=int, default=10_000,
                   help="document size of the segmenter rows (en; wordsegment runs at about 500 chars/s on it)")
    p.add_argument("--out", help="report path (default: reports/bench_<lang>.md)")
    args = p.parse_args()
    out = Path(args.out or ROOT / "reports" / f"bench_{args.lang}.md")
    rows = [bench_engine(args.lang, e, args.runs, args.size) for e in args.engines]
    if args.lang == "en":
        rows += bench_segmenters(args.runs, args.peer_size)
    if args.lang == "ko":
        rows += bench_kiwi(args.runs, args.peer_size)
    cols = list(dict.fromkeys(k for row in rows for k in row))
    lines = [f"Machine: {platform.machine()}, {platform.python_version()}; medians of {args.runs} runs "
             f"(Table-5 latency: {args.runs * 10}); `python {' '.join(sys.argv)}`", "",
             "| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for row in rows:
        lines.append("| " + " | ".join(f"{row[c]:,.1f}" if isinstance(row.get(c), float) else str(row.get(c, "–"))
                                       for c in cols) + " |")
    report = "\n".join(lines) + "\n"
    print(report)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(report)
    out.with_suffix(".json").write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
