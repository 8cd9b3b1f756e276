"""Hashtags under NB count variants: STAN-large dev exact match of the plain NB and of the reranked k-best (the
shipped reranker's weights), each variant's models folder beside wordsegment, in one run.

A variant is a models root whose ``en/`` holds its ``nb.counts`` and ``nb.json`` (the other files, the reranker's
among them, linked from ``models/en``); build one with the shipped card's ``command`` and another ``--out``, e.g.
``--merge-wordfreq 0.1 --max-words 300000`` (issue 49). Running text is compared by
``CHARRESTORE_DATA=<root> python scripts/compare_boundaries.py --langs en --max-chars 40000`` (with a ``languages``
link beside ``models``).

    python scripts/compare_nb_vocab.py models runs/nb/en-wf0.1 runs/nb/en-wf0.3
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import regex

from charrestore.rerank import best_segmenter
from charrestore.segmenter import Segmenter
from charrestore.tuning.dev import load_hashtags

STAN_DEV = Path(__file__).resolve().parents[1].parent / "shared" / "corpora" / "hashtags" / "stan_large_dev.tsv"


def norm(text: str) -> str:
    return " ".join(regex.sub(r"[^\p{L}\p{N} ]", "", text.lower()).split())


def exact(segment, tags) -> float:
    return round(sum(norm(segment(t.lstrip("#"))) in {norm(g) for g in golds} for t, golds in tags) / len(tags), 4)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("roots", nargs="+", help="models roots (each with en/nb.counts)")
    args = ap.parse_args()
    tags = load_hashtags(STAN_DEV)
    import wordsegment  # the [bench] extra

    wordsegment.load()
    rows = {"wordsegment": {"exact": exact(lambda t: " ".join(wordsegment.segment(t)), tags)}}
    for root in args.roots:
        card = json.loads((Path(root) / "en" / "nb.json").read_text())
        rows[root] = {"nb": exact(Segmenter.load("en", Path(root)).segment, tags),
                      "reranked": exact(best_segmenter("en", Path(root)).segment, tags),
                      "words": card["counts"]["unigrams"],
                      "mb": round((Path(root) / "en" / card["file"]).stat().st_size / 1e6, 2)}
    print(json.dumps({"set": f"{STAN_DEV.name} ({len(tags)} tags)", "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
