"""``--lang auto``: each line (or file, or record) restored exactly as ``--lang <the detected language>`` restores
it, through the API, ``fix``, ``fix -i``, ``segment`` and ``batch``; a live stream asks for its language."""

import json
import subprocess
import sys

import pytest

from charrestore import Restorer, RestorerConfig, available_packs, load_pack
from charrestore.auto import AutoRestorer, installed, language_of

LINES = {
    "en": "willaichangeourfuture obviously the answer is yes",
    "ja": "東京は日本の首都です人口はおよそ千四百万人ですあなたは行ったことがありますか",
    "gu": "ગુજરાતભારતનુંએકરાજ્યછેતેનીરાજધાનીગાંધીનગરછે",
}


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "charrestore", *args], input=stdin, capture_output=True, text=True,
                          timeout=120)


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
