"""Words of one source (charrestore/engines/char_words.py): where the soft NB spaces and the char model's own cut a
word apart in different places, the output takes one side's words, never a word neither proposed."""

import doctest

import numpy as np

from charrestore import Restorer, base_text, load_pack
from charrestore.engines import char_words
from charrestore.engines.char_words import one_source_spaces

SPACE = 1  # a pack of one feature: class 1 has a space, class 0 none


def test_doctests():
    assert doctest.testmod(char_words).failed == 0


def decide(model, nb, nb_space=3.0, nb_join=3.0, soft=None):
    """The classes decoded from the model's own space scores (``model``: with-space minus without, per grapheme)
    and NB's cuts weighed softly (where ``soft``, default everywhere), as the engine decodes them; then the
    one-source rule."""
    model, nb = np.asarray(model, np.float32), np.asarray(nb, bool)
    soft = np.ones(len(nb), bool) if soft is None else np.asarray(soft, bool)
    offset = np.where(soft, np.where(nb, nb_space, -nb_join), 0).astype(np.float32)
    scores = np.stack([np.zeros_like(model), model + offset], axis=1)
    cls = scores.argmax(-1)
    return cls.copy(), one_source_spaces(scores, cls, soft, nb, offset, SPACE)


def test_a_word_neither_side_proposed_becomes_the_better_sides():
    # NB cuts after grapheme 1, the model after grapheme 2; each cut loses to the other's join: no cut at all
    plain, fixed = decide([-4.0, 2.5, 0.0], [True, False, False])
    assert plain.tolist() == [0, 0, 0]
    assert fixed.tolist() == [0, 1, 0]  # the model's side: 2.5 - 3 against 3 - 4 in total
    plain, fixed = decide([-3.5, 2.0, 0.0], [True, False, False])
    assert plain.tolist() == [0, 0, 0]
    assert fixed.tolist() == [1, 0, 0]  # now NB's side scores higher
    _, fixed = decide([-4.0, 2.0, 0.0], [True, False, False])
    assert fixed.tolist() == [1, 0, 0]  # a tie: NB's


def test_agreement_and_far_apart_disagreements_are_left_as_decoded():
    _, fixed = decide([4.0, 5.0, -1.0], [True, True, False])  # no disagreement at all
    assert fixed.tolist() == [1, 1, 0]
    # two disagreements further apart than GAP are two runs, each decided as it was (each output is one side's)
    model = [-4.0, 0, 0, 0, 0, 5.0]
    nb = [True, False, False, False, False, False]
    plain, fixed = decide(model, nb)
    assert fixed.tolist() == plain.tolist() == [0, 0, 0, 0, 0, 1]


def test_a_space_decided_otherwise_stays_inside_a_run():
    """A grapheme whose space is not NB's evidence (enforced, or typed) belongs to neither side: it keeps its
    decision (here an enforced join, no class with a space possible) while the run around it takes a side."""
    plain, fixed = decide([-4.0, -np.inf, 2.5], [True, False, False], soft=[True, False, True])
    assert plain.tolist() == [0, 0, 0]
    assert fixed.tolist() == [0, 0, 1]


def test_ru_keeps_words_either_side_proposed():
    """The shipped ru model read "в четвергу твердило", its NB counts "в четверг утвердило": decoded grapheme by
    grapheme the output had "четвергутвердило", neither side's word."""
    text = "правительствороссиивчетвергутвердилоновыйбюджет"
    out = Restorer(lang="ru")(text)
    assert base_text(out, load_pack("ru")) == text
    assert "четвергутвердило" not in out.lower(), out
