"""Apostrophes inside words (charrestore.apostrophes): chosen in context, only where the text has none of its own,
only in plain words, never changing a letter; shipped for en and run by every engine's restore."""

import shutil
import subprocess
import sys

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from charrestore import Restorer, base_text, load_pack
from charrestore.apostrophes import Apostrophes
from charrestore.cards import ModelError
from charrestore.paths import models_dir

TOY = Apostrophes(
    ["it's", "its", "a", "own", "can't", "cant", "we'll", "well", "see", "i'm", "im", "done"],
    [50, 20, 100, 30, 10, 1, 10, 40, 20, 30, 1, 10],
    {"it's": "a 20", "its": "own 15", "we'll": "see 9", "well": "done 12"}, total=400, smoothing=1,
    cased={"i'm": "I'm"})


def test_the_neighbours_choose_the_form():
    assert TOY.restore("its a dog. its own bone") == "it's a dog. its own bone"
    assert TOY.restore("well see, well done") == "we'll see, well done"
    assert TOY.restore("it cant be") == "it can't be"


def test_a_form_spelled_with_a_capital_gets_it_and_the_input_case_stays():
    assert TOY.restore("so im here") == "so I'm here"
    assert TOY.restore("SO IM HERE") == "SO I'M HERE"
    assert TOY.restore("Its a dog") == "It's a dog"


def test_a_text_with_any_apostrophe_keeps_its_own_spelling():
    for text in ("it's a dog, its a bone", "it’s a dog, its a bone"):
        assert TOY.restore(text) == text
    assert TOY.restore_words(["it's", "its", "a"]) == ["it's", "its", "a"]


def test_only_plain_words_change():
    text = "#its @its its.com its3 x/its its@a.org http://its.org (its) a"
    assert TOY.restore(text) == "#its @its its.com its3 x/its its@a.org http://its.org (it's) a"


def test_words_are_restored_with_the_others_as_context():
    assert TOY.restore_words(["Well", "see."]) == ["We'll", "see."]


WORDS = ["its", "it", "a", "own", "cant", "well", "see", "im", "#its", "its.", "(its", "3its", "e.g.", "IM", "Its"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=12), st.sampled_from([" ", "  ", "\n", ", "]))
def test_only_apostrophes_and_case_are_added(words, joiner):
    text = joiner.join(words)
    out = TOY.restore(text)
    assert out.replace("'", "").lower() == text.lower()


@pytest.fixture(scope="module")
def shipped():
    if not (models_dir() / "en" / "apostrophes.json").is_file():
        pytest.skip("the en apostrophes model is not installed")
    return Restorer(lang="en")


def test_the_default_engine_restores_apostrophes_in_spaced_and_unspaced_text(shipped):
    pack = load_pack("en")
    for text in ("i cant believe its not there and im sure well see", "icantbelieveitsnotthereimsure"):
        out = shipped(text)
        assert "can't" in out and "it's" in out and "I'm" in out, out
        assert base_text(out, pack) == base_text(text, pack)
    assert "its own" in shipped("the company and its own workers")


def test_the_char_engine_restores_them_too(shipped):
    assert "can't" in Restorer(lang="en", engine="char")("i cant believe it")


def test_hashtags_keep_their_camel_case_form_without_an_apostrophe(shipped):
    out = shipped("we went home #dontstop")
    assert "#" in out and "'" not in out.split("#")[1]


def test_fix_on_the_command_line():
    if not (models_dir() / "en" / "apostrophes.json").is_file():
        pytest.skip("the en apostrophes model is not installed")
    res = subprocess.run([sys.executable, "-m", "charrestore", "fix", "i dont think its ready"],
                         capture_output=True, text=True, check=True)
    assert res.stdout.startswith("I don't think it's ready")


def test_french_elisions_come_back():
    """fr ships the same step, counted from its novels: "cest", "jai", "lhomme" typed without their apostrophes."""
    if not (models_dir() / "fr" / "apostrophes.json").is_file():
        pytest.skip("the fr apostrophes model is not installed")
    restorer, pack = Restorer(lang="fr"), load_pack("fr")
    for text, forms in (("cest la vie et jai faim", ["c'est", "j'ai"]), ("cestlaviejaifaim", ["c'est", "j'ai"]),
                        ("il nest pas venu aujourdhui voir lhomme", ["n'est", "aujourd'hui", "l'homme"])):
        out = restorer(text)
        assert base_text(out, pack) == base_text(text, pack)
        assert all(form in out.lower() for form in forms), out
    assert "il l'a vu" in restorer("il la vu hier").lower()
    assert restorer("c’est la vie jai faim").count("'") == 0  # a text that writes its own apostrophes keeps them


def test_unspaced_french_is_read_with_its_apostrophes_back():
    """Unspaced text without apostrophes: the words of the char engine's NB segmenter take theirs before the char
    model reads it (apostrophes_before), which wrote "à L'école" for "àlécole", reading "lécole" as a name."""
    if not (models_dir() / "fr" / "apostrophes.json").is_file():
        pytest.skip("the fr apostrophes model is not installed")
    restorer, pack = Restorer(lang="fr"), load_pack("fr")
    for text, want in (("lesenfantsnontpasmangéàlécole", "n'ont pas mangé à l'école"),
                       ("lhommequejaivuhierestpartiavantlaube", "j'ai vu hier est parti avant l'aube"),
                       ("leprojetdeloisurlimmigration", "sur l'immigration")):  # "l" cut off alone: "l'"
        out = restorer(text)
        assert base_text(out, pack) == base_text(text, pack) and want in out, out
    assert restorer("lécole https://x.fr/lécole") == restorer("lécole https://x.fr/lécole", spaces="keep")


def test_french_typed_without_diacritics_gets_its_apostrophes_from_the_counts_made_plain():
    """fr is often typed without its accents too ("jespere", "cetait"): such text reads the counts made plain."""
    if not (models_dir() / "fr" / "apostrophes.json").is_file():
        pytest.skip("the fr apostrophes model is not installed")
    restorer, pack = Restorer(lang="fr"), load_pack("fr")
    for text, forms in (("jespere que tu vas bien", ["j'espere"]), ("cetaitsuperhierjetaisalecole", ["c'etait", "j'etais"])):
        out = restorer(text)
        assert base_text(out, pack) == base_text(text, pack) and all(f in out.lower() for f in forms), out
    assert "j'espère" in restorer("jespère que tu vas bien").lower()  # marked text reads the counts as they are


@given(text=st.text(alphabet="jaivulhome ,#@:/", max_size=40))
@settings(max_examples=60, deadline=None)
def test_apostrophes_before_adds_apostrophes_and_nothing_else(text):
    from charrestore.apostrophes import apostrophes_before
    from charrestore.segmenter import Segmenter

    model = Apostrophes(["j'ai", "jai", "l'homme", "lhomme", "vu"], [50, 1, 20, 1, 30], {}, total=200, smoothing=1)
    model.clitics = frozenset(["l", "j"])
    out = apostrophes_before(text, model, Segmenter({"jai": 51, "vu": 30, "lhomme": 21, "a": 5, "l": 9}, {}, L=8))
    assert out.replace("'", "") == text and (out == text or not regex.search(r"[#@/]", text))


def test_a_models_folder_without_the_model_adds_none_and_a_damaged_one_is_an_error(tmp_path):
    if not (models_dir() / "en" / "apostrophes.json").is_file():
        pytest.skip("the en apostrophes model is not installed")
    folder = tmp_path / "en"
    shutil.copytree(models_dir() / "en", folder)
    (folder / "apostrophes.json").unlink()
    assert "'" not in Restorer(lang="en", models_dir=str(tmp_path))("i dont think its ready")
    shutil.copyfile(models_dir() / "en" / "apostrophes.json", folder / "apostrophes.json")
    (folder / "apostrophes.counts").write_bytes(b"damaged")
    with pytest.raises(ModelError, match="sha256"):
        Restorer(lang="en", models_dir=str(tmp_path))


def test_train_apostrophes_writes_a_model_that_loads(tmp_path):
    import argparse
    import json

    from charrestore.training import train_apostrophes

    text = tmp_path / "talk.txt"
    text.write_text("I'm sure it's fine. Its own way is fine, I'm told. We don't know. I'm here and it's late.\n" * 25)
    parser = argparse.ArgumentParser()
    train_apostrophes.add_arguments(parser)
    train_apostrophes.run(parser.parse_args(["--lang", "en", "--corpus", str(text), "--out", str(tmp_path / "en"),
                                             "--license", "talk.txt=CC0", "--smoothing", "1"]))
    card = json.loads((tmp_path / "en" / "apostrophes.json").read_text())
    assert card["kind"] == "apostrophes" and card["sources"][0]["license"] == "CC0"
    assert card["cased"] == {"i'm": "I'm"}  # inside sentences always with its capital
    model = Apostrophes.load("en", tmp_path)
    assert set(model.forms) == {"im", "its", "dont"}
    assert model.restore("so im sure its fine and its own way") == "so I'm sure it's fine and its own way"
