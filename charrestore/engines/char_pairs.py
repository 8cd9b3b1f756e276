"""Paired marks: a mark that opens a span ("¿") and the sentence-final mark that closes it ("?"), decided together.

The model scores each grapheme on its own, so the two ends of a question disagree: es opened questions with "¿"
and closed them with ".". A pack's ``[pairs]`` table names the pairs; for every sentence whose two ends disagree,
the decoder takes the better of the two agreeing readings, by the sum of the score changes each needs: a question
("¿" at its best clause start, "?" at the best clause end after it: a mark of the model's, or the sentence's
end), or neither. The gains are kept per position as the windows are decoded (a sentence may span windows), so
the output stays independent of the batch.
"""

from __future__ import annotations

import numpy as np

from ..packs import SPACE, LanguagePack


class Pairing:
    """The pack's pairs as class bits, the gains each position offers, and the joint decision per sentence."""

    def __init__(self, pack: LanguagePack):
        self.pairs = [(pack.bit(o), pack.bit(c)) for o, c in pack.pairs.items()]
        self.space_bit = pack.bit(SPACE)
        self.sentence_bits = pack.sentence_bits
        self.mark_bits, self.opening_bits = pack.mark_bits, pack.opening_bits
        classes = np.arange(pack.n_classes)
        singles = [pack.bit(m) for m in pack.sentence_marks]
        closing = pack.mark_bits & ~pack.opening_bits  # the marks a closing one replaces
        self.close_options = []  # per pair: [class, option] the classes that toggle its closing mark
        for _, close in self.pairs:
            others = [s for s in singles if s != close]
            rows = [[(c & ~self.sentence_bits) | s for s in others] or [c & ~close] if c & close
                    else [(c & ~closing) | close] for c in classes]
            width = max(map(len, rows))
            self.close_options.append(np.array([r + r[:1] * (width - len(r)) for r in rows], np.int64))

    def __bool__(self) -> bool:
        return bool(self.pairs)

    def gains(self, scores: np.ndarray, cls: np.ndarray) -> np.ndarray:
        """[pair, 3, position]: the score change of toggling the opening mark, of toggling the closing one (the
        best such class), and that class (a small integer: exact in float32, as the scores are)."""
        rows = np.arange(len(cls))
        now = scores[rows, cls]
        out = np.empty((len(self.pairs), 3, len(cls)), np.float32)
        for k, ((open_bit, _), options) in enumerate(zip(self.pairs, self.close_options)):
            out[k, 0] = scores[rows, cls ^ open_bit] - now
            alt = options[cls]
            best = alt[rows, scores[rows[:, None], alt].argmax(-1)]
            out[k, 1], out[k, 2] = scores[rows, best] - now, best
        return out

    def resolve(self, cls: np.ndarray, gains: np.ndarray, bonus: float = 0.0) -> np.ndarray:
        """Each sentence (up to a sentence-final mark, or the input's end) whose opening and closing disagree
        takes the better agreeing reading; the paired one gains ``bonus`` (the card's ``pair_bonus``, tuned on
        dev)."""
        bonus = np.float32(bonus)
        ends = np.flatnonzero(cls & self.sentence_bits).tolist()
        if not len(cls):
            return cls
        if not ends or ends[-1] != len(cls) - 1:
            ends.append(len(cls) - 1)
        word_end = (cls & self.space_bit) != 0 if self.space_bit else np.ones(len(cls), bool)
        clause_end = word_end & (cls & self.mark_bits & ~self.opening_bits != 0)  # a word with a mark: "ocurre,"
        starts = np.concatenate([[True], clause_end[:-1]])
        begin = 0
        for end in ends:
            for k, (open_bit, close_bit) in enumerate(self.pairs):
                self._pair(cls, gains[k], open_bit, close_bit, begin, end, starts, clause_end, bonus)
            begin = end + 1
        return cls

    @staticmethod
    def _pair(cls, gain, open_bit, close_bit, begin, end, starts, clause_end, bonus) -> None:
        span = slice(begin, end + 1)
        opened = np.flatnonzero(cls[span] & open_bit) + begin
        closed = bool(cls[end] & close_bit)
        if bool(len(opened)) == closed:
            return
        if closed:  # "?" without "¿": open at the best clause start (the sentence's, or after a comma), or end
            # with the other mark
            at = np.append(begin, np.flatnonzero(starts[begin + 1:end + 1]) + begin + 1)
            best = int(at[gain[0, at].argmax()])
            if max(gain[0, best], gain[1, end]) == -np.inf:
                return
            if gain[0, best] + bonus >= gain[1, end]:
                cls[best] ^= open_bit
            else:
                cls[end] = int(gain[2, end])
        else:  # "¿" without "?": close it at the best clause end from the last opening on (a mark of the model's
            # becomes "?", or the sentence's end takes it), or drop every opening
            at = np.flatnonzero(clause_end[opened[-1]:end + 1]) + opened[-1]
            at = np.append(at, end) if not len(at) or at[-1] != end else at
            best = int(at[gain[1, at].argmax()])
            drop = gain[0, opened].sum(dtype=np.float32)
            if max(drop, gain[1, best]) == -np.inf:
                return
            if gain[1, best] + bonus >= drop:
                cls[best] = int(gain[2, best])
            else:
                cls[opened] ^= open_bit
