"""Dev references shared by the evaluation and tuning scripts: one cleaned document per line."""

from __future__ import annotations

from pathlib import Path

from charrestore.training.corpus import clean


def load_dev(files, pack, holdout: int = 0) -> list[str]:
    """Cleaned paragraphs (TSV: last column; TXT: each line). With ``holdout``, only documents whose
    numeric id (first column) is a multiple of it: the held-out articles of a training file."""
    docs = []
    for f in files:
        for line in Path(f).read_text(encoding="utf-8").splitlines():
            cols = line.split("\t")
            if holdout and not (cols[0].isdigit() and int(cols[0]) % holdout == 0):
                continue
            text = clean(cols[-1], pack)
            if text:
                docs.append(text)
    return docs
