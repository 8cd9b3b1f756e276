"""Words with symbols the token model never read in training ("wow!", "it😀", ":)"), in the pipeline engine."""

import numpy as np
from test_token_engine import EN, models, needs_nb, read_forms, restorers  # noqa: F401 (the fixture models and restorers)

from charrestore import base_text
from charrestore.engines.symbols import Symbols


def test_the_packs_closing_symbols_and_what_the_model_reads():
    marks = [None, ",", ".", "?"]  # O, COMMA, PERIOD, QUESTION
    symbols = Symbols(EN, marks)
    assert symbols.closers == {"!": 2, ";": 2, "…": 2}  # the en map sends them to "."
    assert symbols.cuts("great!!!see it😀so 3!x a!") == [8, 15]
    forms, read, forced, typed = symbols.read(["wow!", "it😀", "🎉🎉", ":)", "fine", "yes!", "♫", "&"],
                                              np.array([-1, -1, -1, -1, -1, 1, -1, -1]), 0)
    assert forms == ["wow", "it", "", ":)", "fine", "yes", "♫", "&"]
    # training text keeps "♫" (TED's lyrics) and "&": the model reads them as it learned them
    assert read.tolist() == [True, True, False, False, True, True, True, True]
    assert forced.tolist() == [2, 0, -1, -1, -1, 1, -1, -1]  # a mark the input typed after the "!" stays the word's
    assert typed.tolist() == [True, False, False, False, False, False, False, False]


def test_a_typed_exclamation_ends_the_sentence_and_takes_no_mark(restorers):
    for text in ("wow! that was fun", "wow!!! that was fun"):
        out = restorers["keep"](text)
        assert out.startswith(text.split()[0].capitalize() + " That "), out
        assert base_text(out, EN) == base_text(text, EN)


def test_emoji_words_are_not_read_and_take_no_mark(restorers, monkeypatch):
    seen = read_forms(restorers["keep"], monkeypatch)
    out = restorers["keep"]("so excited 🎉🎉 see you there :)")
    assert seen == [["so", "excited", "see", "you", "there"]]
    words = out.split()
    assert words[2] == "🎉🎉" and words[-1] == ":)", out
    assert restorers["keep"]("🎉🎉 :)") == "🎉🎉 :)"


def test_an_emoticon_is_read_as_an_emoji_is(restorers, monkeypatch):
    """An emoticon of its own (spans.EMOTICON: "<3", "xD", ":-D") is left out of what the model reads, as an emoji
    is, and comes back as typed."""
    seen = read_forms(restorers["keep"], monkeypatch)
    text = "i miss you <3 see you xD so :-D fun ^_^"
    out = restorers["keep"](text)
    assert seen == [["i", "miss", "you", "see", "you", "so", "fun"]]
    assert [w for w in out.split() if w.rstrip(".,?") in ("<3", "xD", ":-D", "^_^")] == ["<3", "xD", ":-D", "^_^"], out
    assert base_text(out, EN) == base_text(text, EN)


@needs_nb
def test_unspaced_text_gets_a_space_after_a_closing_run(restorers):
    for text, run in (("iloveit😀somuch", "😀"), ("thisisgreat!!!seeyou", "!!!")):
        out = restorers["restore"](text)
        assert run + " " in out, out
        assert base_text(out, EN) == base_text(text, EN)


def test_closing_hashtags_are_no_words_of_the_last_sentence(restorers, monkeypatch):
    """Two closing tags are never read as words; one is, unless the model then puts a mark before it ("today,
    #fun"): it is then read without it, and the sentence ends before it."""
    seen = read_forms(restorers["keep"], monkeypatch)
    out = restorers["keep"]("see you all there #travel #nyc")
    assert ["see", "you", "all", "there"] in seen and not any("there" in f and "travel" in f for f in seen)
    assert out[:out.index(" #")][-1] in ".?", out
    for text in ("great game today #fun", "i love #python", "so proud of my team #teamwork", "we won #champions 🏆"):
        seen.clear()
        out = restorers["keep"](text)
        before = len(text.split("#")[0].split())
        passes = [forms for forms in seen if text.startswith(forms[0])]  # not the tag's own case
        assert len(passes[0]) > before  # the tag is read as a word first
        read_last = len(passes[-1]) > before
        assert out[:out.index(" #")][-1].isalnum() == read_last, (out, seen)  # a mark before it: not read
        assert base_text(out, EN) == base_text(text, EN)


def test_tags_after_closing_emoji_are_not_read(restorers, monkeypatch):
    seen = read_forms(restorers["keep"], monkeypatch)
    out = restorers["keep"]("great game today 👍🏽 #fun")
    assert out.endswith(" 👍🏽 #Fun") and out[-len(" 👍🏽 #Fun") - 1] in ".?", out  # the last sentence ends before them
    restorers["keep"]("i love #python")  # a tag without an emoji before it may be a word of the sentence
    # (the tags' own case comes from reading them alone: ["fun"], ["python"])
    assert [forms for forms in seen if len(forms) > 1] == [["great", "game", "today"], ["i", "love", "python"]]
