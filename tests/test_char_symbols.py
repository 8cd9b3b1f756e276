"""Symbols the char model never read in training ("wow!", "it😀", ":)"), in the char engine (char_symbols.py).

The fixture models are barely trained, so these tests check what holds for any model: what it reads, and what
the forced and moved marks and spaces make of its output.
"""

import numpy as np
import pytest
from test_char_engine import FIXTURE_MODELS

from charrestore import Restorer, base_text, load_pack
from charrestore.codec import parse, render
from charrestore.engines.char_input import HAS_SPACE, NO_SPACE, UNKNOWN
from charrestore.engines.char_symbols import Unread, unread_mask
from charrestore.engines.symbols import Symbols
from charrestore.spans import base_spans, protect

EN = load_pack("en")
SYMBOLS = Symbols(EN, [None, *EN.marks])


def unread(text, keep=True):
    base, given = parse(text, EN, apply_map=False)
    return base, given, Unread(base, given, EN, SYMBOLS, protect(base, base_spans(text, base, EN)), keep)


@pytest.fixture(scope="module")
def restorers():
    return {spaces: Restorer(lang="en", engine="char", spaces=spaces, models_dir=str(FIXTURE_MODELS))
            for spaces in ("keep", "restore")}


def test_what_the_model_does_not_read():
    base, given = parse("wow!! it😀 (well-known) - e.g. see https://x.com:80", EN, apply_map=False)
    hidden = unread_mask(base, given, EN, protect(base, base_spans("wow!! it😀 (well-known) - e.g. see https://x.com:80",
                                                                   base, EN)))
    assert "".join(g for g, h in zip(base, hidden) if h) == "!!😀()-"  # the URL's ":" and a word's "-" are read
    assert "".join(g for g, h in zip(base, hidden) if not h).startswith("wowitwell-knowneg")


def test_runs_force_move_and_clear_marks():
    base, given, u = unread("wow!!! so fun😀 (yes) what?! :) end")
    read = [base[i] for i in u.vis]
    assert "".join(read) == "wowsofunyeswhatend"
    wow, so, fun, yes, what = 2, 4, 7, 10, 14  # the last grapheme of each word
    period, question = EN.bit("."), EN.bit("?")
    marks, fixed = u.forced(given[u.vis] & EN.mark_bits, np.zeros(len(u.vis), bool))
    assert marks[wow] == period and fixed[wow]  # "!!!" stands for "."
    assert marks[fun] == 0 and fixed[fun]  # nothing before a glued emoji
    assert not fixed[so] and not fixed[yes]  # "(" opens: "so" keeps what the model gives it; ")" only moves it
    assert marks[what] == question and not fixed[what]  # a typed mark stays (the caller fixes the given ones)
    # the model writes "." after every read grapheme but where the marks are fixed (here: forced or typed)
    fixed |= (given[u.vis] & EN.mark_bits) != 0
    states = u.states(np.where(given & EN.bit("SPACE"), HAS_SPACE, NO_SPACE))
    cls = np.where(fixed, marks, period) | np.where(states == HAS_SPACE, EN.bit("SPACE"), 0)
    assert render(base, u.back(cls), EN) == "w.o.w!!! s.o. f.u.n😀 (y.e.s). w.h.a.t?! :) e.n.d."


def test_unspaced_runs_between_letters_end_a_word():
    base, given, u = unread("great!!!see it😀so f(x)y", keep=False)
    states = u.states(np.full(len(base), UNKNOWN, np.int32), enforced=True)
    read = "".join(base[i] for i in u.vis)
    assert read == "greatseeitsofxy"
    assert [k for k, s in enumerate(states) if s == HAS_SPACE] == [read.index("t"), read.index("i") + 1]
    # a read grapheme's state counts any space up to the next read one; the last read one takes none
    base, given, u = unread("yes (no) maybe 🎉")
    states = np.where(given & EN.bit("SPACE"), HAS_SPACE, NO_SPACE)
    assert u.states(states).tolist() == [NO_SPACE, NO_SPACE, HAS_SPACE, NO_SPACE, HAS_SPACE] + [NO_SPACE] * 5


def test_a_typed_exclamation_ends_the_sentence(restorers):
    for text in ("wow! that was fun", "wow!!! that was fun"):
        out = restorers["keep"](text)
        assert out.startswith(text.split()[0].capitalize() + " That "), out
    out = restorers["restore"]("thisisgreat!!!seeyou")
    assert "!!! S" in out and base_text(out, EN) == "thisisgreat!!!seeyou", out


def test_the_model_reads_no_symbol_and_marks_keep_their_order(restorers, monkeypatch):
    engine = restorers["keep"].engine
    seen, decode = [], engine.decode
    monkeypatch.setattr(engine, "decode", lambda gids, *a, **k: seen.append(len(gids)) or decode(gids, *a, **k))
    out = restorers["keep"]("so excited 🎉🎉 see you😀 there :) what?! no")
    assert seen == [len("soexcitedseeyoutherewhatno")]
    assert "you😀 " in out and "?!" in out and ":)" in out, out
    assert restorers["keep"]("🎉🎉 !!!") == "🎉🎉 !!!"
    seen.clear()
    out = restorers["keep"]("i miss you <3 see xD so :-D")  # an emoticon of its own is an emoji (spans.EMOTICON)
    assert seen == [len("imissyouseeso")]
    assert " <3 " in out and " xD " in out and out.endswith(" :-D"), out


def test_a_closing_quote_takes_the_final_mark(restorers):
    out = restorers["keep"]('he said "hi"')
    assert out[-2:] in ('".', '"?'), out
