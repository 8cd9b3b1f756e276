"""Text typed without its accents is read by the char model with the likely accents of its words
(charrestore/accents.py, engines/char_accents.py); what is printed keeps the letters as typed."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from charrestore import Restorer, base_text, load_pack
from charrestore.accents import Accents
from charrestore.segmenter import Segmenter


@pytest.mark.parametrize("lang, plain, marked", [
    ("es", "que haces manana", "qué haces mañana"),
    ("es", "donde esta el bano", "dónde está el baño"),
    ("fr", "ou est la gare", "où est la gare"),
    ("fr", "ca va tres bien", "ça va très bien"),
    ("de", "ich danke ihnen fur ihre aufmerksamkeit", "ich danke ihnen für ihre aufmerksamkeit"),
])
def test_the_shipped_counts_give_plain_words_their_accents(lang, plain, marked):
    assert Accents(Segmenter.load(lang, prose=True)).forms(plain.split()) == marked.split()


def test_a_word_keeps_its_form_where_the_counts_know_no_other():
    accents = Accents(Segmenter.load("es", prose=True))
    assert accents.forms([]) == []
    assert accents.forms(["xqzt", "el"]) == ["xqzt", "el"]  # "él" is a form of "el"; here the article wins
    assert "él" in accents.candidates("el") and accents.candidates("xqzt") == ["xqzt"]
    fr = Accents(Segmenter.load("fr", prose=True))
    assert "l'été" in fr.candidates("l'ete")  # after an elided clitic, the rest's forms


def test_the_model_reads_the_accented_letters_at_the_words_places():
    restorer = Restorer(lang="es", engine="char")
    engine = restorer.engine
    base = list("quehacesmanana")
    gids = np.array([engine.index[g] for g in base], np.int32)
    spaced = np.zeros(len(base), bool)
    spaced[[2, 7]] = True
    got = engine.accents.ids(base, gids, spaced, engine.index)
    assert [engine.card["vocab"][i] for i in got] == list("quéhacesmañana")
    assert got is not gids and (gids == [engine.index[g] for g in base]).all()  # the input's ids stay as they were


def test_only_plain_text_of_a_pack_typed_plain_is_read_with_accents():
    es = Restorer(lang="es", engine="char").engine
    assert es.accents.reads(list("que haces")) and not es.accents.reads(list("qué haces"))
    assert not es.accents.reads(list("12 34"))
    assert Restorer(lang="es", spaces="keep", segmenter="none").engine.accents is not None  # no NB spaces needed
    assert Restorer(lang="vi").engine.accents is not None
    assert Restorer(lang="ru").engine.accents is None  # ru is not typed plain (no plain_typing)


def test_the_keyboards_own_letters_leave_a_text_plain():
    """es keyboards type "ñ" directly: "que haces mañana" is typed without accents all the same (``keyboard_letters``),
    for the accents and for the segmenter's plain counts; its "ñ" stays as typed."""
    es = Restorer(lang="es", engine="char").engine
    assert es.accents.reads(list("que haces mañana")) and not es.accents.reads(list("qué haces mañana"))
    assert not Restorer(lang="fr", engine="char").engine.accents.reads(list("ça va"))  # fr names no such letter
    seg = Segmenter.load("es")
    assert seg.plain_for("quehacesmañana") is not None and seg.segment("quehacesmañana") == "que haces mañana"
    assert Accents(seg).forms(["que", "haces", "mañana"]) == ["qué", "haces", "mañana"]
    out = Restorer(lang="es")("dondeestaelbañodelniño")
    assert out.startswith("¿") and "baño" in out and base_text(out, load_pack("es")) == "dondeestaelbañodelniño", out


def test_questions_typed_without_accents_take_their_marks(monkeypatch):
    """"donde" read as "dónde" asks: the shipped es model opens and closes the question (it read the relative word
    before); the letters stay as typed."""
    restorer = Restorer(lang="es")
    text = "dondeestaelbano"
    out = restorer(text)
    assert out.startswith("¿") and out.endswith("?") and base_text(out, load_pack("es")) == text, out
    monkeypatch.setattr(restorer.engine, "accents", None)
    assert "¿" not in restorer(text)


@pytest.mark.parametrize("lang", ["es", "fr", "de"])
@settings(max_examples=25, deadline=None)
@given(text=st.text(alphabet="abcdeilmnorstuç' ", min_size=1, max_size=40))
def test_nothing_is_lost_when_plain_text_is_read_with_accents(lang, text):
    out = Restorer(lang=lang)(text)
    pack = load_pack(lang)
    assert base_text(out, pack) == base_text(text, pack)

