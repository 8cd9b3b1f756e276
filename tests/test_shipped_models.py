"""The models shipped in models/: every model a pack names is there, matches its card and restores text.

These check the artifacts a user installs, not a model's accuracy (that is scripts/eval_*.py on dev data):
each shipped model loads (sha256, features), keeps the nothing-lost invariant, and does restore something.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from charrestore import Restorer, base_text, load_pack
from charrestore.cards import load_card

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


@pytest.fixture(scope="module")
def restorers():
    return {lang: Restorer(lang=lang) for lang in SAMPLES}


@pytest.mark.parametrize("lang", sorted(SAMPLES))
def test_shipped_char_model_restores(restorers, lang):
    pack = load_pack(lang)
    text = SAMPLES[lang]
    out = restorers[lang](text)
    assert base_text(out, pack) == base_text(text, pack)
    marks = [c for c in out if c in pack.marks]
    assert marks, out                       # some mark restored
    assert out[-1] in pack.sentence_marks   # the document ends a sentence
    if pack.has_space and " " not in text:
        assert out.count(" ") >= 5, out     # spaces restored in run-together text


@pytest.mark.parametrize("lang", sorted(SAMPLES))
@settings(max_examples=25, deadline=None)
@given(text=st.text(st.characters(exclude_categories=("Cs",)), max_size=200))
def test_shipped_models_lose_nothing(restorers, lang, text):
    pack = load_pack(lang)
    assert base_text(restorers[lang](text), pack) == base_text(text, pack)


@settings(max_examples=25, deadline=None)
@given(words=st.lists(st.sampled_from("he said hello the house new york and met at white a i".split()),
                      min_size=1, max_size=30))
def test_shipped_en_input_ends_with_one_sentence_mark(restorers, words):
    """One sentence mark after the last letter: summed mark biases once made "hello" end as "HellO.,?"."""
    pack = load_pack("en")
    for text in (" ".join(words), "".join(words)):
        out = restorers["en"](text)
        assert out[-1] in pack.sentence_marks and out[-2].isalpha(), out
