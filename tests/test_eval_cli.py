"""The eval CLI (``charrestore eval``): the same numbers as the API, JSON and tables, awkward files, one-line errors,
and the optional plot."""

import json
import os
import subprocess
import sys

import pytest
from test_evaluation import EN, HYP, REF, ROOT, approx

from charrestore.cli import main
from charrestore.evaluation import evaluate_char, signature


@pytest.fixture
def files(tmp_path):
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text(REF + "\nYes. No\n", encoding="utf-8")
    hyp.write_text(HYP + "\nyes, No\n", encoding="utf-8")
    return ref, hyp


def test_cli_json(files, capsys):
    ref, hyp = files
    assert main(["eval", "--lang", "en", "--ref", str(ref), "--hyp", str(hyp), "--json", "--spaces", "keep"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["level"] == "char" and d["signature"] == signature(EN, "char", spaces="keep")
    assert d["wer"] == approx(4 / 7) and (d["wer_edits"], d["ref_words"]) == (4, 7)
    assert d["features"]["CAPS"]["tp"] == 2 and d["features"]["CAPS"]["fn"] == 2
    assert d["ALL"] == evaluate_char([REF, "Yes. No"], [HYP, "yes, No"], EN).all.to_dict()
    assert d["lines"] == {"ref": 2, "hyp": 2, "scored": 2, "base_mismatch": 0}
    assert main(["eval", "--lang", "en", "--ref", str(ref), "--hyp", str(hyp), "--json", "--level", "token"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["level"] == "token" and d["punctuation"]["confusion"]["labels"] == ["O", "COMMA", "PERIOD", "QUESTION"]


def test_cli_table_and_self(files, capsys):
    ref, _ = files
    assert main(["eval", "--lang", "en", "--ref", str(ref), "--hyp", str(ref)]) == 0
    out = capsys.readouterr().out
    assert "ALL" in out and "100.00" in out and "WER 0.00 %" in out and "charrestore.eval|lang:en" in out
    assert main(["eval", "--lang", "en", "--ref", str(ref), "--hyp", str(ref), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["ALL"]["f1"] == 1.0 and d["wer"] == 0.0


def test_cli_line_endings_bom_and_invalid_utf8(tmp_path, capsys):
    ref, hyp = tmp_path / "r.txt", tmp_path / "h.txt"
    ref.write_bytes("\ufeffHello, world.\r\nBye.\r\n".encode())
    hyp.write_bytes(b"Hello, world.\nBye\xff.")                 # no final newline, one invalid byte
    assert main(["eval", "--lang", "en", "--ref", str(ref), "--hyp", str(hyp), "--json"]) == 0
    cap = capsys.readouterr()
    d = json.loads(cap.out)
    assert d["lines"] == {"ref": 2, "hyp": 2, "scored": 2, "base_mismatch": 1}
    assert "invalid UTF-8" in cap.err and d["features"]["CAPS"]["tp"] == 2


def test_cli_different_line_counts(files, tmp_path, capsys):
    ref, _ = files
    short = tmp_path / "short.txt"
    short.write_text(REF + "\n", encoding="utf-8")
    assert main(["eval", "--lang", "en", "--ref", str(ref), "--hyp", str(short), "--json"]) == 0
    cap = capsys.readouterr()
    assert json.loads(cap.out)["lines"] == {"ref": 2, "hyp": 1, "scored": 1, "base_mismatch": 0}
    assert "2 reference lines but 1 hypothesis lines" in cap.err


def test_cli_errors(files, tmp_path, capsys):
    ref, hyp = files
    assert main(["eval", "--lang", "en", "--ref", str(tmp_path / "missing.txt"), "--hyp", str(hyp)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "missing.txt" in err and err.startswith("charrestore: error:")
    assert main(["eval", "--lang", "en", "--ref", str(tmp_path), "--hyp", str(hyp)]) == 1
    assert capsys.readouterr().err.count("\n") == 1
    assert main(["eval", "--lang", "xx", "--ref", str(ref), "--hyp", str(hyp)]) == 1
    assert "no language pack" in capsys.readouterr().err
    assert main(["eval", "--lang", "ja", "--ref", str(ref), "--hyp", str(hyp), "--level", "token"]) == 1
    assert "no SPACE" in capsys.readouterr().err
    assert main(["eval", "--lang", "en", "--ref", str(ref), "--hyp", str(hyp), "--level", "word"]) == 2
    assert main(["eval", "--lang", "en", "--ref", str(ref)]) == 2


def test_cli_subprocess_missing_file_is_one_line(tmp_path):
    res = subprocess.run([sys.executable, "-m", "charrestore", "eval", "--lang", "en",
                          "--ref", str(tmp_path / "nope.txt"), "--hyp", str(tmp_path / "nope.txt")],
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 1 and res.stdout == ""
    assert res.stderr.count("\n") == 1 and "Traceback" not in res.stderr


def test_cli_plot(files, tmp_path, capsys):
    pytest.importorskip("matplotlib")
    ref, hyp = files
    for level in ("char", "token"):
        png = tmp_path / f"{level}.png"
        assert main(["eval", "--lang", "en", "--ref", str(ref), "--hyp", str(hyp), "--level", level,
                     "--plot", str(png)]) == 0
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["eval", "--lang", "en", "--ref", str(ref), "--hyp", str(hyp),
                 "--plot", str(tmp_path / "no" / "dir" / "x.png")]) == 1
    assert capsys.readouterr().err.strip().count("\n") == 0


def test_cli_plot_without_matplotlib(files, tmp_path):
    ref, hyp = files
    blocker = tmp_path / "block"
    blocker.mkdir()
    (blocker / "matplotlib.py").write_text("raise ImportError('no matplotlib here')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(blocker), str(ROOT)])}
    res = subprocess.run([sys.executable, "-m", "charrestore", "eval", "--lang", "en", "--ref", str(ref),
                          "--hyp", str(hyp), "--plot", str(tmp_path / "c.png")],
                         capture_output=True, text=True, env=env, timeout=60)
    assert res.returncode == 1 and "matplotlib" in res.stderr and res.stderr.count("\n") == 1
    assert not (tmp_path / "c.png").exists()
