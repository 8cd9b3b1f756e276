"""The pipeline engine as the CLI and the bench command meet it, on the fixture models of test_token_engine.py:
the stdin contract, invalid bytes, one-line errors for a missing or broken model, and the timings' signatures."""

import importlib.util
import json
import shutil

import pytest
from test_token_engine import EN, cli, models  # noqa: F401 (the fixture models)

from charrestore import Restorer, base_text
from charrestore.cards import ModelError


def test_cli_stdin_contract(models):
    lines = ["will ai change our future", "", "what time is it   it is late", "   ", "iphone " * 2000]
    res = cli(models, "fix", "--engine", "pipeline", "--spaces", "keep", stdin=("\n".join(lines) + "\n").encode())
    assert res.returncode == 0, res.stderr
    out = res.stdout.decode().split("\n")
    assert out[-1] == "" and len(out) - 1 == len(lines)
    assert out[1] == "" and out[3] == ""
    assert [base_text(o, EN) for o in out[:-1]] == [base_text(i, EN) for i in lines]


def test_pipeline_refuses_the_models_own_spaces(models):
    with pytest.raises(ValueError, match="needs engine 'char'"):
        Restorer(lang="en", segmenter="none", models_dir=str(models))
    res = cli(models, "fix", "--segmenter", "none", "x")
    err = res.stderr.decode()
    assert res.returncode == 1 and len(err.strip().splitlines()) == 1 and "engine 'char'" in err


def test_pack_without_token_model_is_one_line_error(models):
    with pytest.raises(ModelError, match="no token model"):
        Restorer(lang="gu", engine="pipeline", models_dir=str(models))
    res = cli(models, "fix", "--lang", "gu", "--engine", "pipeline", "x")
    err = res.stderr.decode()
    assert res.returncode != 0 and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_corrupt_tokenizer_is_refused(models, tmp_path):
    broken = tmp_path / "models"
    shutil.copytree(models, broken)
    spm = broken / "en" / "token.spm"
    spm.write_bytes(spm.read_bytes()[:-10])
    with pytest.raises(ModelError, match="token.spm"):
        Restorer(lang="en", engine="pipeline", models_dir=str(broken))


def test_cli_invalid_utf8_passes_through(models):
    res = cli(models, "fix", "--engine", "pipeline", "--spaces", "keep", stdin=b"abc \xff\xfe def\n")
    assert res.returncode == 0
    assert b"\xff\xfe" in res.stdout and res.stdout.count(b"\n") == 1
    assert b"line 1" in res.stderr and b"Traceback" not in res.stderr


def test_bench_command_times_every_engine(models):
    res = cli(models, "bench", "--runs", "2", "--json")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["signature"].startswith("charrestore.bench|lang:en|threads:1|runs:2|text:table5|")
    assert [r["engine"] for r in out["rows"]] == ["char", "pipeline"]
    assert all(r["ms_per_doc"] > 0 and r["chars_per_s"] > 0 and r["model_mb"] > 0 for r in out["rows"])
    res = cli(models, "bench", "--runs", "1", "--engines", "pipeline", stdin=b"hello world\n\nwhat time is it\n")
    assert res.returncode == 0 and "|text:2 docs|chars:26|" in res.stdout.decode()
    res = cli(models, "bench", "--lang", "gu")
    err = res.stderr.decode()
    assert res.returncode == 1 and len(err.strip().splitlines()) == 1 and "Table-5" in err


def test_bench_times_despaced_text_beside_wordsegment(models):
    res = cli(models, "bench", "--runs", "1", "--despace", "--peer", "wordsegment", "--engines", "pipeline", "--json")
    if importlib.util.find_spec("wordsegment") is None:
        err = res.stderr.decode()
        assert res.returncode == 1 and len(err.strip().splitlines()) == 1 and "[bench]" in err
        return
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    # de-spaced as base_text gives it: letters only ("it's" is "its": en restores apostrophes)
    assert "|text:table5|despace:yes|chars:178|engines:pipeline|peer:wordsegment|" in out["signature"]
    assert [r["engine"] for r in out["rows"]] == ["pipeline", "wordsegment"]
    assert all(r["ms_per_doc"] > 0 and r["chars_per_s"] > 0 and r["model_mb"] > 0 for r in out["rows"])
