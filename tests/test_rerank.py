"""The NB k-best and its reranker (shipped models/en and tiny fixture counts; no ../shared).

What must hold: the k-best list starts with the Viterbi's best and has no duplicates; the reranker, like the NB,
only inserts spaces between grapheme clusters; ``segment --method nb`` is the plain NB; ``--json`` is valid JSON
lines; a damaged reranker fails in one line; ``tune rerank`` writes a card the runtime loads.
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from charrestore.cards import ModelError
from charrestore.kbest import MAX_CHARS, nbest
from charrestore.rerank import FEATURES, Reranker, best_segmenter, spaced
from charrestore.segmenter import Segmenter
from test_segmenter import FIXTURE, grapheme_starts, inserted, texty

ROOT = Path(__file__).resolve().parent.parent
HASHTAGS = ["mariscoming", "FollowFriday", "throwbackthursday", "iphone12promax", "nevergiveup",
            "willaichangeourfuture", "#ff", "thebus!", "l'amour", "çaàété"]


@pytest.fixture(scope="module")
def seg():
    return Segmenter.load("en")


@pytest.fixture(scope="module")
def reranker():
    return Reranker.load("en")


@settings(max_examples=150, deadline=None)
@given(text=st.one_of(st.text(max_size=40), texty), k=st.integers(1, 6))
def test_kbest_starts_with_viterbi_and_is_distinct(seg, text, k):
    paths = nbest(seg, text, k)
    assert paths[0].cuts == seg.cuts(text)
    assert 1 <= len(paths) <= k
    assert len({tuple(p.cuts) for p in paths}) == len(paths)
    assert all(a.score >= b.score for a, b in zip(paths[1:], paths[2:]))


@pytest.mark.parametrize("text", HASHTAGS)
def test_kbest_words_are_the_cut_text(seg, text):
    paths = nbest(seg, text, 6)
    for p in paths:
        assert "".join(p.words) == "".join(c for c in text.lower() if c.isalnum() or c == "'")
        assert p.score <= paths[0].score + 1e-9


def test_kbest_past_max_chars_is_the_viterbi(seg):
    text = "followfriday" * (MAX_CHARS // 12 + 1)
    assert [p.cuts for p in nbest(seg, text, 5)] == [seg.cuts(text)]


@settings(max_examples=150, deadline=None)
@given(text=st.one_of(st.text(max_size=60), texty))
def test_reranker_only_inserts_spaces(reranker, text):
    out = reranker.segment(text)
    at = inserted(text, out)
    assert at is not None, (text, out)
    assert set(at) <= grapheme_starts(text) - {0, len(text)}


def test_reranker_candidates(reranker, seg):
    found = reranker.candidates("mariscoming")
    assert found[0].score == max(c.score for c in found)
    assert [len(c.features) for c in found] == [len(FEATURES)] * len(found)
    nb_first = next(c for c in found if c.cuts == seg.cuts("mariscoming"))
    assert nb_first.score == 0.0 and not any(nb_first.features)
    assert (seg.segment("mariscoming"), reranker.segment("mariscoming")) == ("mar is coming", "maris coming")
    assert (seg.segment("e3xbox"), reranker.segment("e3xbox")) == ("e 3 xbox", "e3 xbox")
    assert reranker.segment("") == "" and reranker.segment("!!") == "!!"


def test_configured_keeps_the_weights(reranker):
    short = reranker.configured(L=3)
    assert short.segmenter.L == 3 and reranker.segmenter.L != 3 and (short.weights == reranker.weights).all()
    assert short.segment("EuphonicSound").replace(" ", "") == "EuphonicSound"


def test_weights_pick_the_candidate():
    small = Segmenter({"maris": 5, "coming": 50, "mari": 8, "scoming": 1}, {}, L=8)
    assert Reranker(small, {"nb": 1.0}, k=4).segment("mariscoming") == small.segment("mariscoming")
    assert Reranker(small, {"nb": 1.0, "longest": 2.0}, k=4).segment("mariscoming") == "mari scoming"
    with pytest.raises(ValueError, match="unknown features"):
        Reranker(small, {"bogus": 1.0})


def test_char_feature_with_the_fixture_char_model():
    from charrestore.rerank import char_scorer

    small = Segmenter({"maris": 5, "coming": 50, "mari": 8, "scoming": 1}, {}, L=8)
    r = Reranker(small, {"nb": 1.0, "char": 1.0}, k=4, char=char_scorer("en", "char", ROOT / "tests" / "fixtures" /
                                                                         "models"))
    odds = r.space_odds("maris coming")
    assert odds.shape == (len("maris coming") + 1,) and odds[-1] == 0.0 and np.isfinite(odds).all()
    assert inserted("mariscoming", r.segment("mariscoming")) is not None
    assert any(c.features[FEATURES.index("char")] for c in r.candidates("mariscoming"))


def test_fallback_without_a_reranker():
    assert isinstance(best_segmenter("en", FIXTURE), Segmenter)
    assert isinstance(best_segmenter("en"), Reranker)


# --- a damaged reranker ------------------------------------------------------------------

@pytest.fixture()
def models(tmp_path):
    """A models folder: the shipped English NB counts and reranker, to damage."""
    folder = tmp_path / "models" / "en"
    folder.mkdir(parents=True)
    for name in ("nb.json", "nb.counts", "rerank.json", "rerank.weights.json"):
        shutil.copy(ROOT / "models" / "en" / name, folder / name)
    return tmp_path / "models"


def _restamp(folder: Path) -> None:
    from charrestore.cards import write_card

    card = json.loads((folder / "rerank.json").read_text())
    write_card(folder / "rerank.json", card)


@pytest.mark.parametrize("damage, message", [
    (lambda f: (f / "rerank.weights.json").write_text("{}"), "sha256"),
    (lambda f: ((f / "rerank.weights.json").write_text('{"k": 3, "weights": {"bogus": 1}}'), _restamp(f)),
     "unknown features"),
    (lambda f: ((f / "rerank.weights.json").write_text('{"k": 0, "weights": {}}'), _restamp(f)), "'k'"),
    (lambda f: ((f / "rerank.weights.json").write_text('{"k": 3}'), _restamp(f)), "'weights' is missing"),
    (lambda f: ((f / "rerank.weights.json").write_text('{"k": 3, "weights": {"char": 1}}'), _restamp(f)),
     "char_model"),
    (lambda f: (f / "rerank.json").write_text("{not json"), "unreadable"),
    (lambda f: (f / "rerank.json").write_text('{"kind": "nb", "file": "rerank.weights.json", "sha256": "' + "0" * 64
                                              + '"}'), "'kind'"),
    (lambda f: (f / "rerank.weights.json").unlink(), "missing"),
])
def test_bad_reranker_is_one_line(models, damage, message):
    damage(models / "en")
    with pytest.raises(ModelError, match=message) as err:
        best_segmenter("en", models)
    assert "\n" not in str(err.value)


# --- CLI ---------------------------------------------------------------------------------

def cli(*args, stdin=b"", data=None):
    env = {**os.environ, **({"CHARRESTORE_DATA": str(data)} if data else {})}
    return subprocess.run([sys.executable, "-m", "charrestore", *args], input=stdin, capture_output=True, env=env,
                          timeout=120)


def test_cli_nb_method_is_the_plain_segmenter(seg, reranker):
    lines = HASHTAGS + ["", "the quick brownfox", "x" * 300]
    res = cli("segment", "--lang", "en", "--method", "nb", stdin="\n".join(lines).encode())
    assert res.returncode == 0, res.stderr
    assert res.stdout.decode().split("\n")[:-1] == [seg.segment(t) for t in lines]
    res = cli("segment", "--lang", "en", stdin="\n".join(lines).encode())  # en's (the default would read "çaàété" as fr)
    assert res.stdout.decode().split("\n")[:-1] == [reranker.segment(t) for t in lines]


def test_cli_json_lines(reranker):
    for method in ("rerank", "nb"):
        res = cli("segment", "--json", "--method", method,
                  stdin=b"mariscoming\n\na b\n" + b"x" * 300 + b"\nbad \xff")
        assert res.returncode == 0, res.stderr
        rows = [json.loads(line) for line in res.stdout.decode().splitlines()]
        assert len(rows) == 5
        for row in rows:
            assert row["method"] == method and row["candidates"][0]["text"] == row["text"]
            scores = [c["score"] for c in row["candidates"]]
            assert scores == sorted(scores, reverse=True)
            assert len({c["text"] for c in row["candidates"]}) == len(scores)
    assert rows[0]["text"] == Segmenter.load("en").segment("mariscoming") and len(rows[0]["candidates"]) > 1
    assert rows[3]["candidates"][0]["nb"] is None and len(rows[3]["candidates"]) == 1  # too long: the NB best alone
    assert rows[4]["text"] == "bad \ufffd"


def test_cli_bad_reranker_is_one_line(models, tmp_path):
    (models / "en" / "rerank.weights.json").write_text("{}")
    data = models.parent
    (data / "languages").symlink_to(ROOT / "languages")
    res = cli("segment", "mariscoming", data=data)
    err = res.stderr.decode()
    assert res.returncode == 1 and err.count("\n") == 1 and "sha256" in err and "Traceback" not in err
    res = cli("segment", "--method", "nb", "mariscoming", data=data)
    assert res.returncode == 0 and res.stdout == b"mar is coming\n"


# --- learning the weights ----------------------------------------------------------------

def test_tune_rerank_writes_a_loadable_card(tmp_path):
    from charrestore.tuning.rerank import fit

    models = tmp_path / "models"
    shutil.copytree(FIXTURE, models)
    pairs = ["follow friday", "happy birthday", "new phone", "good night", "last game", "big test", "we know",
             "the future", "our home", "love it"]
    train, dev = tmp_path / "train.tsv", tmp_path / "dev.tsv"
    train.write_text("".join(f"{p.replace(' ', '')}\t{p}\n" for p in pairs[:7]))
    dev.write_text("".join(f"{p.replace(' ', '')}\t{p}\n" for p in pairs[7:]))
    paragraphs = tmp_path / "paragraphs.tsv"
    lines = (ROOT / "tests" / "fixtures" / "text" / "nb_en.txt").read_text().splitlines()
    paragraphs.write_text("".join(f"{k}\t{line}\n" for k, line in enumerate(lines) if line.strip()))
    res = cli("tune", "rerank", "--lang", "en", "--train", str(train), "--dev", str(dev), "--models-dir",
              str(models), "--k", "2", "3", "--l2", "1", "--prose", str(paragraphs), "--prose-dev", str(paragraphs),
              "--prose-items", "6", "4", "--write-card")
    assert res.returncode == 0, res.stderr
    card = json.loads((models / "en" / "rerank.json").read_text())
    assert card["kind"] == "rerank" and card["command"].startswith("charrestore tune rerank --lang en")
    assert set(card["dev_metrics"]["exact"]) == {"hashtags", "prose"} and card["k"] in (2, 3)
    assert card["train"]["texts"] == 7 + 6 and card["dev"]["texts"] == {"hashtags": 3, "prose": 4}
    reranker = best_segmenter("en", models)
    assert isinstance(reranker, Reranker) and reranker.max_chars == card["train"]["max_chars"]
    # the learner moves the weights towards the feature that marks the gold candidate
    X = np.array([[0.0, 0.0], [1.0, -1.0], [2.0, 1.0]])
    w = fit([(X, np.array([False, True, False])), (X[[0, 2, 1]], np.array([False, False, True]))], [0, 1], 0.1)
    assert np.argmax(X @ w) == 1


def test_spaced():
    assert spaced("abc", []) == "abc" and spaced("abcd", [1, 3]) == "a bc d"
