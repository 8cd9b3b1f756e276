"""Apostrophes typed as quotes or after a plural in unspaced text (charrestore/quote_apostrophes.py): made-up counts
for each rule, then the shipped English segmenter and the restorer as a user meets them."""

from __future__ import annotations

import pytest

from charrestore import Restorer
from charrestore.segmenter import Segmenter

WORDS = {"early": 900, "90s": 100, "analysts": 300, "expectations": 400, "said": 9000, "hello": 500, "everyone": 800, "and": 30000,
         "the": 60000, "smiths": 200, "house": 3000, "don't": 2000, "stop": 900, "amour": 1, "l": 50, "rock": 400,
         "roll": 300, "zelensky": 20, "speech": 700, "o'clock": 300, "five": 2000}
# "'s" ends a hundred counted words: a clitic of its own, as in the shipped English counts
POSSESSIVES = {f"name{i}'s": 1 for i in range(100)}


@pytest.fixture(scope="module")
def seg():
    return Segmenter({**WORDS, **POSSESSIVES}, {}, total=1_000_000, L=16, digits=0.0)  # "90s" one word, as in en


@pytest.mark.parametrize("text, spaced", [
    ("analysts'expectations", "analysts' expectations"),  # a plural's possessive: the space after it
    ("thesmiths'house", "the smiths' house"),
    ("said'hello'and", "said 'hello' and"),  # a quote that a later apostrophe closes: the space before it
    ("said'helloeveryone'andthe", "said 'hello everyone' and the"),
    ("said 'helloeveryone'and", "said 'hello everyone' and"),  # opened at a typed space, closed in the run
    ("theearly'90sand'hello'", "the early '90s and 'hello'"),  # a year's century, before digits, opens no quote
    ("don'tstop", "don't stop"),  # a counted word holds it
    ("fiveo'clock", "five o'clock"),
    ("zelensky'sspeech", "zelensky's speech"),  # a clitic begins after it
    ("rock'n'roll", "rock'n'roll"),  # a letter between two apostrophes
    ("l'amour", "l'amour"),  # no frequent word of three letters or more before it
])
def test_an_apostrophe_between_two_words_takes_a_space_beside_it(seg, text, spaced):
    assert seg.segment(text) == spaced


def test_a_curly_apostrophe_and_capitals_read_as_a_straight_one_in_lower_case(seg):
    assert seg.segment("Analysts’Expectations") == "Analysts’ Expectations"


def test_an_apostrophe_before_a_combining_mark_is_no_cut(seg):
    """The mark belongs to the apostrophe's grapheme: no space may go after the apostrophe."""
    out = seg.segment("analysts'\u0301expectations")
    assert "'\u0301" in out and out.replace(" ", "") == "analysts'\u0301expectations"


def test_the_shipped_segmenter_and_restorer_read_typed_quotes_and_possessives():
    seg = Segmenter.load("en")
    assert seg.segment("beatinganalysts'expectations") == "beating analysts' expectations"
    assert seg.segment("shesaid'helloeveryone'andleft") == "she said 'hello everyone' and left"
    assert seg.segment("idon'tknowwhatyou'vedone") == "i don't know what you've done"
    restored = Restorer(lang="en")("revenuerosebeatinganalysts'expectations")
    assert restored.lower() == "revenue rose beating analysts' expectations."


@pytest.mark.parametrize("engine", ["pipeline", "char"])
def test_an_apostrophe_inside_a_link_takes_no_space(engine):
    """A link is protected: the segmenter's cut beside an apostrophe must not go inside it."""
    out = Restorer(lang="en", engine=engine)("checkouthttp://example.com/analysts'expectations")
    assert "http://example.com/analysts'expectations" in out, out
