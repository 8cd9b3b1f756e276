"""Issue #22, bounded memory: a long line is restored in pieces with context on both sides, and the result is the
one the whole line gets but for a rare word near a decision threshold (the char model's windows are laid out from
the start of what it reads, so a piece's windows are not the whole line's). The shipped models run here (small
pieces make fixture-sized texts "long")."""

import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from charrestore import Restorer, available_packs, base_text, load_pack
from charrestore import long_text
from charrestore.codec import parse
from charrestore.packs import SPACE

TEXTS = Path(__file__).parent / "fixtures" / "text"
PACKS = {lang: load_pack(lang) for lang in available_packs()}
PIECE = 2500  # with the default CONTEXT: texts of 8-12K characters make 3-5 pieces

# letters, digits, spaces, marks, combining marks, emoji (with ZWJ and skin tone), invalid bytes, CJK, Gujarati
ALPHABET = st.sampled_from(list("abcXYZ019 \t\n.,?!'-#@/:") + ["\u0301", "\u0345", "\U0001F44D", "\U0001F3FD",
                                                              "\u200d", "\udc80", "\udcff", "日本", "。", "、",
                                                              "ગુજરાત", "\u0acd", "e\u0301"])


def _long(lang: str, times: int, unspaced: bool) -> str:
    text = " ".join([TEXTS.joinpath(f"{lang}.txt").read_text(encoding="utf-8").strip()] * times)
    text = unicodedata.normalize(PACKS[lang].normalization, text)
    return "".join(text.split()) if unspaced else text


@settings(max_examples=300, deadline=None)
@given(st.lists(ALPHABET, max_size=400).map("".join), st.sampled_from(sorted(PACKS)), st.integers(8, 60))
def test_pieces_cover_the_text_at_safe_cuts_and_parse_as_the_whole(text, lang, piece):
    pack = PACKS[lang]
    text = unicodedata.normalize(pack.normalization, text)
    bounds = long_text.pieces(text, pack, piece)
    assert bounds[0][0] == 0 and bounds[-1][1] == len(text)
    assert all(a < b == c for (a, b), (c, _) in zip(bounds, bounds[1:]))
    assert all(long_text._cuttable(text, a, pack) for a, _ in bounds[1:])
    base, classes = parse(text, pack, apply_map=False)
    parts = [parse(text[a:b], pack, apply_map=False) for a, b in bounds]
    assert [g for b, _ in parts for g in b] == list(base)
    # a piece's own classes equal the whole parse's, except that its last grapheme cannot see the next piece's
    at = 0
    for b, c in parts:
        assert list(c[:-1]) == list(classes[at:at + max(len(b) - 1, 0)])
        at += len(b)


@settings(max_examples=300, deadline=None)
@given(st.lists(ALPHABET, max_size=300).map("".join), st.sampled_from(sorted(PACKS)))
def test_has_space_answers_as_the_parse_does(text, lang):
    pack = PACKS[lang]
    text = unicodedata.normalize(pack.normalization, text)
    assert long_text.has_space(text, pack) == bool((parse(text, pack, apply_map=False)[1] & pack.bit(SPACE)).any())


@pytest.mark.parametrize("lang,engine,times", [("en", "pipeline", 16), ("en", "char", 16), ("ja", "char", 50),
                                               ("gu", "char", 30)])
@pytest.mark.parametrize("unspaced", [False, True], ids=["spaced", "unspaced"])
def test_pieces_restore_as_the_whole_line(lang, engine, times, unspaced):
    r = Restorer(lang=lang, engine=engine)
    text = _long(lang, times, unspaced)
    assert len(long_text.pieces(text, r.pack, PIECE)) >= 3
    whole = r(text)
    keep = long_text.has_space(text, r.pack)
    out = "".join(long_text.restore(r.engine, text, keep, True, piece=PIECE))
    assert base_text(out, r.pack) == base_text(text, r.pack)
    (base, classes), (whole_base, whole_classes) = (parse(t, r.pack, apply_map=False) for t in (out, whole))
    assert base == whole_base  # the same graphemes: pieces may differ only in the features of a few
    assert (classes == whole_classes).mean() >= 0.998


def _peak_rss_kb(engine: str, chars: int) -> int:
    code = ("import resource, sys; from charrestore import Restorer, base_text, load_pack;"
            f"r = Restorer(lang='en', engine={engine!r}); text = ('callmeishmaelsomeyearsago' * {chars // 25});"
            "out = r(text); assert base_text(out, load_pack('en')) == text, 'base text changed';"
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=900)
    assert res.returncode == 0, res.stderr.decode()[-2000:]
    return int(res.stdout)


@pytest.mark.parametrize("engine", ["char", "pipeline"])
def test_peak_memory_does_not_grow_with_the_line(engine):
    """Peak RSS of a 2 MB unspaced line is within 48 MB of a 0.2 MB line's (it was +500 MB to +1 GB for 1 to 10 MB
    before the lines were cut into pieces); scripts/bench_memory.py measures 0.5, 3 and 10 MB."""
    small, large = _peak_rss_kb(engine, 200_000), _peak_rss_kb(engine, 2_000_000)
    assert large - small < 48 * 1024, (small, large)



def test_a_long_line_comes_out_in_pieces_that_join_to_its_restoration():
    r = Restorer(lang="en", engine="char")
    text = _long("en", 120, unspaced=False)
    assert long_text.is_long(text)
    pieces = list(r.restore_pieces(text))
    assert len(pieces) == len(long_text.pieces(text, r.pack)) >= 2
    assert "".join(pieces) == r(text)
    assert list(r.restore_pieces("hello world")) == [r("hello world")]


@pytest.mark.parametrize("text, together", [
    ("willaichangeourfuture whereareyougoingtonight", True),    # 21 letters: English holds few words that long
    ("«willaichangeourfuture», he said", True),                 # punctuation at a word's edges aside
    ("i went to thestore", False),                              # too short to tell by length
    ("see https://www.averyveryverylongdomainname.com now", False), ("#throwbackthursdayforever is fun", False),
    ("@averyveryverylongusername hi", False), ("a /averyveryverylongpathsegment x", False),
    ("state-of-the-art-technologies-everywhere ok", False),      # hyphens part words
    ("Москваэтостолицароссииигород ok", False),                 # not the pack's script
    ("theratewasnearlytwentyfour24percent ok", True),            # digits may stand in one
    ("token dGhpc2lzYXZlcnlsb25nc3RyaW5n4 ok", False),           # but not in a code with capitals
])
def test_a_word_longer_than_the_packs_longest_runs_words_together(text, together):
    assert PACKS["en"].longest_word == 18
    assert long_text.runs_together(text, PACKS["en"]) is together


def test_auto_restores_the_spaces_of_spaced_text_that_runs_words_together():
    """``--spaces auto`` keeps typed spaces unless a word is longer than the pack's ``longest_word``; then it
    restores them as ``restore`` does, weighing the typed ones. A pack without the key keeps them (th)."""
    text = "willaichangeourfuture whereareyougoingtonight"
    for engine in ("pipeline", "char"):
        auto = Restorer(lang="en", engine=engine)(text)
        assert auto == Restorer(lang="en", engine=engine, spaces="restore")(text)
        assert auto.lower().startswith("will ai change our future") and "going tonight" in auto.lower()
    spaced = "will ai change our future where are you going tonight"
    assert Restorer(lang="en")(spaced) == Restorer(lang="en", spaces="keep")(spaced)
    assert PACKS["th"].longest_word == 0 and not long_text.runs_together("ก" * 400 + " ข", PACKS["th"])


def test_the_cli_joins_several_run_together_arguments_and_restores_their_spaces():
    out = subprocess.run([sys.executable, "-m", "charrestore", "fix", "willaichangeourfuture",
                          "whereareyougoingtonight"], capture_output=True, text=True, check=True).stdout
    assert out == "Will AI change our future? Where are you going tonight?\n"


def test_a_ten_megabyte_word_is_read_as_run_together_without_a_regex_blowing_up():
    """The search keeps no state per letter: a 10 MB word after a space, and 10 MB of codes with digits."""
    assert long_text.runs_together("x " + "abcdefghij" * 1_000_000, PACKS["en"])
    assert not long_text.runs_together("a " + "abcdefghijklmnopqrsTu1 " * 400_000, PACKS["en"])
