"""The char model's input ids: grapheme id and what is known of the space after it, in one integer.

``id = 3 * grapheme_id + state`` with state UNKNOWN (spaces to restore), NO_SPACE or HAS_SPACE (spaces
given by the input). One model thus serves unspaced text and text whose word boundaries are known.
Shared by training and the runtime so that both encode exactly alike.
"""

from __future__ import annotations

import numpy as np

PAD, UNK = 0, 1
UNKNOWN, NO_SPACE, HAS_SPACE = 0, 1, 2
N_STATES = 3
# Decoding only, never read by the model: where spaces are restored in spaced input, a space the input gives and
# a gap between two graphemes that it joins. Evidence, not constraints: the classes with a space gain the card's
# ``given_space`` at the one and lose its ``given_join`` at the other (spacing correction).
GIVEN_JOIN, GIVEN_SPACE = 3, 4  # (in this order: a space anywhere in a stretch counts, as max() of the states)


def grapheme_ids(base: list[str], index: dict[str, int]) -> np.ndarray:
    """Vocabulary ids of base graphemes; unknown graphemes get UNK (they are rendered as themselves)."""
    get = index.get
    return np.fromiter((get(g, UNK) for g in base), dtype=np.int32, count=len(base))


def input_ids(gids: np.ndarray, states: np.ndarray | int = UNKNOWN) -> np.ndarray:
    return gids * N_STATES + states
