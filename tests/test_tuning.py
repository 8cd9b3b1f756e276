"""``charrestore tune char|token`` end to end on the fixture models (tests/fixtures/models) and tiny dev text.

The fixture models are barely trained, so the dev text is made so that one setting is clearly better: every word
a single letter followed by a period (char: a large "." bias wins), or every word followed by a period (token: a
positive PERIOD offset wins). The written card must then be what the engine decodes with.
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from charrestore.engines.base import EngineOptions
from charrestore.engines.char_e2e import CharEngine
from charrestore.engines.pipeline import PipelineEngine
from charrestore.packs import load_pack
from charrestore.tuning.char import objective
from charrestore.tuning.token import labelled_talks, logit_talks, micro_f1, tune_bias, tune_end_bias, tune_offsets

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
EN = load_pack("en")
LETTERS = "abcdefghijklmnopqrstuvwxyz"
WORDS = "yes no maybe stop go wait here there now then".split()


@pytest.fixture()
def data_root(tmp_path):
    """A CHARRESTORE_DATA folder: the real packs beside a copy of the fixture models (and the NB fixture)."""
    (tmp_path / "languages").symlink_to(ROOT / "languages")
    shutil.copytree(FIXTURES / "models", tmp_path / "models")
    shutil.copytree(FIXTURES / "nb" / "en", tmp_path / "models" / "en", dirs_exist_ok=True)
    return tmp_path


def tune(data_root, *args):
    env = {**os.environ, "CHARRESTORE_DATA": str(data_root)}
    res = subprocess.run([sys.executable, "-m", "charrestore", "tune", *args, "--models-dir",
                          str(data_root / "models")], capture_output=True, text=True, env=env, timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    return json.loads(res.stdout.strip().splitlines()[-1])


def card(data_root, name):
    return json.loads((data_root / "models" / "en" / f"{name}.json").read_text(encoding="utf-8"))


def test_tune_char_writes_the_better_bias_into_the_card(data_root, tmp_path):
    # Every word is one letter with a period after it: a "." bias large enough to put a period after every
    # grapheme is exactly right, no bias leaves the barely trained model's few periods. (Lower case: a line
    # without any lower-case letter is a heading, which the dev reader drops.)
    dev = tmp_path / "dev.txt"
    lines = [" ".join(f"{c}." for c in LETTERS[i:] + LETTERS[:i]) for i in range(8)]
    dev.write_text("\n".join(lines) + "\n", encoding="utf-8")
    before = card(data_root, "char")
    tuned = tune(data_root, "char", "--lang", "en", "--dev", str(dev), "--windows", "24", "48", "--overlaps", "8",
                 "--biases", "0", "12", "--penalties", "inf", "0", "--threads", "1", "--write-card")
    after = card(data_root, "char")
    assert tuned["bias"]["."] == 12.0
    tuning = after["tuning"]
    assert tuning["scores_after"]["."] > max(g["."] for g in tuning["window_grid"])  # the bias, not luck
    assert tuning["scores_after"]["."] > 0.9
    assert {g["window"] for g in tuning["window_grid"]} == {24, 48} and after["window"] in (24, 48)
    assert after["sha256"] == before["sha256"] and after["vocab"] == before["vocab"]
    assert after["tuning"]["command"].startswith("charrestore tune char --lang en")
    engine = CharEngine.load(EN, data_root / "models", EngineOptions(segmenter="none"))
    s = engine.settings
    assert (s.window, s.overlap, s.cut, s.bias) == (after["window"], after["overlap"], after["cut"], after["bias"])
    out = engine.restore(["a b c"], "keep")[0]  # (spaced: an unspaced input's first grapheme ends no sentence)
    assert out.count(".") == 3  # the engine decodes with the written bias


def test_tune_char_keeps_a_bias_chosen_on_other_registers(data_root, tmp_path):
    """A card's ``tuning.register_bias`` (de, fr, ru's comma, chosen on modern text the dev prose is not): a retune
    writes the tuner's own value into the record and keeps the chosen one in the bias."""
    dev = tmp_path / "dev.txt"
    dev.write_text("\n".join(" ".join(f"{c}." for c in LETTERS[i:] + LETTERS[:i]) for i in range(8)) + "\n",
                   encoding="utf-8")
    path = data_root / "models" / "en" / "char.json"
    before = card(data_root, "char")
    record = {"feature": ".", "tuned": 0.0, "chosen": 3.0, "why": "a test"}
    path.write_text(json.dumps({**before, "tuning": {**before.get("tuning", {}), "register_bias": record}}),
                    encoding="utf-8")
    tuned = tune(data_root, "char", "--lang", "en", "--dev", str(dev), "--windows", "24", "--overlaps", "8",
                 "--biases", "0", "12", "--penalties", "inf", "--threads", "1", "--write-card")
    after = card(data_root, "char")
    assert tuned["bias"]["."] == after["bias"]["."] == 3.0
    assert after["tuning"]["register_bias"] == {**record, "tuned": 12.0}


def test_tune_char_keeps_the_cards_decoding_where_it_beats_the_retuned(data_root, tmp_path):
    # Every word is one letter with a period after it, and the card already says "." +12 (exactly right, as the
    # test above finds) with NB's spaces. A bias grid without 12 cannot reach it: the card's decoding stays, and
    # the record says so and keeps what the retune would have written.
    dev = tmp_path / "dev.txt"
    dev.write_text("\n".join(" ".join(f"{c}." for c in LETTERS[i:] + LETTERS[:i]) for i in range(8)) + "\n",
                   encoding="utf-8")
    path = data_root / "models" / "en" / "char.json"
    path.write_text(json.dumps({**card(data_root, "char"), "bias": {".": 12.0}, "nb_spaces": True}), encoding="utf-8")
    before = card(data_root, "char")
    tuned = tune(data_root, "char", "--lang", "en", "--dev", str(dev), "--windows", "24", "--overlaps", "8",
                 "--biases", "0", "--penalties", "inf", "--threads", "1", "--write-card")
    after = card(data_root, "char")
    tuning = after["tuning"]
    assert tuning["decoding"].startswith("the card's")
    assert tuning["scores_card"]["."] > 0.9 > tuning["scores_retuned"]["."]
    assert tuning["scores_card"]["ALL"] > tuning["scores_retuned"]["ALL"]
    assert tuning["retuned_keys"]["bias"]["."] == 0.0 and tuning["retuned_keys"]["window"] == 24
    for key in ("window", "overlap", "cut", "bias", "nb_spaces"):
        assert after[key] == before[key] == tuned[key], key


def test_the_odd_documents_judge_the_cards_decoding_against_the_retuned(data_root, tmp_path):
    # The even dev documents have no periods, the odd ones a period after every letter; the card says "." +12.
    # Fit to the even ones, the retune (bias 0) wins there, but the documents it never saw decide: the card's stays.
    rows = [" ".join(f"{c}." if i % 2 else c for c in LETTERS[i:] + LETTERS[:i]) for i in range(8)]
    dev = tmp_path / "dev.txt"
    dev.write_text("\n".join(rows) + "\n", encoding="utf-8")
    path = data_root / "models" / "en" / "char.json"
    path.write_text(json.dumps({**card(data_root, "char"), "bias": {".": 12.0}, "nb_spaces": True}), encoding="utf-8")
    tuned = tune(data_root, "char", "--lang", "en", "--dev", str(dev), "--windows", "24", "--overlaps", "8",
                 "--biases", "0", "--penalties", "inf", "--threads", "1", "--write-card")
    tuning = card(data_root, "char")["tuning"]
    feats = EN.features
    assert objective(tuning["scores_retuned"], feats) > objective(tuning["scores_card"], feats)  # on the even ones
    assert objective(tuning["scores_card_odd"], feats) > objective(tuning["scores_retuned_odd"], feats)
    assert tuning["decoding"].startswith("the card's") and tuned["bias"] == {".": 12.0}


def test_the_cards_decoding_is_kept_by_the_ascents_objective_not_by_all_alone():
    # Session 44's widened es model, scored on the even dev documents: a fresh export's unbiased decoding against
    # the retuned biases. ALL alone (mostly spaces) preferred printing fewer marks; the objective does not.
    feats = ("CAPS", "¿", ".", ",", "?", "SPACE")
    fresh = dict(zip(feats, (0.7927, 0.5529, 0.6160, 0.5467, 0.3160, 0.9934)), ALL=0.9429)
    retuned = dict(zip(feats, (0.7890, 0.5986, 0.6165, 0.5795, 0.4090, 0.9963)), ALL=0.9403)
    assert fresh["ALL"] > retuned["ALL"]
    assert objective(retuned, feats) > objective(fresh, feats)
    assert objective(fresh, feats) == pytest.approx(sum(fresh[f] for f in feats) / 6 + 0.5 * 0.9429)


def test_tune_char_without_write_card_leaves_the_card(data_root, tmp_path):
    dev = tmp_path / "dev.txt"
    dev.write_text("Yes. No, maybe.\nStop here? Go.\n", encoding="utf-8")
    before = (data_root / "models" / "en" / "char.json").read_bytes()
    tune(data_root, "char", "--lang", "en", "--dev", str(dev), "--windows", "48", "--overlaps", "16",
         "--biases", "0", "--penalties", "inf", "--threads", "1")
    assert (data_root / "models" / "en" / "char.json").read_bytes() == before


def test_tune_token_takes_the_cheapest_window_within_the_tolerance(data_root, tmp_path):
    dev = tmp_path / "dev.tsv"
    dev.write_text("\n".join(f"t{p}\t" + " ".join(f"{w.capitalize()}," for w in WORDS[p:] + WORDS[:p]) + "."
                             for p in range(3)) + "\n", encoding="utf-8")
    tune(data_root, "token", "--lang", "en", "--dev", str(dev), "--windows", "8", "16", "--overlaps", "2", "6",
         "--cuts", "0", "--only", "windows", "--tolerance", "2", "--write-card")
    after = card(data_root, "token")
    assert (after["window"], after["overlap"]) == (16, 2)  # any score is within 2: the fewest model words per word


def test_tune_token_adds_the_extra_dev_documents_to_the_offsets(data_root, tmp_path):
    """--extra-dev: the held-out documents of another file join the offsets' ascent (and only they): talks
    without a mark plus extra documents where every word ends a sentence tune a higher PERIOD offset than the
    talks alone; the extra documents outside --extra-holdout (unmarked) are not read."""
    dev = tmp_path / "dev.tsv"
    dev.write_text("\n".join(f"t{p}\t" + " ".join(WORDS[p:] + WORDS[:p]) for p in range(2)) + "\n",
                   encoding="utf-8")
    extra = tmp_path / "written.tsv"
    extra.write_text("\n".join(f"{i}\t" + " ".join(f"{w.capitalize()}." if i % 2 == 0 else w
                                                  for w in WORDS[i:] + WORDS[:i]) for i in range(6)) + "\n",
                     encoding="utf-8")
    common = ("--lang", "en", "--dev", str(dev), "--only", "offsets")
    alone = tune(data_root, "token", *common)
    joint = tune(data_root, "token", *common, "--extra-dev", str(extra), "--extra-holdout", "2", "--write-card")
    assert joint["bias"].get("PERIOD", 0) > alone["bias"].get("PERIOD", 0)
    tuning = card(data_root, "token")["tuning"]
    assert (tuning["offsets_extra_dev"], tuning["offsets_extra_holdout"]) == (["written.tsv"], "2")
    everything = tune(data_root, "token", *common, "--extra-dev", str(extra))  # the unmarked half dilutes it
    assert everything["bias"].get("PERIOD", 0) <= joint["bias"].get("PERIOD", 0)


def test_tune_token_writes_the_better_offsets_into_the_card(data_root, tmp_path):
    # TSV: two talks of three paragraphs each; every word ends a sentence, so a PERIOD offset wins.
    dev = tmp_path / "dev.tsv"
    rows = [f"{talk}\t" + " ".join(f"{w.capitalize()}." for w in WORDS[p:] + WORDS[:p])
            for talk in ("t1", "t2") for p in range(3)]
    dev.write_text("\n".join(rows) + "\n", encoding="utf-8")
    tuned = tune(data_root, "token", "--lang", "en", "--dev", str(dev), "--windows", "8", "16",
                 "--overlaps", "4", "--cuts", "0", "2", "--write-card")
    after = card(data_root, "token")
    assert tuned == {k: after[k] for k in ("window", "overlap", "cut", "bias", "case_bias", "end_bias")}
    assert after["bias"].get("PERIOD", 0) > 0
    grid = after["tuning"]["window_grid"]
    assert {(r["window"], r["cut"]) for r in grid} == {(8, 0), (8, 2), (16, 0), (16, 2)}
    top = max(r["punct_f1"] + r["casing_f1"] for r in grid)
    near = [r for r in grid if r["punct_f1"] + r["casing_f1"] >= top - 0.001 - 1e-12]  # the default tolerance
    best = min(near, key=lambda r: (r["cost"], -(r["punct_f1"] + r["casing_f1"])))
    assert (after["window"], after["overlap"], after["cut"]) == (best["window"], best["overlap"], best["cut"])
    assert {r["cost"] for r in grid} == {2.0, 1.333} and after["tuning"]["window_choice"] == "cheapest within 0.001 of the best"
    ascent = [r["punct_f1"] for r in after["tuning"]["offset_ascent"] if "punct_f1" in r]
    assert ascent[-1] > ascent[0]  # the offsets helped, on data where they must
    assert after["tuning_command"].startswith("charrestore tune token --lang en")
    engine = PipelineEngine.load(EN, data_root / "models", EngineOptions())
    s = engine.settings
    assert (s.window, s.overlap, s.cut, s.bias, s.case_bias, s.end_bias) == (
        after["window"], after["overlap"], after["cut"], after["bias"], after["case_bias"], after["end_bias"])


def test_tuned_offsets_raise_f1(data_root):
    """The in-process API: tuning on all-period text lifts punctuation F1 against the untuned engine."""
    engine = PipelineEngine.load(EN, data_root / "models", EngineOptions())
    refs = [" ".join(f"{w.capitalize()}." for w in WORDS)] * 2
    tuned, rows = tune_bias(engine, refs, steps=(0.0, 3.0), rounds=2)
    talks = labelled_talks(engine.model, EN, refs)

    def f1(e):
        return micro_f1([e.model.decode(*e.model.logits(forms))[0] for forms, _, _ in talks], [t[1] for t in talks])

    assert f1(tuned) > f1(engine)
    assert max(r["punct_f1"] for r in rows if "punct_f1" in r) == pytest.approx(f1(tuned))


def test_an_uncased_pack_tunes_no_casing_offsets(data_root):
    """tune_offsets(cased=False), as for gu: the punctuation offsets are tuned, the casing ascent is skipped (its
    F1 would be 0 whatever the offsets) and the casing offsets stay 0."""
    engine = PipelineEngine.load(EN, data_root / "models", EngineOptions())
    refs = [" ".join(f"{w}." for w in WORDS)] * 2
    talks = logit_talks(engine.model, labelled_talks(engine.model, EN, refs))
    bias, case_bias, rows, case_rows = tune_offsets(engine.model, talks, (0.0, 3.0), 2, cased=False)
    assert bias.any() and not case_bias.any() and case_rows == [] and rows


def test_casing_offsets_only_lower_capitals(data_root):
    """Text where every word is capitalized would reward a positive CAP offset; the ascent tries none (a raised
    CAP capitalizes sentence-initial words after commas), so the casing offsets stay at or below 0."""
    engine = PipelineEngine.load(EN, data_root / "models", EngineOptions())
    refs = [" ".join(w.capitalize() for w in WORDS[p:] + WORDS[:p]) + "." for p in range(3)]
    talks = logit_talks(engine.model, labelled_talks(engine.model, EN, refs))
    bias, case_bias, rows, case_rows = tune_offsets(engine.model, talks, (0.0, 3.0), 2)
    assert case_rows and (case_bias <= 0).all()
    assert all(v <= 0 for r in case_rows for v in r["bias"])


def test_end_offsets_tuned_on_questions_choose_the_question_mark(data_root):
    """Sentences that all end in "?": the last word's offsets learn QUESTION over PERIOD, and only the last word
    of each input changes."""
    engine = PipelineEngine.load(EN, data_root / "models", EngineOptions())
    refs = [" ".join(WORDS[p:p + 3]).capitalize() + "? " + " ".join(WORDS[p + 3:p + 6]).capitalize() + "?"
            for p in range(4)]
    tuned, rows = tune_end_bias(engine, refs, steps=(0.0, 3.0), rounds=2)
    end = tuned.settings.end_bias
    assert end.get("QUESTION", 0) > end.get("PERIOD", 0)
    assert rows[-1]["end_f1"] == 1.0 and rows[0]["end_f1"] <= rows[-1]["end_f1"]
    words = WORDS[:3]
    before, after = (e.model.labels(words)[0] for e in (engine, tuned))
    assert tuned.model.punct_labels[after[-1]] == "QUESTION"
    assert (before[:-1] == after[:-1]).all()
    assert (tuned.model.labels(words, end=False)[0] == engine.model.labels(words, end=False)[0]).all()
    assert tuned.settings.bias == engine.settings.bias  # the talks' offsets stay


def test_tune_nb_writes_params_that_the_segmenter_uses(data_root, tmp_path):
    # "segmenter", "believing" and "obviously" (9 letters, in the NB fixture's counts): L=8 must split them.
    dev = tmp_path / "dev.txt"
    dev.write_text("\n".join(["The segmenter is obviously believing the test."] * 4) + "\n", encoding="utf-8")
    tags = tmp_path / "tags.tsv"
    tags.write_text("FollowFriday\tFollow Friday\nRedWings\tRed Wings\nHappyBirthday\tHappy birthday\n",
                    encoding="utf-8")
    report = tmp_path / "report.json"
    choice = tune(data_root, "nb", "--lang", "en", "--dev", str(dev), "--hashtags", str(tags), "--json", str(report),
                  "--write-card")["models"]
    grid = json.loads(report.read_text(encoding="utf-8"))["variants"]["models"]["grid"]
    assert max(g["objective"] for g in grid if g["L"] == 8) < choice["objective"] == max(g["objective"] for g in grid)
    assert choice["L"] > 8 and choice["hashtags"]["exact"] == 1.0
    params = card(data_root, "nb")["params"]
    assert params == {k: choice[k] for k in ("L", "smoothing", "camel", "digits", "caps")}
    from charrestore.segmenter import Segmenter

    seg = Segmenter.load("en", data_root / "models")
    assert (seg.L, seg.smoothing) == (params["L"], params["smoothing"])
    assert seg.segment("thesegmenterisobviouslybelievingthetest") == "the segmenter is obviously believing the test"


def test_tune_nb_given_only_writes_the_spacing_pair(data_root, tmp_path):
    """``tune nb --given-only``: the pair with the best mean space F of damaged and intact spaced paragraphs goes
    into the card's prose setting (the other keys and records stay) and the engines' segmenter reads it."""
    from charrestore.segmenter import Segmenter

    dev = tmp_path / "dev.txt"
    dev.write_text("\n".join(["I bought a new phone and my friend likes the new iphone."] * 6) + "\n", encoding="utf-8")
    before = card(data_root, "nb")
    chosen = tune(data_root, "nb", "--lang", "en", "--dev", str(dev), "--given-only", "--write-card")
    after = card(data_root, "nb")
    grid = after["tuning"]["given_spaces"]["grid"]
    best = max(g["objective"] for g in grid)
    assert len(grid) == 30 and best > next(g for g in grid if g["given_space"] == g["given_join"] == 0)["objective"]
    assert next(g for g in grid if (g["given_space"], g["given_join"]) == tuple(chosen.values()))["objective"] == best
    assert after["params"] == before["params"] and after["prose_params"] == {**(before.get("prose_params") or {}),
                                                                            **chosen}
    prose = Segmenter.load("en", data_root / "models", prose=True)
    assert (prose.given_space, prose.given_join) == (chosen["given_space"], chosen["given_join"])


def test_a_pack_without_hashtags_takes_another_packs_case_evidence(data_root, tmp_path):
    """``--case-evidence-from en``: camel and caps as en's card chose them on its hashtags; the rest stays."""
    shutil.copytree(FIXTURES / "nb" / "en", data_root / "models" / "de", dirs_exist_ok=True)
    path = data_root / "models" / "de" / "nb.json"
    path.write_text(json.dumps({**json.loads(path.read_text(encoding="utf-8")), "lang": "de"}), encoding="utf-8")
    dev = tmp_path / "dev.txt"
    dev.write_text("\n".join(["I bought a new phone and my friend likes the new iphone."] * 6) + "\n", encoding="utf-8")
    en, before = card(data_root, "nb")["params"], json.loads(path.read_text(encoding="utf-8"))["params"]
    assert before["camel"] == en["camel"] and en["camel"] != "hard"  # the fixture's own
    path.write_text(json.dumps({**json.loads(path.read_text(encoding="utf-8")),
                                "params": {**before, "camel": "hard"}}), encoding="utf-8")
    tune(data_root, "nb", "--lang", "de", "--dev", str(dev), "--given-only", "--case-evidence-from", "en",
         "--write-card")
    after = json.loads(path.read_text(encoding="utf-8"))
    assert after["params"] == {**before, "camel": en["camel"], "caps": en["caps"]}
    assert after["tuning"]["case_evidence"]["from"] == "en"


@pytest.mark.parametrize("nb_spaces", [False, True])
def test_tune_char_given_only_writes_the_spacing_pair_and_nothing_else(data_root, tmp_path, nb_spaces):
    """``tune char --given-only``: the pair with the best mean SPACE F of damaged and intact spaced documents, under
    the card's decoding (with NB's cuts where the card takes NB spaces); the other keys stay."""
    path = data_root / "models" / "en" / "char.json"
    path.write_text(json.dumps({**card(data_root, "char"), "nb_spaces": nb_spaces}), encoding="utf-8")
    dev = tmp_path / "dev.txt"
    dev.write_text("\n".join([" ".join(WORDS[k:] + WORDS[:k]) + "." for k in range(8)]) + "\n", encoding="utf-8")
    before = card(data_root, "char")
    chosen = tune(data_root, "char", "--lang", "en", "--dev", str(dev), "--given-only", "--given-spaces", "0", "4",
                  "--given-joins", "0", "4", "--write-card")
    after = card(data_root, "char")
    grid = after["tuning"]["given_spaces_grid"]
    best = max(grid, key=lambda t: (t["SPACE"] + t["SPACE_intact"], -t["given_space"], -t["given_join"]))
    assert len(grid) == 4 and chosen == {k: best[k] for k in ("given_space", "given_join")}
    assert {k: after[k] for k in chosen} == chosen
    assert {k: v for k, v in after.items() if k not in ("given_space", "given_join", "tuning")} == \
        {k: v for k, v in before.items() if k not in ("given_space", "given_join", "tuning")}


def test_tune_usage_error_is_one_line():
    res = subprocess.run([sys.executable, "-m", "charrestore", "tune", "token", "--lang", "en"], capture_output=True,
                         text=True, timeout=60)
    assert res.returncode == 2 and "--dev" in res.stderr and len(res.stderr.splitlines()) == 1


def test_tuning_imports_no_training_stack():
    code = ("import sys, charrestore.tuning.char, charrestore.tuning.token, charrestore.tuning.nb\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('tensorflow', 'keras', 'tf2onnx')))\n")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "[]"


def test_given_space_bonus_is_tuned_on_damaged_and_intact_spaces(data_root):
    """Spacing correction: the barely trained model's own spaces are poor, so dev text whose spaces were damaged
    (half dropped, a few wrong ones added) restores better when the input's spaces count (``given_space``)
    and its joins (``given_join``), and text whose spaces are right is left as it is."""
    import math

    import numpy as np

    from charrestore.engines.char_input import GIVEN_JOIN, GIVEN_SPACE
    from charrestore.tuning.char import damaged_spaces, merged_logits, tune_given_spaces
    from charrestore.tuning.dev import unspaced_docs

    engine = CharEngine.load(EN, data_root / "models", EngineOptions(segmenter="none"))
    refs = [" ".join(WORDS[p:] + WORDS[:p]) + "." for p in range(6)]
    ref_cls, encoded = unspaced_docs(refs, EN, engine)
    docs = [(base, gids, enforce) for base, gids, _, enforce in encoded]
    chosen, trials = tune_given_spaces(engine, docs, ref_cls, merged_logits(engine, docs), {}, math.inf,
                                       [0.0, 8.0], [0.0, 8.0], (0.5, 0.05))
    space = {(t["given_space"], t["given_join"]): t["SPACE"] for t in trials}
    intact = {(t["given_space"], t["given_join"]): t["SPACE_intact"] for t in trials}
    both = {k: space[k] + intact[k] for k in space}
    assert len(space) == 4 and both[chosen["given_space"], chosen["given_join"]] == max(both.values())
    assert chosen["given_space"] == 8.0 and space[8.0, 0.0] > space[0.0, 0.0] and intact[8.0, 8.0] == 1.0
    assert intact[8.0, 8.0] > intact[0.0, 0.0]
    space = EN.bit("SPACE")
    ref = np.tile(np.array([0, 0, space], np.int32), 20_000)  # a space after every third grapheme
    states = np.concatenate(damaged_spaces([ref], space, 0.5, 0.05, seed=3))
    given, true = states == GIVEN_SPACE, (ref & space) != 0
    assert set(np.unique(states)) == {GIVEN_SPACE, GIVEN_JOIN}
    assert abs(given[true].mean() - 0.5) < 0.02 and abs(given[~true].mean() - 0.05) < 0.01


def test_pair_bonus_is_tuned_where_the_two_ends_of_questions_disagree(data_root):
    """Paired marks (es "¿" … "?"): dev text of questions only, and a "?" bias that has the barely trained model
    close sentences it never opened. With a large ``pair_bonus`` those sentences open with "¿" (both marks
    right) rather than drop the "?"; the tuning picks it by the pair's mean F + 0.5 ALL."""
    import math

    from charrestore.tuning.char import merged_logits, tune_pair_bonus
    from charrestore.tuning.dev import unspaced_docs

    es = load_pack("es")
    engine = CharEngine.load(es, data_root / "models", EngineOptions(segmenter="none"))
    words = "sí no quizá para ve espera aquí allí ahora luego".split()
    refs = [" ".join(f"¿{words[p % 10]} {words[(p + 1) % 10]} {words[(p + 2) % 10]}?" for p in range(q, q + 5))
            for q in range(6)]
    ref_cls, encoded = unspaced_docs(refs, es, engine)
    docs = [(base, gids, enforce) for base, gids, _, enforce in encoded]
    chosen, trials = tune_pair_bonus(engine, docs, ref_cls, merged_logits(engine, docs), {"?": 3.0}, math.inf,
                                     None, [0.0, 50.0])
    by_bonus = {t["pair_bonus"]: t for t in trials}
    assert chosen == 50.0 and by_bonus[50.0]["¿"] > by_bonus[0.0]["¿"] and by_bonus[50.0]["?"] > by_bonus[0.0]["?"]


def test_soft_nb_spaces_span_own_and_enforced(data_root):
    """``nb_space``/``nb_join``: NB's spaces as evidence. At no weight the decoding is the model's own spaces, at a
    huge one it is NB's enforced spaces; the tuner keeps the best pair only where it beats both."""
    import math

    from charrestore.tuning.char import decode, feature_scores, merged_logits, tune_nb_soft
    from charrestore.tuning.dev import unspaced_docs

    engine = CharEngine.load(EN, data_root / "models", EngineOptions(segmenter="nb"))
    refs = [" ".join(WORDS[p:] + WORDS[:p]) + "." for p in range(6)]
    ref_cls, encoded = unspaced_docs(refs, EN, engine)
    docs = [(base, gids, enforce) for base, gids, _, enforce in encoded]
    logits = merged_logits(engine, docs)
    own = feature_scores(EN, ref_cls, decode(engine, docs, logits, {}))
    enforced = feature_scores(EN, ref_cls, decode(engine, docs, logits, {}, nb=True))
    chosen, states, trials = tune_nb_soft(engine, docs, ref_cls, logits, {}, [0.0, 1e4], [0.0, 1e4], -1.0)
    by = {(t["nb_space"], t["nb_join"]): t for t in trials}
    assert by[0.0, 0.0]["SPACE"] == own["SPACE"] and by[1e4, 1e4]["SPACE"] == enforced["SPACE"]
    assert own["SPACE"] != enforced["SPACE"]  # the fixture's NB knows these words, the barely trained model not
    assert by[chosen["nb_space"], chosen["nb_join"]]["ALL"] == max(t["ALL"] for t in trials)
    assert len(states) == len(docs) and tune_nb_soft(engine, docs, ref_cls, logits, {}, [0.0], [0.0], 1.0)[0] is None
    assert math.isinf(engine.settings.nb_space)  # the fixture card has none: enforced


def test_soft_nb_spaces_take_the_strongest_evidence_within_the_tolerance(data_root):
    """Of the pairs within ``tolerance`` ALL of the best, the largest nb_space + nb_join: NB's counts hold the modern
    words that the model's own register lacks."""
    from charrestore.tuning.char import merged_logits, tune_nb_soft
    from charrestore.tuning.dev import unspaced_docs

    engine = CharEngine.load(EN, data_root / "models", EngineOptions(segmenter="nb"))
    refs = [" ".join(WORDS[p:] + WORDS[:p]) + "." for p in range(6)]
    ref_cls, encoded = unspaced_docs(refs, EN, engine)
    docs = [(base, gids, enforce) for base, gids, _, enforce in encoded]
    logits = merged_logits(engine, docs)
    grid = [0.0, 1.0, 1e4]
    exact, _, trials = tune_nb_soft(engine, docs, ref_cls, logits, {}, grid, grid, -1.0)
    loose, _, _ = tune_nb_soft(engine, docs, ref_cls, logits, {}, grid, grid, -1.0, tolerance=1.0)
    best = max(t["ALL"] for t in trials)
    top = [t for t in trials if t["ALL"] == best]
    assert (exact["nb_space"], exact["nb_join"]) in {(t["nb_space"], t["nb_join"]) for t in top}
    assert exact["nb_space"] + exact["nb_join"] == max(t["nb_space"] + t["nb_join"] for t in top)
    assert loose == {"nb_space": 1e4, "nb_join": 1e4}  # every pair is within 1.0 of the best


def test_tune_char_nb_only_writes_the_nb_pair_and_nothing_else(data_root, tmp_path):
    """``tune char --nb-only``: the soft NB pair under the card's other decoding; a card without NB spaces is a
    one-line error."""
    path = data_root / "models" / "en" / "char.json"
    dev = tmp_path / "dev.txt"
    dev.write_text("\n".join([" ".join(WORDS[k:] + WORDS[:k]) + "." for k in range(8)]) + "\n", encoding="utf-8")
    env = {**os.environ, "CHARRESTORE_DATA": str(data_root)}
    res = subprocess.run([sys.executable, "-m", "charrestore", "tune", "char", "--lang", "en", "--dev", str(dev),
                          "--nb-only", "--models-dir", str(data_root / "models")], capture_output=True, text=True,
                         env=env, timeout=300)
    assert res.returncode != 0 and len(res.stderr.strip().splitlines()) == 1 and "nb_spaces" in res.stderr
    path.write_text(json.dumps({**card(data_root, "char"), "nb_spaces": True}), encoding="utf-8")
    before = card(data_root, "char")
    chosen = tune(data_root, "char", "--lang", "en", "--dev", str(dev), "--nb-only", "--nb-spaces", "1", "1e4",
                  "--nb-joins", "1", "1e4", "--write-card")
    after = card(data_root, "char")
    assert len(after["tuning"]["nb_soft_grid"]) == 4 and {k: after[k] for k in chosen} == chosen
    assert "nb_soft_command" in after["tuning"]
    assert {k: v for k, v in after.items() if k not in ("nb_space", "nb_join", "tuning")} == \
        {k: v for k, v in before.items() if k not in ("nb_space", "nb_join", "tuning")}


def test_the_tuned_spacing_correction_is_taken_even_where_the_cards_decoding_stays(data_root, tmp_path):
    # As above, the card's "." +12 beats a retune that cannot reach it and stays; its given_space and given_join act
    # on spaced input only, which that judgement never sees, so the tuned ones replace them.
    dev = tmp_path / "dev.txt"
    dev.write_text("\n".join(" ".join(f"{c}." for c in LETTERS[i:] + LETTERS[:i]) for i in range(8)) + "\n",
                   encoding="utf-8")
    path = data_root / "models" / "en" / "char.json"
    path.write_text(json.dumps({**card(data_root, "char"), "bias": {".": 12.0}, "nb_spaces": False,
                                "given_space": 7.0, "given_join": 7.0}), encoding="utf-8")
    tune(data_root, "char", "--lang", "en", "--dev", str(dev), "--windows", "24", "--overlaps", "8", "--biases", "0",
         "--penalties", "inf", "--nb-spaces", "0", "--nb-joins", "0", "--given-spaces", "1", "--given-joins", "0.5",
         "--threads", "1", "--write-card")
    after = card(data_root, "char")
    assert after["tuning"]["decoding"].startswith("the card's") and after["bias"] == {".": 12.0}
    assert after["tuning"]["given_spaces_grid"], "the retune kept the model's own spaces, so it tuned spacing"
    assert (after["given_space"], after["given_join"]) == (1.0, 0.5)


def test_a_capped_dev_read_takes_every_file_in_fair_shares(tmp_path):
    # The tuner reads at most --max-docs paragraphs: the later dev files must not be cut off (ko's tuner once saw
    # its first file alone).
    from charrestore.tuning.dev import load_dev

    big, small = tmp_path / "wiki.tsv", tmp_path / "talk.tsv"
    big.write_text("".join(f"w{i}\tthe wiki paragraph number {i}.\n" for i in range(50)), encoding="utf-8")
    small.write_text("".join(f"t{i}\twhat did you say {i}?\n" for i in range(5)), encoding="utf-8")
    every = load_dev([big, small], EN)
    capped = load_dev([big, small], EN, limit=20)
    assert len(every) == 55 and len(capped) == 20
    assert capped == every[:15] + every[50:]
    assert load_dev([big, small], EN, limit=100) == every


def test_a_feature_rarer_than_min_support_keeps_bias_zero_and_does_not_judge(data_root, tmp_path):
    # The dev text of the first test, where a "." bias of 12 is right: with 104 periods on the even documents it
    # is fitted; asked for more support than that, it keeps 0 (the model's own), as a rare "?" does.
    dev = tmp_path / "dev.txt"
    dev.write_text("\n".join(" ".join(f"{c}." for c in LETTERS[i:] + LETTERS[:i]) for i in range(8)) + "\n",
                   encoding="utf-8")
    args = ["char", "--lang", "en", "--dev", str(dev), "--windows", "24", "--overlaps", "8", "--biases", "0", "12",
            "--penalties", "inf", "--threads", "1"]
    assert tune(data_root, *args, "--min-support", "100")["bias"]["."] == 12.0
    tuned = tune(data_root, *args, "--min-support", "105", "--write-card")
    tuning = card(data_root, "char")["tuning"]
    retuned = tuning["retuned_keys"] or tuned  # (where the card's own decoding stayed, what the retune chose)
    assert retuned["bias"]["."] == 0.0 and "." not in tuning["biases_fitted"] and "." not in tuning["features_judged"]
    assert tuning["min_support"] == 105


def test_tune_char_reread_only_writes_the_weight_and_its_grid_and_nothing_else(data_root, tmp_path):
    """``tune char --reread-only``: the weight of the second reading, every weight of the grid scored (0 always)."""
    dev = tmp_path / "dev.txt"
    dev.write_text("\n".join(" ".join(f"{c}." for c in LETTERS[i:] + LETTERS[:i]) for i in range(8)) + "\n",
                   encoding="utf-8")
    before = card(data_root, "char")
    chosen = tune(data_root, "char", "--lang", "en", "--dev", str(dev), "--reread-only", "--rereads", "0.5", "1",
                  "--threads", "1", "--write-card")
    after = card(data_root, "char")
    grid = after["tuning"]["reread_grid"]
    assert [g["reread"] for g in grid] == [0.0, 0.5, 1.0] and after["reread"] == chosen["reread"]
    best = max(grid, key=lambda g: g["objective"])
    assert chosen["reread"] in (0.0, best["reread"]) and set(chosen) == {"reread"}
    assert {k: v for k, v in after.items() if k not in ("reread", "tuning")} == \
        {k: v for k, v in before.items() if k not in ("reread", "tuning")}


@pytest.mark.parametrize("card_period, grid, chosen", [(0.0, [0.0, 12.0], "retuned"), (12.0, [0.0], "the card's")])
def test_the_marks_biases_are_fit_to_the_second_reading_and_judged_on_the_odd_documents(data_root, card_period,
                                                                                        grid, chosen):
    """``--reread-biases``: every word is one letter with a period after it, so "." +12 is right. Fit to the two
    readings' logits, the ascent finds it; where the grid cannot reach the card's +12, the odd documents keep the
    card's biases. SPACE keeps the card's bias: the spaces are the first reading's."""
    from charrestore.tuning.char_decode import decodable
    from charrestore.tuning.char_reread import reread_biases

    engine = CharEngine.load(EN, data_root / "models", EngineOptions(segmenter="none"))
    engine = engine.configured(reread=1.0, bias={".": card_period, "SPACE": 0.5})
    refs = [" ".join(f"{c}." for c in LETTERS[i:] + LETTERS[:i]) for i in range(8)]
    ref_cls, docs = decodable(refs[0::2], engine)
    bias, record = reread_biases(engine, docs, ref_cls, refs[1::2], grid, 0.0005, 0)
    assert record["chosen"] == chosen and bias["."] == 12.0 and bias["SPACE"] == 0.5
    assert "SPACE" not in record["fitted"] and len(record["steps"]) == 2
    if chosen == "retuned":  # the odd documents' periods, found by the fit
        assert record["scores_retuned_odd"]["."] > record["scores_card_odd"]["."]


def test_tune_char_end_only_weighs_the_last_mark_on_sentences_and_writes_nothing_else(data_root, tmp_path):
    """``tune char --end-only``: every dev sentence is a question, restored on its own, so "?" +12 at the end is
    right; the odd documents' sentences judge the fit against the card's (no offset). Nothing else in the card moves."""
    dev = tmp_path / "dev.txt"
    dev.write_text("\n".join(" ".join(f"{LETTERS[(i + k) % 26]} {LETTERS[(i + k + 1) % 26]}?" for k in range(6))
                             for i in range(8)) + "\n", encoding="utf-8")
    before = card(data_root, "char")
    chosen = tune(data_root, "char", "--lang", "en", "--dev", str(dev), "--end-only", "--end-biases", "0", "12",
                  "--min-support", "0", "--threads", "1", "--write-card")
    after = card(data_root, "char")
    record = after["tuning"]["end_bias"]
    assert chosen == {"end_bias": {"?": 12.0}} and after["end_bias"] == {"?": 12.0}
    assert [g["end_bias"] for g in record["grid"]] == [0.0, 12.0] and record["sentences"]["even"] == 24
    assert record["odd"]["fit"]["?"] > record["odd"]["card"]["?"] and "?" in record["judged_by"]
    assert {k: v for k, v in after.items() if k not in ("end_bias", "tuning")} == \
        {k: v for k, v in before.items() if k not in ("end_bias", "tuning")}


def test_the_end_bias_moves_only_the_last_mark(data_root):
    """The card's ``end_bias`` weighs the sentence marks at the input's last grapheme and nowhere else."""
    from charrestore.restorer import Restorer

    restorer = Restorer(lang="en", engine="char", segmenter="none", models_dir=data_root / "models")
    text = "the cat sat on the mat and then it slept"
    plain = restorer(text)
    outputs = {}
    for value in (-50.0, 50.0):
        restorer.engine = restorer.engine.configured(end_bias={"?": value})
        outputs[value] = restorer(text)
    assert outputs[50.0].endswith("?") and outputs[-50.0].endswith(".")
    assert {o[:-1] for o in (plain, *outputs.values())} == {plain[:-1]}


def test_sentences_of_a_pack_without_spaces_end_after_its_sentence_marks():
    from charrestore.tuning.dev import sentences

    assert sentences(["今天很好。你去吗？我不去！好吧"], load_pack("zh")) == ["今天很好。", "你去吗？", "我不去！", "好吧"]
    assert sentences(["Hello there. How are you? Fine"], EN) == ["Hello there.", "How are you?", "Fine"]
