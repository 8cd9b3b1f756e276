"""Words a pack writes small inside a sentence (charrestore/small_words.py): the model's capital on one is taken
off inside a sentence, kept where a sentence starts or the input typed it, and a demonym's where it is a noun or
continues a name; bad lists are refused."""

import doctest

import numpy as np
import pytest

from charrestore import Restorer, base_text, load_pack, small_words
from charrestore.packs import PackError, _validate
from charrestore.proper_case import ProperCase
from charrestore.small_words import small_case

FR, ES = load_pack("fr"), load_pack("es")
CAPS, DOT, SPACE = FR.bit("CAPS"), FR.bit("."), FR.bit("SPACE")


def test_doctests():
    assert doctest.testmod(small_words).failed == 0


def cased(text: str, kept: str = "", pack=FR, proper=None) -> str:
    """``text`` written as words ("Vu Mardi."): its classes put through small_case, with ``kept`` typed (the
    input's own capitals) and rendered back in the same spelling."""
    caps, dot, space = pack.bit("CAPS"), pack.bit("."), pack.bit("SPACE")
    base, cls = [], []
    for word in text.split(" "):
        letters = [g for g in word if g.isalnum() or g in "«—'’"]
        for k, g in enumerate(letters):
            c = caps if g.isupper() else 0
            if k == len(letters) - 1:
                c |= space | (dot if word.endswith(".") else 0)
            base.append(g.lower())
            cls.append(c)
    cls[-1] &= ~space
    typed = np.array([caps if g in kept else 0 for g in range(len(base))]) if kept else np.zeros(len(base), int)
    out = small_case(base, np.array(cls), pack, typed, proper)
    return "".join(g.upper() if c & caps else g for g, c in zip(base, out))


def test_a_listed_word_inside_a_sentence_loses_the_models_capital():
    assert cased("Vu Mardi et Février") == "Vumardietfévrier"
    assert cased("Vu Fevrier") == "Vufevrier"  # typed without its accents (fr: plain_typing)


def test_a_sentence_start_a_typed_capital_and_other_words_keep_theirs():
    assert cased("Mardi vu") == "Mardivu"  # the first word
    assert cased("Vu. Mardi") == "VuMardi"  # after a sentence mark
    assert cased("Vu « Mardi") == "Vu«Mardi"  # after a quote: dialogue may open there
    assert cased("Vu MARDI") == "VuMARDI"  # capitals throughout: an acronym, a heading
    assert cased("Vu Mars") == "VuMars"  # not listed: the planet
    assert cased("Vu Mardi", kept=[2]) == "VuMardi"  # the input typed it


def test_a_demonym_loses_the_models_capital_where_it_is_an_adjective():
    assert cased("Le président Américain") == "Leprésidentaméricain"
    assert cased("Vu en Anglais et Francais") == "Vuenanglaisetfrancais"  # a language; typed without its accent
    assert cased("El presidente Estadounidense", pack=ES) == "Elpresidenteestadounidense"
    assert cased("Vio a los Alemanes", pack=ES) == "Vioalosalemanes"  # es writes the nouns small too


def test_a_demonym_keeps_it_as_a_noun_or_inside_a_name():
    assert cased("Vu les Américains") == "VulesAméricains"  # fr: after a determiner, a noun
    assert cased("Vu un jeune Anglais") == "VuunjeuneAnglais"
    assert cased("Vu l'Allemand") == "Vul'Allemand"  # after an elided determiner
    assert cased("Vu qu'Allemand") == "Vuqu'allemand"  # an elided word that is none
    assert cased("Vu l'Union Européenne") == "Vul'Unioneuropéenne"  # fr writes a name's adjective small
    assert cased("Dijo la Unión Europea", pack=ES) == "DijolaUniónEuropea"  # es in_names: a name goes on
    assert cased("Los Estadounidenses", pack=ES) == "Losestadounidenses"  # not after a sentence's first word
    assert cased("Vi. Los Estadounidenses", pack=ES) == "ViLosestadounidenses"


def test_a_proper_lists_small_words_lose_the_models_capital_inside_a_sentence():
    """A list of proper forms may mark words small (the training text nearly never writes them with a capital
    inside a sentence: de "traf"); they take the days' rule, and the list's cased forms are no small words."""
    listed = ProperCase(["traf\tsmall", "fest\tsmall", "Scholz", "Montag"])
    assert listed.small == {"traf", "fest"} and listed.capitals("scholz") == (0,) and listed.capitals("traf") is None
    de = load_pack("de")
    assert cased("Olaf Scholz Traf am Montag", pack=de, proper=listed) == "OlafScholztrafamMontag"
    assert cased("Olaf Scholz. Traf", pack=de, proper=listed) == "OlafScholzTraf"  # a sentence starts there
    assert cased("Für das Fest", pack=de, proper=listed) == "FürdasFest"  # after a word of nouns_after: a noun
    assert cased("Für den Fest", pack=de, proper=listed) == "Fürdenfest"
    assert cased("Olaf Scholz Traf", pack=de, proper=ProperCase(["Scholz"])) == "OlafScholzTraf"  # not listed


def test_the_restorer_writes_days_and_months_small_inside_a_sentence():
    """Inputs where the shipped models write the capital ("a rencontré Mardi", "aprobó el Martes")."""
    for lang, text, spaces, small in [("fr", "le président a rencontré mardi à paris le chancelier", "keep", "mardi"),
                                      ("fr", "ilviendralundietrepartirasamedienjuillet", "auto", "lundi"),
                                      ("es", "elgobiernoaprobóelmartesunnuevoplandevivienda", "auto", "martes")]:
        out = Restorer(lang=lang, spaces=spaces)(text)
        assert base_text(out, load_pack(lang)) == base_text(text, load_pack(lang))
        assert small in out and small.capitalize() not in out, out
    assert Restorer(lang="fr", spaces="keep")("mardi il pleut").startswith("Mardi")
    assert "Mardi" in Restorer(lang="fr", spaces="keep")("il pleut Mardi")  # typed so: kept


def test_the_restorer_writes_demonyms_small_where_they_are_adjectives():
    """Inputs where the shipped models write the capital ("le président Américain", "presidente Estadounidense")."""
    for lang, text, spaces, small in [("fr", "leprésidentaméricainarencontrélechancelier", "auto", "américain"),
                                      ("fr", "le président américain a rencontré le chancelier", "keep", "américain"),
                                      ("es", "elpresidenteestadounidensesereunióconelcanciller", "auto",
                                       "estadounidense")]:
        out = Restorer(lang=lang, spaces=spaces)(text)
        assert base_text(out, load_pack(lang)) == base_text(text, load_pack(lang))
        assert small in out and small.capitalize() not in out, out
    assert "de la Unión Europea con" in Restorer(lang="es")("elacuerdodelaunióneuropeaconmarruecos")  # a name


def test_the_restorer_writes_des_small_words_small_inside_a_sentence():
    """Inputs where the shipped de model writes a verb with a capital ("Scholz Traf am Montag"), which its list of
    proper forms marks small."""
    for text, spaces in [("bundeskanzlerolafscholztrafammontagdenpräsidenten", "auto"),
                         ("bundeskanzler olaf scholz traf am montag den präsidenten", "keep")]:
        out = Restorer(lang="de", spaces=spaces)(text)
        assert base_text(out, load_pack("de")) == base_text(text, load_pack("de"))
        assert "Scholz traf am Montag" in out, out


def test_bad_lists_are_refused():
    pack = {"code": "xx", "features": ["CAPS", ".", "SPACE"], "cased": True}
    assert _validate("xx", {**pack, "small_words": ["mardi"]}).small_words == {"mardi"}
    assert _validate("xx", {**pack, "small_words": ["février"], "plain_typing": True}).small_words == {
        "février", "fevrier"}
    for bad in (["Mardi"], ["le mardi"], [""], ["mardi."]):
        with pytest.raises(PackError, match="'small_words' holds"):
            _validate("xx", {**pack, "small_words": bad})
    got = _validate("xx", {**pack, "plain_typing": True, "demonyms": {"words": ["américain"], "in_names": True},
                           "nouns_after": ["l'", "les"]})
    assert (got.demonyms, got.nouns_after, got.demonyms_in_names) == ({"américain", "americain"}, {"l'", "les"}, True)
    for bad in ({"words": ["Américain"]}, {"words": "américain"}, {"in_names": "yes"}, {"nouns_after": ["les"]}):
        with pytest.raises(PackError, match="demonyms"):
            _validate("xx", {**pack, "demonyms": bad})
    for bad in (["l '"], ["Les"], ["les deux"]):
        with pytest.raises(PackError, match="'nouns_after' holds"):
            _validate("xx", {**pack, "nouns_after": bad})
