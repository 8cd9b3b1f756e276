"""Words of one source: where the NB segmenter's soft spaces and the char model's own disagree, the decoded spaces
take one side's words, not a mix of both.

The soft NB spaces are weighed grapheme by grapheme, so where the two cut one word apart in different places
("в четверг|утвердило" against "в четвергу|твердило") each cut can lose to the other side's join, and the output
joins both words ("четвергутвердило"), which neither proposed. Within each run of disagreements (no more than
``GAP`` graphemes apart) the spaces decoded must be those of NB or those of the model; where they are neither, the
side whose spaces score higher under the decision scores takes the run.
"""

from __future__ import annotations

import numpy as np

GAP = 2  # disagreements this close (in graphemes) belong to one run


def runs(at: np.ndarray, gap: int = GAP) -> list[np.ndarray]:
    """``at`` (sorted positions) cut where two neighbours are more than ``gap`` apart.

    >>> [r.tolist() for r in runs(np.array([3, 4, 9, 11, 20]))]
    [[3, 4], [9, 11], [20]]
    """
    return np.split(at, np.flatnonzero(np.diff(at) > gap) + 1) if len(at) else []


def one_source_spaces(scores: np.ndarray, cls: np.ndarray, soft: np.ndarray, nb_cut: np.ndarray,
                      offset: np.ndarray, space_bit: int) -> np.ndarray:
    """``cls`` (argmax of ``scores``) with each run where the model's own spaces and NB's differ spaced as one of
    them: the one whose classes score higher in total (NB's on a tie). ``soft``: where NB's spaces (``nb_cut``) are
    evidence, ``offset`` having been added to the classes with a space (a cut: ``nb_space``; a join: ``-nb_join``). A
    position that changes takes its best class with the chosen space. Sums run left to right in float64, as the
    page sums (web/src/decode.js)."""
    has = (np.arange(scores.shape[1]) & space_bit) != 0
    with_space, without = scores[:, has].max(-1), scores[:, ~has].max(-1)
    cut = cls & space_bit != 0
    own = (with_space - np.where(soft, offset, 0).astype(np.float32)) > without
    model_cut, nb_cut = np.where(soft, own, cut), np.where(soft, nb_cut, cut)  # elsewhere both sides: as decoded
    for run in runs(np.flatnonzero(model_cut != nb_cut)):
        span = range(run[0], run[-1] + 1)
        sides = [[bool(side[j]) for j in span] for side in (nb_cut, model_cut)]
        if [bool(cut[j]) for j in span] in sides:
            continue
        totals = [sum(float(with_space[j] if c else without[j]) for j, c in zip(span, side)) for side in sides]
        if max(totals) == -np.inf:
            continue
        for j, want in zip(span, sides[int(totals[1] > totals[0])]):
            if cut[j] != want:
                cls[j] = np.flatnonzero(has == want)[scores[j, has == want].argmax()]
    return cls
