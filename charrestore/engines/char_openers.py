"""The input's last mark, weighed by the word that opens its last sentence (scripts/build_sentence_openers.py).

A char model reads windows cut from running text, so it decides the input's last mark with no text after it, and
a short question typed alone ("was machst du heute abend", "почему ты молчишь") often came out with ".". The words
that open a sentence say much of how it ends: in the German training text 95% of the sentences that "warum" opens
end with "?", against 4% of all. A card's ``sentence_openers`` hold, per sentence mark, such words and their lift:
the log odds of that mark after them less its log odds overall (natural log, the logits' unit). At the input's end
the mark gains its lift times the card's ``sentence_opener_weight`` (tuned on dev sentences) against the mark the
model chose; the marks inside the input, which the model reads with the text after them, stay its own.

>>> from charrestore.packs import load_pack
>>> pack = load_pack("de")
>>> openers = SentenceOpeners(pack, {"sentence_openers": {"?": {"warum": 3.0}}},
...                           ["<pad>", "<unk>", "w", "a", "r", "u", "m", "n", "i", "c", "h", "t"])
>>> gids = np.arange(2, 12)  # "warum nicht"
>>> period, question = pack.bit("."), pack.bit("?")
>>> cls = np.zeros(10, np.int32); cls[4] = pack.bit("SPACE"); cls[-1] = period
>>> scores = np.zeros((10, pack.n_classes), np.float32); scores[-1, period] = 2.0; scores[-1, question] = 0.5
>>> openers.opener(gids, cls, True), int(openers.at_end(scores, cls, gids, True, 1.0)[-1]) == question  # 0.5 + 3 > 2
('warum', True)
"""

from __future__ import annotations

import numpy as np

from ..packs import SPACE, LanguagePack
from .char_input import UNK


def edges_trimmed(word: str) -> str | None:
    """``word`` without the signs at its edges (None: it holds no letter): how an opener is read, here and when
    scripts/build_sentence_openers.py counts them.

    >>> edges_trimmed("«qu'est-ce"), edges_trimmed("—")
    ("qu'est-ce", None)
    """
    letters = [k for k, c in enumerate(word) if c.isalpha()]
    return word[letters[0]:letters[-1] + 1] if letters else None


class SentenceOpeners:
    """A card's sentence openers; false where it has none (its weight is a decoding setting: char_settings.py)."""

    def __init__(self, pack: LanguagePack, card: dict, vocab: list[str]):
        self.vocab, self.space_bit = vocab, pack.bit(SPACE)
        self.sentence_bits = pack.sentence_bits
        self.lift = {pack.bit(mark): words for mark, words in (card.get("sentence_openers") or {}).items()
                     if mark in pack.sentence_marks and words}

    def __bool__(self) -> bool:
        return bool(self.lift and self.space_bit)

    def opener(self, gids: np.ndarray, cls: np.ndarray, from_start: bool) -> str | None:
        """The first word of the last sentence in ``cls`` (a window's kept part that ends the input): after its last
        sentence mark but the final one, or from its start where it starts the input (else None); the graphemes up to
        the next space, without the signs (and graphemes the model does not know) at its edges."""
        ends = np.flatnonzero(cls[:-1] & self.sentence_bits)
        if not len(ends) and not from_start:
            return None
        start = int(ends[-1]) + 1 if len(ends) else 0
        spaces = np.flatnonzero(cls[start:] & self.space_bit)
        end = start + int(spaces[0]) + 1 if len(spaces) else len(cls)
        return edges_trimmed("".join(self.vocab[g] if g > UNK else "\0" for g in gids[start:end].tolist()))

    def at_end(self, scores: np.ndarray, cls: np.ndarray, gids: np.ndarray, from_start: bool,
               weight: float) -> np.ndarray:
        """``cls`` with its last class's sentence mark weighed anew by the last sentence's opener, its lift times
        ``weight`` (``scores``: the rows of ``cls``; ``gids``: the graphemes read)."""
        last = int(cls[-1])
        if not last & self.sentence_bits:
            return cls
        word = self.opener(gids, cls, from_start)
        if word is None:
            return cls
        options = {last: 0.0}
        for bit, words in self.lift.items():
            if word in words:
                options[(last & ~self.sentence_bits) | bit] = words[word]
        cls[-1] = max(options, key=lambda c: float(scores[-1, c]) + weight * options[c])  # first best: the model's
        return cls
