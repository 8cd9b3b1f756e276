"""Rewrite NB counts files (``nb.counts``) in the current format of ``charrestore/counts.py``, with their cards.

The counts are not rebuilt: the same words, counts, pairs and reach, only laid out as the current format lays them
(format 2: the words sorted by code point, for ``sorted_words.py``). The card's ``format`` and ``sha256`` follow; its
``command`` (how the counts were built from the corpora) stays true, since that command now writes this format.

    python scripts/upgrade_counts.py models/*/nb.counts
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from charrestore.cards import write_card
from charrestore.counts import FORMAT, read, write


def upgrade(path: Path) -> bool:
    """Rewrite ``path`` and its card (``nb.json`` beside it) where its format is older; whether it was."""
    words, counts, contexts, reach, is_sorted = read(path)
    if is_sorted:
        return False
    write(path, words, counts, contexts)
    again = read(path)
    if dict(zip(again.words, again.counts.tolist())) != dict(zip(words, counts.tolist())) or again.reach != reach \
            or again.contexts != contexts:
        raise SystemExit(f"{path}: the rewritten counts differ")
    card_path = path.with_suffix(".json")
    card = json.loads(card_path.read_text(encoding="utf-8"))
    write_card(card_path, {**card, "format": FORMAT})
    return True


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("paths", nargs="+", type=Path)
    for path in p.parse_args().paths:
        print(path, "rewritten" if upgrade(path) else "already current")


if __name__ == "__main__":
    main()
