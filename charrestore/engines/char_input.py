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
GIVEN_JOIN, GIVEN_SPACE = 3, 4
# Decoding only as well: the NB segmenter's spaces and joins on unspaced input, as evidence the same way (the
# card's ``nb_space`` and ``nb_join``) where the card tuned them soft, else enforced as HAS_SPACE and NO_SPACE.
NB_JOIN, NB_SPACE = 5, 6
# Where several states fall into one (a stretch of graphemes the model does not read), the one latest here wins:
# a space anywhere counts, and a constraint outweighs evidence.
BY_WEIGHT = np.array([UNKNOWN, GIVEN_JOIN, NB_JOIN, NO_SPACE, GIVEN_SPACE, NB_SPACE, HAS_SPACE], np.int32)
WEIGHT = np.argsort(BY_WEIGHT).astype(np.int32)  # state -> its place in BY_WEIGHT


# Typographic variants read as the plain grapheme that a model's training text wrote, where its vocabulary lacks them
# (the fr novels write only "'", news writes "l’homme"): read so, and rendered as typed. Without this a model read
# "’" as an unknown sign and put a space or a mark after it ("d’ une", "qu’,il").
READS_AS = {"\u2019": "'", "\u02bc": "'", "\u2010": "-", "\u2011": "-"}


def vocab_index(vocab: list[str]) -> dict[str, int]:
    """grapheme -> id of a model's ``vocab``, each variant of ``READS_AS`` that it lacks given its plain form's id.

    >>> vocab_index(["<pad>", "<unk>", "a", "'"])["\u2019"], "\u2019" in vocab_index(["<pad>", "<unk>", "a"])
    (3, False)
    """
    index = {g: i for i, g in enumerate(vocab)}
    for variant, plain in READS_AS.items():
        if variant not in index and plain in index:
            index[variant] = index[plain]
    return index


def grapheme_ids(base: list[str], index: dict[str, int]) -> np.ndarray:
    """Vocabulary ids of base graphemes; unknown graphemes get UNK (they are rendered as themselves)."""
    get = index.get
    return np.fromiter((get(g, UNK) for g in base), dtype=np.int32, count=len(base))


def input_ids(gids: np.ndarray, states: np.ndarray | int = UNKNOWN) -> np.ndarray:
    return gids * N_STATES + states
