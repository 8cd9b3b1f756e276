"""A second char model for text typed without its diacritics ("chuc mung nam moi").

Vietnamese is often typed without its tone marks. The pack's char model never read such text: on Dân trí's dev
paragraphs without them it put commas everywhere (`,` precision 0.07) and lost most capitals. A pack may name a
model trained to read it (``char_plain`` in its ``[models]``: the char model fine-tuned on windows without their
diacritics, ``train char --plain``, with the same vocabulary). The engine reads a text whose letters carry no mark
with it, and any other text with the char model, whose decoding settings both share; the segmenter does the same with
its counts (plain_letters.py).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .. import runtime
from ..cards import ModelError, load_card
from ..plain_letters import is_plain


class PlainModel:
    """The pack's model of plain text, loaded on the first text that needs it."""

    def __init__(self, lang: str, name: str, models_dir: Path | None, vocab: list[str], threads: int):
        self.lang, self.name, self.models_dir, self.vocab, self.threads = lang, name, models_dir, vocab, threads
        self.marked = np.array([not is_plain(g) for g in vocab], bool)  # a grapheme id with a diacritic
        self.letters = np.array([g[:1].isalpha() for g in vocab], bool)
        self._session = None

    def verify(self) -> tuple[dict, Path]:
        """The model's card and file, checked (``ModelError`` if either is damaged or reads another vocabulary)."""
        card, path = load_card(self.lang, self.name, self.models_dir, kind="char_e2e")
        if list(card["vocab"]) != list(self.vocab):
            raise ModelError(f"{path}: its vocabulary is not the char model's")
        return card, path

    def reads(self, gids: np.ndarray) -> bool:
        """Whether the graphemes ``gids`` (vocabulary ids) hold letters and none with a diacritic."""
        return bool(len(gids)) and not self.marked[gids].any() and bool(self.letters[gids].any())

    def session(self):
        if self._session is None:
            self._session = runtime.session(self.verify()[1], self.threads)
        return self._session
