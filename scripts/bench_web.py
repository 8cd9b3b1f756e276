"""Speed of the offline page (web/) in headless chromium beside the Python char engine, on the same text in one run.

The text is de-spaced English, held-out-like: TED dev paragraphs (../shared/corpora/en/ted_dev.tsv, sound tags
dropped) when present, else tests/fixtures/text/en.txt; the same lines spaced and restored with ``spaces="keep"``
(no NB segmenter) are a second row. Both sides restore one line at a time, after one warm-up pass over the text
(the NB counts load on the first unspaced input, and V8 compiles the hot WebAssembly functions optimized only once
they have run a while): the Python char engine with one ONNX Runtime thread, the page with onnxruntime-web's
single-threaded wasm. Runs alternate between the two, and the best of ``--runs`` counts, so that a busy machine
slows both alike. Also: the bytes a first visit transfers (page + wasm + the en model), and with the
NB counts that the first unspaced input loads. Not a test: a benchmark to compare runs.

    python scripts/bench_web.py [--chars 40000] [--runs 3] [--out reports/bench_web.json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path

from web_parity import CORPORA, ROOT, SOUND_TAG, WebPage, inputs  # scripts/web_parity.py: this folder is on the path

from charrestore import Restorer, load_pack

TIMED = """async ([texts, spaces]) => {
  await window.charrestore.restore(texts[0], {lang: "en", spaces});
  const t0 = performance.now();
  for (const t of texts) await window.charrestore.restore(t, {lang: "en", spaces});
  return (performance.now() - t0) / 1000;
}"""


def references(chars: int) -> tuple[str, list[str]]:
    """(source, reference lines of about ``chars`` characters in all)."""
    ted = CORPORA / "en" / "ted_dev.tsv"
    if ted.is_file():
        source = "ted_dev.tsv"
        lines = [" ".join(SOUND_TAG.sub(" ", line.split("\t", 1)[1]).split()) for line in ted.open(encoding="utf-8")]
    else:
        source = "tests/fixtures/text/en.txt"
        lines = (ROOT / source).read_text(encoding="utf-8").splitlines()
    out, total = [], 0
    for line in (x for x in lines if len(x) > 40):
        out.append(line)
        total += len(line)
        if total >= chars:
            break
    return source, out


def python_seconds(restorer: Restorer, texts: list[str], spaces: str) -> float:
    restorer(texts[0], spaces=spaces)
    t0 = time.perf_counter()
    for text in texts:
        restorer(text, spaces=spaces)
    return time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chars", type=int, default=40000, help="characters of text (whole lines)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--out", default=str(ROOT / "reports" / "bench_web.json"))
    args = parser.parse_args()
    pack = load_pack("en")
    source, refs = references(args.chars)
    python = Restorer(lang="en", engine="char", threads=1)
    rows = []
    with WebPage() as web:
        first_visit = dict(web.sent)
        web.restore(["helloworld"], "en")
        with_counts = dict(web.sent)
        for form, spaced, spaces in (("despaced", False, "auto"), ("spaced-keep", True, "keep")):
            texts = [inputs(r, pack, spaced) for r in refs]
            chars = sum(map(len, texts))
            py, js = [], []
            python_seconds(python, texts, spaces)  # warm-up: V8 compiles hot wasm code optimized only after a while
            web.page.evaluate(TIMED, [texts, spaces])
            for _ in range(args.runs):
                py.append(python_seconds(python, texts, spaces))
                js.append(web.page.evaluate(TIMED, [texts, spaces]))
            row = {"form": form, "spaces": spaces, "lines": len(texts), "chars": chars,
                   "python_chars_per_s": round(chars / min(py)), "web_chars_per_s": round(chars / min(js)),
                   "python_s": [round(s, 3) for s in py], "web_s": [round(s, 3) for s in js]}
            row["web_share_of_python"] = round(row["web_chars_per_s"] / row["python_chars_per_s"], 3)
            rows.append(row)
            print(f"{form}: python {row['python_chars_per_s']} chars/s, web {row['web_chars_per_s']} chars/s "
                  f"({row['web_share_of_python']:.0%})", flush=True)
        version = web.browser.version
        assert not web.off_loopback, web.off_loopback
    transfer = {"first_visit_bytes": sum(first_visit.values()), "first_visit_files": first_visit,
                "with_nb_counts_bytes": sum(with_counts.values())}
    print(f"first visit (page + wasm + en model): {transfer['first_visit_bytes'] / 1e6:.2f} MB; with the NB counts "
          f"{transfer['with_nb_counts_bytes'] / 1e6:.2f} MB")
    report = {"what": "chars/s of the offline page (onnxruntime-web wasm, 1 thread) beside the Python char engine "
                      "(1 ORT thread), same text, same run; bytes a plain static server sends",
              "command": f"python scripts/bench_web.py --chars {args.chars} --runs {args.runs}", "text": source,
              "chromium": version, "cpus": os.cpu_count(), "load_average": [round(x, 2) for x in os.getloadavg()],
              "machine": platform.machine(), "rows": rows, "transfer": transfer}
    Path(args.out).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
