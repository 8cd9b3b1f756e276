"""The pipeline engine on the tiny fixture token model (tests/fixtures/models/en/token.*, made by
scripts/make_token_fixture.py) and, for unspaced input, the NB fixture (tests/fixtures/nb); its CLI: test_token_cli.py.

The fixture model is barely trained: these tests check what must hold for ANY model (nothing lost,
consistency, given spaces kept, determinism, the CLI contract), never what a good model would output."""

import json
import os
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import regex
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from charrestore import Restorer, base_text, load_pack
from charrestore.spans import EMOTICON
from marks import input_marks_kept

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
NB_FIXTURE = FIXTURES / "nb" / "en"
EN = load_pack("en")


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    """The fixture models, with the NB fixture beside them when it is there."""
    root = tmp_path_factory.mktemp("models")
    shutil.copytree(FIXTURES / "models", root, dirs_exist_ok=True)
    if NB_FIXTURE.is_dir():
        shutil.copytree(NB_FIXTURE, root / "en", dirs_exist_ok=True)
    return root


@pytest.fixture(scope="module")
def restorers(models):
    return {s: Restorer(lang="en", engine="pipeline", spaces=s, models_dir=str(models))
            for s in ("auto", "keep", "restore")}


def read_forms(restorer, monkeypatch) -> list[list[str]]:
    """The word forms the token model is given, one list per call, filled as ``restorer`` runs."""
    model = restorer.engine.model
    seen, labels = [], model.labels
    monkeypatch.setattr(model, "labels", lambda forms, *a, **k: seen.append(forms) or labels(forms, *a, **k))
    return seen


def cli(models, *args, stdin=b""):
    data = models.parent / f"data-{models.name}"
    if not data.exists():
        data.mkdir()
        (data / "languages").symlink_to(ROOT / "languages")
        (data / "models").symlink_to(models)
    env = {**os.environ, "CHARRESTORE_DATA": str(data)}
    return subprocess.run([sys.executable, "-m", "charrestore", *args], input=stdin, capture_output=True,
                          env=env, timeout=120)


needs_nb = pytest.mark.skipif(not NB_FIXTURE.is_dir(), reason="NB fixture (tests/fixtures/nb) not there")
any_text = st.text(st.characters(exclude_categories=("Cs",)), max_size=200)
texty = st.lists(st.sampled_from(list("abcdefghij klmnop.,?!'-ÀéŞ") + ["\u0301", "ક", "્", "日", "👩\u200d👧", "iphone ",
                                 "\udcff"]),  # a lone surrogate: an invalid byte the CLI passes through
                 max_size=200).map("".join)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.one_of(any_text, texty))
def test_nothing_lost_with_given_spaces(restorers, text):
    out = restorers["keep"](text)
    assert base_text(out, EN) == base_text(text, EN)
    assert input_marks_kept(text, out, EN)


@needs_nb
@pytest.mark.parametrize("spaces", ("auto", "restore"))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.one_of(any_text, texty))
def test_nothing_lost_with_segmenter(restorers, spaces, text):
    out = restorers[spaces](text)
    assert base_text(out, EN) == base_text(text, EN)
    assert input_marks_kept(text, out, EN)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.one_of(any_text, texty))
def test_char_model_spaces_under_the_token_models_marks(models, text):
    """--segmenter char: the pipeline cuts unspaced input where the char engine (its own spaces) cuts it, and
    the token model decides the marks and case; nothing is lost. (Beyond those cuts, the pipeline cuts after "!!!"
    or an emoji between two letters: tests/test_symbols.py.)"""
    import regex

    pipe = Restorer(lang="en", engine="pipeline", spaces="restore", segmenter="char", models_dir=str(models))
    assume(not pipe.engine.symbols.cuts(regex.sub(r"[\s.,?]", "", text)))
    char = Restorer(lang="en", engine="char", spaces="restore", segmenter="none", models_dir=str(models))
    out = pipe(text)
    assert base_text(out, EN) == base_text(text, EN) and input_marks_kept(text, out, EN)
    words = [regex.sub(r"[.,?]", "", w.lower()) for w in out.split()]
    assert words == [regex.sub(r"[.,?]", "", w.lower()) for w in char(text).split()]


def test_pipeline_takes_the_char_models_spaces_when_its_card_says_so(models, tmp_path):
    """segmenter auto: NB spaces while the char card's nb_spaces (tuned on dev) is on, the char model's when it
    is off; an explicit --segmenter wins."""
    root = tmp_path / "models"
    shutil.copytree(models, root)
    card = json.loads((root / "en" / "char.json").read_text(encoding="utf-8"))
    for nb_spaces, want in ((True, "nb"), (False, "char")):
        (root / "en" / "char.json").write_text(json.dumps({**card, "nb_spaces": nb_spaces}), encoding="utf-8")
        assert Restorer(lang="en", engine="pipeline", models_dir=str(root)).engine.spaces_from() == want
        for asked in ("nb", "char"):
            assert Restorer(lang="en", engine="pipeline", segmenter=asked, models_dir=str(root)).engine.spaces_from() \
                == asked


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=st.lists(st.text(st.sampled_from(list("abcdefghijklmnopqrstuvwxyz'")), min_size=1, max_size=8),
                      min_size=1, max_size=60))
@example(words=["vs", "a"])
@example(words=["xd"])
def test_keep_mode_keeps_words_and_sentence_case(restorers, words):
    text = " ".join(words)
    out = restorers["keep"](text)
    got = out.split(" ")
    assert [base_text(w, EN) for w in got] == [base_text(w, EN) for w in words if base_text(w, EN)]
    # Consistency: the first word, and every word after "." or "?", starts with a capital; not after a form the pack
    # writes as an abbreviation, in any case ("dr a" -> "Dr. a.", "vs a" -> "Vs. a.": they end no sentence), nor an
    # emoticon, which stays as typed ("xd": spans.py).
    forms = {f.lower() for f in EN.abbreviation_forms}
    for prev, word in zip([""] + got, got):
        letters = [ch for ch in word if ch.isalpha()]
        if regex.fullmatch(rf"(?i:{EMOTICON})[.?]?", word):
            continue
        if (not prev or prev[-1] in ".?" and prev.lower() not in forms) and letters:
            assert letters[0].isupper(), out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=st.lists(st.sampled_from(["GitHub", "McDonald", "iPhone", "NASA", "I", "the", "use", "daily", "it's"]),
                      min_size=2, max_size=30))
def test_words_the_input_capitalized_keep_their_case(restorers, words):
    """Mixed-case input: a word with a capital comes back with exactly its case (no "Github", no "MCDONALD").
    All-caps input ("NASA NASA") is restored like lower case."""
    text = " ".join(words)
    assume(text != text.upper())
    out = restorers["keep"](text).split(" ")
    assert len(out) == len(words)
    for word, restored in zip(words, out):
        if word != word.lower():
            assert restored.rstrip(".,?") == word, (word, restored)


def test_no_mark_added_after_a_final_symbol(restorers):
    for text in ("what time is it :)", "what time is it 😂", "what time is it,"):
        out = restorers["keep"](text)
        assert out.endswith(text.split()[-1]), out


def test_consistency_overrides_and_counts(restorers):
    model = restorers["keep"].engine.model
    before = model.stats["words"]
    restorers["keep"]("is everyone ready what time is it " * 20)
    assert model.stats["words"] - before == 140
    assert model.stats["sentence_starts"] >= 1


def test_document_ends_a_sentence_and_raw_casing_switch(restorers):
    model = restorers["keep"].engine.model
    text = "is everyone ready what time is it " * 3
    out = restorers["keep"](text)
    assert out[-1] in ".?", out
    # With both rules off, the labels are the raw argmax of the model.
    raw = model.configured(replace(model.settings, final_mark=False, consistency=False))
    punct, case = raw.labels(text.split())
    raw_p, raw_c = raw.logits(text.split())
    assert (case == (raw_c + raw.bias_case).argmax(-1)).all()
    assert (punct == (raw_p + raw.bias_punct).argmax(-1)).all()
    assert model.settings.final_mark and model.settings.consistency  # the engine's own settings are untouched


def test_card_offsets_steer_the_labels(restorers):
    """The card's logit offsets (tuned on dev) are added before the argmax of each head."""
    model = restorers["keep"].engine.model
    words = "is everyone ready what time is it".split()
    saved = model.bias_punct.copy(), model.bias_case.copy()
    try:
        model.bias_punct[model.punct_labels.index("COMMA")] = 100.0
        model.bias_case[model.case_labels.index("UPP")] = 100.0
        punct, case = model.labels(words)
        assert [model.punct_labels[p] for p in punct[:-1]] == ["COMMA"] * (len(words) - 1)
        assert [model.case_labels[c] for c in case] == ["UPP"] * len(words)
    finally:
        model.bias_punct, model.bias_case = saved


def test_words_in_a_script_the_model_cannot_read_keep_their_case(restorers):
    """A word with letters but none in the tokenizer's pieces reaches the model as UNK alone, so its casing is a
    guess: it stays as typed, but for the sentence-start capital. A word with any known letter is the model's."""
    model = restorers["keep"].engine.model
    assert model.unread(["привет", "café", "мир", "😀", "hello"]).tolist() == [True, False, True, False, False]
    assert model.unread(["hello", "world"]) is None
    saved = model.bias_case.copy()
    try:
        model.bias_case[model.CAP] = 100.0  # the model says CAP everywhere
        out = restorers["keep"]("привет the word мир means peace")
    finally:
        model.bias_case = saved
    assert out.split()[:4] == ["Привет", "The", "Word", "мир"], out


def test_the_token_model_reads_a_span_as_its_spoken_word(restorers, monkeypatch):
    """A URL, an e-mail, a mention reach the token model as the word a speaker would say, not as a dozen pieces
    of symbols (scripts/eval_span_forms.py: made-up URLs cost 2.8 punctuation F1 on ted_dev read as pieces); the
    output keeps each span byte for byte."""
    seen = read_forms(restorers["keep"], monkeypatch)
    text = "thanks @jane see https://www.example.com/a?b=1 or mail jo@x.org"
    out = restorers["keep"](text)
    assert seen == [["thanks", "jane", "see", "example", "or", "mail", "jo"]]
    for span in ("@jane", "https://www.example.com/a?b=1", "jo@x.org"):
        assert span in out, out


def test_a_posts_leading_mentions_are_not_read(restorers, monkeypatch):
    """"@jane @bob thanks …" addresses a post: the model reads from "thanks", which starts the first sentence, and
    no mark goes after the mentions (the model made it "@john_doe, Did you see …")."""
    seen = read_forms(restorers["keep"], monkeypatch)
    out = restorers["keep"]("@jane @bob thanks for coming")
    assert seen == [["thanks", "for", "coming"]]
    assert out.startswith("@jane @bob Thanks "), out


def test_input_marks_fix_the_labels(restorers):
    """A word's own final mark is its label; an abbreviation's (a mark inside the word too) ends no sentence, so the
    next word's case is the casing head's; a given non-final mark on the last word gets no sentence mark added."""
    model = restorers["keep"].engine.model
    comma, period, lab = EN.bit(","), EN.bit("."), model.punct_labels.index
    forced = model.forced_labels(np.array([0, comma, period, period, comma | period]),
                                 np.array([False, False, False, True, False]))
    assert forced.tolist() == [-1, lab("COMMA"), lab("PERIOD"), lab("O"), lab("O")]
    p = np.zeros((3, 4), np.float32)
    c = np.zeros((3, 4), np.float32)
    p[:, lab("O")] = c[:, model.O] = 50.0               # the heads say no mark and lower case everywhere
    punct, case = model.decode(p, c, forced=np.array([lab("O"), -1, lab("COMMA")]))
    assert punct.tolist() == [lab("O"), lab("O"), lab("COMMA")]   # no final sentence mark after a given comma
    assert case.tolist() == [model.CAP, model.O, model.O]   # only the document start is capitalized
    punct, case = model.decode(p, c, forced=np.array([lab("PERIOD"), -1, -1]))
    assert case[1] == model.CAP and model.sentence_ends[punct[-1]]


def test_an_abbreviation_keeps_the_input_case_and_starts_no_sentence(restorers):
    """A listed abbreviation typed with its marks ("e.g.") keeps the input's case inside a sentence; where the model
    read it as a sentence end, the capital it gave the next word goes, unless that word is a name."""
    model = restorers["keep"].engine.model
    lab = model.punct_labels.index
    p = np.zeros((4, 4), np.float32)
    c = np.zeros((4, 4), np.float32)
    p[:, lab("O")] = 50.0
    p[1, lab("PERIOD")] = 60.0                             # the model reads "eg" as a sentence end...
    c[:, model.CAP] = 50.0                                # ...and capitalizes every word
    abbreviation = np.array([False, True, False, False])
    forced = np.array([-1, lab("O"), -1, -1])               # forced_labels: a listed abbreviation ends no sentence
    punct, case = model.decode(p, c, forced=forced, abbreviation=abbreviation)
    assert punct[1] == lab("O")
    assert case.tolist() == [model.CAP, model.O, model.O, model.CAP]   # "Tools e.g. apples And"
    _, case = model.decode(p, c, forced=forced, abbreviation=abbreviation, named=np.array([False, False, True, False]))
    assert case[2] == model.CAP                           # "e.g. Python": a name keeps its capital
    p[1, lab("PERIOD")] = 0.0                             # read as no sentence end: the capital is the model's
    _, case = model.decode(p, c, forced=forced, abbreviation=abbreviation)
    assert case[2] == model.CAP


def test_abbreviations_through_the_pipeline(restorers):
    """The pack's list decides: "e.g." and "vs." typed mid-sentence stay lower case and end no sentence; an initialism
    not on it ("d.c.") is cased by the model as before."""
    assert EN.abbreviations >= {"eg", "ie", "vs", "etc"}
    out = restorers["keep"]("we compared them e.g. by hand vs. by machine in d.c.")
    assert " e.g. " in out and " vs. " in out and "E.g." not in out and "Vs." not in out


def test_a_dotted_capital_in_capitals_with_a_period_starts_no_sentence(restorers):
    """The token model reads "U.S." as "us" in capitals and a period (labels.py): where it writes that for a word
    of the pack's ``dotted_capitals``, the sentence-start rule leaves the next word the model's case ("the U.S.
    government", not "the US. Government"); a period after the word in small letters still ends a sentence."""
    model = restorers["keep"].engine.model
    assert EN.dotted_capitals["us"] == "U.S." and "us" in model.dotted
    upp, lab = model.case_labels.index("UPP"), model.punct_labels.index
    p = np.zeros((3, 4), np.float32)
    c = np.zeros((3, 4), np.float32)
    p[:, lab("O")] = 50.0
    p[1, lab("PERIOD")] = 60.0
    c[:, model.O] = 50.0
    c[1, upp] = 60.0                                     # "the US. government"
    dotted = np.array([False, True, False])
    _, case = model.decode(p, c, dotted=dotted)
    assert case.tolist() == [model.CAP, upp, model.O]
    _, case = model.decode(p, c)
    assert case[2] == model.CAP                          # without the list: "US. Government"
    c[1, upp] = 0.0                                      # "us." in small letters: a sentence end
    _, case = model.decode(p, c, dotted=dotted)
    assert case[2] == model.CAP


@pytest.mark.parametrize("text, want", [("the us government said", "The U.S. government said"),
                                        ("there are schools in the us and australia", "the U.S. and Australia"),
                                        ("the un security council met", "The U.N. Security Council")])
def test_the_shipped_pipeline_writes_dotted_capitals(text, want):
    out = Restorer(lang="en", engine="pipeline", spaces="keep")(text)
    assert want in out and "US." not in out and "UN." not in out, out
    assert base_text(out, EN) == base_text(text, EN)


def test_sentence_start_rule_skips_words_that_start_with_a_digit(restorers):
    model = restorers["keep"].engine.model
    p = np.zeros((2, 4), np.float32)
    c = np.zeros((2, 4), np.float32)
    c[:, model.O] = 50.0
    _, case = model.decode(p, c, letter_first=np.array([False, True]))
    assert case[0] == model.O                            # "3pm is" stays "3pm is", not "3Pm is"
    _, case = model.decode(p, c)
    assert case[0] == model.CAP


def test_mixed_case_from_lexicon(restorers):
    model = restorers["keep"].engine.model
    base = list("myiphone")
    spans = [(0, 2), (2, 8)]
    mix, cap = model.case_labels.index("MIX"), model.case_labels.index("CAP")
    classes = model.word_classes(base, spans, np.zeros(2, int), np.array([cap, mix]))
    caps = EN.bit("CAPS")
    assert "".join(g.upper() if c & caps else g for g, c in zip(base, classes)) == "MyiPhone"
    # A MIX word missing from the lexicon falls back to a capital.
    classes = model.word_classes(list("zzzz"), [(0, 4)], np.zeros(1, int), np.array([mix]))
    assert [bool(c & caps) for c in classes] == [True, False, False, False]


def test_same_output_for_any_batch_size_and_threads(models):
    text = "but what are the risks i am not technical i'm not an engineer " * 12
    outs = {Restorer(lang="en", engine="pipeline", spaces="keep", batch_size=b, threads=t, models_dir=str(models))(text)
            for b in (1, 3, 64) for t in (1, 2)}
    assert len(outs) == 1


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.text(st.characters(exclude_categories=("Zs", "Zl", "Zp", "Cc")), min_size=0, max_size=12),
                max_size=30))
def test_word_pieces_alike_word_by_word_and_batched(restorers, forms):
    """token_input.word_pieces: the per-word calls of short inputs give the batch call's ids and offsets (also for
    empty words, unknown characters and lone surrogates), so BATCH_MIN_WORDS only moves the time."""
    from charrestore.engines import token_input

    sp = restorers["keep"].engine.model.sp
    forms = forms + ["the", "iPhone", "", "\ud800x"]
    per_word = token_input.word_pieces(sp, forms)
    shipped, token_input.BATCH_MIN_WORDS = token_input.BATCH_MIN_WORDS, 0
    try:
        batched = token_input.word_pieces(sp, forms)
    finally:
        token_input.BATCH_MIN_WORDS = shipped
    assert len(forms) < shipped
    for a, b in zip(per_word, batched):
        np.testing.assert_array_equal(a, b)


def test_empty_and_blank(restorers):
    assert restorers["keep"]("") == ""
    assert restorers["auto"]("  ,.  ") == ""


def test_edge_ids_mark_the_documents_first_and_last_window(models):
    """A card with ``edge_id`` (a model trained with edge windows): the first window starts with the edge id and
    the last ends with it, the inner windows have none, and the word positions move past a leading edge."""
    model = Restorer(lang="en", engine="pipeline", spaces="keep", models_dir=str(models)).engine.model
    edge, fed = 10_000, []

    class Recorder:
        def run(self, names, feeds):
            fed.append({k: v.copy() for k, v in feeds.items()})
            shape = feeds["starts"].shape + (4,)
            return [np.zeros(shape, np.float32), np.zeros(shape, np.float32)]

    model = model.configured(model.settings, session=Recorder())
    model.edge = edge
    forms = "but what are the risks i am not technical".split() * (3 * model.settings.window // 9)
    model.logits(forms)
    rows = [(f["ids"][k], f["starts"][k]) for f in fed for k in range(len(f["ids"]))]
    assert len(rows) >= 3
    first, last, inner = rows[0], rows[-1], rows[1:-1]
    assert first[0][0] == edge and first[1][0] == 1
    assert last[0][last[0] != 0][-1] == edge and last[1][0] == 0
    assert all(edge not in r[0] and r[1][0] == 0 for r in inner)


@needs_nb
def test_segmenter_space_beside_an_invalid_byte_is_left_out(restorers):
    """Found by hypothesis: the NB cut after "\\udcff\\u0301" (an invalid byte and a combining mark), and the space,
    which is text beside an invalid byte, changed the base text."""
    text = "\udcff\u0301iphone "
    out = restorers["restore"](text)
    assert base_text(out, EN) == base_text(text, EN)


def test_names_of_the_proper_list_are_capitalized(models, tmp_path):
    """A form of the card's ``proper`` list (training/proper.py) becomes CAP where the model says O; a word the
    model makes UPP stays UPP."""
    model = Restorer(lang="en", engine="pipeline", spaces="keep", models_dir=str(models)).engine.model
    c = np.zeros((3, 4), np.float32)
    c[:, model.O] = 50.0
    c[2, model.case_labels.index("UPP")] = 60.0
    _, case = model.decode(np.zeros((3, 4), np.float32), c, named=np.array([False, True, True]))
    assert case[1] == model.CAP and model.case_labels[case[2]] == "UPP"
    root = tmp_path / "models"
    shutil.copytree(models, root)
    card = json.loads((root / "en" / "token.json").read_text())
    (root / "en" / "token.json").write_text(json.dumps({**card, "proper": ["kolpakova"]}))
    text = "we met kolpakova and then kolpakova met us"
    before = Restorer(lang="en", engine="pipeline", spaces="keep", models_dir=str(models))(text)
    after = Restorer(lang="en", engine="pipeline", spaces="keep", models_dir=str(root))(text)
    assert after.count("Kolpakova") == 2
    assert after.replace("Kolpakova", "kolpakova").lower() == before.replace("Kolpakova", "kolpakova").lower()


def test_mixed_spellings_and_pairs_of_the_card(models, tmp_path):
    """A form of the card's ``mixed`` map is spelled as the map does where the model says O or CAP, and the
    second word of a ``proper_pairs`` entry is capitalized after the first, not elsewhere (issue 49)."""
    model = Restorer(lang="en", engine="pipeline", spaces="keep", models_dir=str(models)).engine.model
    c = np.zeros((3, 4), np.float32)
    c[:, model.O], c[1, model.CAP], c[2, model.case_labels.index("UPP")] = 50.0, 60.0, 70.0
    _, case = model.decode(np.zeros((3, 4), np.float32), c, spelled=np.array([True, True, True]))
    assert [model.case_labels[k] for k in case] == ["MIX", "MIX", "UPP"]
    root = tmp_path / "models"
    shutil.copytree(models, root)
    card = json.loads((root / "en" / "token.json").read_text())
    (root / "en" / "token.json").write_text(json.dumps(
        {**card, "mixed": {"youtube": "YouTube"}, "proper_pairs": ["macbook pro"]}))
    text = "i watched youtube on a macbook pro and he is a pro"
    before = Restorer(lang="en", engine="pipeline", spaces="keep", models_dir=str(models))(text)
    after = Restorer(lang="en", engine="pipeline", spaces="keep", models_dir=str(root))(text)
    assert "YouTube" in after and "Pro" in after and "a pro" in after.replace("A pro", "a pro")
    assert after.lower() == before.lower()
