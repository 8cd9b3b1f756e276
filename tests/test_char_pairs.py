"""Paired marks (char_pairs.py): the two ends of a question are decided together, from the model's scores."""

import numpy as np
import pytest

from charrestore.codec import parse, render
from charrestore.engines.char_pairs import Pairing
from charrestore.packs import load_pack


@pytest.fixture(scope="module")
def es():
    return load_pack("es")


def decide(pack, text, changes, bonus=0.0):
    """Resolve the classes that ``text`` spells, where each class scores 0 and ``changes`` gives other classes'
    scores: {(word, "first" or "last" grapheme, features toggled): score}."""
    base, cls = parse(text, pack)
    words = "".join(c for c in text.lower() if c not in ",¿?.").split()
    starts = np.cumsum([0] + [len(w) for w in words])
    scores = np.full((len(cls), pack.n_classes), -10.0, np.float32)
    scores[np.arange(len(cls)), cls] = 0.0
    for (word, which, toggle), value in changes.items():
        k = words.index(word)
        i = starts[k] if which == "first" else starts[k + 1] - 1
        scores[i, cls[i] ^ sum(pack.bit(f) for f in toggle)] = value
    pairing = Pairing(pack)
    gains = pairing.gains(scores, cls)
    return render(base, pairing.resolve(cls.copy(), gains, bonus), pack)


def test_a_question_mark_opens_its_question_where_opening_costs_least(es):
    # "?" closed a sentence that no "¿" opened: opening at the clause start costs 1, ending with "." costs 3
    assert decide(es, "Señoría, no cree que sea un error?", {("no", "first", "¿"): -1.0, ("error", "last", "?."): -3.0}) \
        == "Señoría, ¿no cree que sea un error?"
    assert decide(es, "Señoría, no cree que sea un error?", {("no", "first", "¿"): -4.0, ("error", "last", "?."): -3.0}) \
        == "Señoría, no cree que sea un error."
    # the card's pair_bonus favours the paired reading by that much
    assert decide(es, "Señoría, no cree que sea un error?", {("no", "first", "¿"): -4.0, ("error", "last", "?."): -3.0},
                  bonus=1.5) == "Señoría, ¿no cree que sea un error?"


def test_an_opened_question_closes_at_its_best_clause_end_or_drops_the_opening(es):
    text = "¿Qué va a hacer sin mí, esta sería la cuestión."
    # the comma after "mí" turning "?" costs 1, the sentence's end 2, dropping the "¿" 3
    changes = {("mí", "last", ",?"): -1.0, ("cuestión", "last", "?."): -2.0, ("qué", "first", "¿"): -3.0}
    assert decide(es, text, changes) == "¿Qué va a hacer sin mí? esta sería la cuestión."
    changes[("mí", "last", ",?")] = -4.0
    assert decide(es, text, changes) == "¿Qué va a hacer sin mí, esta sería la cuestión?"
    changes[("cuestión", "last", "?.")] = -5.0
    assert decide(es, text, changes) == "Qué va a hacer sin mí, esta sería la cuestión."
    # a word without a mark ends no clause: the question does not close after "hacer", however cheap
    changes[("hacer", "last", "?")] = 0.0
    assert decide(es, text, changes) == "Qué va a hacer sin mí, esta sería la cuestión."


def test_agreeing_ends_and_packs_without_pairs_are_left_alone(es):
    assert decide(es, "¿Vienes? Sí.", {("vienes", "first", "¿"): 5.0, ("vienes", "last", "?."): 5.0}) == "¿Vienes? Sí."
    assert not Pairing(load_pack("en"))


def test_the_engine_pairs_what_it_restores(es):
    from charrestore.restorer import Restorer

    restorer = Restorer(lang="es")
    for text in ("quéhoraes", "señoría no cree que eso es un error?", "¿tienes tiempo mañana"):
        out = restorer(text)
        assert out.count("¿") == out.count("?"), out
