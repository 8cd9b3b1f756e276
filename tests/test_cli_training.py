"""`charrestore train` / `export`: dispatch to the training modules, and one-line errors before TensorFlow starts."""

import subprocess
import sys


def cli(*args):
    return subprocess.run([sys.executable, "-m", "charrestore", *args], capture_output=True, text=True)


def test_train_help_lists_the_kinds():
    res = cli("train", "--help")
    assert res.returncode == 0
    assert "char, nb, token" in res.stdout


def test_train_char_help_shows_its_options():
    res = cli("train", "char", "--help")
    assert res.returncode == 0
    for option in ("--corpus", "--resume-from", "--save-state", "--max-minutes"):
        assert option in res.stdout


def test_unknown_kind_is_a_usage_error():
    res = cli("train", "bogus")
    assert res.returncode == 2
    assert "invalid choice" in res.stderr


def test_missing_corpus_is_one_line(tmp_path):
    res = cli("train", "char", "--lang", "en", "--corpus", str(tmp_path / "none.tsv"), "--out", str(tmp_path / "run"))
    assert res.returncode == 1
    assert res.stderr.strip().count("\n") == 0
    assert "none.tsv" in res.stderr and "Traceback" not in res.stderr
    assert "tensorflow" not in res.stderr.lower()


def test_export_without_a_trained_run_is_one_line(tmp_path):
    res = cli("export", "char", "--run", str(tmp_path), "--lang", "en", "--out", str(tmp_path / "models"))
    assert res.returncode == 1
    assert res.stderr.startswith("charrestore: error:") and res.stderr.count("\n") == 1
    assert "train char" in res.stderr


def test_bad_option_of_a_kind_is_a_usage_error(tmp_path):
    res = cli("train", "char", "--lang", "en", "--bogus")
    assert res.returncode == 2
    assert "charrestore train char" in res.stderr
