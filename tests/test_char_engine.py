"""The char engine on tiny fixture models (tests/fixtures/models, made by scripts/make_fixture_models.py).

The fixture models are barely trained: these tests check what must hold for ANY model (nothing lost,
spaces kept, determinism, robustness), never what a good model would output.
"""

import functools
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import regex
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from charrestore import Restorer, base_text, load_pack
from charrestore.chunking import plan
from charrestore.codec import graphemes, parse, render, strip_features
from charrestore.engines.char_settings import class_bias
from charrestore.engines.char_input import NO_SPACE
from marks import input_marks_kept

ROOT = Path(__file__).resolve().parent.parent
FIXTURE_MODELS = ROOT / "tests" / "fixtures" / "models"
LANGS = ("en", "ja", "gu")


@pytest.fixture(scope="module")
def restorers():
    return {(lang, spaces): Restorer(lang=lang, engine="char", spaces=spaces, models_dir=str(FIXTURE_MODELS))
            for lang in LANGS for spaces in ("auto", "keep", "restore")}


@pytest.fixture(scope="module")
def data_root(tmp_path_factory):
    """A CHARRESTORE_DATA folder: the real packs beside the fixture models."""
    root = tmp_path_factory.mktemp("data")
    (root / "languages").symlink_to(ROOT / "languages")
    shutil.copytree(FIXTURE_MODELS, root / "models")
    return root


def cli(data_root, *args, stdin=b""):
    env = {**os.environ, "CHARRESTORE_DATA": str(data_root)}
    return subprocess.run([sys.executable, "-m", "charrestore", *args], input=stdin, capture_output=True,
                          env=env, timeout=120)


any_text = st.text(st.characters(exclude_categories=("Cs",)), max_size=300)
texty = st.lists(st.sampled_from(list("abcdefghij klmnop.,?!'-()\":;ÀéŞ") + ["\u0301", "ક", "્", "ષ", "ા", "。", "、", "日", "👩\u200d👧", "🎉", "！"]),
                max_size=300).map("".join)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("spaces", ("auto", "keep", "restore"))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.one_of(any_text, texty))
def test_nothing_lost(restorers, lang, spaces, text):
    pack = load_pack(lang)
    out = restorers[lang, spaces](text)
    assert base_text(out, pack) == base_text(text, pack)
    assert input_marks_kept(text, out, pack)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=st.lists(st.text(st.sampled_from(list("abcdefghijklmnopqrstuvwxyz'")), min_size=1, max_size=8),
                      min_size=1, max_size=40))
def test_keep_mode_keeps_word_boundaries(restorers, words):
    pack = load_pack("en")
    text = " ".join(words)
    out = restorers["en", "keep"](text)
    assert [base_text(w, pack) for w in out.split(" ")] == [base_text(w, pack) for w in text.split(" ") if base_text(w, pack)]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=st.lists(st.text(st.sampled_from(list("abcdef()\"“”„«»")), min_size=1, max_size=6), min_size=1,
                      max_size=12))
@example(words=["said(", "quietly)", "no"])
def test_keep_mode_keeps_the_typed_spaces_beside_brackets_and_quotes(restorers, words):
    """An opening bracket or quote reaches the model as no grapheme of its own: the word before it keeps its own
    space, not the bracket's ("said( quietly)" once came back "said, ( quietly)")."""
    pack = load_pack("en")
    text = " ".join(words)
    out = restorers["en", "keep"](text)
    plain = str.maketrans("", "", "".join(pack.marks))
    assert out.lower().translate(plain).split(" ") == text.translate(plain).split(" ")


def test_sentence_case_after_sentence_end(restorers):
    out = restorers["en", "restore"]("willaichangeourfutureobviouslytheanswerisyes" * 5)
    assert out[0].isupper()
    for i, ch in enumerate(out[:-2]):
        if ch in ".?" and out[i + 1] == " " and out[i + 2].isalpha():
            assert out[i + 2].isupper(), out


def test_a_capital_follows_only_the_marks_of_capital_after(restorers, monkeypatch):
    """ru and fr go on after a question with a small letter ("«Что?» – спросил он"): there the model decides."""
    engine = restorers["en", "restore"].engine
    pack = engine.pack
    space, caps = pack.bit("SPACE"), pack.bit("CAPS")
    cls = np.array([0, space | pack.bit("?"), 0, space | pack.bit("."), 0, 0], np.int32)  # "ab? cd. ef"

    def capitals(classes):
        return np.flatnonzero(engine.sentence_case(list("abcdef"), classes.copy()) & caps).tolist()

    assert capitals(cls) == [0, 2, 4]  # en: every sentence mark
    monkeypatch.setattr(engine, "capital_bits", pack.bit("."))  # ru, fr: capital_after = ["."]
    assert capitals(cls) == [0, 4]
    cls[2] |= caps  # the model's own capital after "?" stays
    assert capitals(cls) == [0, 2, 4]


def test_a_sentence_end_and_a_comma_on_one_grapheme_become_the_better_alone(restorers):
    """"Präsident., Sehr": a capital_after mark and a comma on one grapheme keep the one the scores prefer; a
    comma alone, or marks the input typed, stay."""
    engine = restorers["en", "restore"].engine
    pack = engine.pack
    period, comma, question, space = (pack.bit(m) for m in (".", ",", "?", "SPACE"))
    cls = np.array([period | comma | space, question | comma | space, comma | space], np.int32)
    scores = np.zeros((3, pack.n_classes), np.float32)
    scores[0, period | space], scores[0, comma | space] = 2.0, 1.0  # the period alone is better
    scores[1, question | space], scores[1, comma | space] = 1.0, 2.0  # the comma alone is better
    out = engine.sentence_end_alone(scores, cls.copy(), np.zeros(3, np.int32))
    assert out.tolist() == [period | space, comma | space, comma | space]
    typed = np.array([comma, 0, 0], np.int32)  # the input's own ".," stays
    assert engine.sentence_end_alone(scores, cls.copy(), typed).tolist()[:2] == [period | comma | space, comma | space]


def test_the_forced_end_keeps_its_sentence_mark_when_a_comma_shares_its_grapheme(restorers, monkeypatch):
    """The input's end takes a sentence mark: a best ".," there becomes ".", even where "," alone scores higher."""
    engine = restorers["en", "restore"].engine
    pack = engine.pack
    period, comma = pack.bit("."), pack.bit(",")
    logits = np.full((3, pack.n_classes), -20.0, np.float32)
    logits[-1, period | comma], logits[-1, comma], logits[-1, period] = 20.0, 15.0, 10.0
    monkeypatch.setattr(engine, "window_logits", lambda ids, session=None: iter([(plan(3, 3, 0, 0)[0], logits)]))
    out = engine.decode(np.zeros(3, np.int32), np.zeros(3, np.int32), end_mark=True)
    assert out[-1] & pack.mark_bits == period
    free = engine.decode(np.zeros(3, np.int32), np.zeros(3, np.int32), end_mark=False)
    assert free[-1] & pack.mark_bits == comma  # not the end of the input: the better of the two alone


def test_de_reads_a_dash_after_a_sentence_end_as_a_pause():
    """As ru: "Präsident. – Herzliche" is read "Präsident. Herzliche", so that no model learns ".,"."""
    de = load_pack("de")
    base, classes = parse("Herr Präsident. – Herzliche Glückwünsche, Frau Kollegin!", de)
    assert render(base, classes, de) == "Herr Präsident. Herzliche Glückwünsche, Frau Kollegin."


@pytest.mark.parametrize("lang,spaces,marks", [("en", "restore", ".?"), ("en", "keep", ".?"), ("ja", "restore", "。？")])
def test_document_ends_with_sentence_mark(restorers, lang, spaces, marks):
    text = {"en": "will ai change our future obviously the answer is yes", "ja": "これはペンですかはいそうです"}[lang]
    assert restorers[lang, spaces](text)[-1] in marks
    assert restorers[lang, spaces](text + " :)").endswith(":)")  # no mark after a non-word character


def test_end_of_input_folds_the_space_twins(restorers):
    """The model, trained on running text, expects '.+SPACE' at the end: that must give '.', not a class without a
    space that the biases favour."""
    engine = restorers["en", "restore"].engine
    pack = engine.pack
    logits = np.full((2, pack.n_classes), -5.0, np.float32)
    logits[-1, pack.bit("SPACE")] = 5.0
    logits[-1, pack.bit(".") | pack.bit("SPACE")] = 4.0
    bias = class_bias(pack, {"CAPS": 0.75, ".": 1.0, ",": 1.5, "?": 1.0})
    scores = engine.scores(logits, np.full(2, NO_SPACE), bias, at_end=True, end_mark=True)
    assert scores[-1].argmax() == pack.bit(".")
    assert np.array_equal(scores[0], logits[0] + bias + engine.masks[NO_SPACE])  # only the end folds


def test_the_forced_end_changes_only_the_mark(restorers):
    """The model, unsure of the last grapheme, prefers no mark and no capital; CAPS+'.' scores better than '.'
    alone (once the biases are in), but the end must keep the unconstrained best's case ("the he" once ended "hE.")."""
    engine = restorers["en", "restore"].engine
    pack = engine.pack
    logits = np.full((1, pack.n_classes), -9.0, np.float32)
    logits[0, [0, pack.bit("CAPS"), pack.bit("."), pack.bit("CAPS") | pack.bit(".")]] = [5.0, 4.0, -3.0, -2.0]
    bias = class_bias(pack, {"CAPS": 0.75, ".": 1.0})
    scores = engine.scores(logits, np.full(1, NO_SPACE), bias, at_end=True, end_mark=True)
    assert scores[0].argmax() == pack.bit(".")


def test_a_given_mark_the_model_did_not_expect_leaves_the_case_to_the_model(restorers):
    """A typed "?" that the model gives almost no chance leaves every class with it improbable, and the best of
    them may be a capital ("opinA?"): the case then comes from the model's own choice. A given mark it expects
    ("U.S.": "." after a capital) keeps the case the mark implies."""
    engine = restorers["en", "restore"].engine
    pack = engine.pack
    caps, q, dot = pack.bit("CAPS"), pack.bit("?"), pack.bit(".")
    logits = np.full((2, pack.n_classes), -12.0, np.float32)
    logits[:, 0] = 8.0  # no mark, no capital: what the model expects
    logits[0, [q, caps | q]] = [-2.0, -1.5]  # "?" improbable, and "CAPS+?" the less improbable of the two
    logits[1, [dot, caps | dot]] = [5.0, 7.5]  # "." expected, with a capital
    marks = np.array([q, dot], np.int32)
    scores = engine.scores(logits, np.full(2, NO_SPACE), np.zeros(pack.n_classes, np.float32), marks=marks)
    assert scores[0].argmax() == q and scores[1].argmax() == caps | dot


def test_a_class_with_several_marks_takes_its_largest_mark_bias():
    """Summed mark biases made "o.,?" the likeliest end of an input whose last mark the model was unsure of."""
    pack = load_pack("en")
    bias = class_bias(pack, {"CAPS": 0.75, ".": 1.0, ",": 1.5, "?": 1.25, "SPACE": -0.5})
    bit = pack.bit
    assert bias[bit(".")] == 1.0 and bias[bit("CAPS") | bit("SPACE")] == 0.25
    assert bias[bit(".") | bit(",")] == 1.5
    assert bias[bit("CAPS") | bit(".") | bit(",") | bit("?") | bit("SPACE")] == 0.75 + 1.5 - 0.5


def test_capital_after_a_comma_is_resolved_by_scores(restorers):
    """"year, And": the mark and the capital are predicted independently; the cheapest repair wins (a period, no
    capital, no comma), or both stay."""
    engine = restorers["en", "restore"].engine
    pack = engine.pack
    comma_space, dot_space = pack.bit(",") | pack.bit("SPACE"), pack.bit(".") | pack.bit("SPACE")
    scores = np.full((3, pack.n_classes), -9.0, np.float32)
    scores[0, [comma_space, dot_space]] = [3.0, 2.5]          # the comma wins, a period is nearly as good
    scores[1, [pack.bit("CAPS"), 0]] = [3.0, 0.0]              # the next word starts with a capital
    cls = scores.argmax(-1)
    assert engine.capital_after_mark(scores, cls.copy(), float("inf")).tolist() == cls.tolist()
    assert engine.capital_after_mark(scores, cls.copy(), 1.0).tolist()[:2] == [dot_space, pack.bit("CAPS")]
    scores[1, 0] = 2.9                                         # now dropping the capital is the cheaper repair
    assert engine.capital_after_mark(scores, cls.copy(), 1.0).tolist()[:2] == [comma_space, 0]
    assert engine.capital_after_mark(scores, cls.copy(), 0.05).tolist() == cls.tolist()  # a name: both stay
    scores[0, pack.bit("SPACE")] = 2.95                        # "Emmanuel, Macron": dropping the comma is cheapest
    assert engine.capital_after_mark(scores, cls.copy(), 1.0).tolist()[:2] == [pack.bit("SPACE"), pack.bit("CAPS")]


def test_a_capital_after_a_comma_on_a_common_word_is_resolved_at_its_own_cost(restorers):
    """The card's ``common_words`` (no names): a pair on one costs ``common_capital_penalty`` and never drops the
    mark; a pair on another word keeps the card's penalty (here inf: both stay)."""
    engine = restorers["en", "restore"].engine.configured(capital_after_mark_penalty=float("inf"),
                                                          common_capital_penalty=1.0)
    pack, index = engine.pack, engine.index
    engine.common = frozenset({"il"})
    comma_space = pack.bit(",") | pack.bit("SPACE")
    scores = np.full((4, pack.n_classes), -9.0, np.float32)
    scores[0, [comma_space, pack.bit("SPACE")]] = [3.0, 2.95]  # dropping the comma would be the cheapest repair
    scores[1, pack.bit("CAPS")], scores[2, pack.bit("SPACE")], scores[3, 0] = 3.0, 3.0, 3.0
    scores[1, 0] = 2.9                                         # dropping the capital is cheaper than the cost
    cls = scores.argmax(-1)
    common = np.array([index["a"], index["i"], index["l"], index["o"]])  # "a, Il o"
    other = np.array([index["a"], index["o"], index["n"], index["o"]])  # "a, On o"
    assert engine.capital_after_mark(scores, cls.copy(), gids=common).tolist()[:2] == [comma_space, 0]
    assert engine.capital_after_mark(scores, cls.copy(), gids=other).tolist() == cls.tolist()
    assert engine.capital_after_mark(scores, cls.copy()).tolist() == cls.tolist()  # no graphemes: no common word


def test_the_last_mark_is_weighed_by_the_word_that_opens_its_sentence():
    """de's and ru's cards hold the words that open questions in their training text (``sentence_openers``): a short
    question typed alone ends with "?" where the model alone wrote "."; a statement, and the marks inside a text,
    stay the model's."""
    for lang, question, statement in (("de", "was machst du heute abend", "ich gehe heute ins kino"),
                                      ("ru", "почему он не пришел вчера", "я иду домой")):
        restorer = Restorer(lang=lang, engine="char")
        alone = Restorer(lang=lang, engine="char")
        alone.engine = alone.engine.configured(sentence_opener_weight=0.0)
        assert restorer.engine.openers and restorer.engine.settings.sentence_opener_weight > 0
        assert alone(question).endswith(".") and restorer(question).endswith("?")
        assert restorer(statement) == alone(statement) and restorer(statement).endswith(".")
        both = f"{statement}. {question}"  # the opener of the last sentence, after a typed one
        assert restorer(both).endswith("?") and restorer(both).split(". ")[0] == alone(both).split(". ")[0]
    ids = {g: i for i, g in enumerate(restorer.engine.vocab)}
    engine, pack = restorer.engine, restorer.engine.pack
    cls = np.zeros(6, np.int32)
    cls[1], cls[-1] = pack.bit(".") | pack.bit("SPACE"), pack.bit(".")  # "«я. — Почему»": signs at the word's edges
    gids = np.array([ids["я"], ids["я"], ids.get("—", 0), ids["п"], ids["о"], ids["ч"]])
    assert engine.openers.opener(gids, cls, True) == "поч" and engine.openers.opener(gids, cls[:1], False) is None


@pytest.mark.parametrize("text, spaces", [("qu’ilsagissedunearchitectureetdelavied’unarchitecte", "auto"),
                                          ("aujourd’hui c’est la vie d’un architecte", "keep")])
def test_a_typographic_apostrophe_reads_as_the_straight_one_the_model_learned(text, spaces):
    """fr's novels write only "'", so its model has no "’" (news writes "l’homme"). Read as an unknown sign, it took
    a space or a mark after it ("d’ une", "qu’,il"); now it reads as "'" and is written as typed."""
    fr = Restorer(lang="fr", engine="char", spaces=spaces)
    assert "’" not in fr.engine.vocab and fr.engine.index["’"] == fr.engine.index["'"]
    curly, straight = fr(text), fr(text.replace("’", "'"))
    assert curly == straight.replace("'", "’") and "’ " not in curly and base_text(curly, fr.pack) == base_text(text, fr.pack)


@settings(max_examples=60, deadline=None)
@given(words=st.lists(st.sampled_from(["iPhone", "McDonald", "NASA", "eBay", "macOS", "hello", "world", "the", "i"]),
                      min_size=1, max_size=12), spaces=st.sampled_from(["keep", "restore"]))
def test_a_word_typed_in_mixed_case_keeps_its_case(restorers, words, spaces):
    """A word typed with a capital after its first letter comes back in the case it was typed in, at the start of a
    sentence too ("iPhone is", never "IPhone is"); the model's other capitals are its own. (A text all in capitals
    says nothing of case: the codec reads it as lower case.)"""
    text = " ".join(words)
    assume(not text.isupper())
    out = restorers["en", spaces](text)
    got = regex.findall(r"\w+", out)
    assert [w.lower() for w in got] == [w.lower() for w in words] or spaces == "restore"
    for typed, word in zip(words, got):
        if spaces == "keep" and any(c.isupper() for c in typed[1:]):
            assert word == typed
    if spaces == "restore":  # the words may merge or split: each typed mixed-case word that comes back whole
        for typed in {w for w in words if any(c.isupper() for c in w[1:])}:
            assert all(w == typed for w in got if w.lower() == typed.lower())


def test_marks_never_split_gujarati_clusters(restorers):
    text = "ક્ષત્રિયજ્ઞાનશ્રદ્ધાઅનેદ્વારકાજેવાશબ્દોમાંસંયુક્તાક્ષરોઆવેછે" * 3
    out = restorers["gu", "restore"](text)
    marks = {".", ",", "?", " "}
    assert [g for g in graphemes(out) if g not in marks] == graphemes(text)


@pytest.fixture(scope="module")
def models_with_nb(tmp_path_factory):
    """The fixture char model beside the fixture NB counts."""
    root = tmp_path_factory.mktemp("models")
    shutil.copytree(FIXTURE_MODELS / "en", root / "en")
    for f in (ROOT / "tests" / "fixtures" / "nb" / "en").iterdir():
        shutil.copy(f, root / "en")
    return root


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.one_of(any_text, texty))
@example(text="#0A")
@example(text="A!A")
@example(text="PP🅰P")
@example(text="0)\"")
@example(text='" 0%')  # a space typed at a span's edge, beside an unread quote or bracket, stays
@example(text="0% “")
@example(text="0“ 0%")
@example(text="/)“ 0%")
@example(text='“€0 "')
@example(text="0% )0")
def test_nb_spaces_on_unspaced_input(models_with_nb, text):
    """--segmenter nb: the spaces are the NB segmenter's (never inside a protected span: "#0A" stays whole; it reads
    the input's spaces, and keeps one typed between two digits) and, as in the pipeline, one after a run of "!" or
    emoji between letters; the rest is the model's; nothing is lost."""
    from charrestore.engines.symbols import Symbols
    from charrestore.segmenter import Segmenter
    from charrestore.spans import EMOJI, base_spans, protect

    pack = load_pack("en")
    restorer = Restorer(lang="en", engine="char", spaces="restore", segmenter="nb", models_dir=str(models_with_nb))
    out = restorer(text)
    assert base_text(out, pack) == base_text(text, pack)
    base, given = parse(text, pack, apply_map=False)
    # no grapheme merged across a dropped space, and none holding white space (" \u0300" is text)
    if base and graphemes("".join(base)) == base and not any(g[:1].isspace() for g in base):
        frozen = protect(base, base_spans(text, base, pack), given & pack.bit("SPACE") != 0)
        rules = frozen.for_segmenter(base) if frozen else ((), ())
        joined = "".join(base)
        typed = np.cumsum([len(g) for g in base])[np.flatnonzero(given & pack.bit("SPACE"))]
        spaced = typed if len(typed) else None
        cuts = sorted({0, len(joined), *Segmenter.load("en", models_with_nb).cuts(joined, *rules, spaced=spaced),
                       *Symbols(pack, [None, ".", ",", "?"]).cuts(joined)})
        expected = [joined[a:b] for a, b in zip(cuts, cuts[1:])]
        # a mark the model gives before an emoji run stays before it, and a space follows ("much. 😂 This",
        # char_symbols.py): that space is the mark's, not a word boundary
        marks = regex.escape("".join(pack.marks))
        words = regex.sub(rf"(?<=[{marks}]) (?={EMOJI})", "", out).split(" ")
        assert [base_text(w, pack) for w in words] == [base_text(w, pack) for w in expected]


@pytest.fixture(scope="module")
def models_correcting_spaces(models_with_nb, tmp_path_factory):
    """models_with_nb, whose NB card follows the spaces of spaced input (its prose ``given_space``, ``given_join``)."""
    from charrestore.segmenter import _load

    root = tmp_path_factory.mktemp("correcting") / "models"
    shutil.copytree(models_with_nb, root)  # the fixture's token model too
    card = json.loads((root / "en" / "nb.json").read_text(encoding="utf-8"))
    card["prose_params"] = {**(card.get("prose_params") or {}), "given_space": 3.0, "given_join": 3.0}
    (root / "en" / "nb.json").write_text(json.dumps(card), encoding="utf-8")
    _load.cache_clear()
    return root


@pytest.mark.parametrize("engine", ["char", "pipeline"])
def test_spacing_correction_weighs_the_input_spaces_in_the_nb_segmenter(models_with_nb, models_correcting_spaces,
                                                                        engine):
    """``--spaces restore`` on spaced input: where the NB card's prose setting weighs the input's spaces, the typed
    "i phone" stays two words (the counts alone join it); unspaced input is cut as before."""
    pack = load_pack("en")

    def words(models, text):
        out = Restorer(lang="en", engine=engine, spaces="restore", segmenter="nb", models_dir=str(models))(text)
        return [base_text(w, pack) for w in out.split()]

    assert words(models_with_nb, "my new i phone") == ["my", "new", "iphone"]
    assert words(models_correcting_spaces, "my new i phone") == ["my", "new", "i", "phone"]
    assert words(models_correcting_spaces, "mynewiphone") == words(models_with_nb, "mynewiphone")


def test_with_nb_spaces_spaced_input_decodes_with_nbs_cuts_as_the_given_evidence(models_correcting_spaces, tmp_path):
    """Where the card weighs spaced input (``given_space``, ``given_join``) and spaces come from NB, the states
    decoded with are NB's cuts (which weighed the typed spaces) as GIVEN_SPACE / GIVEN_JOIN; unspaced input keeps
    NB's own states, and a card at 0 and 0 too."""
    from charrestore.engines.base import EngineOptions
    from charrestore.engines.char_e2e import CharEngine
    from charrestore.engines.char_input import GIVEN_JOIN, GIVEN_SPACE, HAS_SPACE, NO_SPACE

    pack = load_pack("en")
    root = tmp_path / "models"
    shutil.copytree(models_correcting_spaces, root)
    card = json.loads((root / "en" / "char.json").read_text(encoding="utf-8"))
    (root / "en" / "char.json").write_text(json.dumps({**card, "given_space": 2.0, "given_join": 1.0}),
                                          encoding="utf-8")
    spaced_base, spaced = parse("my new i phone", pack, apply_map=False)
    unspaced_base, unspaced = parse("mynewiphone", pack, apply_map=False)
    for models, weighs in ((root, True), (models_correcting_spaces, False)):
        engine = CharEngine.load(pack, models, EngineOptions(segmenter="nb"))
        enforce = engine.encode(spaced_base, spaced, False)[2]
        cut = [i for i, s in enumerate(enforce) if s in (GIVEN_SPACE, HAS_SPACE)]
        assert cut == [1, 4, 5]  # "my new i phone": NB follows the typed spaces (its card weighs them)
        assert set(enforce.tolist()) == ({GIVEN_SPACE, GIVEN_JOIN} if weighs else {HAS_SPACE, NO_SPACE})
        assert set(engine.encode(unspaced_base, unspaced, False)[2].tolist()) <= {HAS_SPACE, NO_SPACE}


@pytest.mark.parametrize("engine, segmenter", [("char", "none"), ("char", "nb"), ("pipeline", "nb")])
def test_a_space_typed_between_digits_stays_when_spaces_are_restored(models_with_nb, engine, segmenter):
    """A number's own spaces ("1 000") and the space between two numbers ("1999 2000") are the input's: restoring
    spaces keeps them (both were joined: "19992000"); unspaced digits stay one run."""
    restorer = Restorer(lang="en", engine=engine, spaces="restore", segmenter=segmenter,
                        models_dir=str(models_with_nb))
    out = restorer("in 1999 2000 people paid 1 000 dollars")
    assert "1999" in out and "2000" in out and "1999" + "2000" not in out and "1 000" in out, out
    assert "1000" in restorer("theypaid1000dollars")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.one_of(any_text, texty))
def test_spacing_correction_loses_nothing(models_correcting_spaces, text):
    pack = load_pack("en")
    restorer = Restorer(lang="en", engine="char", spaces="restore", segmenter="nb",
                        models_dir=str(models_correcting_spaces))
    assert base_text(restorer(text), pack) == base_text(text, pack)


def test_unknown_segmenter_mode_is_refused():
    with pytest.raises(ValueError, match="segmenter"):
        Restorer(lang="en", segmenter="bigram", models_dir=str(FIXTURE_MODELS))


def test_same_output_for_any_batch_size_and_threads():
    text = "but what are the risks i am not technical i'm not an engineer " * 20
    outs = {Restorer(lang="en", engine="char", spaces=s, batch_size=b, threads=t, models_dir=str(FIXTURE_MODELS))(text)
            for s in ("restore",) for b in (1, 3, 64) for t in (1, 2)}
    assert len(outs) == 1


def test_empty_and_blank(restorers):
    assert restorers["en", "auto"]("") == ""
    assert restorers["en", "auto"]("  ,.  ") == ""


def test_cli_stdin_contract(data_root):
    lines = ["willaichangeourfuture", "", "will ai change our future", "   ", "x" * 5000]
    res = cli(data_root, "fix", "--engine", "char", stdin=("\n".join(lines) + "\n").encode())
    assert res.returncode == 0, res.stderr
    out = res.stdout.decode().split("\n")
    assert out[-1] == "" and len(out) - 1 == len(lines)
    assert out[1] == "" and out[3] == ""
    pack = load_pack("en")
    assert [base_text(o, pack) for o in out[:-1]] == [base_text(i, pack) for i in lines]


def test_cli_invalid_utf8_passes_through(data_root):
    res = cli(data_root, "fix", "--engine", "char", "--spaces", "keep", stdin=b"abc \xff\xfe def\n")
    assert res.returncode == 0
    assert b"\xff\xfe" in res.stdout and res.stdout.count(b"\n") == 1
    assert b"line 1" in res.stderr and b"Traceback" not in res.stderr


def test_cli_missing_and_corrupt_model(data_root, tmp_path):
    res = cli(data_root, "fix", "--engine", "char", "--lang", "en", "x", stdin=b"")
    assert res.returncode == 0
    broken = tmp_path / "data"
    shutil.copytree(data_root / "models", broken / "models")
    (broken / "languages").symlink_to(ROOT / "languages")
    onnx = broken / "models" / "en" / "char.onnx"
    onnx.write_bytes(onnx.read_bytes()[:-10] + b"0123456789")
    res = cli(broken, "fix", "--engine", "char", "hello")
    assert res.returncode == 1 and str(onnx) in res.stderr.decode()
    assert len(res.stderr.decode().strip().splitlines()) == 1
    onnx.unlink()
    res = cli(broken, "fix", "--engine", "char", "hello")
    assert res.returncode == 1 and "missing" in res.stderr.decode() and b"Traceback" not in res.stderr


def test_the_first_grapheme_ends_no_sentence_unless_it_is_a_word(restorers, monkeypatch):
    """Training windows start inside running text: the model read ja "すごい" as the end of "…ます。" ("す。ごい")."""
    engine = restorers["en", "restore"].engine
    pack, period = engine.pack, engine.pack.bit(".")
    logits = np.full((3, pack.n_classes), -5.0, np.float32)
    logits[:, period] = logits[:, period | pack.bit("SPACE")] = 5.0
    monkeypatch.setattr(engine, "window_logits", lambda ids, session=None: iter([(plan(3, 3, 0, 0)[0], logits)]))
    gids = np.zeros(3, np.int32)
    unknown = engine.decode(gids, np.zeros(3, np.int32))
    assert not unknown[0] & period and unknown[1] & period
    spaced = engine.decode(gids, np.array([2, 1, 1], np.int32))  # HAS_SPACE after it: a word alone may end one
    assert spaced[0] & period


def test_a_listed_abbreviation_keeps_the_input_case(restorers):
    """Whatever the (tiny fixture) model predicts, "e.g." typed with its marks comes out "e.g.", or "E.g." where it
    starts a sentence; never "E.G." or "e.G."."""
    for text in ("we use tools e.g. python and java vs. rust", "e.g. this one and i.e. that one etc. ok"):
        out = restorers[("en", "keep")](text)
        words = out.split()
        for i, word in enumerate(w.rstrip(",") for w in words):
            if word.lower() in ("e.g.", "i.e.", "etc.", "vs."):
                starts = i == 0 or words[i - 1][-1] in ".?"
                assert word in ((word.lower(), word[0].upper() + word[1:].lower()) if starts else (word.lower(),)), out



def boundaries(text: str) -> set[int]:
    """Positions of word boundaries among the letters of ``text`` (its marks and case aside)."""
    out, at = set(), 0
    for w in text.split()[:-1]:
        at += sum(c.isalpha() for c in w)
        out.add(at)
    return out


def test_restored_spaces_favour_the_input_spaces_by_the_card_bonus():
    """Spacing correction: where spaces are restored, a space of the input adds the card's ``given_space`` to the
    classes with a space and a join takes ``given_join`` off them; 0 ignores the input's spaces, and unspaced input
    never changes."""
    from charrestore.engines.base import EngineOptions
    from charrestore.engines.char_e2e import CharEngine

    engine = CharEngine.load(load_pack("en"), FIXTURE_MODELS, EngineOptions(segmenter="none"))
    text = "the cat sat on a mat and then it ran off to see the dog"
    unspaced = text.replace(" ", "")
    plain = engine.configured(given_space=0.0).restore([unspaced], "restore")[0]
    assert engine.configured(given_space=0.0).restore([text], "restore")[0] == plain
    strong = engine.configured(given_space=50.0)
    assert strong.restore([unspaced], "restore")[0] == plain
    out = strong.restore([text], "restore")[0]
    assert boundaries(text) <= boundaries(out) and boundaries(out) != boundaries(plain)
    weak = engine.configured(given_space=-50.0).restore([text], "restore")[0]  # a bonus, not a constraint
    assert not boundaries(text) & boundaries(weak)
    both = engine.configured(given_space=50.0, given_join=50.0)
    assert boundaries(both.restore([text], "restore")[0]) == boundaries(text)
    assert both.restore([unspaced], "restore")[0] == plain  # no space given: no join either


@pytest.fixture(scope="module")
def soft_nb_models(models_with_nb, tmp_path_factory):
    """models_with_nb, with the card's NB spaces soft: a function of (nb_space, nb_join) to a models folder."""
    @functools.lru_cache(maxsize=None)
    def make(space, join):
        root = tmp_path_factory.mktemp("soft")
        shutil.copytree(models_with_nb / "en", root / "en")
        card = json.loads((root / "en" / "char.json").read_text(encoding="utf-8"))
        (root / "en" / "char.json").write_text(json.dumps({**card, "nb_space": space, "nb_join": join}),
                                               encoding="utf-8")
        return str(root)
    return make


SENTENCES = ["thesegmenterisobviouslybelievingthetest", "butwhataretherisksiamnottechnical",
             "visit#0Aorwww.example.comnow", "great!!!seeyou😀tomorrow"]


def test_soft_nb_spaces_lie_between_the_models_own_and_nbs(models_with_nb, soft_nb_models):
    """The card's ``nb_space``/``nb_join`` make NB's spaces evidence: with none the spaces are the model's own,
    with overwhelming evidence they are NB's, as when enforced."""
    def run(models, segmenter):
        r = Restorer(lang="en", engine="char", spaces="restore", segmenter=segmenter, models_dir=models)
        return [r(s) for s in SENTENCES]

    own, enforced = run(str(models_with_nb), "none"), run(str(models_with_nb), "nb")
    assert own != enforced
    assert run(soft_nb_models(0.0, 0.0), "nb") == own
    assert run(soft_nb_models(1e4, 1e4), "nb") == enforced


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.one_of(any_text, texty))
@example(text="#0A")
def test_soft_nb_spaces_lose_nothing(soft_nb_models, text):
    pack = load_pack("en")
    models = soft_nb_models(1.5, 1.5)
    out = Restorer(lang="en", engine="char", spaces="restore", segmenter="nb", models_dir=models)(text)
    assert base_text(out, pack) == base_text(text, pack)
    if text == "#0A":
        assert "#0A" in out


@pytest.fixture(scope="module")
def reread_models(tmp_path_factory):
    """The en fixture model with the card's ``reread``: a function of the weight to a models folder."""
    @functools.lru_cache(maxsize=None)
    def make(weight):
        root = tmp_path_factory.mktemp("reread")
        shutil.copytree(FIXTURE_MODELS / "en", root / "en")
        card = json.loads((root / "en" / "char.json").read_text(encoding="utf-8"))
        (root / "en" / "char.json").write_text(json.dumps({**card, "reread": weight}), encoding="utf-8")
        return str(root)
    return make


def test_reread_decides_marks_and_case_again_reading_the_restored_spaces(reread_models):
    """``reread`` 1: the marks and case of unspaced input are those of the restored text's spaces read as spaced
    input (``keep``); 0: one reading, as without the key; in between, the spaces stay the first reading's. Spaced
    input is read once."""
    def run(weight, spaces, texts):
        r = Restorer(lang="en", engine="char", spaces=spaces, models_dir=reread_models(weight))
        return [r(t) for t in texts]

    pack = load_pack("en")
    texts = SENTENCES[:2] + ["whereareyougoingtonightandwhen", "itisnotwhatyouthinkbutwhatyoudo"]  # no typed marks
    plain = Restorer(lang="en", engine="char", spaces="restore", models_dir=str(FIXTURE_MODELS))
    once = [plain(s) for s in texts]
    assert run(0.0, "restore", texts) == once
    twice = run(1.0, "restore", texts)
    spaced = [" ".join(strip_features(word, pack).lower() for word in o.split()) for o in once]
    assert twice == run(0.0, "keep", spaced)
    assert [boundaries(o) for o in run(0.5, "restore", texts)] == [boundaries(o) for o in once]
    assert run(1.0, "keep", spaced) == run(0.0, "keep", spaced)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.one_of(any_text, texty))
def test_reread_loses_nothing_and_ignores_the_batch_size(reread_models, text):
    pack = load_pack("en")
    outs = {Restorer(lang="en", engine="char", spaces="restore", models_dir=reread_models(0.5), batch_size=b)(text)
            for b in (1, 64)}
    assert len(outs) == 1 and base_text(outs.pop(), pack) == base_text(text, pack)
