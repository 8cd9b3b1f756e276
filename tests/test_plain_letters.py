"""Text typed without its diacritics ("chucmungnammoi", "que haces manana"): the NB segmenter reads it with the
pack's counts made plain (charrestore/plain_letters.py); text with its diacritics reads as before."""

import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from charrestore import Restorer, base_text, load_pack
from charrestore.plain_letters import is_plain, made_plain, plain
from charrestore.segmenter import Segmenter

ROOT = Path(__file__).resolve().parent.parent


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_plain_text_is_plain_and_stays_so(text):
    out = plain(text)
    assert is_plain(out)
    assert plain(out) == out


def test_words_that_differ_only_in_their_marks_become_one():
    uni = {"năm": math.log10(0.6), "nam": math.log10(0.3), "nằm": math.log10(0.1), "mới": -1.0, "ok": -2.0}
    made, pairs, reach = made_plain(uni, {"năm": "mới 4", "nằm": "mới 1", "ok": "nam 2"}, {"năm": 3, "mới": 3})
    assert made.keys() == {"nam", "moi", "ok"} and math.isclose(made["nam"], 0.0, abs_tol=1e-12)
    assert made["moi"] == -1.0 and made["ok"] == -2.0  # a plain word keeps its P
    assert pairs.get("nam") == "moi 5.0" and pairs.get("năm") is None and pairs.get("ok") == "nam 2"
    assert dict(pairs.items()) == {"nam": "moi 5.0", "ok": "nam 2"} and reach == {"nam": 3, "moi": 3}


@pytest.mark.parametrize("lang", ["vi", "es", "fr"])
def test_the_counts_are_made_plain_as_plain_makes_each_word(lang):
    """``made_plain``'s one-letter-for-one table makes each word of the shipped counts what ``plain`` makes of it
    (the words of other scripts aside, whose marks may follow a sign that is no letter)."""
    seg = Segmenter.load(lang)
    made, pairs, _ = made_plain(seg._uni, seg._raw_contexts, seg._reach())
    latin = regex.compile(r"[\p{Latin}\p{M}'’-]+")
    assert {plain(w) for w in seg._uni if latin.fullmatch(w)} <= made.keys()
    assert all(is_plain(w) for w in made if latin.fullmatch(w))
    mass = sum(10 ** p for p in seg._uni.values())
    assert math.isclose(sum(10 ** p for p in made.values()), mass, rel_tol=1e-9)  # no count lost or made
    prev = next(k for k in seg._raw_contexts if not is_plain(k))
    assert pairs.get(prev) is None and pairs.get(plain(prev))


def test_the_apostrophe_words_of_the_counts_made_plain_leave_the_rest_unmade():
    """A text with an apostrophe asks for the words that hold one: of fr's counts made plain, found without making
    all 300,000 plain (0.3 s of a start-up), the same words as making them all gives, in any order."""
    seg = Segmenter.load("fr")
    lazy, _, _ = made_plain(seg._uni, seg._raw_contexts, seg._reach(), seg.marked_by_plain())
    held = lazy.holding("'")
    assert lazy._all is None and "l'ecole" in held and "l'école" not in held and len(set(held)) == len(held)
    made, _, _ = made_plain(seg._uni, seg._raw_contexts, seg._reach(), seg.marked_by_plain())
    assert set(held) == {w for w in made if "'" in w} and set(made.holding("'")) == set(held)
    plain_seg = seg.plain_for("l'intelligenceartificielle")
    assert plain_seg.segment("l'intelligenceartificielle") == "l'intelligence artificielle"


def test_plain_text_is_segmented_with_the_plain_counts():
    seg = Segmenter.load("vi")
    assert seg.segment("chucmungnammoi") == "chuc mung nam moi"
    assert seg.segment("homnaytroidepqua") == "hom nay troi dep qua"
    assert seg.plain_for("chúcmừngnămmới") is None and seg.plain_for("12345") is None
    assert seg.segment("chúcmừngnămmới") == "chúc mừng năm mới"  # marked text reads its own counts
    without = seg.configured()
    without._plain_parts = None
    assert without.segment("chucmungnammoi") != "chuc mung nam moi"  # what the marked counts made of it
    assert Segmenter.load("en").plain_for("hello") is None  # a pack not typed plain
    es = Segmenter.load("es")
    assert es.segment("quehacesmananaenelcampo") == "que haces manana en el campo"
    assert es.configured(L=12).plain_for("manana")._uni is es.plain_for("manana")._uni  # derived once


def test_fix_hashtags_and_segment_read_plain_vietnamese():
    vi = load_pack("vi")
    out = Restorer(lang="vi")("homnaytroidepquatoididuvoibanbe")
    assert base_text(out, vi) == "homnaytroidepquatoididuvoibanbe"
    assert [w.strip(".,?").lower() for w in out.split()] == "hom nay troi dep qua toi di du voi ban be".split()
    res = subprocess.run([sys.executable, "-m", "charrestore", "fix", "--lang", "vi", "#chucmungnammoi"],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0 and res.stdout.strip() == "#ChucMungNamMoi", res.stdout + res.stderr
    res = subprocess.run([sys.executable, "-m", "charrestore", "segment", "--lang", "vi", "toilasinhvien"],
                         capture_output=True, text=True, timeout=120)
    assert res.stdout.strip() == "toi la sinh vien", res.stdout + res.stderr


def test_text_without_diacritics_is_read_with_its_likely_accents(monkeypatch):
    """vi's char model reads text whose letters carry no diacritic with the likely tone marks of its syllables
    (accents.py); text with them is read as it is."""
    vi = load_pack("vi")
    restorer = Restorer(lang="vi")
    reader = restorer.engine.accents
    calls, ids = [], reader.ids
    monkeypatch.setattr(reader, "ids", lambda *a: calls.append(1) or ids(*a))
    for text in ("thutuongphamminhchinhdacobuoilamviec", "hom nay troi dep qua"):
        out = restorer(text)
        assert calls and base_text(out, vi) == base_text(text, vi)
        calls.clear()
    for text in ("thủtướngphạmminhchínhđãcóbuổilàmviệc", "2024 12 31", "chúc mừng năm mới"):
        restorer(text)
        assert not calls, text
    assert reader.accents.forms("hom nay troi dep".split()) == "hôm nay trời đẹp".split()


def test_damaged_counts_are_a_one_line_error_when_plain_text_needs_them(tmp_path):
    """Spaced text typed plain needs the NB counts even where no space is restored: damaged, they are one line."""
    data = tmp_path / "data"
    (data / "languages").mkdir(parents=True)
    (data / "languages" / "es").symlink_to(ROOT / "languages" / "es")
    models = data / "models" / "es"
    models.mkdir(parents=True)
    for f in (ROOT / "models" / "es").iterdir():
        (models / f.name).symlink_to(f)
    (models / "nb.counts").unlink()
    (models / "nb.counts").write_bytes(b"not counts")
    env = {**os.environ, "CHARRESTORE_DATA": str(data)}
    res = subprocess.run([sys.executable, "-m", "charrestore", "fix", "--lang", "es", "--spaces", "keep", "que tal"],
                         capture_output=True, text=True, timeout=120, env=env)
    assert res.returncode == 1 and res.stdout == "" and len(res.stderr.splitlines()) == 1, res.stderr
    assert res.stderr.startswith("charrestore: error:") and "nb" in res.stderr, res.stderr
    res = subprocess.run([sys.executable, "-m", "charrestore", "fix", "--lang", "es", "--spaces", "keep", "qué tal"],
                         capture_output=True, text=True, timeout=120, env=env)
    assert res.returncode == 0 and "qué tal" in res.stdout.lower(), res.stdout + res.stderr  # marked: no counts read
