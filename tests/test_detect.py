"""The language detector: script rules, ``among``, scores, odd input and the card check on a tiny model built here
from hand-written fixture sentences (no ../shared needed); the shipped model on clear examples in the three forms
this project gets; and the ``detect`` subcommand through an argparse parser that only has it."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from charrestore.cards import ModelError
from charrestore.cli_util import Parser, run_main
from charrestore.detect import Detector
from charrestore.detect_command import add_detect
from charrestore.training.train_detect import Source, build, in_form, save

FIXTURES = Path(__file__).parent / "fixtures" / "detect"


@pytest.fixture(scope="module")
def tiny_root(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("models")
    sources = [Source(path.stem, path) for path in sorted(FIXTURES.glob("*.txt"))]
    save(build(sources, orders=(1, 2, 3), bits=12, log=lambda _: None), root / "detect", {"note": "test fixture"})
    return root


@pytest.fixture(scope="module")
def tiny(tiny_root) -> Detector:
    return Detector.load(tiny_root)


@pytest.mark.parametrize("text, lang", [("오늘 날씨가 좋네요", "ko"), ("วันนี้อากาศดีมาก", "th"), ("આજે હવામાન સારું છે", "gu"),
                                        ("ひらがなだけ", "ja"), ("カタカナ", "ja"), ("東京へ行きます", "ja")])
def test_a_script_that_one_language_writes_decides(tiny, text, lang):
    assert tiny.scores(text)[0] == (lang, 1.0)


def test_han_alone_goes_to_the_han_view_of_the_languages_that_write_it_alone(tiny):
    assert tiny.views["Han"][0] == ["ja", "zh"]  # ko writes some Han, but never a line of Han alone
    ranked = tiny.scores("市场上买了三个苹果和面包", among=["ko", "en", "zh", "ja"])
    assert [lang for lang, _ in ranked[:2]] == ["zh", "ja"] and ranked[0][1] + ranked[1][1] == pytest.approx(1.0)
    assert tiny.detect("雨終止", among=["ko", "en"]) == "ko"  # among those given, ko is the one that writes Han


def test_among_restricts_the_answer_and_keeps_its_order(tiny):
    assert tiny.detect("die kinder gingen nach hause", among=["en", "de"]) == "de"
    assert tiny.detect("오늘 날씨가 좋네요", among=["en", "fr"]) in ("en", "fr")  # ko is not a candidate
    assert [lang for lang, _ in tiny.scores("", among=["fr", "en"])] == ["fr", "en"]
    assert tiny.detect("", among="de,en") == "de"
    assert tiny.detect("", among={"fr", "en"}) == "en"  # a set: the model's order (its first language is en)


def test_a_preferred_language_is_left_only_for_one_at_least_odds_times_as_likely(tiny):
    among = ["en", "de", "fr"]
    for text in ("die kinder gingen nach hause", "Les enfants sont rentrés", "das", "the children walked home", ""):
        chance = dict(tiny.scores(text, among))
        best = max(chance, key=chance.get)
        for odds in (1.0, 10.0, 1e6):
            want = best if chance[best] > odds * chance["en"] else "en"
            assert tiny.detect(text, among, prefer="en", odds=odds) == want
    assert tiny.detect("die kinder gingen nach hause", among, prefer="en", odds=1.0) == "de"
    assert tiny.detect("die kinder gingen nach hause", among, prefer="en", odds=1e30) == "en"
    assert tiny.detect("", among=["de", "en"], prefer="en") == "en"  # no evidence: the preferred one
    with pytest.raises(ValueError, match="preferred language 'ja'"):
        tiny.detect("hello there", among, prefer="ja")


@pytest.mark.parametrize("among", [["en", "xx"], [], ","])
def test_unknown_or_no_candidates_are_a_clear_error(tiny, among):
    with pytest.raises(ValueError, match="the detector knows"):
        tiny.detect("hello there", among=among)


@pytest.mark.parametrize("text", ["the children walked home", "Les enfants sont rentrés", "雨が止んだ", "因为雨终于停了",
                                  "x", "hello 東京 and more"])
def test_scores_are_probabilities_best_first(tiny, text):
    ranked = tiny.scores(text)
    probs = [p for _, p in ranked]
    assert sorted(lang for lang, _ in ranked) == sorted(tiny.languages)
    assert probs == sorted(probs, reverse=True)
    assert sum(probs) == pytest.approx(1.0)


@pytest.mark.parametrize("text", ["", "\x00", "🙂🙂🙂", "12345 678", "?!.,", "\udcff\udcfe", " \t "])
def test_text_without_letters_gets_the_first_candidate(tiny, text):
    ranked = tiny.scores(text, among=["de", "en"])
    assert ranked == [("de", 0.5), ("en", 0.5)]


def test_a_changed_model_file_is_refused(tiny_root, tmp_path):
    folder = tmp_path / "detect"
    folder.mkdir()
    for name in ("detect.json", "detect.npz"):
        (folder / name).write_bytes((tiny_root / "detect" / name).read_bytes())
    data = bytearray((folder / "detect.npz").read_bytes())
    data[len(data) // 2] ^= 0xFF
    (folder / "detect.npz").write_bytes(bytes(data))
    with pytest.raises(ModelError, match="sha256"):
        Detector.load(tmp_path)


def test_the_card_names_what_the_detector_reads(tiny_root):
    card = json.loads((tiny_root / "detect" / "detect.json").read_text(encoding="utf-8"))
    assert card["kind"] == "detect" and card["file"] == "detect.npz" and card["orders"] == [1, 2, 3]
    assert card["languages"] == ["de", "en", "fr", "gu", "ja", "ko", "th", "zh"]


SHIPPED = {  # per shipped pack: clear hand-written lines, as written
    "en": ["The weather is really nice today, isn't it?", "Could you send me the report before Friday, please?"],
    "ja": ["今日は本当にいい天気ですね。", "金曜日までに報告書を送っていただけますか？"],
    "gu": ["આજે હવામાન ખરેખર સરસ છે, નહીં?", "શું તમે શુક્રવાર પહેલાં મને અહેવાલ મોકલી શકો?"],
}


@pytest.mark.parametrize("form", ["written", "asr", "despaced"])
@pytest.mark.parametrize("lang", sorted(SHIPPED))
def test_the_shipped_model_names_clear_lines_in_every_form(lang, form):
    detector = Detector.load()
    for line in SHIPPED[lang]:
        text = in_form(line, form, lang)
        assert detector.detect(text) == lang, text
        assert detector.detect(text, among=["en", "ja", "gu"]) == lang, text


def test_the_shipped_model_tells_kanji_only_chinese_and_other_latin_languages():
    detector = Detector.load()
    assert detector.detect("中华人民共和国") == "zh"
    assert detector.detect("wieistdaswetterheute") == "de"
    assert detector.detect("dondeestaelbanoporfavor") == "es"


def cli(argv: list[str]) -> int:
    def parser():
        p = Parser(prog="charrestore")
        add_detect(p.add_subparsers(dest="command", required=True))
        return p

    return run_main(parser, argv)


def test_detect_command_prints_one_code_per_line(capsysbinary, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(
        "hello how are you today\r\n東京へ行きます\n\nwie geht es dir heute\n".encode())))
    assert cli(["detect", "--among", "en,ja,de"]) == 0
    assert capsysbinary.readouterr().out.decode().split("\n") == ["en", "ja", "en", "de", ""]


def test_detect_command_json_gives_the_top_three(capsysbinary):
    assert cli(["detect", "--among", "all", "--json", "wie", "ist", "das", "wetter", "heute"]) == 0
    row = json.loads(capsysbinary.readouterr().out)
    assert row["text"] == "wie ist das wetter heute" and row["lang"] == "de"
    assert row["candidates"][0]["lang"] == "de" and len(row["candidates"]) == 3


def test_detect_command_answers_among_the_installed_packs_by_default(capsysbinary, tmp_path, monkeypatch):
    """A pack whose model is still in training is no candidate: in a data root where vi's char model is missing
    (its NB counts stay), a Vietnamese line goes to an installed pack, never to vi."""
    from charrestore.auto import installed
    from charrestore.paths import data_root

    shipped = data_root()
    (tmp_path / "languages").symlink_to(shipped / "languages")
    for folder in (shipped / "models").iterdir():
        if folder.name != "vi":
            (tmp_path / "models").mkdir(exist_ok=True)
            (tmp_path / "models" / folder.name).symlink_to(folder)
    (tmp_path / "models" / "vi").mkdir()
    for f in (shipped / "models" / "vi").glob("nb.*"):
        (tmp_path / "models" / "vi" / f.name).symlink_to(f)
    monkeypatch.setenv("CHARRESTORE_DATA", str(tmp_path))
    assert "vi" not in installed() and "fr" in installed() and "vi" in installed("nb")
    assert cli(["detect", "bâygiờlàmấygiờrồi"]) == 0
    assert capsysbinary.readouterr().out.decode().strip() in installed()


def test_detect_command_unknown_language_is_one_line_error(capsysbinary):
    assert cli(["detect", "--among", "en,xx", "hello"]) == 1
    assert b"unknown language(s) xx" in capsysbinary.readouterr().err


def test_detect_command_prefer_names_what_fix_restores_without_lang(capsysbinary):
    """``--prefer en``: the language ``fix`` takes without ``--lang`` (auto:en), line by line."""
    from charrestore.auto import installed

    lines = ["das", "wiegehtesihnenheute", "hello there"]
    assert cli(["detect", "--prefer", "en", *lines[:1]]) == 0 and capsysbinary.readouterr().out == b"en\n"
    detector = Detector.load()
    for line in lines:
        assert cli(["detect", "--prefer", "en", "--json", line]) == 0
        assert json.loads(capsysbinary.readouterr().out)["lang"] == detector.detect(line, installed(), prefer="en")
    assert cli(["detect", "--prefer", "ja", "--among", "en,de", "das"]) == 1
    assert b"preferred language 'ja'" in capsysbinary.readouterr().err
