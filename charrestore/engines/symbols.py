"""Symbols that the token model never read in training, and how the pipeline shows words with them to it.

Training text maps "!" and ";" onto "." (the pack's ``map``) and holds no emoji, so a typed "wow!" or "it😀" reached
the model as pieces it had not seen, and it added marks after them ("Wow!, That was fun"). Now a word of such symbols
alone (":)", "🎉🎉", "<3") is left out of what the model reads, a word's trailing "!" or emoji is taken off its form, and
a typed "!" stands for the mark the map gives it: the word's label is that mark (the next word starts a sentence),
while the output shows the "!" as typed and adds nothing. A word ending in an emoji gets no mark after it.
Symbols that training text keeps ("♫" in TED's lyrics, "&") are read as before: the model learned what they mean.
"""

from __future__ import annotations

import numpy as np
import regex

from ..packs import LanguagePack
from ..spans import EMOJI, EMOJI_CHAR, EMOTICON


class Symbols:
    """The closing symbols of a pack (``map`` entries onto a sentence mark: "!", ";", "…" for en) and emoji."""

    def __init__(self, pack: LanguagePack, marks: list):
        """``marks``: the token model's mark per punctuation label (None for O)."""
        label_of = {m: i for i, m in enumerate(marks) if m}
        self.closers = {ch: label_of[t] for ch, t in pack.map.items() if t in pack.sentence_marks and t in label_of}
        closers = regex.escape("".join(self.closers))
        run = f"[{closers}]+|" if closers else ""
        self._gap = regex.compile(rf"(?<=\p{{L}})(?:{run}(?:{EMOJI})+)(?=\p{{L}})")
        self._tail = regex.compile(rf"(?:{run}{EMOJI})+$")
        mapped = regex.escape("".join({**pack.map, **pack.map_between_words}))
        # what training text never shows the model (an emoticon only as a word of its own, as spans.py finds it)
        self._unread = regex.compile(rf"(?:[{mapped}]|{EMOJI})*|(?i:{EMOTICON})")  # (forms are in small letters)
        # any word that ``read`` changes has one of these (one search over the text, then a loop over its hits)
        self._any = regex.compile(rf"{run}{EMOJI_CHAR}|(?<!\S)(?:[{mapped}]+|(?i:{EMOTICON}))(?!\S)")

    def cuts(self, text: str) -> list[int]:
        """Where a word ends in unspaced text beyond the segmenter's cuts (it cuts only inside runs of letters):
        after a run of closing symbols or emoji between two letters ("great!!!see", "it😀so")."""
        return [m.end() for m in self._gap.finditer(text)]

    def read(self, forms: list[str], forced: np.ndarray, none: int) -> tuple[list[str], np.ndarray, np.ndarray,
                                                                               np.ndarray]:
        """What the model reads: (the forms without their trailing symbols, which words it reads, the forced labels
        with those the symbols give, the words whose label a typed symbol shows). ``none``: the label O."""
        forced, read, typed, out = forced.copy(), np.ones(len(forms), bool), np.zeros(len(forms), bool), list(forms)
        hits = [m.start() for m in self._any.finditer(" ".join(forms))]
        if not hits:
            return out, read, forced, typed
        starts = np.cumsum([0] + [len(f) + 1 for f in forms[:-1]])
        for i in np.unique(np.searchsorted(starts, hits, "right") - 1).tolist():  # only the words with a hit
            tail = self._tail.search(forms[i])
            core = out[i] = forms[i][:tail.start()] if tail else forms[i]
            if self._unread.fullmatch(core):
                read[i] = False
            elif tail and forced[i] < 0:
                label = self.closers.get(tail.group()[-1])
                forced[i], typed[i] = (none, False) if label is None else (label, True)
        return out, read, forced, typed
