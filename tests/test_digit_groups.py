"""Long numbers get the pack's thousands separator (charrestore/digit_groups.py): only runs of five digits or more
that are words of their own, never against what the input typed, nothing but marks and spaces inside them."""

import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from charrestore import Restorer, base_text, load_pack, parse, render
from charrestore.digit_groups import digit_groups, typed_groups
from charrestore.packs import PackError, _validate


def shown(pack, text: str, typed: dict[int, str] | None = None, keep: bool = False, protected=None) -> str:
    """``text`` (letters, digits and spaces: the engines' word boundaries) through digit_groups, rendered with
    the marks of each grapheme; ``typed``: grapheme index -> a mark or " " the input gave after it."""
    base, cls = [], []
    for ch in text:
        if ch == " ":
            cls[-1] |= pack.bit("SPACE")
        else:
            base.append(ch)
            cls.append(0)
    given = np.zeros(len(base), np.int64)
    for i, mark in (typed or {}).items():
        given[i] = pack.bit("SPACE" if mark == " " else mark)
    cls = np.array(cls, np.int64) | given
    out = digit_groups(base, cls, pack, given, keep, protected)
    marks = [m for m in pack.features if m not in ("CAPS", "SPACE")]
    return "".join(g + "".join(m for m in marks if c & pack.bit(m)) + (" " if c & pack.bit("SPACE") else "")
                   for g, c in zip(base, out)).rstrip()


def test_a_long_number_takes_the_packs_separator():
    assert shown(load_pack("es"), "costó 2500000 euros") == "costó 2.500.000 euros"
    assert shown(load_pack("en"), "hired 25000 people") == "hired 25,000 people"
    assert shown(load_pack("ru"), "заплатил 170000 рублей") == "заплатил 170 000 рублей"
    assert shown(load_pack("vi"), "giá 123456789") == "giá 123.456.789"


def test_short_numbers_codes_and_glued_or_typed_runs_stay():
    es = load_pack("es")
    for text in ("en 2023 y 1200", "llame al 5551234567", "código 00123", "el A38000 vuela", "x 12345y", "tel +4917012345", "0170-12345"):
        assert shown(es, text) == text
    assert shown(es, "pi 314159", typed={2: ","}) == "pi 3,14159"  # a mark typed inside: a decimal
    assert shown(es, "de 1999 20000", typed={5: " "}) == "de 1999 20.000"  # a typed space ends a run
    assert shown(es, "url 123456", protected=np.ones(9, bool)) == "url 123456"


def test_the_segmenters_spaces_inside_a_run_give_way():
    assert shown(load_pack("es"), "gastó 2500 000 euros") == "gastó 2.500.000 euros"
    assert shown(load_pack("de"), "kostet 1000 000 euro") == "kostet 1 000 000 euro"
    # cut into other pieces than groups of three, they are numbers of their own
    assert shown(load_pack("es"), "años 1945 1946 y 1945 19460") == "años 1945 1946 y 1945 19.460"


def test_a_space_separator_adds_no_space_where_spaces_are_kept():
    assert shown(load_pack("ru"), "заплатил 170000 рублей", keep=True) == "заплатил 170000 рублей"
    assert shown(load_pack("es"), "costó 170000 euros", keep=True) == "costó 170.000 euros"


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="01234 5a", max_size=30), st.sampled_from(["es", "en", "ru"]), st.booleans())
def test_only_marks_and_spaces_between_digits_change(text, lang, keep):
    pack = load_pack(lang)
    text = " ".join(text.split())
    if not text:
        return
    out = shown(pack, text, keep=keep)
    assert base_text(out, pack) == base_text(text, pack)
    assert all(out[i - 1].isdigit() and out[i + 1].isdigit() for i, c in enumerate(out) if c in ".,")
    assert [w for w in out.split() if "a" in w] == [w for w in text.split() if "a" in w]  # words with letters stay


def test_a_pack_names_a_separator_it_has():
    with pytest.raises(PackError, match="thousands"):
        _validate("xx", {"features": [".", "SPACE"], "thousands": ","})
    assert _validate("xx", {"features": [".", "SPACE"], "thousands": " "}).thousands == " "


@pytest.mark.parametrize("lang, text, want", [("es", "elgobiernogastó2500000eurosen2023", "2.500.000"),
                                              ("en", "theyhired25000peoplein2023", "25,000")])
def test_fix_groups_a_long_number_through_the_cli(lang, text, want):
    res = subprocess.run([sys.executable, "-m", "charrestore", "fix", "--lang", lang, text],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert want in res.stdout and "2023" in res.stdout
    assert base_text(res.stdout, load_pack(lang)) == text


def grouped(lang: str, typed: str, model: str) -> str:
    """``model`` (the typed text as an engine wrote it: marks and spaces added) after typed_groups, which reads the
    spaces and marks of ``typed`` as the input's."""
    pack = load_pack(lang)
    base, given = parse(typed, pack, apply_map=False)
    same, cls = parse(model, pack, apply_map=False)
    assert same == base
    return render(base, typed_groups(base, cls.copy(), pack, given), pack)


@pytest.mark.parametrize("lang, typed, model, want", [
    ("en", "call 555 123 4567 now", "call 555, 123, 4567. now", "call 555 123 4567. now"),
    ("fr", "au 01 42 68 53 00 merci", "au 01 42, 68. 53 00, merci", "au 01 42 68 53 00, merci"),
    ("de", "unter +49 30 1234567 an", "unter +49, 30, 1234567 an", "unter +49 30 1234567 an"),
    ("es", "costó 1 200 000 euros", "costó 1, 200, 000 euros", "costó 1 200 000 euros"),
    ("ru", "всего 20 000 рублей", "всего 20, 000 рублей", "всего 20 000 рублей"),
    ("es", "en 2019 20 000 millones", "en 2019, 20, 000 millones", "en 2019, 20 000 millones")])  # a year, an amount
def test_a_number_typed_in_groups_takes_no_mark_between_them(lang, typed, model, want):
    assert grouped(lang, typed, model) == want


@pytest.mark.parametrize("typed, model", [
    ("ages 10 20 30 and up", "ages 10, 20, 30 and up"),  # a list of numbers
    ("in 2018 2019 2020", "in 2018, 2019, 2020"),  # years
    ("rooms 100 200 300", "rooms 100, 200, 300"),  # round hundreds
    ("from 1 400 on", "from 1, 400 on"),  # two groups, no group of a number
    ("read 1 9 7 0 4 2 out", "read 1, 9, 7, 0, 4, 2 out"), ("so 120 0 0 120", "so 120, 0, 0, 120"),  # digits read out
    ("on 2020 04 01 then", "on 2020, 04, 01 then"),  # a date
    ("at 555 123 4567x", "at 555, 123, 4567x"),  # glued to a letter: a code
    ("pi 3.14 15 92", "pi 3.14, 15, 92"),  # a typed mark ends a run
])
def test_a_list_of_numbers_keeps_the_models_marks(typed, model):
    assert grouped("en", typed, model) == model


def test_fix_keeps_a_phone_number_whole_in_both_engines():
    for engine in ("pipeline", "char"):
        out = Restorer(lang="en", engine=engine)("call me at 555 123 4567 or 06 12 34 56 78 tomorrow")
        assert "555 123 4567" in out and "06 12 34 56 78" in out
        assert base_text(out, load_pack("en")) == base_text("call me at 555 123 4567 or 06 12 34 56 78 tomorrow",
                                                             load_pack("en"))
