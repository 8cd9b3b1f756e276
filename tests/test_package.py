"""The installed package: a light import, the packs command, the help and the one version."""

import subprocess
import sys
import time
from importlib.metadata import version
from pathlib import Path

import pytest


def run(*args, timeout=60):
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=timeout)


def test_import_pulls_in_no_training_stack():
    code = ("import sys, charrestore\n"
            "from charrestore import load_pack, parse, render, base_text\n"
            "import charrestore.cli, charrestore.evaluation, charrestore.codec, charrestore.packs\n"
            "charrestore.cli.build_parser()\n"
            "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('tensorflow', 'keras', 'tf2onnx', 'onnx'))\n"
            "print(heavy)\n")
    res = run("-c", code)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "[]"


def test_version_is_the_installed_metadata():
    res = run("-m", "charrestore", "--version")
    assert res.returncode == 0 and res.stdout == f"charrestore {version('charrestore')}\n"
    import charrestore

    assert charrestore.__version__ == version("charrestore")


def test_help_does_not_read_the_metadata():
    code = ("import sys, charrestore.cli\n"
            "charrestore.cli.build_parser()\n"
            "print('importlib.metadata' in sys.modules)\n")
    res = run("-c", code)
    assert res.returncode == 0 and res.stdout.strip() == "False", res.stderr


def test_an_uninstalled_checkout_reads_pyproject(monkeypatch):
    import importlib.metadata
    import tomllib

    import charrestore

    def missing(name):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", missing)
    with open(Path(charrestore.__file__).resolve().parent.parent / "pyproject.toml", "rb") as f:
        assert charrestore._version() == tomllib.load(f)["project"]["version"]


def test_packs_lists_en_ja_gu():
    res = run("-m", "charrestore", "packs")
    assert res.returncode == 0, res.stderr
    lines = res.stdout.strip().splitlines()
    codes = [line.split("\t")[0] for line in lines]
    assert {"en", "ja", "gu"} <= set(codes)
    by_code = dict(zip(codes, lines))
    assert "CAPS . , ? SPACE (32 classes)" in by_code["en"]
    assert "\u3001 \u3002 \uff1f (8 classes)" in by_code["ja"]
    assert ". , ? SPACE (16 classes)" in by_code["gu"]


@pytest.mark.parametrize("args", [["--help"], ["eval", "--help"], ["packs", "--help"], ["bench", "--help"]])
def test_help_exits_0(args):
    res = run("-m", "charrestore", *args)
    assert res.returncode == 0 and "usage: charrestore" in res.stdout and res.stderr == ""


def test_help_is_fast():
    best = min(_timed(run, "-m", "charrestore", "--help") for _ in range(3))
    assert best < 1.0          # the contract is 0.3 s on an idle machine; this guards against heavy imports


def _timed(fn, *args):
    t = time.perf_counter()
    assert fn(*args).returncode == 0
    return time.perf_counter() - t


def test_usage_error_is_exit_2_without_traceback():
    res = run("-m", "charrestore", "no-such-command")
    assert res.returncode == 2 and "Traceback" not in res.stderr and "usage:" in res.stderr


def test_pack_engine_is_validated():
    from charrestore.packs import PackError, _validate

    pack = {"features": ["CAPS", ".", "SPACE"], "cased": True, "models": {"char": "char"}}
    assert _validate("xx", pack).engine == "char"  # a pack that names no engine runs the char model
    with pytest.raises(PackError, match="engine must be one of"):
        _validate("xx", {**pack, "engine": "bert"})
    with pytest.raises(PackError, match="needs a token model"):
        _validate("xx", {**pack, "engine": "pipeline"})
    assert _validate("xx", {**pack, "engine": "pipeline", "models": {"token": "token"}}).engine == "pipeline"


def test_pack_typography_is_validated():
    from charrestore.packs import PackError, _validate

    pack = {"features": ["CAPS", "¿", "?", "SPACE"], "cased": True}
    assert _validate("xx", {**pack, "opening_marks": ["¿"]}).opening == ("¿",)
    with pytest.raises(PackError, match="'opening_marks' holds '¡'"):
        _validate("xx", {**pack, "opening_marks": ["¡"]})
    assert _validate("xx", {**pack, "space_before": {"?": "\u202f"}}).space_before == {"?": "\u202f"}
    for bad in ({"?": "x"}, {"?": "  "}, {"!": " "}):
        with pytest.raises(PackError, match="space_before"):
            _validate("xx", {**pack, "space_before": bad})
    paired = {**pack, "opening_marks": ["¿"], "sentence_marks": ["?"]}
    assert _validate("xx", {**paired, "pairs": {"¿": "?"}}).pairs == {"¿": "?"}
    for bad in ({"?": "¿"}, {"¿": "!"}, {"¿": "¿"}):
        with pytest.raises(PackError, match=r"\[pairs\]"):
            _validate("xx", {**paired, "pairs": bad})
    assert _validate("xx", {**pack, "elisions": ["L'", "qu'"]}).elisions == ("l'", "qu'")
    assert _validate("xx", {**pack, "longest_word": 20}).longest_word == 20
    for bad in ({**pack, "longest_word": -1}, {**pack, "features": ["?"], "longest_word": 20}):
        with pytest.raises(PackError, match="longest_word"):
            _validate("xx", bad)
    for bad in (["l"], ["'"], ["l' "], ["l’"]):
        with pytest.raises(PackError, match="'elisions' holds"):
            _validate("xx", {**pack, "elisions": bad})
    assert _validate("xx", {**pack, "dotted_capitals": ["U.S.", "E.U."]}).dotted_capitals == {"us": "U.S.", "eu": "E.U."}
    for bad in (["US"], ["U.S"], ["u.s."], ["U."], ["U. S."]):
        with pytest.raises(PackError, match="'dotted_capitals' holds"):
            _validate("xx", {**pack, "dotted_capitals": bad})
    assert _validate("xx", {**pack, "ordinal_suffixes": ["St", "e"]}).ordinal_suffixes == ("st", "e")
    for bad in (["1st"], ["s t"], [""], ["."]):
        with pytest.raises(PackError, match="'ordinal_suffixes' holds"):
            _validate("xx", {**pack, "ordinal_suffixes": bad})
    mapped = {**pack, "map": {"!": "?"}}
    assert _validate("xx", {**mapped, "map_before_lower": {"!": ""}}).map_before_lower == {"!": ""}
    for bad in ({**mapped, "map_before_lower": {";": ""}}, {**mapped, "map_before_lower": {"!": "."}},
                {**mapped, "cased": False, "features": ["?", "SPACE"], "map_before_lower": {"!": ""}}):
        with pytest.raises(PackError, match=r"map_before_lower"):
            _validate("xx", bad)
    ended = {**mapped, "sentence_marks": ["?"]}
    assert _validate("xx", {**ended, "map_after_sentence_end": {"!": " "}}).map_after_sentence_end == {"!": " "}
    for bad in ({**ended, "map_after_sentence_end": {";": ""}}, {**ended, "map_after_sentence_end": {"!": "."}},
                {**mapped, "map_after_sentence_end": {"!": ""}}):
        with pytest.raises(PackError, match=r"map_after_sentence_end"):
            _validate("xx", bad)
    assert _validate("xx", ended).capital_after == ("?",)  # default: every sentence mark
    assert _validate("xx", {**ended, "capital_after": []}).capital_after == ()
    with pytest.raises(PackError, match="'capital_after' holds '!'"):
        _validate("xx", {**ended, "capital_after": ["!"]})
    assert _validate("xx", {**pack, "scripts": ["Hangul", "Han"]}).scripts == ("Hangul", "Han")
    for bad in (["Klingon"], ["Latin]|[a"], [""]):
        with pytest.raises(PackError, match="'scripts' holds"):
            _validate("xx", {**pack, "scripts": bad})


def test_packs_command_names_the_default_engine():
    by_code = {line.split("\t")[0]: line for line in run("-m", "charrestore", "packs").stdout.splitlines()}
    assert by_code["en"].endswith("default engine: pipeline") and by_code["ja"].endswith("default engine: char")
