"""The names lexicon of the token card (charrestore/training/proper.py, built by scripts/build_proper.py)."""

import doctest

from charrestore.labels import CASING_LABELS, PUNCT_ORDER
from charrestore.training import proper
from charrestore.training.proper import ProperCounts

O, CAP = CASING_LABELS.index("O"), CASING_LABELS.index("CAP")
ENDS = [PUNCT_ORDER.index("PERIOD"), PUNCT_ORDER.index("QUESTION")]
PERIOD, NONE = PUNCT_ORDER.index("PERIOD"), PUNCT_ORDER.index("O")


def test_doctest():
    assert doctest.testmod(proper).failed == 0


def test_only_words_away_from_sentence_starts_count():
    counts = ProperCounts()
    # "Paris is far. Paris? we left paris" -- only the last paris does not start a sentence
    counts.add(["paris", "is", "far", "paris", "we", "left", "paris"],
               [NONE, NONE, PERIOD, PUNCT_ORDER.index("QUESTION"), NONE, NONE, PERIOD],
               [CAP, O, O, CAP, O, O, O], ENDS)
    assert counts.seen["paris"] == 1 and counts.capital["paris"] == 0
    assert counts.lexicon(min_count=1, ratio=0.5) == []


def test_thresholds():
    counts = ProperCounts()
    for case in [CAP] * 9 + [O]:  # "we saw Rome" nine times, "we saw rome" once
        counts.add(["we", "saw", "rome"], [NONE, NONE, PERIOD], [CAP, O, case], ENDS)
    assert counts.lexicon(min_count=9, ratio=0.9) == ["rome"]
    assert counts.lexicon(min_count=10, ratio=0.9) == []
    assert counts.lexicon(min_count=1, ratio=0.95) == []
