"""Pauses as punctuation evidence (#18, docs/timing.md): word times (ASR JSON words, inline VTT times) shift the
token model's punctuation by the card's per-pause-bucket offsets (``pause_bias``); ``--no-timing`` turns that off,
and files without word times restore exactly as before."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from charrestore import Restorer
from charrestore.cards import ModelError, load_card
from charrestore.engines.token import pause_values
from charrestore.formats import read, restore_file
from charrestore.paths import models_dir

FIXTURES = Path(__file__).parent / "fixtures" / "formats"
# Run-on speech: a long pause (1.5 s) after "okay", "budget", "fine", "colours" and "week", none elsewhere.
SPEECH = ("okay so first we look at the budget we have about twenty euros per unit that seems fine "
          "then the design team presents the colours i will send the minutes next week right").split()
PAUSED = {"okay", "budget", "fine", "colours", "week"}


def whisper(words, pause: float = 1.5, word: float = 0.3, gap: float = 0.02) -> str:
    """A Whisper JSON file of one segment per 8 words, with ``pause`` seconds after the PAUSED words."""
    t, timed = 0.0, []
    for w in words:
        timed.append({"word": " " + w, "start": round(t, 2), "end": round(t + word, 2), "probability": 0.9})
        t += word + (pause if w in PAUSED else gap)
    segments = [{"id": k, "start": ws[0]["start"], "end": ws[-1]["end"], "text": "".join(x["word"] for x in ws),
                 "words": ws} for k, ws in enumerate(timed[i:i + 8] for i in range(0, len(timed), 8))]
    return json.dumps({"text": "".join(s["text"] for s in segments), "segments": segments}, indent=2) + "\n"


def stamp(t: float) -> str:
    return f"{int(t // 3600):02d}:{int(t // 60 % 60):02d}:{t % 60:06.3f}"


def youtube_vtt(words, pause: float = 1.5, word: float = 0.3, size: int = 11) -> str:
    """A VTT file of cues of ``size`` words with inline word start times (YouTube style: the first word starts with
    its cue), the same pauses as ``whisper``. (A cue line of one word has no inline time, so its word counts as
    untimed.)"""
    t, starts = 0.0, []
    for w in words:
        starts.append(t)
        t += word + (pause if w in PAUSED else 0.0)
    out = ["WEBVTT", ""]
    for i in range(0, len(words), size):
        ws, ts = words[i:i + size], starts[i:i + size]
        end = starts[i + size] if i + size < len(words) else t
        line = ws[0] + "".join(f"<{stamp(s)}><c> {w}</c>" for w, s in zip(ws[1:], ts[1:]))
        out += [f"{stamp(ts[0])} --> {stamp(end)}", line, ""]
    return "\n".join(out)


@pytest.fixture(scope="module")
def restorer():
    return Restorer(lang="en", engine="pipeline")


def words_out(text: str) -> list[str]:
    return [w["word"] for s in json.loads(text)["segments"] for w in s["words"]]


def sentence_ends(words) -> int:
    return sum(w.rstrip().endswith((".", "?")) for w in words)


def test_the_shipped_card_has_pause_offsets(restorer):
    assert restorer.engine.uses_times
    model = restorer.engine.model
    assert model.pause_measure in ("gap", "ioi", "excess")
    assert model.pause_table.shape == (len(model.pause_edges) + 1, len(model.punct_labels))


def test_long_pauses_give_more_sentence_ends(restorer):
    text = whisper(SPEECH)
    timed = words_out(restore_file(text, "whisper-json", restorer))
    untimed = words_out(restore_file(text, "whisper-json", restorer, timing=False))
    assert sentence_ends(timed) > sentence_ends(untimed), (timed, untimed)
    ends = {w.strip(" .?,").lower() for w in timed if w.rstrip().endswith((".", "?"))}
    assert len(ends & PAUSED) >= 3, timed
    assert [w.strip(" .?,").lower() for w in timed] == SPEECH  # nothing but marks and case changes


def test_inline_vtt_times_give_more_sentence_ends(restorer):
    text = youtube_vtt(SPEECH)
    assert all(w.timed for w in read(text, "vtt").words)
    timed = [w.text for w in read(restore_file(text, "vtt", restorer), "vtt").words]
    untimed = [w.text for w in read(restore_file(text, "vtt", restorer, timing=False), "vtt").words]
    assert sentence_ends(timed) > sentence_ends(untimed), (timed, untimed)
    assert untimed == restorer.engine.restore_words(SPEECH, end=True)


def test_no_timing_is_the_plain_restoration(restorer):
    text = whisper(SPEECH)
    untimed = [w.strip() for w in words_out(restore_file(text, "whisper-json", restorer, timing=False))]
    assert untimed == restorer.engine.restore_words(SPEECH, end=True)


def test_files_without_word_times_are_unchanged(restorer):
    """SRT cues and VTT cues without inline times carry cue times only: no pause is read from them."""
    for name, fmt in (("talk.srt", "srt"), ("music.vtt", "vtt")):
        text = (FIXTURES / name).read_text(encoding="utf-8")
        assert not any(w.timed for w in read(text, fmt).words)
        assert restore_file(text, fmt, restorer) == restore_file(text, fmt, restorer, timing=False)
    plain = "okay so first we look at the budget\n"
    assert restore_file(plain, "text", restorer) == restore_file(plain, "text", restorer, timing=False)


def test_which_words_are_timed():
    assert all(w.timed for w in read((FIXTURES / "vosk.json").read_text(encoding="utf-8"), "vosk-json").words)
    vtt = read((FIXTURES / "talk.vtt").read_text(encoding="utf-8"), "vtt").words
    assert any(w.timed for w in vtt) and not all(w.timed for w in vtt)  # inline times in one cue only
    wx = read((FIXTURES / "whisperx.json").read_text(encoding="utf-8"), "whisper-json").words
    assert not wx[3].timed and not wx[-1].timed  # a word without times, a segment without words


def test_restore_words_without_times_is_unchanged(restorer):
    assert restorer.engine.restore_words(SPEECH, end=True, times=None) == restorer.engine.restore_words(SPEECH)
    no_times = [None] * len(SPEECH)  # times unknown everywhere: no pause, no offset
    assert restorer.engine.restore_words(SPEECH, end=True, times=no_times) == restorer.engine.restore_words(SPEECH)


def test_pause_values():
    times = np.array([[0.0, 0.5], [0.9, 1.0], [2.0, 2.2], [2.0, 2.2], [np.nan, np.nan], [5.0, 5.1]])
    forms = ["hello", "a", "bb", "bb", "c", "d"]
    gap = pause_values(forms, times, "gap")
    assert np.allclose(gap[:2], [0.4, 1.0]) and np.isnan(gap[2:]).all()  # same times, unknown, last
    assert np.allclose(pause_values(forms, times, "ioi")[:2], [0.9, 1.1])
    assert np.allclose(pause_values(forms, times, "excess")[:2], [0.9 - 5 * 0.07, 1.1 - 0.07])


def cli(*args, stdin=b""):
    return subprocess.run([sys.executable, "-m", "charrestore", "fix", *args], input=stdin, capture_output=True)


def test_cli_no_timing(tmp_path, restorer):
    path = tmp_path / "speech.json"
    path.write_text(whisper(SPEECH), encoding="utf-8")
    timed, untimed = cli("-i", str(path)), cli("-i", str(path), "--no-timing")
    assert timed.returncode == 0 and untimed.returncode == 0, timed.stderr + untimed.stderr
    assert timed.stdout.decode() == restore_file(whisper(SPEECH), "whisper-json", restorer)
    assert untimed.stdout.decode() == restore_file(whisper(SPEECH), "whisper-json", restorer, timing=False)
    assert sentence_ends(words_out(timed.stdout.decode())) > sentence_ends(words_out(untimed.stdout.decode()))


@pytest.fixture
def card_copy(tmp_path):
    """A models folder with a copy of the English token model, whose card a test may damage."""
    folder = tmp_path / "en"
    folder.mkdir()
    for name in ("token.json", "token.onnx", "token.spm"):
        shutil.copy(models_dir() / "en" / name, folder / name)
    return folder / "token.json"


@pytest.mark.parametrize("damage,message", [
    (lambda p: p.update(measure="loudness"), "'measure' must be one of"),
    (lambda p: p.update(edges=[1.0, 0.5]), "'edges' must be a non-empty list of ascending"),
    (lambda p: p.update(PERIOD=[1.0]), "'PERIOD' must be a list of"),
    (lambda p: p.pop("measure"), "'measure' is missing"),
])
def test_a_bad_pause_bias_is_a_one_line_error(card_copy, damage, message):
    card = json.loads(card_copy.read_text(encoding="utf-8"))
    damage(card["pause_bias"])
    card_copy.write_text(json.dumps(card), encoding="utf-8")
    with pytest.raises(ModelError) as info:
        load_card("en", "token", card_copy.parent.parent)
    text = str(info.value)
    assert "\n" not in text and "'pause_bias'" in text and message in text, text


def test_a_card_without_pause_bias_ignores_times(card_copy):
    card = json.loads(card_copy.read_text(encoding="utf-8"))
    del card["pause_bias"]
    card_copy.write_text(json.dumps(card), encoding="utf-8")
    plain = Restorer(lang="en", engine="pipeline", spaces="keep", models_dir=str(card_copy.parent.parent))
    assert not plain.engine.uses_times
    text = whisper(SPEECH)
    assert restore_file(text, "whisper-json", plain) == restore_file(text, "whisper-json", plain, timing=False)
