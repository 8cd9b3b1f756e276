"""``--lang auto``: each line (or file, or record) restored exactly as ``--lang <the detected language>`` restores
it, through the API, ``fix``, ``fix -i``, ``segment`` and ``batch``; a live stream asks for its language. The CLI's
default, ``auto:en``: English unless another installed pack is clearly more likely."""

import functools
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from charrestore import Restorer, RestorerConfig, available_packs, base_text, load_pack
from charrestore.auto import AutoRestorer, installed, language_of
from charrestore.detect import Detector

LINES = {
    "en": "willaichangeourfuture obviously the answer is yes",
    "ja": "東京は日本の首都です人口はおよそ千四百万人ですあなたは行ったことがありますか",
    "gu": "ગુજરાતભારતનુંએકરાજ્યછેતેનીરાજધાનીગાંધીનગરછે",
}


# lines of the Latin-script packs that English n-grams do not explain
LATIN = {"de": "wiegehtesihnenheute", "es": "¿dóndeestálabibliotecamunicipal", "fr": "jesuistrèscontentdevousvoir",
         "vi": "hômnaytrờiđẹpquá"}
ROOT = Path(__file__).resolve().parent.parent


def cli(*args: str, stdin: str | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "charrestore", *args], input=stdin, capture_output=True, text=True,
                          timeout=120, env=env)


def test_the_installed_packs_are_the_candidates():
    """The packs whose default engine's model is installed (a pack whose model is in training is none of them)."""
    ready = {code for code in available_packs() if load_pack(code).ready()}
    assert set(installed()) == ready >= {"en", "ja", "gu"}
    assert "ja" not in installed("nb") and {"en", "gu"} <= set(installed("nb"))  # segment: the packs with NB counts
    assert [language_of(text) for text in LINES.values()] == list(LINES)


def test_the_api_restores_each_text_as_its_language_does():
    auto = Restorer(RestorerConfig(lang="auto", spaces="auto"))
    assert isinstance(auto, AutoRestorer)
    for lang, text in LINES.items():
        assert auto.language(text) == lang
        assert auto(text) == Restorer(lang=lang)(text)
        assert auto.restorer_for(lang).config.lang == lang
    texts = list(LINES.values())
    assert auto.restore_many(texts) == [Restorer(lang=lang)(t) for lang, t in LINES.items()]


def test_a_bad_setting_fails_when_an_auto_restorer_is_built():
    with pytest.raises(ValueError, match="spaces"):
        Restorer(lang="auto", spaces="sometimes")


def test_fix_lang_auto_prints_what_fix_lang_detected_prints():
    stdin = "".join(text + "\n" for text in LINES.values())
    auto = cli("fix", "--lang", "auto", stdin=stdin)
    assert auto.returncode == 0, auto.stderr
    expected = [cli("fix", "--lang", lang, text).stdout for lang, text in LINES.items()]
    assert auto.stdout == "".join(expected)
    named = [json.loads(line) for line in cli("fix", "--lang", "auto", "--json", stdin=stdin).stdout.splitlines()]
    assert [(n["lang"], n["engine"]) for n in named] == [("en", "pipeline"), ("ja", "char"), ("gu", "char")]
    assert [n["text"] + "\n" for n in named] == expected


def test_a_file_is_one_decision(tmp_path):
    """Every line of a Japanese file goes to ja, even a line the detector alone would call English."""
    path = tmp_path / "talk.txt"
    path.write_text(LINES["ja"] + "\nok\n" + LINES["ja"] + "\n", encoding="utf-8")
    auto = cli("fix", "--lang", "auto", "-i", str(path))
    assert auto.returncode == 0, auto.stderr
    assert auto.stdout == cli("fix", "--lang", "ja", "-i", str(path)).stdout


def test_segment_lang_auto():
    stdin = LINES["en"] + "\n" + LINES["gu"] + "\n"
    out = cli("segment", "--lang", "auto", "--json", stdin=stdin).stdout.splitlines()
    assert [json.loads(line)["lang"] for line in out] == ["en", "gu"]
    assert json.loads(out[1])["text"] == cli("segment", "--lang", "gu", LINES["gu"]).stdout.strip()


def test_batch_restores_each_record_in_its_language(tmp_path):
    source = tmp_path / "in.txt"
    source.write_text("".join(text + "\n" for text in LINES.values()), encoding="utf-8")
    res = cli("batch", str(source), "--output", str(tmp_path / "out.txt"), "--lang", "auto", "--workers", "1")
    assert res.returncode == 0, res.stderr
    written = (tmp_path / "out.txt").read_text(encoding="utf-8")
    assert written == "".join(Restorer(lang=lang)(t) + "\n" for lang, t in LINES.items())


def test_a_live_stream_asks_for_its_language():
    res = cli("fix", "--lang", "auto", "--stream", stdin="hello world\n")
    assert res.returncode == 1 and res.stdout == ""
    assert res.stderr.startswith("charrestore: error: --stream needs its language") and res.stderr.count("\n") == 1


def test_without_lang_a_line_leaves_english_only_for_a_clearly_more_likely_pack():
    """``fix`` and ``segment`` default to auto:en: a line goes to another pack only where the detector finds it at
    least the card's ``prefer_odds`` times as likely as English; "das" is about as likely German as English."""
    detector, among = Detector.load(), installed()
    odds = detector.card["prefer_odds"]
    lines = ["willaichangeourfuture", *LATIN.values(), "das"]
    expected = []
    for line in lines:
        chance = dict(detector.scores(line, among))
        best = max(chance, key=chance.get)
        expected.append(best if chance[best] > odds * chance["en"] else "en")
    assert expected == ["en", *LATIN, "en"]  # the lines mean what they are meant to show
    named = [json.loads(line) for line in cli("fix", "--json", stdin="\n".join(lines) + "\n").stdout.splitlines()]
    assert [n["lang"] for n in named] == expected
    assert [n["text"] for n in named[1:3]] == [Restorer(lang=lang)(LATIN[lang]) for lang in ("de", "es")]
    assert [json.loads(line)["lang"] for line in cli("segment", "--json", stdin=LATIN["de"] + "\nhello\n").stdout
            .splitlines()] == ["de", "en"]


def test_auto_prefers_only_an_installed_pack_that_runs_the_engine():
    assert isinstance(Restorer(lang="auto:de"), AutoRestorer)
    with pytest.raises(ValueError, match="'xx' is not an installed pack"):
        Restorer(lang="auto:xx")
    pipeline = cli("fix", "--engine", "pipeline", "--json", LATIN["de"])  # only en has the pipeline's token model
    assert pipeline.returncode == 0 and json.loads(pipeline.stdout)["lang"] == "en"
    res = cli("fix", "--lang", "auto:de", "--engine", "pipeline", "abc")
    assert res.returncode == 1 and res.stderr.count("\n") == 1 and "runs engine pipeline (en)" in res.stderr


def test_a_stream_without_lang_is_english_and_a_folder_without_the_detector_means_the_preferred_pack(tmp_path):
    stream = cli("fix", "--stream", stdin="hello world\n")
    english = cli("fix", "--lang", "en", "--stream", stdin="hello world\n")
    assert stream.returncode == 0 and stream.stdout == english.stdout
    root = tmp_path / "data"  # the packs beside the fixture models: no detector
    (root / "languages").mkdir(parents=True)
    for code in ("en", "de"):
        (root / "languages" / code).symlink_to(ROOT / "languages" / code)
    shutil.copytree(ROOT / "tests" / "fixtures" / "models", root / "models")
    env = {**os.environ, "CHARRESTORE_DATA": str(root)}
    for lang in ("auto:en", "auto:de"):
        res = cli("fix", "--lang", lang, "--json", LATIN["de"], env=env)
        assert res.returncode == 0, res.stderr
        assert json.loads(res.stdout)["lang"] == lang[5:]


def test_batch_without_lang_restores_as_fix_without_lang(tmp_path):
    source = tmp_path / "in.txt"
    source.write_text(LATIN["de"] + "\nwillaichangeourfuture\n", encoding="utf-8")
    res = cli("batch", str(source), "--output", str(tmp_path / "out.txt"), "--workers", "1")
    assert res.returncode == 0, res.stderr
    written = (tmp_path / "out.txt").read_text(encoding="utf-8")
    assert written == cli("fix", stdin=source.read_text(encoding="utf-8")).stdout
    assert written.splitlines()[0] == Restorer(lang="de")(LATIN["de"])


MIXED = "abcdefgh ÄäöüßÉé ñ¿ çàè đơư ẩ абвгдё 가나다 กขค 東京的是 かな ગુજ 0123 .,?!'\"-#@🙂\u0301"


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=MIXED, max_size=60))
def test_the_default_loses_nothing_on_any_mix_of_scripts(text):
    """Whatever pack auto:en sends a text to, the output differs from it only in marks, spaces and case."""
    restorer = default_restorer()
    lang = restorer.language(text)
    out = restorer(text)
    pack = load_pack(lang)
    assert base_text(out, pack) == base_text(text, pack), (lang, text, out)


@functools.lru_cache(maxsize=1)
def default_restorer():
    return Restorer(lang="auto:en")


def test_hashtag_and_segment_without_lang_cut_each_tag_in_its_language():
    """``charrestore hashtag`` and ``segment`` default to auto:en among the packs with NB counts, as fix does."""
    out = cli("hashtag", "#bundestagswahl", "#throwbackthursday").stdout.splitlines()
    assert out == [cli("hashtag", "--lang", "de", "#bundestagswahl").stdout.strip(),
                   cli("hashtag", "--lang", "en", "#throwbackthursday").stdout.strip()]
    assert out[0].split("\t")[0] == "bundestagswahl"  # one German word, where en's counts cut "bundestag swahl"
    for command in ("hashtag", "segment"):
        res = cli(command, "--lang", "auto:ja", "abc")  # ja has no NB counts
        assert res.returncode == 1 and res.stderr.count("\n") == 1 and "'ja' is not an installed pack" in res.stderr
