"""The models shipped in models/: every model a pack names is there, matches its card and restores text.

These check the artifacts a user installs, not a model's accuracy (that is scripts/eval_*.py on dev data):
each shipped model loads (sha256, features), keeps the nothing-lost invariant, and does restore something.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from charrestore import Restorer, base_text, load_pack
from charrestore.cards import load_card
from marks import input_marks_kept

SAMPLES = {
    "en": "willaichangeourfutureobviouslytheanswerisyesbutwhataretherisks",
    "ja": "今日は雨が降っていますか明日は晴れるでしょうそれでは失礼します",
    "gu": "ગુજરાત ભારત દેશનું એક રાજ્ય છે તેની રાજધાની ગાંધીનગર છે અમદાવાદ તેનું સૌથી મોટું શહેર છે",
}


@pytest.mark.parametrize("lang", sorted(SAMPLES))
def test_every_named_model_is_shipped_and_matches_its_card(lang):
    pack = load_pack(lang)
    for kind, name in pack.models.items():
        card, _ = load_card(lang, name)
        if kind in ("char", "token"):
            assert list(card["features"]) == list(pack.features)


ENGINES = [(lang, "char") for lang in sorted(SAMPLES)] + [
    (lang, "pipeline") for lang in sorted(SAMPLES) if "token" in load_pack(lang).models]


@pytest.fixture(scope="module")
def restorers():
    return {(lang, engine): Restorer(lang=lang, engine=engine) for lang, engine in ENGINES}


def test_default_engine_is_the_packs():
    """``engine="auto"`` runs what the pack names: en the pipeline (better on its dev sets), ja and gu the char model."""
    assert {lang: Restorer(lang=lang).config.engine for lang in SAMPLES} == {
        "en": "pipeline", "ja": "char", "gu": "char"}


@pytest.mark.parametrize("lang,engine", ENGINES)
def test_shipped_models_restore(restorers, lang, engine):
    pack = load_pack(lang)
    text = SAMPLES[lang]
    out = restorers[lang, engine](text)
    assert base_text(out, pack) == base_text(text, pack)
    marks = [c for c in out if c in pack.marks]
    assert marks, out                       # some mark restored
    assert out[-1] in pack.sentence_marks   # the document ends a sentence
    if pack.has_space and " " not in text:
        assert out.count(" ") >= 5, out     # spaces restored in run-together text


@pytest.mark.parametrize("lang,engine", ENGINES)
@settings(max_examples=25, deadline=None)
@given(text=st.text(st.characters(exclude_categories=("Cs",)), max_size=200))
def test_shipped_models_lose_nothing(restorers, lang, engine, text):
    pack = load_pack(lang)
    assert base_text(restorers[lang, engine](text), pack) == base_text(text, pack)


@pytest.mark.parametrize("engine", ("char", "pipeline"))
@settings(max_examples=25, deadline=None)
@given(words=st.lists(st.sampled_from("he said hello the house new york and met at white a i".split()),
                      min_size=1, max_size=30))
def test_shipped_en_input_ends_with_one_sentence_mark(restorers, engine, words):
    """One sentence mark after the last letter: summed mark biases once made "hello" end as "HellO.,?"."""
    pack = load_pack("en")
    for text in (" ".join(words), "".join(words)):
        out = restorers["en", engine](text)
        assert out[-1] in pack.sentence_marks and out[-2].isalpha(), out


@pytest.mark.parametrize("engine", ("char", "pipeline"))
@pytest.mark.parametrize("text", ["the price is 3.5 dollars", "it costs $1,000 now", "email me at john@example.com",
                                  "hello, world. how are you", "thepriceis3.5dollars", "the u.s. economy is big",
                                  "we use GitHub and PyTorch daily", "mynameisMcDonald"])
def test_shipped_en_keeps_the_input_marks(restorers, engine, text):
    """Numbers, addresses and the user's own punctuation keep their marks, and mixed-case input its capitals;
    the model only adds."""
    pack = load_pack("en")
    out = restorers["en", engine](text)
    assert base_text(out, pack) == base_text(text, pack) and input_marks_kept(text, out, pack), out


TYPED = "i dont im theyre cant wait know what doing u r you wont its fine thats pls thx".split()


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(TYPED), min_size=1, max_size=12))
def test_en_reads_a_word_as_its_card_spells_it(restorers, words):
    """The token card's ``read_as``: "dont" and "u" get the marks and first-letter case that "don't" and "you" get,
    and stay as typed (with ``apostrophes="keep"``: by default "dont" gains its apostrophe, test_apostrophes.py)."""
    read_as = load_card("en", "token")[0]["read_as"]
    restorer = Restorer(lang="en", engine="pipeline", apostrophes="keep")
    typed = restorer(" ".join(words)).split(" ")
    spelled = restorer(" ".join(read_as.get(w, w) for w in words)).split(" ")
    assert [w.lower().rstrip(".,?") for w in typed] == words
    for a, b in zip(typed, spelled, strict=True):
        marks_a, marks_b = a[len(a.rstrip(".,?")):], b[len(b.rstrip(".,?")):]
        assert (marks_a, a[0].isupper()) == (marks_b, b[0].isupper()), (typed, spelled)
