"""The codec on hand-written examples, and its invariants over arbitrary Unicode in every shipped pack."""

import unicodedata
from unittest import mock

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from charrestore import codec_fast
from charrestore.codec import (base_text, case_split, graphemes, parse, render, strip_features,
                               without_inserted_apostrophes)
from charrestore.packs import _validate, available_packs, load_pack

PACKS = {code: load_pack(code) for code in available_packs()}  # a new pack is guarded as soon as it is added


def names(text, pack, apply_map=True):
    base, classes = parse(text, pack, apply_map)
    return ["".join(base[i:i + 1]) + ":" + pack.class_name(c) for i, c in enumerate(classes)]


def roundtrip(text, pack):
    return render(*parse(text, pack), pack)


# --- hand-written examples ----------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "Will AI change our future? Obviously, the answer is yes.",
    "I met Dr. McDonald in Washington, D.C. with my iPhone.",
    "She has a PhD, and she works at NASA. Is it late?",
])
def test_english_round_trip(text):
    assert roundtrip(text, PACKS["en"]) == text


def test_english_classes():
    en = PACKS["en"]
    base, classes = parse("Will AI change our future? Obviously, yes.", en)
    assert "".join(base) == "willaichangeourfutureobviouslyyes"
    got = [en.class_name(c) for c in classes]
    assert got[:6] == ["CAPS", "O", "O", "SPACE", "CAPS", "CAPS+SPACE"]   # W i l l␣ A I␣
    assert got[base.index("e", 15)] == "?+SPACE"                          # futur e?␣
    assert got[-1] == "."                                                 # no space after the last grapheme
    b2, c2 = parse("I met Dr. McDonald in Washington, D.C. with my iPhone.", en)
    words = render(b2, c2, en).split(" ")
    assert words[3] == "McDonald" and words[6] == "D.C." and words[-1] == "iPhone."
    d = "".join(b2).index("dc")
    assert en.class_name(c2[d]) == "CAPS+." and en.class_name(c2[d + 1]) == "CAPS+.+SPACE"


def test_marks_attach_left_repeat_once_leading_dropped():
    en = PACKS["en"]
    assert roundtrip("...Hello!!! ??", en) == "Hello.?"
    assert roundtrip(" , Hi", en) == "Hi"
    assert names("a,,, b", en) == ["a:,+SPACE", "b:O"]
    assert roundtrip("Hi.", en) == "Hi."
    assert roundtrip("Hi.   ", en) == "Hi."           # no space after the last grapheme


def test_iwslt_mapping():
    en = PACKS["en"]
    assert roundtrip("Wow! Really; yes: no \u2014 maybe \u2013 ok", en) == "Wow. Really. yes, no, maybe, ok"
    assert roundtrip('He said "yes" (twice) [sic] {x} \u201cok\u201d \u00abnon\u00bb', en) == \
        "He said yes twice sic x ok non"
    assert roundtrip("don't stop, it's well-known rock\u2019n\u2019roll", en) == \
        "don't stop, it's well-known rock\u2019n\u2019roll"
    assert roundtrip("a - b -- c --d e- f", en) == "a, b, c, d e, f"
    assert roundtrip("left\u2014right", en) == "left, right"
    assert roundtrip("'quoted' words", en) == "quoted words"
    # without the mapping (user input) only the pack's own marks and spaces are taken off
    base, _ = parse('Wow! "yes" - no', en, apply_map=False)
    assert "".join(base) == 'wow!"yes"-no'
    assert strip_features("Wow! Really; yes: no", en) == "wowreallyyesno"


def test_japanese():
    ja = PACKS["ja"]
    text = "\u6771\u4eac\u306f\u65e5\u672c\u306e\u9996\u90fd\u3067\u3042\u308a\u3001\u4eba\u53e3\u304c\u591a\u3044\u3002" \
           "\u672c\u5f53\u3067\u3059\u304b\uff1f"  # 東京は日本の首都であり、人口が多い。本当ですか？
    assert roundtrip(text, ja) == text
    base, classes = parse(text, ja)
    assert len(base) == len(text) - 3 and ja.n_classes == 8
    assert [ja.class_name(c) for c in classes if c] == ["\u3001", "\u3002", "\uff1f"]
    # ASCII and full-width variants map onto the marks; brackets are dropped; spaces are ordinary characters
    assert roundtrip("\u306f\u3044,\u3044\u3044\u3048\uff0c\u306a\u305c?\u3088\uff01\u300c\u5f15\u7528\u300d", ja) == \
        "\u306f\u3044\u3001\u3044\u3044\u3048\u3001\u306a\u305c\uff1f\u3088\u3002\u5f15\u7528"
    assert roundtrip("a b\u3002", ja) == "a b\u3002"
    assert "".join(parse("a b", ja)[0]) == "a b"


def test_gujarati_vowel_signs_and_conjuncts():
    gu = PACKS["gu"]
    text = "\u0a95\u0acd\u0ab7\u0aa4\u0acd\u0ab0\u0abf\u0aaf, \u0a9c\u0acd\u0a9e\u0abe\u0aa8, " \
           "\u0ab6\u0acd\u0ab0\u0aa6\u0acd\u0aa7\u0abe \u0a85\u0aa8\u0ac7 \u0aa6\u0acd\u0ab5\u0abe\u0ab0\u0a95\u0abe. " \
           "\u0ab6\u0ac1\u0a82 \u0aa4\u0aae\u0ac7 \u0a86 \u0a9c\u0abe\u0aa3\u0acb \u0a9b\u0acb?"
    # ક્ષત્રિય, જ્ઞાન, શ્રદ્ધા અને દ્વારકા. શું તમે આ જાણો છો?
    assert roundtrip(text, gu) == text
    base, classes = parse(text, gu)
    # vowel signs ( િ ા ે ુ ં ો) and virama never stand alone: they stay inside their cluster
    assert not any(unicodedata.category(g[0]) in ("Mn", "Mc") for g in base)
    assert "".join(base) == text.replace(",", "").replace(".", "").replace("?", "").replace(" ", "")
    # the danda and ! map onto the period
    assert roundtrip("\u0a86 \u0a97\u0abe\u0aae \u0a9b\u0ac7\u0964 \u0ab9\u0abe!", gu) == \
        "\u0a86 \u0a97\u0abe\u0aae \u0a9b\u0ac7. \u0ab9\u0abe."
    # every possible mark after every grapheme: still the same clusters
    every = [gu.n_classes - 1] * len(base)
    assert parse(render(base, every, gu), gu)[0] == base


def test_an_opening_mark_belongs_to_the_grapheme_after_it():
    """es: ¿ opens a question. It is a feature of the grapheme it stands before (with that grapheme's CAPS), renders
    before it after the previous grapheme's marks and space, and an opening mark with no grapheme after it is dropped."""
    es = PACKS["es"]
    assert names("hola. ¿Tienes tiempo?", es)[:6] == ["h:O", "o:O", "l:O", "a:.+SPACE", "t:CAPS+¿", "i:O"]
    assert roundtrip("¿Qué? Hola, ¿tienes tiempo mañana?", es) == "¿Qué? Hola, ¿tienes tiempo mañana?"
    assert roundtrip("¿¿Qué?", es) == "¿Qué?"  # a repeated mark counts once
    assert render(*parse("hola ¿", es), es) == "hola"
    base, classes = parse("tienestiempomañana", es)
    classes[0] |= es.bit("¿") | es.bit("CAPS")
    classes[-1] |= es.bit("?")
    assert render(base, classes, es) == "¿Tienestiempomañana?"


def test_a_mark_with_a_space_before_it():
    """fr: the space before "?" is the mark's typography (a narrow no-break space when rendered), not a SPACE."""
    fr = PACKS["fr"]
    assert names("Quoi ? Oui", fr)[3:5] == ["i:?+SPACE", "o:CAPS"]
    assert names("Quoi ?", fr)[-1] == "i:?"
    assert names("Quoi\u00a0?", fr, apply_map=False)[-1] == "i:?"
    assert render(*parse("Quoi ? Oui.", fr), fr) == "Quoi\u202f? Oui."
    assert render(*parse("Quoi ! Oui", fr), fr) == "Quoi. Oui"  # a mapped mark takes no space before it


def test_a_mapping_before_a_small_letter():
    """``map_before_lower``: a mapped "!" that a small letter follows (past spaces, quotes and dashes) is read as
    a comma, so that a period the model learns is one a capital follows; user input (no mapping) is untouched."""
    pack = _validate("xx", {"features": ["CAPS", ".", ",", "?", "SPACE"], "cased": True,
                            "map": {"!": ".", "»": "", "—": ", "}, "map_before_lower": {"!": ","}})
    assert roundtrip("Ah ! mon Dieu. Oh ! Mon Dieu !", pack) == "Ah, mon Dieu. Oh. Mon Dieu."
    assert roundtrip("« Ah ! » — fit-il. Oh ! 1830 !", pack) == "« Ah, fit-il. Oh. 1830."
    assert names("ah ! mon", pack, apply_map=False)[1:3] == ["h:SPACE", "!:SPACE"]
    long = "Ah ! mon Dieu, oh ! Non. " * 8  # the fast path leaves such a pack to the grapheme loop
    assert roundtrip(long, pack) == "Ah, mon Dieu, oh. Non. " * 7 + "Ah, mon Dieu, oh. Non."


def test_a_mapping_right_after_a_sentence_end():
    """``map_after_sentence_end``: a dialogue dash, "!" or "…" right after a sentence mark adds no second mark (no
    "?," or "?." that a model would learn and print); elsewhere they read by [map], user input is untouched."""
    pack = _validate("xx", {"features": ["CAPS", ".", ",", "?", "SPACE"], "cased": True, "sentence_marks": [".", "?"],
                            "map": {"!": ".", "—": ", ", "«": "", "»": ""}, "map_before_lower": {"!": ","},
                            "map_after_sentence_end": {"!": "", "—": " "}})
    assert roundtrip("Что?! — спросил он. — Да — нет!", pack) == "Что? спросил он. Да, нет."
    assert roundtrip("«Ах!» — сказал он. «Ну.» — Да!", pack) == "Ах, сказал он. Ну. Да."
    assert names("он. — да", pack, apply_map=False)[2] == "—:SPACE"
    long = "Что?! — спросил он, — да. — Нет. " * 8  # the fast path leaves such a pack to the grapheme loop
    assert roundtrip(long, pack) == "Что? спросил он, да. Нет. " * 7 + "Что? спросил он, да. Нет."


def test_emoji_zwj_sequences():
    family = "\U0001F468\u200d\U0001F469\u200d\U0001F467\u200d\U0001F466"
    flag, thumb = "\U0001F1EE\U0001F1F3", "\U0001F44D\U0001F3FD"
    assert len(graphemes(family + flag + thumb)) == 3
    for code, text in [("en", f"Family {family}, flag {flag} and {thumb}. Ok?"),
                       ("gu", f"family {family}, flag {flag} and {thumb}. ok?"),
                       ("ja", f"{family}\u3001{flag}\u3002{thumb}\uff1f")]:
        pack = PACKS[code]
        base, classes = parse(text, pack)
        assert family in base and flag in base and thumb in base
        assert roundtrip(text, pack) == text
        every = [pack.n_classes - 1] * len(base)
        assert parse(render(base, every, pack), pack)[0] == base


def test_case_that_does_not_round_trip_is_kept():
    en = PACKS["en"]
    for word in ("STRA\u00dfE", "\u01c5ungla", "\u0130stanbul", "\u1e9e"):
        assert base_text(roundtrip(word, en), en) == base_text(word, en)
        assert roundtrip(word, en) == unicodedata.normalize("NFC", word)


def test_normalization_nfc():
    en = PACKS["en"]
    decomposed = "Cafe\u0301, ok"
    assert roundtrip(decomposed, en) == "Caf\u00e9, ok"
    assert base_text(decomposed, en) == "caf\u00e9ok"


# --- properties over arbitrary Unicode ----------------------------------------------------

SPICE = list(".,?!;:\u2014\u2013-'\"()\u3001\u3002\uff1f\uff0c\uff01 \t\n\r\u00a0\u3000"
             "\u0301\u0308\u094d\u0acd\u0abf\u200d\u200c\ufe0f\U0001F3FD\U0001F1EE\U0001F468\u1100\u1161"
             "\u0915\u0937\u0a95\u0ab7AaZz\u00df\u0130\u01c5\u03a3\u03c2\u0600\u0e33\u000b\u0085\u2028")
TEXT = st.text(alphabet=st.one_of(st.characters(), st.sampled_from(SPICE)), max_size=40)
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ALL = pytest.mark.parametrize("code", list(PACKS))


@ALL
@SETTINGS
@given(TEXT)
@example("a\n\u0301")
@example("\u0301, a")
@example("a.\u200d\U0001F468")
@example("0'0")
def test_nothing_lost(code, text):
    """base(render(parse(x))) == base(x): without the mapping, and with it (mapped marks gone; base drops an
    apostrophe that the pack may insert, the stripped reference keeps it)."""
    pack = PACKS[code]
    assert base_text(render(*parse(text, pack, apply_map=False), pack), pack) == base_text(text, pack)
    assert base_text(render(*parse(text, pack), pack), pack) == without_inserted_apostrophes(
        strip_features(text, pack), pack)


@ALL
@SETTINGS
@given(TEXT)
@example("a\n\u0301")
def test_parse_render_parse_is_a_fixed_point(code, text):
    """One parse + render gives the canonical text: parsing and rendering it again changes nothing."""
    pack = PACKS[code]
    once = render(*parse(text, pack), pack)
    base, classes = parse(once, pack)
    assert render(base, classes, pack) == once
    assert "".join(base) == strip_features(text, pack)
    b2, c2 = parse(render(base, classes, pack), pack)
    assert b2 == base and c2.tolist() == classes.tolist()
    assert unicodedata.is_normalized(pack.normalization, once)


@ALL
@SETTINGS
@given(TEXT)
def test_normalization_is_idempotent(code, text):
    pack = PACKS[code]
    once = base_text(text, pack)
    assert base_text(once, pack) == once
    assert strip_features(strip_features(text, pack), pack) == strip_features(text, pack)


@ALL
@SETTINGS
@given(TEXT, st.data())
def test_marks_never_land_inside_a_cluster(code, text, data):
    """Any classes on any base graphemes render to text that splits back into the same graphemes. Not covered: a
    combining sign that follows a space (the start of a word) joins the grapheme before it once the space goes,
    whatever the renderer does ("0\\rᤰ"); the evaluation scripts skip such documents and report them."""
    pack = PACKS[code]
    base, _ = parse(text, pack)
    assume(graphemes("".join(base)) == base)
    classes = data.draw(st.lists(st.integers(0, pack.n_classes - 1), min_size=len(base), max_size=len(base)))
    out = render(base, classes, pack)
    assert parse(out, pack, apply_map=False)[0] == base
    marks = set(pack.marks) | set(pack.space_before.values()) | ({" "} if pack.has_space else set())
    known = set(base)
    for g in graphemes(out):
        assert g in marks or g in known or case_split(g)[0] in known, g


FAST_TEXT = st.text(alphabet=st.one_of(st.sampled_from(list("aAbBzZ09 \t\n\r\x0b\x1c.,?!;:-'\"()_#@/$")),
                                       st.characters(max_codepoint=127), st.sampled_from(SPICE), st.characters()),
                    max_size=200)


def _long(text: str) -> str:
    return (text or "x") * (1 + codec_fast.MIN_CHARS // max(1, len(text)))


@ALL
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(FAST_TEXT, st.booleans())
@example("-" * 70, True)
@example("a-b'c " * 20 + "-", True)
@example("\udcff" * 70, False)
def test_fast_parse_is_the_general_parse(code, text, apply_map):
    """codec_fast.parse (texts of 64+ characters, one code point per grapheme) against the grapheme loop."""
    pack, text = load_pack(code), _long(text)
    fast_base, fast_classes = parse(text, pack, apply_map)
    with mock.patch.object(codec_fast, "MIN_CHARS", 10**9):
        base, classes = parse(text, pack, apply_map)
    assert fast_base == base and fast_classes.tolist() == classes.tolist() and fast_classes.dtype == classes.dtype


@ALL
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(FAST_TEXT, st.data())
def test_fast_render_is_the_general_render(code, text, data):
    pack = load_pack(code)
    base = parse(_long(text), pack)[0] if data.draw(st.booleans()) else list(_long(text))
    classes = data.draw(st.lists(st.integers(0, pack.n_classes - 1), min_size=len(base), max_size=len(base)))
    fast = render(base, classes, pack)
    with mock.patch.object(codec_fast, "MIN_CHARS", 10**9):
        assert fast == render(base, classes, pack)


def test_the_fast_path_runs_on_english_with_curly_quotes():
    en = load_pack("en")
    text = "It’s Ökonomie — a word, she said. " * 4
    with mock.patch.object(codec_fast, "parse", wraps=codec_fast.parse) as fast_parse, \
            mock.patch.object(codec_fast, "render", wraps=codec_fast.render) as fast_render:
        base, classes = parse(text, en)
        out = render(base, classes, en)
    assert fast_parse.call_count == 1 and fast_render.call_count == 1
    assert out.startswith("It’s Ökonomie, a word, she said. It’s")


@settings(max_examples=500, deadline=None)
@given(FAST_TEXT)
def test_singletons_means_one_grapheme_per_code_point(text):
    if codec_fast.singletons(text):
        assert len(graphemes(text)) == len(text)
