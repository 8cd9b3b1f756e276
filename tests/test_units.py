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


def test_what_the_input_typed_stays():
    restorer = Restorer(lang="en", engine="pipeline", spaces="keep")
    assert "3 KG" in restorer("i saw 3 KG of it")  # typed capitals
    assert "3. kg" in restorer("it was 3. kg of it")  # a typed mark
    assert EN.units["kw"] == "kW" and "kg" not in load_pack("ru").units  # a pack without the list has none
