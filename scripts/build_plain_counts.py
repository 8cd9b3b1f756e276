"""Build a pack's plain counts (``models/<lang>/nb_plain.counts`` and its card): the pack's NB counts with every word's
diacritics taken off (charrestore/plain_letters.py), for text typed without them ("chucmungnammoi").

Words and pairs that differ only in their marks become one, their counts summed; the card keeps the NB card's
parameters and total. The pack then names the file in its ``[models]`` (``nb_plain = "nb_plain"``).

    python scripts/build_plain_counts.py --lang vi
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

from charrestore.cards import sha256_of
from charrestore.counts import FORMAT, read, write
from charrestore.plain_letters import plain_counts

ROOT = Path(__file__).resolve().parent.parent


def build(lang: str, models: Path) -> dict:
    folder = models / lang
    nb = json.loads((folder / "nb.json").read_text(encoding="utf-8"))
    words, counts, contexts, _ = read(folder / nb["file"])
    plain_words, plain, pairs = plain_counts(words, counts, contexts)
    out = folder / "nb_plain.counts"
    write(out, plain_words, plain, pairs)
    card = {"name": "nb_plain", "kind": "nb", "lang": lang, "file": out.name, "format": FORMAT,
            "total": nb.get("total"), "params": nb.get("params", {}), "prose_params": nb.get("prose_params", {}),
            "counts": {"unigrams": len(plain_words), "bigrams": sum(len(v.split(" ")) // 2 for v in pairs.values()),
                       "from_unigrams": len(words),
                       "from_bigrams": sum(len(v.split(" ")) // 2 for v in contexts.values())},
            "built_from": {"file": nb["file"], "sha256": nb["sha256"], "sources": nb.get("sources", [])},
            "rule": "every word of the NB counts without the combining marks of its letters (and đ, ø, ł as d, o, "
                    "l); words and pairs that become one have their counts summed (charrestore/plain_letters.py)",
            "command": "python scripts/build_plain_counts.py " + shlex.join(sys.argv[1:]),
            "sha256": sha256_of(out)}
    (folder / "nb_plain.json").write_text(json.dumps(card, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return card


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lang", nargs="+", required=True)
    ap.add_argument("--models", type=Path, default=ROOT / "models")
    args = ap.parse_args()
    for lang in args.lang:
        card = build(lang, args.models)
        print(f"{lang}: {card['counts']['from_unigrams']:,} words -> {card['counts']['unigrams']:,}, "
              f"{card['counts']['from_bigrams']:,} pairs -> {card['counts']['bigrams']:,} "
              f"({(args.models / lang / card['file']).stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
