"""The C Viterbi (fast_viterbi.py + _viterbi.c) against the Python one (Segmenter._viterbi): the same boundaries
on any lattice, so the segmenter's output never depends on which of them ran.

The fixture counts (tests/fixtures/nb) and the shipped English counts are both tried, with generated text that
has seen words, unseen runs longer than L, digits, case changes, forced and impossible boundaries, and ties.
"""

import random
from pathlib import Path

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from charrestore import fast_viterbi
from charrestore.plain_letters import plain
from charrestore.segmenter import HARD, START, Segmenter

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(not fast_viterbi.available, reason="the C extension was not built (no compiler)")

pieces = st.sampled_from(["follow", "friday", "Follow", "FRIDAY", "iphone", "6", "2019", "the", "bus", "on", "a",
                          "'", "-", " ", ", ", ".", "x", "q", "zzzzzzzzzzzzzzzzzzzzzz", "\u0301", "ß", "Σ", "e",
                          "ofthe", "and", "in", "to", "it", "is", "NASAMission", "followFriday"])
texty = st.lists(pieces, min_size=1, max_size=60).map("".join)
tiny = Segmenter({"follow": 50, "friday": 40, "fri": 5, "day": 60, "the": 100, "bus": 10, "a": 30, "e": 1,
                  "on": 20, "<s>": 5}, {"follow friday": 20, "<s> the": 3, "the bus": 4, "on the": 2, "a bus": 1},
                 L=8, smoothing=10.0)


def both(seg: Segmenter, text: str, rules=None) -> tuple[list[int], list[int]] | None:
    lattice = seg._lattice(text, rules)
    if lattice is None:
        return None
    return seg._viterbi(*lattice[:3]), fast_viterbi.viterbi(seg, START, *lattice[:3])


@pytest.fixture(scope="module")
def fixture_seg():
    return Segmenter.load("en", ROOT / "tests" / "fixtures" / "nb")


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(texty, st.text(max_size=80)), L=st.integers(1, 12), camel=st.sampled_from([HARD, 0.0, 2.0, -1.5]),
       digits=st.sampled_from([HARD, 0.0, 1.0]), caps=st.sampled_from([0.0, -HARD, 0.5]))
def test_c_and_python_agree_on_the_tiny_counts(text, L, camel, digits, caps):
    seg = tiny.configured(L=L, camel=camel, digits=digits, caps=caps)
    pair = both(seg, text)
    if pair is not None:
        assert pair[0] == pair[1]


@settings(max_examples=150, deadline=None)
@given(text=texty, data=st.data())
def test_c_and_python_agree_on_fixture_counts_with_rules(fixture_seg, text, data):
    """Protected spans (no cut inside) and forced cuts, as the spans of social text give them."""
    rules = {k: data.draw(st.sampled_from([1, 2])) for k in data.draw(st.lists(st.integers(1, max(1, len(text) - 1)),
                                                                                 max_size=6))}
    pair = both(fixture_seg, text, rules)
    if pair is not None:
        assert pair[0] == pair[1]


def long_text(seg: Segmenter) -> str:
    """The fixture text and 4,000 words drawn from the vocabulary (seeded), de-spaced: about 30K characters."""
    rng = random.Random(7)
    words = rng.choices(list(seg._uni), k=4000)
    text = (ROOT / "tests" / "fixtures" / "text" / "en.txt").read_text(encoding="utf-8") * 3 + " ".join(words)
    return "".join(text.split())


def test_c_and_python_agree_on_the_shipped_model_and_long_text():
    """The shipped English counts, whole and in slices of many lengths."""
    seg = Segmenter.load("en")
    despaced = long_text(seg)
    for start, length in [(0, len(despaced)), (5, 3), (100, 57), (1000, 400), (7000, 2500)]:
        c, p = both(seg, despaced[start:start + length])
        assert c == p
    assert len(despaced) >= fast_viterbi.MIN_CHARS and len(seg.cuts(despaced)) > len(despaced) / 12


def test_c_and_python_agree_on_the_counts_made_plain():
    """Text typed without diacritics reads the counts made plain (plain_letters.py): the C loop builds its tables from
    every merged context, the Python loop merges them as it meets them."""
    seg = Segmenter.load("es")
    words = random.Random(7).choices(list(seg._uni), k=1500)
    text = (ROOT / "tests" / "fixtures" / "text" / "es.txt").read_text(encoding="utf-8").lower() + " ".join(words)
    despaced = "".join(regex.findall(r"\p{L}+", plain(text)))[:8000]
    plain_seg = seg.plain_for(despaced)
    assert plain_seg is not None and len(despaced) >= fast_viterbi.MIN_CHARS
    for start, length in [(0, len(despaced)), (40, 300), (3000, 2500)]:
        c, p = both(plain_seg, despaced[start:start + length])
        assert c == p


def test_the_segmenter_gives_the_same_spaces_with_or_without_the_c_loop(monkeypatch):
    seg = Segmenter.load("en")
    text = long_text(seg)[:6000]
    with_c = seg.segment(text)
    monkeypatch.setattr(fast_viterbi, "available", False)
    assert seg.segment(text) == with_c


@settings(max_examples=150, deadline=None)
@given(text=st.text(alphabet="selonl'’inseetaux", max_size=60), L=st.integers(1, 12))
def test_c_and_python_agree_with_elided_clitics(text, L):
    """A pack's ``elisions`` add the clitics to the counts and open a boundary after their apostrophe."""
    seg = Segmenter({"selon": 9, "l'homme": 30, "insee": 2, "le": 60, "taux": 8}, {"le taux": 3}, L=L,
                    smoothing=10.0).elide(["l'"])
    pair = both(seg, text)
    if pair is not None:
        assert pair[0] == pair[1]
