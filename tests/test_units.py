"""Unit symbols after a number keep their spelling (charrestore/units.py): both engines, through the Restorer."""

import doctest

import pytest

from charrestore import Restorer, base_text, load_pack, units

EN = load_pack("en")


def test_doctests():
    assert doctest.testmod(units).failed == 0


@pytest.mark.parametrize("engine", ["pipeline", "char"])
def test_a_unit_after_a_number_is_spelled_as_listed_and_the_number_takes_no_mark(engine):
    restorer = Restorer(lang="en", engine=engine)
    for text in ["it weighs 3 kg and runs at 30 mph with 5 kw", "weran3kmandthenwalked2kmtoday"]:
        out = restorer(text)
        assert base_text(out, EN) == base_text(text, EN)
        for number, unit in [("3", "kg"), ("30", "mph"), ("5", "kW"), ("3", "km"), ("2", "km")]:
            if f"{number}{unit.lower()}" in text.replace(" ", ""):
                assert f"{number} {unit}" in out, out


@pytest.mark.parametrize("engine", ["pipeline", "char"])
def test_an_hour_takes_am_or_pm_spelled_as_listed(engine):
    """"3pm" came out "3. Pm." (the pipeline) and "3 p.m" (the char model): a unit's letters take the marks of its
    listed spelling, "p.m.", and no other; "am" after a word is the verb."""
    restorer = Restorer(lang="en", engine=engine)
    for text, want in [("letsdoittomorrowat3pm", "3 p.m."), ("meetmeat10amtomorrow", "10 a.m."),
                       ("the meeting is at 3 pm tomorrow", "3 p.m. tomorrow"), ("iam30andiamhappy", "I am"),
                       ("it starts at 3 PM sharp", "3 P.M."), ("we met at 9 a.m. sharp", "9 a.m. sharp")]:
        out = restorer(text)
        assert base_text(out, EN) == base_text(text, EN)
        assert want in out, out


def test_what_the_input_typed_stays():
    restorer = Restorer(lang="en", engine="pipeline", spaces="keep")
    assert "3 KG" in restorer("i saw 3 KG of it")  # typed capitals
    assert "3. kg" in restorer("it was 3. kg of it")  # a typed mark
    assert EN.units["kw"] == "kW" and "kg" not in load_pack("ru").units  # a pack without the list has none


@pytest.mark.parametrize("lang, text, want", [("de", "es ist nur 3 kg schwer und hat 5 kw", ["3 kg", "5 kW"]),
                                              ("es", "pesa 3 kg y tiene 5 kw", ["3 kg", "5 kW"]),
                                              ("fr", "il pèse 3 kg et fait 5 kw", ["3 kg", "5 kW"]),
                                              ("ru", "он весит 3 кг и даёт 5 квт", ["3 кг", "5 кВт"])])
def test_every_pack_with_a_list_spells_its_units(lang, text, want):
    out = Restorer(lang=lang, spaces="keep")(text)
    assert all(w in out for w in want), out


@pytest.mark.parametrize("lang, text, want", [("de", "der umsatz stieg um 5 mio euro auf 3 mrd euro", ["5 Mio. Euro", "3 Mrd. Euro"]),
                                              ("ru", "расходы выросли на 3 млрд а доходы на 5 млн рублей",
                                               ["на 3 млрд", "5 млн рублей"])])
def test_a_number_word_after_a_number_takes_its_listed_mark_and_the_number_none(lang, text, want):
    pack = load_pack(lang)
    out = Restorer(lang=lang, spaces="keep")(text)
    assert base_text(out, pack) == base_text(text, pack)
    assert all(w in out for w in want), out
    assert pack.units["mio" if lang == "de" else "млн"] in ("Mio.", "млн")


def test_the_month_of_a_date_binds_to_its_day():
    """ru lists its months' genitives as units: the prose model wrote "12, апреля" at a text's start."""
    for spaces, text in [("keep", "12 апреля 1961 года гагарин полетел в космос"), ("auto", "12апреля1961года")]:
        out = Restorer(lang="ru", spaces=spaces)(text)
        assert out.startswith("12 апреля "), out


@pytest.mark.parametrize("lang, text, want", [
    ("fr", "le1erjanvier2024", "Le 1er janvier 2024"), ("fr", "le 1er janvier 2024 il a plu", "Le 1er janvier 2024"),
    ("fr", "ilestnéle14juillet1789àparis", "le 14 juillet 1789 à")])
def test_a_dates_month_binds_to_its_day_or_ordinal_and_its_year(lang, text, want):
    """fr lists its months as joining units: the novels' model wrote "le 1er, Janvier, 2024" ("1er", a number and one
    of the pack's ``ordinal_suffixes``, counts as the number)."""
    pack = load_pack(lang)
    out = Restorer(lang=lang, spaces="auto")(text)
    assert base_text(out, pack) == base_text(text, pack) and want in out, out


def test_a_spanish_month_after_de_is_a_unit_of_two_words():
    import numpy as np

    es = load_pack("es")
    caps, comma, space = es.bit("CAPS"), es.bit(","), es.bit("SPACE")
    base = list("3demarzo")  # "3, de Marzo", as a model might write it
    cls = np.zeros(len(base), int)
    cls[0], cls[2], cls[3] = comma | space, space, caps
    out = units.unit_case(base, cls, es, np.zeros(len(base), int))
    assert out.tolist() == [space, 0, space] + [0] * 5  # "3 de marzo"


@pytest.mark.parametrize("lang, text, want", [("fr", "le train part à 10 h 30 demain matin", "10 h 30"),
                                              ("fr", "letrainpartà10h30demainmatin", "10 h 30"),
                                              ("de", "wir treffen uns um 14 uhr 30 im rathaus", "14 Uhr 30"),
                                              ("en", "he is 5 ft 10 and weighs 180 lb", "5 ft 10")])
def test_a_joining_unit_between_two_numbers_takes_no_mark(lang, text, want):
    """fr's prose model wrote "10 h, 30": a pack's ``joining_units`` take no mark before a number."""
    pack = load_pack(lang)
    out = Restorer(lang=lang, spaces="auto")(text)
    assert base_text(out, pack) == base_text(text, pack) and want in out, out


def test_a_joining_unit_keeps_a_typed_mark_and_other_units_keep_their_commas():
    import numpy as np

    fr = load_pack("fr")
    assert "h" in fr.joining_units and fr.units["h"] == "h" and not load_pack("es").joining_units
    comma, space = fr.bit(","), fr.bit("SPACE")
    base = list("3kg5kg10h30")  # "3 kg, 5 kg, 10 h, 30" with the input's comma after "h" typed
    cls = np.zeros(len(base), int)
    for k in (0, 3, 4, 7, 9):
        cls[k] = space
    for k in (2, 5, 8):
        cls[k] = comma | space
    kept = np.zeros(len(base), int)
    out = units.unit_case(base, cls.copy(), fr, kept)
    assert out[2] & comma and out[5] & comma and not out[8] & comma  # "3 kg, 5 kg, 10 h 30"
    kept[8] = comma
    assert units.unit_case(base, cls.copy(), fr, kept)[8] & comma  # typed: "10 h, 30" stays


@pytest.mark.parametrize("lang, engine, text, want", [("en", "pipeline", "the price rose 5 %", "5 %."),
                                                      ("en", "char", "the price rose 5 %", "5 %."),
                                                      ("es", "char", "el paro bajó un 2 %", "2 %."),
                                                      ("es", "char", "elparobajóun2%", "2%."),
                                                      ("de", "char", "das kostet 5 €", "5 €."),
                                                      ("fr", "char", "le prix a augmenté de 5 % en mars", "5 % en")])
def test_a_percent_or_currency_sign_is_a_unit_and_a_sentence_may_end_on_it(lang, engine, text, want):
    """An input ending in "%" or "€" had no final mark ("El paro bajó un 2 %"): clusters.ends_sentence_on."""
    pack = load_pack(lang)
    out = Restorer(lang=lang, engine=engine)(text)
    assert base_text(out, pack) == base_text(text, pack) and want in out, out


def test_an_input_ending_in_an_emoji_or_a_link_still_takes_no_mark_after_it():
    for engine in ("pipeline", "char"):
        restorer = Restorer(lang="en", engine=engine)
        assert restorer("great game today 😀").endswith("😀")
        assert restorer("see www.example.com").endswith("www.example.com")


@pytest.mark.parametrize("spaces, text", [("auto", "elpreciosubióun5porcientoayer"),
                                          ("keep", "el precio subió un 3,5 por ciento ayer")])
def test_a_unit_of_two_words_binds_to_its_number(spaces, text):
    """es lists "por ciento": the Congress speeches write "%", and the model wrote "un 5, Por ciento"."""
    es = load_pack("es")
    out = Restorer(lang="es", spaces=spaces)(text)
    assert base_text(out, es) == base_text(text, es)
    assert " por ciento" in out and ", por" not in out.lower(), out
