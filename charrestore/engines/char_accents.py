"""What the char model reads of text typed without its accents: the likely marked words (accents.py).

The letters printed stay the input's; only the vocabulary ids that the model reads change, word by word, where the
pack is often typed plain (``plain_typing``), ships NB counts, and no letter of the input has a mark.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import numpy as np
import regex

from ..accents import WORD, Accents
from ..cards import card_location
from ..packs import LanguagePack
from ..plain_letters import is_plain, keyboard_plain
from .char_input import UNK


class AccentReader:
    """The pack's NB counts, read on the first plain text, and their marked words by plain form (built once)."""

    def __init__(self, counts, keyboard: str = ""):
        """``keyboard``: the pack's ``keyboard_letters``, marked letters that a text typed without accents holds."""
        self._counts, self._keyboard, self._accents = counts, keyboard, None

    @classmethod
    def of(cls, pack: LanguagePack, models_dir: Path | None) -> AccentReader | None:
        """The reader of a pack typed plain that ships NB counts, else None."""
        name = pack.models.get("nb")
        if not (pack.plain_typing and name and card_location(pack.code, name, models_dir).is_file()):
            return None
        from ..segmenter import Segmenter

        return cls(partial(Segmenter.load, pack.code, models_dir), pack.keyboard_letters)

    def reads(self, base: list[str]) -> bool:
        """Whether ``base`` holds a letter and none with a mark, but for the keyboard's own letters."""
        text = "".join(base)
        return is_plain(keyboard_plain(text, self._keyboard)) and regex.search(r"\p{L}", text) is not None

    @property
    def accents(self) -> Accents:
        if self._accents is None:
            self._accents = Accents(self._counts())
        return self._accents

    def ids(self, base: list[str], gids: np.ndarray, spaced: np.ndarray, index: dict[str, int]) -> np.ndarray:
        """``gids`` with each word of ``base`` (lower-case plain graphemes; ``spaced``: a space decided after the
        grapheme) read as its most likely marked form, where that form is as long and the model knows its letters."""
        # one character per grapheme (one UTF-16 unit, as the page reads it), a word's letters as they are
        text = "".join(g if len(g) == 1 and g < "\U00010000" else "\x00" for g in base)
        ends = np.flatnonzero(spaced) + 1
        spans = []
        for m in WORD.finditer(text):
            a, b = m.span()
            edges = [a, *ends[(ends > a) & (ends < b)].tolist(), b]
            spans += zip(edges[:-1], edges[1:])
        words = [text[a:b].replace("’", "'") for a, b in spans]
        out = gids
        for (a, b), word, form in zip(spans, words, self.accents.forms(words)):
            if form != word and len(form) == b - a:
                ids = [index.get(c, UNK) for c in form]
                if UNK not in ids:
                    out = out.copy() if out is gids else out
                    out[a:b] = ids
        return out
