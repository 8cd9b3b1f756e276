"""Text typed without its diacritics ("chucmungnammoi"): the NB segmenter reads it with the pack's plain counts
(charrestore/plain_letters.py, models/vi/nb_plain.*); text with its diacritics reads as before."""

import os
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from charrestore import Restorer, base_text, load_pack
from charrestore.counts import read
from charrestore.plain_letters import is_plain, plain, plain_counts
from charrestore.segmenter import Segmenter

ROOT = Path(__file__).resolve().parent.parent


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_plain_text_is_plain_and_stays_so(text):
    out = plain(text)
    assert is_plain(out)
    assert plain(out) == out


def test_words_that_differ_only_in_their_marks_become_one():
    words, counts, contexts = plain_counts(["năm", "nam", "nằm", "mới"], [6, 3, 1, 2], {"năm": "mới 4", "nằm": "mới 1"})
    assert words == ["nam", "moi"] and counts == [10.0, 2.0] and contexts == {"nam": "moi 5.0"}


def test_the_shipped_plain_counts_are_the_nb_counts_made_plain(tmp_path):
    """models/vi/nb_plain.counts is what scripts/build_plain_counts.py makes of models/vi/nb.counts."""
    folder = tmp_path / "vi"
    folder.mkdir()
    for name in ("nb.json", "nb.counts"):
        (folder / name).write_bytes((ROOT / "models" / "vi" / name).read_bytes())
    subprocess.run([sys.executable, str(ROOT / "scripts" / "build_plain_counts.py"), "--lang", "vi", "--models",
                    str(tmp_path)], check=True, capture_output=True)
    assert (folder / "nb_plain.counts").read_bytes() == (ROOT / "models" / "vi" / "nb_plain.counts").read_bytes()
    words, _, _, _ = read(ROOT / "models" / "vi" / "nb_plain.counts")
    assert "chuc" in words and all(is_plain(w) for w in words)


def test_plain_text_is_segmented_with_the_plain_counts():
    seg = Segmenter.load("vi")
    assert seg.segment("chucmungnammoi") == "chuc mung nam moi"
    assert seg.segment("homnaytroidepqua") == "hom nay troi dep qua"
    assert seg.plain_for("chúcmừngnămmới") is None and seg.plain_for("12345") is None
    assert seg.segment("chúcmừngnămmới") == "chúc mừng năm mới"  # marked text reads its own counts
    without = seg.configured()
    without._plain_source = None
    assert without.segment("chucmungnammoi") != "chuc mung nam moi"  # what the marked counts made of it
    assert Segmenter.load("en").plain_for("hello") is None  # a pack without plain counts


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


def test_text_without_diacritics_is_read_by_the_packs_plain_model(monkeypatch):
    """vi's ``char_plain`` (engines/char_plain.py) reads text whose letters carry no diacritic; text with them is
    read by the char model alone, as before."""
    vi = load_pack("vi")
    restorer = Restorer(lang="vi")
    model = restorer.engine.plain
    calls, session = [], model.session
    monkeypatch.setattr(model, "session", lambda: calls.append(1) or session())
    for text in ("thutuongphamminhchinhdacobuoilamviec", "hom nay troi dep qua"):
        out = restorer(text)
        assert calls and base_text(out, vi) == base_text(text, vi)
        calls.clear()
    for text in ("thủtướngphạmminhchínhđãcóbuổilàmviệc", "2024 12 31", "chúc mừng năm mới"):
        restorer(text)
        assert not calls, text


def test_a_damaged_plain_model_is_a_one_line_error(tmp_path):
    """The plain model's card and file are checked when the restorer starts, as the char model's are."""
    data = tmp_path / "data"
    (data / "languages").mkdir(parents=True)
    (data / "languages" / "vi").symlink_to(ROOT / "languages" / "vi")
    models = data / "models" / "vi"
    models.mkdir(parents=True)
    for f in (ROOT / "models" / "vi").iterdir():
        (models / f.name).symlink_to(f)
    (models / "char_plain.onnx").unlink()
    (models / "char_plain.onnx").write_bytes(b"not a model")
    res = subprocess.run([sys.executable, "-m", "charrestore", "fix", "--lang", "vi", "xin chao"],
                         capture_output=True, text=True, timeout=120, env={**os.environ, "CHARRESTORE_DATA": str(data)})
    assert res.returncode == 1 and res.stdout == "" and len(res.stderr.splitlines()) == 1, res.stderr
    assert res.stderr.startswith("charrestore: error:") and "char_plain" in res.stderr, res.stderr
