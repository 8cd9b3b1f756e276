"""Symbols that the char model never read in training, left out of what it reads and put back after.

Training text maps "!", ";", ":", quotes and brackets onto marks or drops them (the pack's ``map``) and holds no
emoji, so a typed "great!!!" or "it😀" reached the model as graphemes it had not seen, and it wrote marks around
them ("great.!!!", "excited, 🎉🎉, see"). Now the model reads the text without them. A run of them (no space inside) is put back
after the grapheme before it, which the model read:
- a run that maps onto a mark ("!!!" onto ".", ":" onto ",") stands for that mark: the grapheme before it takes the
  mark while the model reads (the next word starts a sentence) and shows none (the run shows it as typed);
- a closing quote or bracket glued to a word takes the word's space and mark ('"hi",', "(yes)."); an opening one
  leaves them to the word before it ("said, (quietly)");
- an emoji or emoticon glued to a word takes no mark before it when spaces are given ("fun😀", "test:)"); when
  they are restored, a mark the model gives stays before it ("much. 😂 This") and a space follows;
- in unspaced text, a run of closers or emoji between letters ends a word ("great!!! See", "it😀 so").
The pipeline treats the words of its token model alike (symbols.py).
"""

from __future__ import annotations

import unicodedata

import numpy as np

from ..clusters import ends_sentence_on
from ..packs import SPACE, LanguagePack
from ..spans import Protected, bracket_sides
from .char_input import BY_WEIGHT, HAS_SPACE, NO_SPACE, WEIGHT
from .symbols import Symbols

_OPENS = ("Ps", "Pi")  # an opening bracket or quote
_CLOSES, _QUOTES = ("Pe", "Pf"), "\"'"  # a closing one (the straight quotes may be either)


def unread_mask(base: list[str], given: np.ndarray, pack: LanguagePack, frozen: Protected | None) -> np.ndarray:
    """The graphemes the model does not read: what the pack maps (``map_between_words`` only outside a word, as
    training text has it) and emoji, but never one inside another protected span (a URL's ":")."""
    n, space = len(base), pack.bit(SPACE)
    out = np.fromiter((g in pack.map for g in base), bool, n)
    between = np.fromiter((g in pack.map_between_words for g in base), bool, n)
    if between.any():
        word = np.fromiter((g[:1].isalnum() for g in base), bool, n)
        glued = np.asarray(given) & space == 0
        inside = np.zeros(n, bool)
        inside[1:-1] = word[:-2] & word[2:] & glued[:-2] & glued[1:-1]
        out |= between & ~inside
    if frozen is not None:
        out &= ~frozen.inside
        for s, e, kind in frozen.spans:
            if kind == "emoji":
                out[s:e] = True
    return out


class Unread:
    """One input's unread graphemes: which ones the model reads (``vis``), what it reads there, and how its
    classes over them become classes of the whole input. ``symbols``: the pack's (built once per engine). ``keep``: the input's spaces are the word boundaries
    (else they are restored, and only the model's count). ``required``: where restored spaces must stay (a typed
    space at a span's edge, between two digits): a run after one is not glued to the grapheme before ("0% )0")."""

    def __init__(self, base: list[str], given: np.ndarray, pack: LanguagePack, symbols: Symbols,
                 frozen: Protected | None, keep: bool, required: np.ndarray | None = None):
        self.n, self.given = len(base), np.asarray(given, np.int32)
        self.space, self.mark_bits = pack.bit(SPACE), pack.mark_bits
        hidden = unread_mask(base, self.given, pack, frozen)
        keep = keep and bool(self.space)  # a pack without spaces (ja) has none to keep
        if not keep:
            self.given = self.given & ~self.space
        self.any = bool(hidden.any())
        self.vis = np.flatnonzero(~hidden)
        self.force = np.full(len(self.vis), -1, np.int32)  # a mark to read after a visible grapheme (-1: none)
        self.clear = np.zeros(len(self.vis), bool)  # its mark is shown by the run after it, not rendered
        self.moves: list[tuple[int, int]] = []  # (visible index, run end): its space and mark go after the run
        self.soft: list[tuple[int, int]] = []  # the same, but a mark the model gives stays before the run
        self.gaps: list[int] = []  # visible indices followed by a space in unspaced text
        self.stays: list[int] = []  # visible indices whose run after them takes nothing from them (an opener)
        self.last_run = None
        if not self.any or not len(self.vis):
            return
        ends_at = np.cumsum([len(g) for g in base])  # where each grapheme ends in "".join(base)
        sides = bracket_sides(base)  # which quote opens and which closes ("„…“", '"…"')
        gap_ends = set(np.searchsorted(ends_at, symbols.cuts("".join(base))).tolist()) if not keep else set()
        # runs: unread graphemes with no space between them ("fun😀 (yes)" has two)
        glue = np.concatenate([hidden[:-1] & hidden[1:] & (self.given[:-1] & self.space == 0), [False]])  # run on
        for k, opening in sides.items():  # a closing quote before an opening bracket: two runs ('"Dune" (1965)')
            if not opening and sides.get(k + 1) is True:
                glue[k] = False
        starts = np.flatnonzero(hidden & ~np.concatenate([[False], glue[:-1]]))
        ends = np.flatnonzero(hidden & ~glue) + 1
        for s, e in zip(starts.tolist(), ends.tolist()):
            if s == 0 or hidden[s - 1]:
                if e == self.n:
                    self.last_run = False
                continue  # a leading run, or one after another, keeps what it was given
            k = int(np.searchsorted(self.vis, s - 1))
            typed = sum(pack.bit(m) for m in set(pack.map.get(base[e - 1], "")) if m in pack.marks)
            typed |= self.given[e - 1] & self.mark_bits
            opens = sides.get(s, unicodedata.category(base[s][0]) in _OPENS)
            closes = all(not sides[i] if i in sides else unicodedata.category(base[i][0]) in _CLOSES
                         or base[i] in _QUOTES for i in range(s, e))
            glued = not self.given[s - 1] & self.space and not (required is not None and required[s - 1])
            if e == self.n:
                self.last_run = glued and closes and not typed
            if opens or not glued and not typed:
                self.stays.append(k)
                continue  # the word before keeps what the model gives it
            if self.given[s - 1] & self.mark_bits:
                pass  # a mark typed before the run stays as it is
            elif typed:
                self.force[k], self.clear[k] = typed, True
            elif not closes and keep:
                self.force[k] = 0  # "fun😀", "test:)": no mark between a word and what the user glued to it
            if glued:
                (self.moves if typed or closes or keep else self.soft).append((k, e - 1))
            if e - 1 in gap_ends:  # the pipeline's rule (Symbols.cuts): "!!!" or emoji between letters end a word
                self.gaps.append(k)

    def ends_sentence(self, base: list[str]) -> bool:
        """Whether the input ends in a sentence that needs a final mark: its last read grapheme is one a sentence
        may end on (a letter, digit, percent or currency sign), and nothing after it but a glued closing quote or
        bracket ('he said "hi"' -> '"hi".')."""
        if not len(self.vis):
            return False
        return ends_sentence_on(base[self.vis[-1]]) and self.last_run in (None, True)

    def states(self, states: np.ndarray, enforced: bool = False) -> np.ndarray:
        """Space states of the read graphemes: a space after any grapheme up to the next read one counts
        (the heaviest state of the stretch, char_input.BY_WEIGHT) where the run after the grapheme takes its space,
        up to that run's end; before a run that takes nothing from it (an opening quote or bracket) only the
        grapheme's own ("sagte„ hallo“" keeps "sagte„"; the run keeps its own space); with ``enforced``, unspaced
        text gets its gaps."""
        out = BY_WEIGHT[np.maximum.reduceat(WEIGHT[states], self.vis)] if len(self.vis) else states[:0].copy()
        for k, end in self.moves + self.soft:  # (not the runs after the first: they keep their own, "/)“ 0%")
            out[k] = BY_WEIGHT[WEIGHT[states[self.vis[k]:end + 1]].max()]
        if self.stays:
            out[self.stays] = states[self.vis[self.stays]]
        if enforced and self.gaps:
            out[self.gaps] = HAS_SPACE
        if len(out) and out[-1] == HAS_SPACE:  # the end of what the model reads: a run follows, after a space
            out[-1] = NO_SPACE
        return out

    def forced(self, marks: np.ndarray, fixed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The marks the read graphemes keep (the given ones, plus a run's mark or none before an emoji) and where
        they are fixed (a mark typed before a run stays as it is)."""
        marks, fixed = marks.copy(), fixed.copy()
        at = self.force >= 0
        marks[at], fixed[at] = self.force[at], True
        return marks, fixed

    def back(self, cls: np.ndarray) -> np.ndarray:
        """Classes of the whole input from those of the read graphemes: an unread one keeps its given space and
        marks; a glued run takes the space and mark of the grapheme before it (in restored spaces, a mark the model
        gives before an emoji or ":)" stays there, with a space: "much. 😂 This")."""
        out = self.given & (self.space | self.mark_bits)
        out[self.vis] = cls
        if len(self.vis):  # the model read its last grapheme as the end; a given space before a run stays
            out[self.vis[-1]] |= self.given[self.vis[-1]] & self.space
        for soft, k, end in [(False, *m) for m in self.moves] + [(True, *m) for m in self.soft]:
            v = self.vis[k]  # the marks typed before the run stay there ("what?!"); the model's may move
            if soft and out[v] & self.mark_bits & ~self.given[v]:
                out[end] |= out[v] & self.space
                out[v] |= self.space
                continue
            moved = (self.space | self.mark_bits) & ~(self.given[v] | (self.mark_bits if self.clear[k] else 0))
            out[end] |= out[v] & (moved | self.space)
            out[v] &= ~(moved | self.space)
        cleared = self.vis[self.clear]
        out[cleared] &= ~self.mark_bits
        return out
