"""Issue #22, the items that need no new model: exact bytes, stderr, digit runs, marks before a combining mark,
U+0345, validated packs and cards, and the edges of the CLI. CLI tests run the shipped models in a subprocess."""

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from charrestore import Restorer, base_text, load_pack
from charrestore.codec import case_split, parse, render
from charrestore.packs import CAPS

ENGINES = ("char", "pipeline")


def cli(*args, stdin=b"", env=None, **kw):
    streams = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, **kw}
    return subprocess.run([sys.executable, "-m", "charrestore", *args], input=stdin, timeout=120, env=env, **streams)


# --- 3. exact bytes ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("engine", ENGINES)
def test_invalid_bytes_never_join_into_a_new_character(engine):
    res = cli("fix", "--engine", engine, "--spaces", "restore", stdin=b"price \xe2\x82 \xac5\n")
    assert res.returncode == 0
    assert b"\xe2\x82\xac" not in res.stdout  # no euro sign the input never had
    assert b" \xe2\x82 \xac" in res.stdout  # the spaces beside the invalid bytes stay
    assert res.stdout.count(b"\n") == 1


def test_invalid_bytes_keep_their_neighbours():
    en = load_pack("en")
    base, _ = parse("a\udce2\udc82\udcacb", en, apply_map=False)
    every = np.full(len(base), en.n_classes - 1)  # every mark and a space after every grapheme
    assert "A\udce2\udc82\udcacB" in render(base, every, en)  # nothing inside the run, nothing beside it
    for text in ("c\udce2?\udc82\udcac", "c\udce2 \udc82\udcac", "c\udce2.\udc82"):  # a given mark or space
        base, classes = parse(text, en, apply_map=False)  # between invalid bytes is text: never removed
        assert render(base, classes & ~en.mark_bits, en).lower() == text


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("spaces", ("auto", "keep", "restore"))
def test_restored_bytes_are_the_input_bytes_plus_features(engine, spaces):
    """Random byte strings as the CLI reads them: the output's bytes decode to the same text (no join)."""
    rng = np.random.default_rng(22)
    pieces = [b"a", b"b", b" ", b",", b".", b"?", b"5", b"\t", b"\xcc\x81", b"\xe2", b"\x82", b"\xac", b"\xc3", b"\xa9"]
    restorer, en = Restorer(lang="en", engine=engine, spaces=spaces), load_pack("en")
    for _ in range(150):
        text = b"".join(rng.choice(pieces, rng.integers(1, 16))).decode("utf-8", "surrogateescape")
        out = restorer(text)
        assert out.encode("utf-8", "surrogateescape").decode("utf-8", "surrogateescape") == out, (text, out)
        assert base_text(out, en) == base_text(text, en), (text, out)


@pytest.mark.parametrize("engine", ENGINES)
def test_json_gives_invalid_bytes_as_replacement_characters(engine):
    res = cli("fix", "--engine", engine, "--json", stdin=b"caf\xe9 au lait\n")
    assert res.returncode == 0
    out = json.loads(res.stdout)  # strict JSON: no lone surrogates
    assert "\ufffd" in out["text"] and not any("\ud800" <= c <= "\udfff" for c in out["text"])
    assert b"U+FFFD" in res.stderr


# --- 5. digit runs (char engine) ----------------------------------------------------------------------------------

@pytest.mark.parametrize("lang, text", [("en", "call 5551234567 now"), ("en", "callmeat5551234567now please"),
                                        ("gu", "આ ગામમાં 1200 લોકો રહે છે"), ("ja", "電話番号は5551234567です")])
def test_a_digit_run_takes_no_inner_mark(lang, text):
    digits = "".join(c for c in text if c.isdigit())
    out = Restorer(lang=lang, engine="char")(text)
    assert digits in out, out


def test_a_long_digit_line_keeps_its_length():
    digits = "".join(str(i * 7919 % 10) for i in range(5000))
    out = Restorer(lang="en", engine="char")(digits)
    assert out.startswith(digits) and len(out) <= len(digits) + 1  # a final mark at most


def test_digits_keep_the_marks_the_input_gives():
    out = Restorer(lang="en", engine="char", spaces="keep")("it went from $1,000 to 3.5 million")
    assert "$1,000" in out and "3.5" in out


# --- 6. a user's mark before a combining mark ---------------------------------------------------------------------

@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("spaces", ("auto", "keep", "restore"))
def test_mark_kept_when_a_combining_mark_follows_white_space(engine, spaces):
    text = "Hello,\t\u0301world"
    pack = load_pack("en")
    out = Restorer(lang="en", engine=engine, spaces=spaces)(text)
    assert "Hello,\t\u0301" in out.replace("HellO", "Hello")  # the user's comma, where the user put it
    assert base_text(out, pack) == base_text(text, pack)


# --- 7. U+0345 -----------------------------------------------------------------------------------------------------

def test_base_text_agrees_with_itself_on_ypogegrammeni():
    en = load_pack("en")
    # a capital rendered before a lone U+0345 fuses with it; the fused cluster must read back as that capital
    out = render(["\u03e1", "\u0345"], np.array([en.bit(CAPS), 0]), en)
    assert base_text(out, en) == base_text("\u03e1\u0345", en)
    assert case_split(out) == ("\u03e1\u0345", True)
    for low, up in (("\u1fb3", "\u1fbc"), ("\u1f80", "\u1f88")):  # ᾳ/ᾼ, ᾀ/ᾈ: capital letter, same marks
        assert base_text(up, en) == base_text(low, en) == low
        assert render([low], np.array([en.bit(CAPS)]), en) == up


# --- 4. warnings never on stdout -----------------------------------------------------------------------------------

def test_closed_stderr_keeps_warnings_off_stdout():
    res = cli("fix", "--engine", "char", stdin=b"caf\xe9\nok\n", preexec_fn=lambda: os.close(2))
    assert res.returncode == 0
    assert res.stdout.count(b"\n") == 2 and b"warning" not in res.stdout


def test_closed_stdout_is_a_one_line_error():
    res = cli("fix", "--engine", "char", "hello", preexec_fn=lambda: os.close(1))
    assert res.returncode == 1
    assert res.stderr.decode().splitlines() == ["charrestore: error: standard output is closed"]


@pytest.mark.parametrize("command", [("fix", "--lang", "fr"), ("segment", "--lang", "de")])
def test_every_line_is_out_when_the_process_ends_without_teardown(command, tmp_path):
    """``fix`` and ``segment`` end with ``os._exit`` once every line is flushed (cli_util.all_written): nothing of a
    large output may be lost, to a pipe or to a file, and a warning on stderr stays."""
    lines = b"".join(b"ligne%dsansespaces\n" % k for k in range(3000)) + b"caf\xe9\n"
    res = cli(*command, stdin=lines)
    assert res.returncode == 0 and res.stdout.count(b"\n") == 3001
    assert res.stdout.splitlines()[-1].lower().startswith(b"caf\xe9")  # its bytes as they came
    assert b"invalid UTF-8" in res.stderr
    with open(tmp_path / "out.txt", "wb") as out:
        res = cli(*command, stdin=lines, stdout=out)
    assert res.returncode == 0 and (tmp_path / "out.txt").read_bytes().count(b"\n") == 3001


# --- 9. CLI edges --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("args", [("fix", "--bogus"), ("fix", "--threads", "0", "x"), ("fix", "--threads", "5000", "x"),
                                  ("fix", "--thr", "1", "x"), ("fix", "--engine", "nope", "x"), ("--bogus",), (),
                                  ("segment", "--smooth", "2", "x"), ("fix", "--threads", "two", "x"),
                                  ("train", "char", "--lan", "en")])
def test_usage_errors_are_one_line_with_exit_2(args):
    res = cli(*args)
    assert res.returncode == 2, res.stderr
    assert len(res.stderr.decode().splitlines()) == 1, res.stderr
    assert res.stdout == b"" and b"Traceback" not in res.stderr


def test_threads_above_the_cores_names_the_bound():
    res = cli("fix", "--threads", str((os.cpu_count() or 1) + 1), "x")
    assert res.returncode == 2 and f"from 1 to {os.cpu_count() or 1}".encode() in res.stderr


def test_double_dash_ends_the_options():
    res = cli("fix", "--engine", "char", "--", "-hello", "--json")
    assert res.returncode == 0 and res.stdout.count(b"\n") == 1
    assert b"-hello" in res.stdout.lower() and not res.stdout.startswith(b"{")  # --json after -- is text
    assert b"'--'" in cli("fix", "--help").stdout


def _interrupt(proc, delay):
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    return proc.returncode, err


def _loaded(pid: int, library: str) -> bool:
    try:
        with open(f"/proc/{pid}/maps") as f:
            return library in f.read()
    except OSError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc to see the start-up's progress")
@pytest.mark.parametrize("library", ("numpy", "onnxruntime"))
def test_sigint_during_start_up_exits_130_without_traceback(library):
    """Interrupted while the runtime is being imported (numpy) or the models loaded (onnxruntime)."""
    proc = subprocess.Popen([sys.executable, "-m", "charrestore", "fix", "--spaces", "restore"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not _loaded(proc.pid, library) and time.monotonic() < deadline:
        time.sleep(0.002)
    code, err = _interrupt(proc, 0)
    assert code == 130 and b"Traceback" not in err, err


@pytest.mark.parametrize("delay", (0.0, 0.02, 0.1))
def test_sigint_at_end_of_input_never_gives_a_traceback(delay):
    proc = subprocess.Popen([sys.executable, "-m", "charrestore", "fix", "--engine", "char"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdin.write(b"hello world\n")
    proc.stdin.flush()
    assert proc.stdout.readline().strip()
    proc.stdin.close()
    proc.stdin = None  # closed: communicate must not flush it
    code, err = _interrupt(proc, delay)
    assert code in (0, 130) and b"Traceback" not in err, (code, err)


# --- 8. validated packs and cards, every model loaded at start ------------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent


def data_root(tmp_path, pack: str | None = None, card: dict | None = None, files: dict | None = None) -> dict:
    """A CHARRESTORE_DATA folder: the shipped packs and en models (linked), ``pack`` as languages/xx/pack.toml,
    ``card`` merged into models/en/char.json, ``files`` (name -> bytes) replacing files of models/en."""
    (tmp_path / "languages").mkdir()
    for lang in ("en", "ja", "gu"):
        (tmp_path / "languages" / lang).symlink_to(ROOT / "languages" / lang)
    if pack is not None:
        (tmp_path / "languages" / "xx").mkdir()
        (tmp_path / "languages" / "xx" / "pack.toml").write_text(pack, encoding="utf-8")
    models = tmp_path / "models" / "en"
    models.mkdir(parents=True)
    for f in (ROOT / "models" / "en").iterdir():
        (models / f.name).symlink_to(f)
    for name, data in (files or {}).items():
        (models / name).unlink()
        (models / name).write_bytes(data)
    if card is not None:
        merged = {**json.loads((ROOT / "models" / "en" / "char.json").read_text(encoding="utf-8")), **card}
        (models / "char.json").unlink()
        (models / "char.json").write_text(json.dumps({k: v for k, v in merged.items() if v is not None}))
    return {**os.environ, "CHARRESTORE_DATA": str(tmp_path)}


def one_line_error(res, *words):
    err = res.stderr.decode()
    assert res.returncode == 1 and res.stdout == b"", (res.returncode, err)
    assert len(err.splitlines()) == 1 and err.startswith("charrestore: error:"), err
    assert "unexpected" not in err and all(w in err for w in words), err


PACK = '[models]\nchar = "char"\n'


@pytest.mark.parametrize("pack, words", [
    ('features = "CAPS"\ncased = true\n' + PACK, ("'features'", "list")),
    ('features = ["CAPS", "x"]\ncased = true\n' + PACK, ("'features'", "'x'")),
    ('features = ["CAPS", "."]\ncased = "yes"\n' + PACK, ("'cased'",)),
    ('features = ["."]\nfeatures_typo = 1\n' + PACK, ("'features_typo'",)),
    ('features = ["."]\n[models]\nchar = "../../etc/char"\n', ("'models'", "../../etc/char")),
    ('features = ["."]\n[models]\nchar = "a/b/char"\n', ("'models'", "a/b/char")),
    ('features = ["."]\n[map]\n"!" = 1\n' + PACK, ("'map'",)),
    ("features = ['.']\ndeep = " + "[" * 5000 + "]" * 5000 + "\n" + PACK, ("nested",)),
    ("features = ['.']\ndeep = " + "[" * 50 + "]" * 50 + "\n" + PACK, ("nested",)),
])
def test_a_damaged_pack_is_a_one_line_error_naming_the_file_and_field(tmp_path, pack, words):
    res = cli("fix", "--lang", "xx", "hello", env=data_root(tmp_path, pack=pack))
    one_line_error(res, "pack.toml", *words)


@pytest.mark.parametrize("card, words", [
    ({"vocab": None}, ("'vocab'", "missing")),
    ({"window": "400"}, ("'window'", "whole number")),
    ({"features": "CAPS"}, ("'features'",)),
    ({"bias": {"CAPS": "high"}}, ("'bias'",)),
    ({"file": "../en/char.onnx"}, ("'file'",)),
    ({"sha256": 5}, ("'sha256'",)),
    ({"overlap": 500}, ("'overlap'",)),
    ({"kind": None}, ("'kind'",)),
])
def test_a_damaged_card_is_a_one_line_error_naming_the_file_and_field(tmp_path, card, words):
    res = cli("fix", "--engine", "char", "hello", env=data_root(tmp_path, card=card))
    one_line_error(res, "char.json", *words)


def test_a_deeply_nested_card_is_a_one_line_error(tmp_path):
    env = data_root(tmp_path)
    (tmp_path / "models" / "en" / "char.json").unlink()
    (tmp_path / "models" / "en" / "char.json").write_text("[" * 100000 + "]" * 100000)
    one_line_error(cli("fix", "--engine", "char", "hello", env=env), "char.json")


def test_a_swapped_model_with_a_matching_sha256_is_a_clear_error(tmp_path):
    """ja's char model (8 classes) in place of en's (32), its sha256 copied into the card."""
    swapped = (ROOT / "models" / "ja" / "char.onnx").read_bytes()
    env = data_root(tmp_path, card={"sha256": hashlib.sha256(swapped).hexdigest()}, files={"char.onnx": swapped})
    one_line_error(cli("fix", "--engine", "char", "hello world", env=env), "char.onnx", "does not fit", "32")


def test_a_swapped_token_model_is_a_clear_error(tmp_path):
    swapped = (ROOT / "models" / "en" / "char.onnx").read_bytes()
    env = data_root(tmp_path, files={"token.onnx": swapped})
    token = json.loads((ROOT / "models" / "en" / "token.json").read_text(encoding="utf-8"))
    token["sha256"] = hashlib.sha256(swapped).hexdigest()
    (tmp_path / "models" / "en" / "token.json").unlink()
    (tmp_path / "models" / "en" / "token.json").write_text(json.dumps(token))
    one_line_error(cli("fix", "--engine", "pipeline", "hello world", env=env), "token.onnx", "does not fit")


def test_a_bad_nb_model_fails_before_any_line_is_printed(tmp_path):
    env = data_root(tmp_path, files={"nb.counts": b"not the counts"})
    res = cli("fix", "--engine", "pipeline", stdin=b"hello world\nhelloworld\n", env=env)
    one_line_error(res, "nb.counts")


def test_the_api_checks_the_nb_model_when_the_restorer_is_built(tmp_path):
    """Restorer (not only the CLI) fails at construction, not on the first unspaced input (its card and sha256 are
    checked then; the counts are read on first use); spaces=keep never needs the segmenter, so it does not check it."""
    env = data_root(tmp_path, files={"nb.counts": b"not the counts"})
    code = ("from charrestore import Restorer\n"
            "Restorer(lang='en', engine='pipeline', spaces='keep')\n"
            "try:\n    Restorer(lang='en', engine='pipeline')\nexcept Exception as exc:\n    print(type(exc).__name__)\n")
    res = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True)
    assert res.returncode == 0 and res.stdout.decode().strip() == "ModelError", res.stderr.decode()


def test_a_pack_code_other_than_its_folder_is_refused(tmp_path):
    pack = 'code = "../en"\nfeatures = ["."]\n' + PACK
    one_line_error(cli("fix", "--lang", "xx", "hello", env=data_root(tmp_path, pack=pack)), "pack.toml", "'code'")
