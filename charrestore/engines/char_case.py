"""Case the input typed, kept after the char model decodes: abbreviations typed with their marks, and words typed
in mixed case. The model decides every other capital (char_e2e.py)."""

from __future__ import annotations

import numpy as np

from ..codec import spans_with
from ..packs import CAPS, SPACE, LanguagePack


def abbreviation_case(base: list[str], cls: np.ndarray, kept: np.ndarray, pack: LanguagePack) -> np.ndarray:
    """A word of the pack's abbreviations typed with its marks ("e.g.") keeps the input's case, but for the
    capital that starts a sentence."""
    caps_bit, space_bit = pack.bit(CAPS), pack.bit(SPACE)
    cuts = np.flatnonzero(cls & space_bit) + 1
    starts, ends = np.concatenate([[0], cuts]), np.concatenate([cuts, [len(base)]])
    typed = spans_with(kept & pack.mark_bits, starts, ends)  # only words the input typed a mark in
    for s, e in zip(starts[typed].tolist(), ends[typed].tolist()):
        if "".join(base[s:e]) not in pack.abbreviations:
            continue
        opens = s == 0 or bool(cls[s - 1] & pack.capital_bits)
        first = cls[s] & caps_bit if opens else 0
        cls[s:e] = (cls[s:e] & ~caps_bit) | (kept[s:e] & caps_bit)
        cls[s] |= first
    return cls


def typed_mixed_case(base: list[str], cls: np.ndarray, kept: np.ndarray, pack: LanguagePack) -> np.ndarray:
    """A word typed with a capital after its first letter ("iPhone", "McDonald", "NASA") keeps the case it was
    typed in, at a sentence's start too, as the pipeline keeps it: the model adds no capital to it."""
    caps_bit, space_bit = pack.bit(CAPS), pack.bit(SPACE)
    caps = (kept & caps_bit) != 0
    starts = np.concatenate([[0], np.flatnonzero(cls[:-1] & space_bit) + 1])
    inner = np.add.reduceat(caps, starts) - caps[starts]  # capitals typed after each word's first grapheme
    typed = np.repeat(inner > 0, np.diff(np.append(starts, len(base))))
    return np.where(typed, (cls & ~caps_bit) | (kept & caps_bit), cls)
