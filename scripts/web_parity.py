"""Parity of the offline page (web/) with the Python char engine, on held-out-like text, in headless chromium.

The page is served from the repository root by a loopback static server (as ``python -m http.server`` would) and
restores through ``window.charrestore.restore``; the Python char engine restores the same inputs in this process.
Per language and input form: the share of equal lines, the share of equal grapheme decisions (the class of each base
grapheme: its case and the marks and space after it) and the most graphemes any one line is off by.
WebAssembly's int8 kernels round differently from the native ones, so rare near-ties flip (issue 52).

Inputs, from ../shared/corpora (dev material only): en TED dev paragraphs (sound tags dropped) and the sentences of
the Brown news documents held out as dev (1 in 5), each de-spaced and spaced (``keep``); ja dev Wikipedia paragraphs,
dialogue turns and questions; gu Wikipedia paragraphs of the held-out articles (number % 50 == 0), de-spaced and
spaced. An input is its reference with the pack's marks, spaces (de-spaced) and case taken off.

    python scripts/web_parity.py [--lines 400] [--langs en ja gu] [--out reports/web_parity.json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import threading
import time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from charrestore import Restorer, load_pack
from charrestore.codec import parse, render, strip_features
from charrestore.holdout import held_out
from charrestore.packs import SPACE

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT.parent / "shared" / "corpora"
CHROMIUM = "/usr/bin/chromium"
SOUND_TAG = re.compile(r"\((?:[A-Z][a-z]+)(?: [a-z]+){0,3}\)")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


class WebPage:
    """web/index.html in headless chromium, served from the repository root on loopback. Records every request
    (refusing any that would leave the server) and the bytes the server sent."""

    def __init__(self):
        self.sent: dict[str, int] = {}
        page = self

        class Handler(SimpleHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def copyfile(self, source, outputfile):
                super().copyfile(source, outputfile)
                page.sent[self.path] = page.sent.get(self.path, 0) + source.tell()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Handler, directory=str(ROOT)))
        self.site = f"http://127.0.0.1:{self.server.server_port}/"
        self.requests: list[str] = []

    def __enter__(self) -> WebPage:
        from playwright.sync_api import sync_playwright

        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.playwright = sync_playwright().start()
        executable = CHROMIUM if os.access(CHROMIUM, os.X_OK) else shutil.which("chromium")
        self.browser = self.playwright.chromium.launch(executable_path=executable, args=ARGS, headless=True)
        context = self.browser.new_context()
        context.route("**/*", lambda route: (self.requests.append(route.request.url), route.continue_()
                                             if route.request.url.startswith(self.site) else route.abort()))
        self.page = context.new_page()
        self.page.goto(self.site + "web/index.html")
        self.page.wait_for_function("document.getElementById('fix-status').textContent.endsWith(' ms')",
                                    timeout=60000)
        return self

    def __exit__(self, *exc):
        self.browser.close()
        self.playwright.stop()
        self.server.shutdown()

    def restore(self, texts: list[str], lang: str, spaces: str = "auto", chunk: int = 50) -> list[str]:
        out = []
        for k in range(0, len(texts), chunk):
            out += self.page.evaluate("([texts, lang, spaces]) => Promise.all(texts.map((t) =>"
                                      " window.charrestore.restore(t, {lang, spaces})))", [texts[k:k + chunk], lang, spaces])
        return out

    @property
    def off_loopback(self) -> list[str]:
        return [url for url in self.requests if not url.startswith(self.site)]


def tsv_column(path: Path, column: int = -1):
    """(first column, chosen column) of each line of a TSV file."""
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            cols = line.rstrip("\n").split("\t")
            yield cols[0], cols[column]


def references(lang: str) -> dict[str, list[str]]:
    """Held-out-like reference lines per source of ``lang``."""
    if lang == "en":
        ted = [" ".join(SOUND_TAG.sub(" ", p).split()) for _, p in tsv_column(CORPORA / "en" / "ted_dev.tsv")]
        news = []
        with open(CORPORA / "en" / "brown_train_docs.tsv", encoding="utf-8") as fh:
            for line in fh:
                doc, category, text = line.rstrip("\n").split("\t")[:3]
                if category == "news" and held_out(doc, 5):
                    news += re.split(r"(?<=[.?!])\s+(?=[A-Z])", text)
        return {"ted_dev": [t for t in ted if re.search(r"[a-z]", t)], "brown_news_dev": news}
    if lang == "ja":
        return {"jaquad_wiki_dev": [p for _, p in tsv_column(CORPORA / "ja" / "jaquad_wiki_paragraphs_dev.tsv")],
                "asdc_dev": [p for _, p in tsv_column(CORPORA / "ja" / "asdc_dev.tsv")],
                "jaquad_questions_dev": (CORPORA / "ja" / "jaquad_questions_dev.txt").read_text("utf-8").splitlines()}
    return {"gu_wiki_heldout": [p for doc, p in tsv_column(CORPORA / "gu" / "gu_wiki_train.tsv")
                                if doc.isdigit() and held_out(doc, 50)]}


def inputs(reference: str, pack, spaced: bool) -> str:
    """The reference as unformatted input: the pack's marks, mapped punctuation and case taken off, and its spaces
    too unless ``spaced``."""
    if not spaced:
        return strip_features(reference, pack)
    base, classes = parse(reference, pack)
    return render(base, classes & pack.bit(SPACE), pack)


def agreement(lang: str, expected: list[str], got: list[str]) -> dict:
    """Equal lines, equal grapheme decisions, and the line with the most graphemes off (where, and how)."""
    pack = load_pack(lang)
    lines = graphemes = equal = 0
    worst = {"graphemes_off": 0}
    for a, b in zip(expected, got):
        base_a, cls_a = parse(a, pack, apply_map=False)
        base_b, cls_b = parse(b, pack, apply_map=False)
        off = (cls_a != cls_b).nonzero()[0].tolist() if base_a == base_b else list(range(len(base_a)))
        lines += a == b
        graphemes += len(base_a)
        equal += len(base_a) - len(off)
        if len(off) > worst["graphemes_off"]:
            worst = {"graphemes_off": len(off), "line_graphemes": len(base_a), "decisions": [
                {"at": i, "before": "".join(base_a[max(0, i - 30):i + 1]), "python": pack.class_name(int(cls_a[i])),
                 "web": pack.class_name(int(cls_b[i]))} for i in off[:6]]}
    return {"lines": len(expected), "equal_lines": lines, "line_agreement": round(lines / max(len(expected), 1), 5),
            "graphemes": graphemes, "equal_graphemes": equal, "grapheme_agreement": round(equal / max(graphemes, 1), 6),
            "worst_line_graphemes_off": worst["graphemes_off"], "worst_line": worst}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=400, help="lines per source and form (a fixed random sample)")
    parser.add_argument("--langs", nargs="+", default=["en", "ja", "gu"], choices=["en", "ja", "gu"])
    parser.add_argument("--out", default=str(ROOT / "reports" / "web_parity.json"))
    args = parser.parse_args()
    rows = []
    with WebPage() as web:
        for lang in args.langs:
            pack = load_pack(lang)
            python = Restorer(lang=lang, engine="char")
            for source, refs in references(lang).items():
                refs = [r for r in refs if r.strip()]
                sample = random.Random(0).sample(refs, min(args.lines, len(refs)))
                for form in (("despaced", "spaced-keep") if pack.has_space else ("unspaced",)):
                    texts = [inputs(r, pack, form == "spaced-keep") for r in sample]
                    spaces = "keep" if form == "spaced-keep" else "auto"
                    t0 = time.perf_counter()
                    expected = [python(t, spaces=spaces) for t in texts]
                    t1 = time.perf_counter()
                    got = web.restore(texts, lang, spaces)
                    t2 = time.perf_counter()
                    row = {"lang": lang, "source": source, "form": form, "spaces": spaces,
                           "chars": sum(map(len, texts)), "python_s": round(t1 - t0, 2), "web_s": round(t2 - t1, 2),
                           **agreement(lang, expected, got)}
                    rows.append(row)
                    print(f"{lang} {source} {form}: lines {row['equal_lines']}/{row['lines']} "
                          f"({row['line_agreement']:.2%}), graphemes {row['grapheme_agreement']:.4%}, "
                          f"worst line {row['worst_line_graphemes_off']}", flush=True)
        assert not web.off_loopback, web.off_loopback
    report = {"what": "offline page (web/, onnxruntime-web wasm, 1 thread) vs Python char engine, same inputs",
              "command": f"python scripts/web_parity.py --lines {args.lines} --langs {' '.join(args.langs)}", "rows": rows}
    Path(args.out).write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
