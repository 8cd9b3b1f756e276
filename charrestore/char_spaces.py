"""Spaces alone from a pack's char model: ``charrestore segment --method char``.

Where NB counts cannot list the words (Korean eojeol agglutinate; Thai puts its spaces between phrases) or a pack has
none, the char model decides the spaces. Every space of the input is decided again, so text whose spacing is wrong
gets it corrected ("아버지가방에 들어가신다"); every other character stays as it was, in its case: the model's marks and
capitals are not shown. A text that restoring would normalize (a repeated mark) comes back unchanged.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

from .packs import SPACE, load_pack


class CharSpaces:
    """``segment(text)``: ``text`` with the spaces that the pack's char model restores."""

    def __init__(self, restorer):
        self.restorer = restorer

    @classmethod
    def load(cls, lang: str, models_dir: Path | None = None) -> "CharSpaces":
        from .restorer import Restorer

        if not load_pack(lang).has_space:
            raise ValueError(f"pack {lang!r} has no SPACE feature: its spaces are text, and no model restores them")
        return cls(Restorer(lang=lang, engine="char", spaces="restore", segmenter="none", apostrophes="keep",
                            models_dir=str(models_dir) if models_dir else None))

    def segment(self, text: str) -> str:
        norm = unicodedata.normalize(self.restorer.pack.normalization, text)
        return spaces_of(self.restorer(norm), norm)


def spaces_of(restored: str, text: str) -> str:
    """``text``'s characters other than white space, with a space wherever ``restored`` (``text`` with marks, spaces
    and case changed) has white space between them; ``text`` itself if the two do not align.

    >>> spaces_of("Hello, world.", "hel loworld")
    'hello world'
    """
    chars = [c for c in text if not c.isspace()]
    out, k, space = [], 0, False
    for c in restored:
        if c.isspace():
            space = bool(out)
        elif k < len(chars) and c.lower() == chars[k].lower():
            out.append(" " + chars[k] if space else chars[k])
            k, space = k + 1, False
        # else: a mark the model inserted
    return "".join(out) if k == len(chars) else text
