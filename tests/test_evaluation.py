"""Evaluation: hand-computed numbers for every score, mismatches, signatures (the eval CLI: test_eval_cli.py)."""

import ast
import dataclasses
import difflib
import json
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from charrestore.cli import main
from charrestore.codec import parse
from charrestore.evaluation import (PRF, Signature, align, evaluate, evaluate_char, evaluate_token, levenshtein,
                                    signature)
from charrestore.labels import casing_class, labelled_words, punct_label
from charrestore.packs import load_pack

EN, JA, GU = load_pack("en"), load_pack("ja"), load_pack("gu")
ROOT = Path(__file__).resolve().parent.parent

REF = "Hello, world. How are you?"
HYP = "hello world. How, are you."


def prf(s: PRF):
    return s.tp, s.fp, s.fn


def approx(x):
    return pytest.approx(x, abs=1e-12)


# --- char level ---------------------------------------------------------------------------

def test_char_level_hand_computed():
    r = evaluate_char([REF], [HYP], EN)
    f = r.per_feature
    # CAPS: ref {H(ello), H(ow)}, hyp {H(ow)}
    assert prf(f["CAPS"]) == (1, 0, 1)
    assert (f["CAPS"].precision, f["CAPS"].recall, f["CAPS"].f1) == (1.0, 0.5, approx(2 / 3))
    # ".": ref {world}, hyp {world, you}
    assert prf(f["."]) == (1, 1, 0)
    assert (f["."].precision, f["."].recall, f["."].f1) == (0.5, 1.0, approx(2 / 3))
    # ",": ref {Hello}, hyp {How}
    assert prf(f[","]) == (0, 1, 1)
    assert (f[","].precision, f[","].recall, f[","].f1) == (0.0, 0.0, 0.0)
    # "?": ref {you}, hyp none: precision undefined, F = 0
    assert prf(f["?"]) == (0, 0, 1)
    assert (f["?"].precision, f["?"].recall, f["?"].f1) == (None, 0.0, 0.0)
    assert prf(f["SPACE"]) == (4, 0, 0) and f["SPACE"].f1 == 1.0
    # ALL: micro over the five features
    assert prf(r.all) == (6, 2, 3)
    assert (r.all.precision, r.all.recall, r.all.f1) == (0.75, approx(6 / 9), approx(12 / 17))
    # WER: Hello, -> hello ; How -> How, ; you? -> you.  = 3 substitutions / 5 reference words
    assert (r.wer_edits, r.ref_words, r.hyp_words) == (3, 5, 5)
    assert r.wer == approx(0.6)
    assert (r.aligned_graphemes, r.lines_base_mismatch) == (19, 0)


def test_char_confusion_matrix():
    r = evaluate_char([REF], [HYP], EN)
    m, cid = r.confusion, lambda *fs: sum(EN.bit(f) for f in fs)
    assert m.shape == (32, 32) and m.sum() == 19
    assert m[cid("CAPS"), 0] == 1                          # H(ello) lost its capital
    assert m[cid(",", "SPACE"), cid("SPACE")] == 1         # hello, -> hello
    assert m[cid("SPACE"), cid(",", "SPACE")] == 1         # how -> how,
    assert m[cid("?"), cid(".")] == 1                      # you? -> you.
    assert m[cid(".", "SPACE"), cid(".", "SPACE")] == 1
    assert m[0, 0] == 12
    d = r.to_dict()["confusion"]
    assert d["labels"][0] == "O" and "CAPS" in d["labels"] and ",+SPACE" in d["labels"]
    assert np.asarray(d["matrix"]).sum() == 19


def test_multiple_documents_are_micro_summed():
    a = evaluate_char([REF], [HYP], EN)
    b = evaluate_char(["Yes. No"], ["yes, No"], EN)
    both = evaluate_char([REF, "Yes. No"], [HYP, "yes, No"], EN)
    for f in EN.features:
        assert prf(both.per_feature[f]) == tuple(x + y for x, y in zip(prf(a.per_feature[f]), prf(b.per_feature[f])))
    # WER is total edits / total reference words, not a mean of line WERs
    assert (both.wer_edits, both.ref_words) == (3 + 1, 5 + 2)
    assert both.wer == approx(4 / 7)


def test_mapping_applies_to_both_sides():
    r = evaluate_char(['"Wow!" she said; (really)'], ["Wow. she said. really"], EN)
    assert r.all.f1 == 1.0 and r.wer == 0.0 and r.lines_base_mismatch == 0


def test_file_against_itself_is_perfect():
    docs = ["Will AI change our future? Obviously, the answer is yes.",
            "I met Dr. McDonald in Washington, D.C. with my iPhone.", "", "x"]
    r = evaluate_char(docs, docs, EN)
    assert all(s.f1 == 1.0 for s in r.per_feature.values()) and r.all.f1 == 1.0
    assert r.wer == 0.0 and r.wer_edits == 0 and r.ref_words == 21
    t = evaluate_token(docs, docs, EN)
    assert t.punct_overall.f1 == 1.0 and t.casing_overall.f1 == 1.0
    assert np.count_nonzero(t.punct_confusion - np.diag(np.diag(t.punct_confusion))) == 0


def test_mismatched_base_graphemes_are_aligned_and_counted():
    # one grapheme missing: "world" -> "wrld"
    r = evaluate_char(["Hello, world."], ["Hello, wrld."], EN)
    assert r.lines_base_mismatch == 1
    assert (r.ref_graphemes, r.hyp_graphemes, r.aligned_graphemes) == (10, 9, 9)
    assert r.all.f1 == 1.0 and prf(r.all) == (4, 0, 0)      # H, comma, space, period all on aligned graphemes
    assert (r.wer_edits, r.ref_words) == (1, 2)
    d = r.to_dict()
    assert d["graphemes"] == {"ref": 10, "hyp": 9, "aligned": 9, "ref_unaligned": 1, "hyp_unaligned": 0}
    assert d["lines"]["base_mismatch"] == 1
    assert "1 lines with different base graphemes (1 reference and 0 hypothesis" in r.format_table()
    # a substituted grapheme: errors on the aligned part still count
    r = evaluate_char(["Hello, world."], ["hello, wxrld"], EN)
    assert (r.aligned_graphemes, r.ref_graphemes - r.aligned_graphemes, r.hyp_graphemes - r.aligned_graphemes) == (9, 1, 1)
    assert prf(r.per_feature["CAPS"]) == (0, 0, 1) and prf(r.per_feature["."]) == (0, 0, 1)
    assert prf(r.per_feature[","]) == (1, 0, 0)


def test_align_matches_difflib_and_is_fast_on_long_documents():
    rng = np.random.default_rng(0)
    for _ in range(200):
        a = list(rng.choice(list("abc"), rng.integers(0, 9)))
        b = list(rng.choice(list("abc"), rng.integers(0, 9)))
        want = [tuple(x) for x in difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks() if x[2]]
        assert align(a, b) == want
    a = list(rng.choice(list("abcdefghijklmnopqrstuvwxyz"), 30000))
    b = list(a)
    for p in sorted(rng.choice(len(b) - 10, 50, replace=False), reverse=True):
        b[p:p + 2] = ["#"]
    blocks = align(a, b)
    assert sum(n for *_, n in blocks) >= len(a) - 100
    for (i, j, n), (i2, j2, _) in zip(blocks, blocks[1:]):
        assert a[i:i + n] == b[j:j + n] and i + n <= i2 and j + n <= j2


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from("abc"), max_size=8), st.lists(st.sampled_from("abc"), max_size=8))
def test_levenshtein(a, b):
    d = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, d[0] = d[:], i
        for j, y in enumerate(b, 1):
            d[j] = min(prev[j] + 1, d[j - 1] + 1, prev[j - 1] + (x != y))
    assert levenshtein(a, b) == d[-1]


def test_different_line_counts_score_the_common_lines():
    r = evaluate_char([REF, "Yes.", "More."], [HYP], EN)
    assert (r.lines_ref, r.lines_hyp, r.lines_scored) == (3, 1, 1)
    assert prf(r.all) == (6, 2, 3) and r.ref_words == 5
    assert "3 reference lines but 1 hypothesis lines; only the first 1 are scored" in r.format_table()
    t = evaluate_token([REF], [HYP, "Extra line."], EN)
    assert (t.lines_ref, t.lines_hyp, t.lines_scored, t.ref_words) == (1, 2, 1, 5)


def test_empty_documents():
    r = evaluate_char([], [], EN)
    assert r.all.f1 is None and r.wer is None and r.format_table()
    r = evaluate_char(["", ""], ["", ""], EN)
    assert all(s.precision is None and s.recall is None and s.f1 is None for s in r.per_feature.values())
    assert r.wer is None and "n/a" in r.format_table()
    r = evaluate_char([""], ["Hello."], EN)              # nothing in the reference: no words, no WER
    assert (r.lines_base_mismatch, r.hyp_graphemes, r.aligned_graphemes) == (1, 5, 0)
    assert r.wer is None and r.wer_edits == 1
    r = evaluate_char(["Hi there."], [""], EN)            # an empty hypothesis: every word deleted
    assert r.wer == 1.0 and r.aligned_graphemes == 0
    t = evaluate_token(["", "Hi."], ["", "hi"], EN)
    assert t.ref_words == 1 and prf(t.punct["PERIOD"]) == (0, 0, 1)
    json.dumps(evaluate_token([], [], EN).to_dict())
    json.dumps(evaluate_char([""], [""], JA).to_dict())


def test_packs_without_space_or_case():
    r = evaluate_char(["\u306f\u3044\u3001\u305d\u3046\u3067\u3059\u3002"], ["\u306f\u3044\u305d\u3046\u3067\u3059\u3002"], JA)
    assert list(r.per_feature) == ["\u3001", "\u3002", "\uff1f"]
    assert prf(r.per_feature["\u3001"]) == (0, 0, 1) and prf(r.per_feature["\u3002"]) == (1, 0, 0)
    assert r.wer is None and r.to_dict()["wer"] is None and "WER n/a" in r.format_table()
    with pytest.raises(ValueError, match="no SPACE"):
        evaluate_token(["a"], ["a"], JA)
    g = evaluate_token(["\u0a86 \u0a97\u0abe\u0aae, \u0a9b\u0ac7."], ["\u0a86 \u0a97\u0abe\u0aae \u0a9b\u0ac7?"], GU)
    assert g.casing is None and g.to_dict()["casing"] is None
    assert prf(g.punct["COMMA"]) == (0, 0, 1) and prf(g.punct["PERIOD"]) == (0, 0, 1)
    assert prf(g.punct["QUESTION"]) == (0, 1, 0) and prf(g.punct_overall) == (0, 1, 2)


# --- token level --------------------------------------------------------------------------

def test_token_level_hand_computed():
    t = evaluate_token([REF], [HYP], EN)
    assert t.punct_labels == ("O", "COMMA", "PERIOD", "QUESTION")
    # ref: Hello/COMMA world/PERIOD How/O are/O you/QUESTION ; hyp: O PERIOD COMMA O PERIOD
    assert t.punct_confusion.tolist() == [[1, 1, 0, 0], [1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 1, 0]]
    p = t.punct
    assert prf(p["COMMA"]) == (0, 1, 1) and prf(p["PERIOD"]) == (1, 1, 0) and prf(p["QUESTION"]) == (0, 0, 1)
    assert prf(p["O"]) == (1, 1, 1)
    o = t.punct_overall                                    # micro over COMMA, PERIOD, QUESTION only
    assert prf(o) == (1, 2, 2) and (o.precision, o.recall, o.f1) == (approx(1 / 3), approx(1 / 3), approx(1 / 3))
    # casing: Hello/CAP How/CAP -> hello/O How/CAP
    assert t.casing_confusion.tolist() == [[3, 0, 0, 0], [0, 0, 0, 0], [1, 0, 1, 0], [0, 0, 0, 0]]
    c = t.casing_overall
    assert prf(c) == (1, 0, 1) and (c.precision, c.recall, c.f1) == (1.0, 0.5, approx(2 / 3))
    assert t.casing["UPP"].f1 is None
    d = t.to_dict()
    assert d["punctuation"]["overall"]["f1"] == approx(1 / 3)
    assert d["casing"]["confusion"] == {"labels": ["O", "UPP", "CAP", "MIX"], "matrix": t.casing_confusion.tolist()}
    assert "overall" in t.format_table() and "QUESTION" in t.format_table()


@pytest.mark.parametrize("word,cls", [
    ("AI", "UPP"), ("NASA", "UPP"), ("D.C.", "UPP"), ("CO2", "UPP"), ("STRA\u00dfE", "UPP"),
    ("Will", "CAP"), ("I", "CAP"), ("A", "CAP"), ("I'm", "CAP"), ("3D", "CAP"), ("\u00c9cole", "CAP"),
    ("iPhone", "MIX"), ("PhD", "MIX"), ("McDonald", "MIX"), ("Ph.D.", "MIX"), ("African-American", "MIX"),
    ("don't", "O"), ("123", "O"), ("x", "O"), ("yahoo.com", "O"),
])
def test_casing_classes(word, cls):
    assert casing_class(*parse(word, EN), EN) == cls
    forms, _, casing = labelled_words(word + " ok", EN, True, np.zeros(EN.n_classes, dtype=np.int64))
    assert ("O", "UPP", "CAP", "MIX")[casing[0]] == cls          # the vectorized rule agrees


@pytest.mark.parametrize("text,label", [
    ("yes", "O"), ("yes.", "PERIOD"), ("yes,", "COMMA"), ("yes?", "QUESTION"), ("yes!", "PERIOD"),
    ("yes:", "COMMA"), ("D.C.,", "COMMA"), ("D.C.", "PERIOD"), ("why?.", "QUESTION"), ("so,?", "QUESTION"),
    ("yahoo.com", "O"),
])
def test_punctuation_label_is_the_mark_rendered_last(text, label):
    _, classes = parse(text, EN)
    assert punct_label(int(classes[-1]), EN) == label


def test_token_words_aligned_by_base_form():
    t = evaluate_token([REF], ["Hello world how areyou?"], EN)
    assert t.lines_word_mismatch == 1
    assert (t.ref_words, t.hyp_words, t.aligned_words) == (5, 4, 3)
    # aligned: Hello/COMMA->O, world/PERIOD->O, How/O->O
    assert t.punct_confusion.tolist() == [[1, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0], [0, 0, 0, 0]]
    assert t.casing_confusion[2].tolist() == [1, 0, 1, 0]
    assert t.to_dict()["words"] == {"ref": 5, "hyp": 4, "aligned": 3, "ref_unaligned": 2, "hyp_unaligned": 1}


def test_token_level_iwslt_example():
    ref = "I met Dr. McDonald in Washington, D.C. with my iPhone."
    t = evaluate_token([ref], [ref.lower().replace(".", "").replace(",", "")], EN)
    assert t.casing_confusion[:, 0].tolist() == [4, 1, 3, 2]        # O, UPP (D.C.), CAP (I Dr Washington), MIX
    c = t.casing_overall
    assert prf(c) == (0, 0, 6) and (c.precision, c.recall, c.f1) == (None, 0.0, 0.0)
    assert prf(t.punct["PERIOD"]) == (0, 0, 3) and prf(t.punct["COMMA"]) == (0, 0, 1)


# --- signature ----------------------------------------------------------------------------

def test_signature():
    s = signature(EN, "char", spaces="keep")
    assert s.startswith("charrestore.eval|lang:en|feats:CAPS.,?SPACE|pack:")
    assert s.endswith(f"|map:yes|level:char|spaces:keep|v:{version('charrestore')}")
    assert "spaces" not in signature(EN, "token") and "level:token" in signature(EN, "token")
    assert "map:no" in signature(EN, "char", apply_map=False)
    changed = dataclasses.replace(EN, map={**EN.map, "!": ","})
    assert signature(changed, "char") != signature(EN, "char")
    for typography in ({"opening": ("?",)}, {"space_before": {"?": " "}}, {"map_before_lower": {"!": ","}},
                       {"map_after_sentence_end": {"!": ""}}):
        assert signature(dataclasses.replace(EN, **typography), "char") != signature(EN, "char")
    assert evaluate_char([REF], [HYP], EN, spaces="restore").signature == signature(EN, "char", spaces="restore")
    assert "feats:\u3001\u3002\uff1f" in signature(JA, "char")
    r = evaluate(["a"], ["a"], EN, "token", spaces="auto")
    assert r.signature in r.format_table() and r.to_dict()["signature"] == r.signature


def test_bench_signature_is_built_like_eval(capsys):
    assert main(["bench", "--lang", "en", "--engines", "char", "--runs", "1", "--json", "hello", "world"]) == 0
    s = json.loads(capsys.readouterr().out)["signature"]
    v = version("charrestore")
    assert s == f"charrestore.bench|lang:en|threads:1|runs:1|text:1 docs|chars:11|engines:char|v:{v}"


def test_signature_skips_unset_settings():
    s = Signature.of("bench", lang="en", spaces=None, runs=0)
    assert str(s) == f"charrestore.bench|lang:en|runs:0|v:{version('charrestore')}"
    assert str(Signature("eval", (("level", "char"),), version="9.9")) == "charrestore.eval|level:char|v:9.9"


# --- the runtime does not depend on evaluation ----------------------------------------------

def test_restorer_does_not_import_evaluation():
    code = ("from charrestore import Restorer; import sys\n"
            "for engine in ('pipeline', 'char'): Restorer(lang='en', engine=engine)('hello world')\n"
            "print(sorted(m for m in sys.modules if m.startswith('charrestore.evaluation')))\n")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "[]"


def test_engines_import_nothing_from_evaluation():
    engines = sorted((ROOT / "charrestore" / "engines").rglob("*.py"))
    assert engines
    for path in engines:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or "", *(a.name for a in node.names)]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            assert not any("evaluation" in n.split(".") or "metrics" in n.split(".") for n in names), path


# --- properties ---------------------------------------------------------------------------

TEXT = st.text(alphabet=st.one_of(st.characters(), st.sampled_from(list("Aa bB.,?!;:-'\"\u3001\u3002\u0301\t"))),
               max_size=30)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(TEXT, max_size=3), st.lists(TEXT, max_size=3))
def test_never_crashes_and_self_is_perfect(refs, hyps):
    for pack in (EN, JA, GU):
        r = evaluate_char(refs, hyps, pack)
        assert r.aligned_graphemes <= min(r.ref_graphemes, r.hyp_graphemes)
        json.dumps(r.to_dict()) and r.format_table()
        s = evaluate_char(refs, refs, pack)
        assert all(x.f1 in (1.0, None) for x in s.per_feature.values())
        assert s.lines_base_mismatch == 0 and s.wer in (0.0, None)
        if pack.has_space:
            t = evaluate_token(refs, hyps, pack)
            assert t.aligned_words <= min(t.ref_words, t.hyp_words)
            json.dumps(t.to_dict()) and t.format_table()
            u = evaluate_token(refs, refs, pack)
            assert u.punct_overall.f1 in (1.0, None) and u.lines_word_mismatch == 0
