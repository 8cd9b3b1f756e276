"""Files with structure (charrestore.formats): every word goes back to its own cue or segment, restored as in
one document, and nothing else in the file changes (timings, settings, tags, notes, other JSON fields)."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from charrestore import Restorer
from charrestore.formats import detect, file_pieces, read, restore_file
from charrestore.formats.base import FormatError, cue_tokens, split_like

FIXTURES = Path(__file__).parent / "fixtures" / "formats"
GOOD = {"talk.srt": "srt", "talk.vtt": "vtt", "rolling.vtt": "vtt", "music.vtt": "vtt",
        "whisper.json": "whisper-json", "whisperx.json": "whisper-json", "vosk.json": "vosk-json"}
TEXT = ("will ai change our future obviously the answer is yes but what are the risks i am not technical "
        "i'm not an engineer i don't play one on the internet so what do you think")


@pytest.fixture(scope="module")
def restorers():
    return {engine: Restorer(lang="en", engine=engine) for engine in ("pipeline", "char")}


def fixture(name: str) -> str:
    return (FIXTURES / name).read_bytes().decode("utf-8")


def literals(parsed) -> list:
    """What must never change: the literal pieces of a subtitle file, or a JSON file without its words' text."""
    if hasattr(parsed, "pieces"):
        return [p for p in parsed.pieces if isinstance(p, str)]
    data = json.loads(json.dumps(parsed.data))

    def strip(x):
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if k not in ("word", "text")}
        return [strip(v) for v in x] if isinstance(x, list) else x
    return [strip(data)]


@pytest.mark.parametrize("name", sorted(GOOD))
def test_detect(name):
    assert detect(name, fixture(name)) == GOOD[name]
    assert detect("-", fixture(name)) == GOOD[name]  # stdin: from the content


@pytest.mark.parametrize("name", sorted(GOOD))
def test_unchanged_words_give_the_same_bytes(name):
    parsed = read(fixture(name), GOOD[name])
    assert parsed.write([w.text for w in parsed.words], Restorer(lang="en").pack) == fixture(name)


@pytest.mark.parametrize("name", sorted(GOOD))
@pytest.mark.parametrize("engine", ["pipeline", "char"])
def test_only_the_words_change(name, engine, restorers):
    """Literals, timings and the words' cues are the same after restoration; the words are the restorer's words
    for the whole file as one document (spaces kept)."""
    restorer, text = restorers[engine], fixture(name)
    before = read(text, GOOD[name])
    out = restore_file(text, GOOD[name], restorer)
    after = read(out, GOOD[name])
    assert literals(after) == literals(before)
    assert [(w.cue, w.start, w.end) for w in after.words] == [(w.cue, w.start, w.end) for w in before.words]
    words = [w.text for w in before.words]
    expected = Restorer(lang="en", engine=engine, spaces="keep")(" ".join(words)).split(" ") if words else []
    assert [w.text for w in after.words] == expected


def test_srt_keeps_tags_settings_and_non_speech(restorers):
    out = restore_file(fixture("talk.srt"), "srt", restorers["pipeline"])
    for kept in ("00:00:03,400 --> 00:00:06,000 X1:40 X2:600 Y1:20 Y2:50\n{\\an8}", "<i>", '<font color="#ffff00">',
                 "\n\n3\n00:00:06,000 --> 00:00:07,500\n[Music]\n\n", "\n- I"):
        assert kept in out
    head, first = out.split("\n")[:2], out.split("\n")[2]
    assert head == ["1", "00:00:00,500 --> 00:00:03,200"]
    assert first.startswith("Will AI change our future") and first[-1] in ".?"  # restored, words unchanged


def test_srt_crlf_and_bom(restorers):
    text = "\ufeff" + fixture("talk.srt").replace("\n", "\r\n")
    out = restore_file(text, "srt", restorers["pipeline"])
    assert out == "\ufeff" + restore_file(fixture("talk.srt"), "srt", restorers["pipeline"]).replace("\n", "\r\n")


def test_vtt_keeps_header_notes_settings_and_inline_times(restorers):
    out = restore_file(fixture("talk.vtt"), "vtt", restorers["pipeline"])
    text = fixture("talk.vtt")
    header = text[:text.index("intro")]
    assert out.startswith(header)
    for kept in ("00:00:00.500 --> 00:00:03.200 align:start position:10% line:85%\n<v Speaker 1>",
                 "<00:03.900> <c.yellow>", "</c><00:04.300>", "NOTE a cue of applause only\n\n",
                 "00:00:06.000 --> 00:00:07.500\n(applause)\n", " &amp; ", "region:fred", "<b>"):
        assert kept in out


def test_vtt_inline_times_are_word_times():
    words = read(fixture("talk.vtt"), "vtt").words
    times = {w.text: (w.start, w.end) for w in words if w.cue == 1}
    assert times["but"] == (3.4, 3.9) and times["what"] == (3.9, 4.3) and times["risks"] == (4.3, 6.0)


def test_rolling_vtt_restores_each_line_once(restorers):
    parsed = read(fixture("rolling.vtt"), "vtt")
    assert " ".join(w.text for w in parsed.words) == TEXT.split(" i am")[0] + " so what do you think"
    out = restore_file(fixture("rolling.vtt"), "vtt", restorers["pipeline"])
    lines = out.split("\n")

    def shown(line):
        return "".join(part.split(">")[-1] for part in line.split("<"))

    assert lines[6].startswith("Will<00:00:00.800><c> AI</c>")  # the new line of the first cue, timed
    assert shown(lines[6]) == lines[9] == lines[13]  # and its two copies
    assert lines[9].startswith("Will AI change our future") and lines[9][-1] in ".?"
    assert shown(lines[14]) == lines[17] == lines[21]


def test_music_only_file_is_unchanged(restorers):
    assert restore_file(fixture("music.vtt"), "vtt", restorers["pipeline"]) == fixture("music.vtt")


def test_whisper_words_and_texts(restorers):
    out = json.loads(restore_file(fixture("whisper.json"), "whisper-json", restorers["pipeline"]))
    words = [w["word"] for s in out["segments"] for w in s["words"]]
    assert all(w.startswith(" ") for w in words)
    for s in out["segments"]:
        assert s["text"] == "".join(w["word"] for w in s["words"])
    assert out["text"] == "".join(s["text"] for s in out["segments"])


def test_whisperx_word_segments_and_a_segment_without_words(restorers):
    out = json.loads(restore_file(fixture("whisperx.json"), "whisper-json", restorers["pipeline"]))
    flat = [w for s in out["segments"] for w in s.get("words", [])]
    assert [w["word"] for w in out["word_segments"]] == [w["word"] for w in flat]
    assert "start" not in flat[3]
    for s in out["segments"][:-1]:
        assert s["text"] == " " + " ".join(w["word"] for w in s["words"])
    assert out["segments"][-1]["text"].startswith(" So what")


def test_vosk_texts(restorers):
    out = json.loads(restore_file(fixture("vosk.json"), "vosk-json", restorers["pipeline"]))
    for u in out[:-1]:
        assert u["text"] == " ".join(w["word"] for w in u["result"])
    assert out[-1] == {"text": ""}


def test_text_keeps_line_breaks(restorers):
    text = "will ai change our future\nobviously the answer is yes\n"
    out = restore_file(text, "text", restorers["pipeline"])
    assert out.count("\n") == 2 and out.endswith("\n")
    assert out.replace("\n", " ").strip() == restorers["pipeline"](text.replace("\n", " ").strip())


@settings(max_examples=200, deadline=None)
@given(st.text(st.sampled_from("ab \t\n\r\u3000\xa0é"), max_size=40))
def test_plain_text_words_and_their_lines(text):
    """Plain text keeps every white-space character: its words are the runs between them, each on its line."""
    parsed = read(text, "text")
    assert [w.text for w in parsed.words] == text.split()
    assert [w.cue for w in parsed.words] == [n for n, line in enumerate(text.split("\n")) for _ in line.split()]
    assert parsed.write([w.upper() for w in text.split()], None) == text.upper()


@pytest.mark.parametrize("engine", ["pipeline", "char"])
def test_a_long_file_is_restored_in_pieces_with_context(restorers, engine, monkeypatch):
    """A long file's words go to the engine in pieces with context on both sides (a 3 MB text file took 1 GB as
    one call): every word comes back once, unchanged but for case and marks, and only the last piece ends it."""
    import charrestore.formats.base as base

    monkeypatch.setattr(base, "PIECE", 120)
    monkeypatch.setattr(base, "CONTEXT", 40)
    restorer = restorers[engine]
    calls, restore_words = [], restorer.engine.restore_words
    monkeypatch.setattr(restorer.engine, "restore_words",
                        lambda words, end=True, **k: calls.append((len(" ".join(words)), end)) or restore_words(
                            words, end, **k))
    text = (TEXT + " ") * 4
    out = restore_file(text, "text", restorer)
    assert len(calls) > 4 and max(n for n, _ in calls) <= 120 + 2 * 40 + 20
    assert [end for _, end in calls] == [False] * (len(calls) - 1) + [True]
    assert [w.lower().strip(".,?") for w in out.split()] == text.split()
    assert out.rstrip()[-1] in ".?" and out[0].isupper()
    pieces = list(file_pieces(text, "text", restorer))  # what `fix -i` writes as it goes
    assert len(pieces) > 4 and "".join(pieces) == out


def test_cue_tokens_and_split_like(restorers):
    assert cue_tokens("- hel<i>lo</i> [Music] ♪") == [
        ("literal", "-"), ("literal", " "), ("word", ["hel", "<i>", "lo"]), ("literal", "</i>"),
        ("literal", " "), ("literal", "[Music]"), ("literal", " "), ("literal", "♪")]
    pack = restorers["pipeline"].pack
    assert split_like("Hello,", ["hel", "lo"], pack) == ["Hel", "lo,"]
    assert split_like("D.C.", ["d", "c"], pack) == ["D.", "C."]


MALFORMED = [("bad_timing.srt", 6, "bad SRT cue timing"), ("no_timing.srt", 5, "expected a cue number or timing"),
             ("backwards.vtt", 6, "ends before it starts"), ("missing_word.json", 4, "has no 'word'"),
             ("missing_start.json", 3, "has no 'start'"), ("empty.srt", 1, "empty"),
             ("truncated.json", 3, "invalid JSON")]


@pytest.mark.parametrize("name,line,message", MALFORMED)
def test_malformed_files_name_the_line(name, line, message):
    fmt = detect(name, fixture(name))
    with pytest.raises(FormatError) as info:
        read(fixture(name), fmt)
    assert info.value.line == line and message in str(info.value)


def cli(*args, stdin=b""):
    return subprocess.run([sys.executable, "-m", "charrestore", "fix", *args], input=stdin, capture_output=True)


def test_cli_files_and_stdin(tmp_path, restorers):
    out = tmp_path / "out.srt"
    done = cli("-i", str(FIXTURES / "talk.srt"), "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert out.read_text(encoding="utf-8") == restore_file(fixture("talk.srt"), "srt", restorers["pipeline"])
    done = cli("-i", "-", "-o", "-", "--format", "vosk-json", stdin=(FIXTURES / "vosk.json").read_bytes())
    assert done.returncode == 0 and done.stdout.decode() == restore_file(fixture("vosk.json"), "vosk-json",
                                                                          restorers["pipeline"])


def test_cli_output_replaces_a_file_whole(tmp_path, restorers):
    """-o writes beside the file and renames it into place: the input may be the output, the file keeps its
    mode, and a run that fails midway leaves the old file as it was and no temporary file behind."""
    from charrestore.formats.command import _write_file

    path = tmp_path / "notes.txt"
    path.write_text(TEXT + "\n", encoding="utf-8")
    path.chmod(0o640)
    done = cli("-i", str(path), "-o", str(path))
    assert done.returncode == 0, done.stderr
    restored = restore_file(TEXT + "\n", "text", restorers["pipeline"])
    assert path.read_text(encoding="utf-8") == restored != TEXT + "\n"
    assert path.stat().st_mode & 0o777 == 0o640

    def failing():
        yield "half"
        raise ValueError("the engine failed")
    with pytest.raises(ValueError):
        _write_file(failing(), str(path))
    assert path.read_text(encoding="utf-8") == restored
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


@pytest.mark.parametrize("name", ["bad_timing.srt", "missing_word.json", "empty.srt"])
def test_cli_malformed_is_one_line_exit_1(name):
    done = cli("-i", str(FIXTURES / name), "-o", "-")
    err = done.stderr.decode()
    assert done.returncode == 1 and done.stdout == b""
    assert err.count("\n") == 1 and name in err and "line " in err, err


def test_cli_format_mismatch():
    done = cli("-i", str(FIXTURES / "talk.srt"), "--format", "vtt")
    assert done.returncode == 1 and "line 1" in done.stderr.decode()


def test_srt_without_blank_lines_between_cues(restorers):
    text = "1\n00:00:01,000 --> 00:00:02,000\nhello there\n2\n00:00:02,500 --> 00:00:03,000\nhow are you\n"
    parsed = read(text, "srt")
    assert [(w.text, w.cue) for w in parsed.words] == [("hello", 0), ("there", 0), ("how", 1), ("are", 1), ("you", 1)]
    assert parsed.write([w.text for w in parsed.words], restorers["pipeline"].pack) == text


def check_cues(out: str, sep: str) -> list[tuple[float, float, list[str]]]:
    """The cues of a resegmented file, each within 42 characters a line, 2 lines, 7 s."""
    cues = []
    for block in out.strip().split("\n\n"):
        lines = block.split("\n")
        at = next(i for i, line in enumerate(lines) if "-->" in line)
        a, b = (sum(float(x) * m for x, m in zip(t.replace(sep, ".").split(":"), (3600, 60, 1)))
                for t in lines[at].split(" --> "))
        text = lines[at + 1:]
        assert 1 <= len(text) <= 2 and all(len(x) <= 42 for x in text) and 0 <= b - a <= 7
        cues.append((a, b, text))
    assert [c[0] for c in cues] == sorted(c[0] for c in cues)
    return cues


def test_resegment_srt(restorers):
    restored = restore_file(fixture("talk.srt"), "srt", restorers["pipeline"])
    out = restore_file(fixture("talk.srt"), "srt", restorers["pipeline"], resegment=True)
    cues = check_cues(out, ",")
    words = [w.text for w in read(restored, "srt").words]
    assert " ".join(" ".join(text) for _, _, text in cues if text != ["[Music]"]).split() == words
    assert (6.0, 7.5, ["[Music]"]) in cues
    assert cues[0][0] == 0.5 and cues[-1][1] == 13.0
    assert all(" ".join(text)[-1] in ".?" for _, _, text in cues if text != ["[Music]"])


def test_resegment_rolling_vtt_uses_inline_times(restorers):
    out = restore_file(fixture("rolling.vtt"), "vtt", restorers["pipeline"], resegment=True)
    assert out.startswith("WEBVTT\nKind: captions\nLanguage: en\n\n00:00:00.500 --> 00:00:02.000\nWill AI change")
    cues = check_cues(out[out.index("\n\n") + 2:], ".")
    sentences = re.findall(r"[.?](?= |$)", " ".join(" ".join(text) for _, _, text in cues))
    assert len(cues) == len(sentences) >= 3  # a cue per sentence: each fits in two lines and 7 s
    assert cues[0][:2] == (0.5, 2.0) and cues[-1][:2] == (8.0, 10.0)  # the first and last words' times


def test_resegment_cuts_long_sentences():
    from charrestore.formats.resegment import cues

    words = [f"word{i}" + ("," if i == 9 else "") for i in range(40)] + ["end."]
    times = [(i * 0.3, i * 0.3 + 0.25) for i in range(len(words))]
    out = cues(words, times, (".", "?"))
    assert [w for _, _, text in out for line in text for w in line.split()] == words
    assert out[0][2][-1].endswith("word9,")  # the comma in the second half of the first cue
    for a, b, text in out:
        assert len(text) <= 2 and all(len(x) <= 42 for x in text) and b - a <= 7


def test_resegment_needs_subtitles(restorers):
    with pytest.raises(ValueError, match="SRT or VTT"):
        restore_file(fixture("vosk.json"), "vosk-json", restorers["pipeline"], resegment=True)


def test_words_with_marks_keep_them(restorers):
    words = [{"word": f" {w}", "start": i * 0.3, "end": i * 0.3 + 0.3}
             for i, w in enumerate("hello, world how are you".split())]
    data = {"segments": [{"start": 0, "end": 1.5, "text": " hello, world how are you", "words": words}]}
    out = json.loads(restore_file(json.dumps(data), "whisper-json", restorers["pipeline"]))
    assert out["segments"][0]["words"][0]["word"] == " Hello,"


def test_unspaced_text_file_gets_its_spaces(restorers):
    out = restore_file("willaichangeourfuture\n", "text", restorers["pipeline"])
    assert out == restorers["pipeline"]("willaichangeourfuture") + "\n"
    assert out.lower().split()[:4] == ["will", "ai", "change", "our"]  # the segmenter's spaces
    out = restore_file("willaichange\nourfuture\n", "text", restorers["pipeline"])  # no space inside a line
    assert [line.lower().split() for line in out.splitlines()] == [["will", "ai", "change"], ["our", "future?"]]


WORDS = st.sampled_from(["will", "ai", "change", "our", "future", "so", "what", "do", "you", "think", "yes"])
BREAKS = st.sampled_from(["\n", "\n\n", "\r\n", " \n", "\n   ", "\t\n\n "])


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.lists(WORDS, min_size=1, max_size=6), st.sampled_from(["", " ", "  ", "\t"]),
                          BREAKS), min_size=1, max_size=5))
def test_restoring_spaces_keeps_the_line_breaks(lines):
    """With spaces restored, a file is read as one line, and every run of white space holding a line break comes
    back in its place, byte for byte, after the marks put there; the rest is the restorer's own output."""
    restoring = Restorer(lang="en", spaces="restore")
    text = "".join(sep.join(words) + br for words, sep, br in lines)
    out = restore_file(text, "text", restoring)
    assert re.findall(r"\s*\n\s*", out) == re.findall(r"\s*\n\s*", text)
    one_line = restoring.engine.restore_one(" ".join(text.split()), "restore", "camel")
    assert re.sub(r"\s+", "", out) == re.sub(r"\s+", "", one_line)
    assert restore_file(re.sub(r"\S", "", text), "text", restoring) == re.sub(r"\S", "", text)  # white space only


def test_a_language_without_spaces():
    restorer = Restorer(lang="ja", engine="char")
    text = ("1\n00:00:01,000 --> 00:00:03,000\n今日は雨が降っていますか\n\n"
            "2\n00:00:03,000 --> 00:00:05,000\n明日は晴れるでしょう\n")
    out = restore_file(text, "srt", restorer)
    assert [w.text for w in read(out, "srt").words] == restorer.engine.restore_words(
        ["今日は雨が降っていますか", "明日は晴れるでしょう"])
    assert literals(read(out, "srt")) == literals(read(text, "srt"))


def test_format_without_input_reads_stdin_and_output_options_need_one():
    srt = b"1\n00:00:01,000 --> 00:00:02,000\nhello world how are you\n\n"
    res = cli("--format", "srt", stdin=srt)
    assert res.returncode == 0 and res.stdout.startswith(b"1\n00:00:01,000 --> 00:00:02,000\nH")
    assert cli("--format", "srt", stdin=srt).stdout == cli("-i", "-", "--format", "srt", stdin=srt).stdout
    for args in (("-o", "out.txt", "hello"), ("--resegment", "hello")):
        res = cli(*args)
        assert res.returncode == 1 and res.stderr.count(b"\n") == 1 and b"-i FILE" in res.stderr
