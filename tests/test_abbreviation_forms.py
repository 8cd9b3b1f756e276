"""Abbreviations written as the pack lists them (charrestore/abbreviation_forms.py): through the Restorer, in
every pack with a list, with the spaces kept and restored; what the input typed stays; bad lists are refused. A
pack's ``spellings`` (names in mixed case) go the same way."""

import doctest

import pytest

from charrestore import Restorer, abbreviation_forms, base_text, load_pack
from charrestore.packs import PackError, _validate


def test_doctests():
    assert doctest.testmod(abbreviation_forms).failed == 0


@pytest.mark.parametrize("lang, text, want", [
    ("de", "laut dr müller kostet das u a rund 5 mio euro z b für schulen", ["Dr. Müller", "u. a.", "5 Mio.", "z. B."]),
    ("es", "el sr garcía viajó a ee uu con la sra lópez", ["Sr. García", "EE. UU.", "Sra. López"]),
    ("fr", "il a vu mme martin et mlle dupont p ex hier", ["Mme Martin", "Mlle Dupont", "p. ex."]),
    ("ru", "в 2020 г он купил дом на ул ленина за 5 тыс руб и т д", ["2020 г.", "ул. Ленина", "тыс. руб.", "т. д."]),
])
def test_every_pack_with_a_list_writes_its_abbreviations(lang, text, want):
    pack = load_pack(lang)
    out = Restorer(lang=lang, spaces="keep")(text)
    assert base_text(out, pack) == base_text(text, pack)
    assert all(w in out for w in want), out


def test_restored_spaces_take_the_inner_spaces_and_kept_ones_do_not():
    assert "z. B." in Restorer(lang="de")("dasistzbeinbeispiel")
    assert "z.B." in Restorer(lang="de", spaces="keep")("das ist zb ein beispiel")
    assert "EE. UU." in Restorer(lang="es")("viajóaeeuuayer")


def test_what_the_input_typed_stays():
    de = Restorer(lang="de", spaces="keep")
    assert "z.b." in de("das ist z.b. gut")  # a typed mark: the word stays as typed
    assert "Z.B." in de("das ist ZB gut")  # a typed capital stays
    assert "https://zb.de/zb" in de("siehe https://zb.de/zb heute")  # a protected span


def test_a_sentence_start_keeps_its_capital_and_the_marks_after_the_form_stay():
    out = Restorer(lang="de", spaces="keep")("zb das hier")
    assert out.startswith("Z.B.")
    fr = Restorer(lang="fr", spaces="keep")("des pommes des poires etc etc")
    assert fr.count("etc.") == 2


@pytest.mark.parametrize("lang", ["en", "de", "es", "fr", "ru", "vi"])
@pytest.mark.parametrize("engine", ["auto", "char"])
def test_a_pack_writes_its_spellings_as_listed(lang, engine):
    """A pack's ``spellings``: names in mixed case that the models and the proper lists missed ("chatgpt", "openai"
    came out "chatgpt", "Openai" from en's pipeline)."""
    pack = load_pack(lang)
    text = "chatgpt openai mysql pytorch macos"
    out = Restorer(lang=lang, engine=engine, spaces="keep")(text)
    assert base_text(out, pack) == base_text(text, pack)
    assert all(w in out for w in ["ChatGPT", "OpenAI", "MySQL", "PyTorch", "macOS"]), out


@pytest.mark.parametrize("engine", ["pipeline", "char"])
def test_chats_acronyms_take_their_capitals(engine):
    """en's ``spellings`` hold chat's acronyms that a model wrote in small letters or as a name ("Lmao", "Fyi",
    "asap", "Faq"), spaced and run together."""
    for text in ("lmao fyi the diy faq is up reply asap imho", "lmaofyithediyfaqisupreplyasapimho"):
        out = Restorer(lang="en", engine=engine)(text)
        assert base_text(out, load_pack("en")) == base_text(text, load_pack("en"))
        assert all(w in out for w in ["LMAO", "FYI", "DIY", "FAQ", "ASAP", "IMHO"]), out


@pytest.mark.parametrize("lang, text", [("en", "iusechatgpteveryday"), ("en", "openaireleasedanewmodel"),
                                        ("de", "ichbenutzechatgptjedentag")])
def test_unspaced_text_keeps_a_spelling_whole(lang, text):
    """The NB segmenter counts the spellings as words (``Segmenter.know``): "chatgpt" was cut "chat gpt"."""
    for engine in ("auto", "char"):
        out = Restorer(lang=lang, engine=engine)(text)
        assert "ChatGPT" in out or "OpenAI" in out, out


@pytest.mark.parametrize("engine", ["auto", "char"])
def test_a_spelling_beside_an_apostrophes_clitic_is_written_as_listed(engine):
    """"openai's" is no form's letters, but "openai" before "'s" is (and fr "openai" after "d'")."""
    out = Restorer(lang="en", engine=engine, spaces="keep")("openai's ceo said chatgpt's answers are good")
    assert "OpenAI's" in out and "ChatGPT's" in out, out
    assert "d'OpenAI" in Restorer(lang="fr", engine=engine, spaces="keep")("le pdg d'openai a parlé")


def test_spellings_and_abbreviation_forms_share_no_letters():
    data = {"code": "xx", "features": ["CAPS", ".", "SPACE"], "cased": True, "abbreviation_forms": ["Dr."],
            "spellings": ["DR"]}
    with pytest.raises(PackError, match="spellings"):
        _validate("xx", data)


@pytest.mark.parametrize("form", [". B.", "z  B.", " z.", "z!", "zb"])
def test_a_bad_form_is_refused(form):
    data = {"code": "xx", "features": ["CAPS", ".", "SPACE"], "cased": True, "abbreviation_forms": ["zb", form]}
    with pytest.raises(PackError, match="abbreviation_forms"):
        _validate("xx", data)


def test_a_form_needs_the_features_it_writes():
    with pytest.raises(PackError, match="abbreviation_forms"):
        _validate("xx", {"code": "xx", "features": ["."], "abbreviation_forms": ["Dr."]})
    with pytest.raises(PackError, match="abbreviation_forms"):
        _validate("xx", {"code": "xx", "features": ["CAPS", "."], "cased": True, "abbreviation_forms": ["z. B."]})
