"""Live restoration (charrestore.streaming): finals never change, do not depend on how the input is cut into
pushes, lose nothing, cost a bounded window per word, and come out of `fix --stream` as the words arrive."""

import json
import os
import select
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from charrestore import Restorer, base_text, load_pack

TEXT = ("will ai change our future obviously the answer is yes but what are the risks i am not technical "
        "i'm not an engineer i don't play one on the internet so what do you think")
ENGINES = [("en", "pipeline"), ("en", "char"), ("ja", "char"), ("gu", "char")]
SAMPLES = {"en": TEXT, "ja": "今日 は 雨 が 降って います か 明日 は 晴れる でしょう それでは 失礼 します",
           "gu": "ગુજરાત ભારત દેશનું એક રાજ્ય છે તેની રાજધાની ગાંધીનગર છે"}


@pytest.fixture(scope="module")
def restorers():
    return {key: Restorer(lang=key[0], engine=key[1]) for key in ENGINES}


def run_stream(restorer, pushes, lookahead=4):
    """The finals of a stream fed ``pushes``; after every push, finals so far + provisional hold every word."""
    stream, finals = restorer.stream(lookahead=lookahead), []
    for k, text in enumerate(pushes, 1):
        update = stream.push(text)
        finals.append(update.final)
        pushed = " ".join("".join(pushes[:k]).split())
        assert base_text("".join(finals) + update.provisional, restorer.pack) == base_text(pushed, restorer.pack)
    finals.append(stream.end().final)
    return "".join(finals)


@pytest.mark.parametrize("key", ENGINES, ids="-".join)
def test_finals_keep_every_word_and_ignore_push_sizes(restorers, key):
    restorer, words = restorers[key], SAMPLES[key[0]].split()
    whole = run_stream(restorer, [" ".join(words)])
    one_by_one = run_stream(restorer, [w + " " for w in words])
    assert whole == one_by_one
    assert base_text(whole, restorer.pack) == base_text(SAMPLES[key[0]], restorer.pack)
    assert len(whole.split()) == len(words)


@settings(max_examples=15, deadline=None)
@given(cuts=st.lists(st.integers(1, 30), min_size=1, max_size=8), lookahead=st.sampled_from([0, 1, 3]))
def test_any_cut_into_pushes_gives_the_same_finals(restorers, cuts, lookahead):
    restorer, words = restorers[("en", "pipeline")], TEXT.split()[:30]
    pushes, at = [], 0
    for n in cuts:
        pushes.append(" ".join(words[at:at + n]) + " ")
        at += n
    pushes.append(" ".join(words[at:]))
    assert run_stream(restorer, pushes, lookahead) == run_stream(restorer, [" ".join(words)], lookahead)


@pytest.mark.parametrize("lookahead", [0, 2, 5])
def test_a_word_is_final_after_lookahead_more_words(restorers, lookahead):
    stream = restorers[("en", "pipeline")].stream(lookahead=lookahead)
    seen = 0
    for n, word in enumerate(TEXT.split()[:12], 1):
        seen += len(stream.push(word).final.split())
        assert seen == max(0, n - lookahead)


def test_each_decode_is_a_bounded_window(restorers):
    """Memory and cost per word stay flat: no decode reads more than context + lookahead + 1 words."""
    restorer = restorers[("en", "pipeline")]
    sizes = []

    class Recording:
        pack = restorer.engine.pack

        def restore_words(self, words, end=True):
            sizes.append(len(words))
            return restorer.engine.restore_words(words, end)

    from charrestore.streaming import Stream

    stream = Stream(Recording(), lookahead=3, context=8)
    for word in (TEXT.split() * 10):
        stream.push(word)
    stream.end()
    assert max(sizes) <= 8 + 3 + 1
    assert len(sizes) >= len(TEXT.split()) * 10


def test_a_finalized_sentence_end_capitalizes_the_next_word(restorers):
    out = run_stream(restorers[("en", "pipeline")], [w + " " for w in TEXT.split()])
    words = out.split()
    assert any(w[-1] in ".?" for w in words[:-1])
    for prev, word in zip(words, words[1:]):
        if prev[-1] in ".?" and word[0].isalpha():
            assert word[0].isupper(), out
    assert out[0].isupper() and out[-1] in ".?"


def test_pushing_after_end_is_an_error(restorers):
    restorer = restorers[("en", "pipeline")]
    stream = restorer.stream()
    assert stream.push("hello there").final == ""  # both words are within the look-ahead
    assert stream.end().final == restorer("hello there")  # decided together, as one document
    with pytest.raises(ValueError):
        stream.push("again")


def test_cli_stream_prints_finals_before_the_input_ends():
    proc = subprocess.Popen([sys.executable, "-m", "charrestore", "fix", "--stream", "--lookahead", "2", "--json"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        proc.stdin.write(b"will ai change our future obviously ")
        proc.stdin.flush()
        ready, _, _ = select.select([proc.stdout], [], [], 30)
        assert ready, "no update while the input is still open"
        first = json.loads(proc.stdout.readline())
        assert first["final"].startswith("Will") and first["provisional"]
        proc.stdin.write(b"the answer is yes")
        proc.stdin.close()
        rest = [json.loads(line) for line in proc.stdout.read().splitlines()]
        assert proc.wait(30) == 0
    finally:
        proc.kill()
    text = first["final"] + "".join(u["final"] for u in rest)
    assert base_text(text, load_pack("en")) == base_text("will ai change our future obviously the answer is yes",
                                                          load_pack("en"))
    assert rest[-1]["provisional"] == "" and text.endswith(".")


def test_cli_stream_plain_and_errors():
    run = lambda *a, data=b"": subprocess.run([sys.executable, "-m", "charrestore", "fix", *a], input=data,
                                             capture_output=True, env={**os.environ})
    res = run("--stream", data=b"hello world how are you\n")
    assert res.returncode == 0 and res.stdout.decode().count("\n") == 1
    assert base_text(res.stdout.decode(), load_pack("en")) == "helloworldhowareyou"
    res = run("--stream", "some text")
    assert res.returncode != 0 and res.stderr.decode().count("\n") == 1 and b"Traceback" not in res.stderr
