"""Every shipped pack through the CLI, as a user meets it, on its tiny fixture char model (tests/fixtures/models/<code>,
made by scripts/make_fixture_models.py from tests/fixtures/text/<code>.txt): one line out per line in, nothing lost,
the input's words kept with ``--spaces keep``. A new pack needs a fixture text and model before this passes."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from charrestore import base_text, load_pack
from charrestore.codec import parse, render
from charrestore.packs import available_packs

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"


@pytest.fixture(scope="module")
def env(tmp_path_factory) -> dict:
    """A CHARRESTORE_DATA folder: the shipped packs, and each pack's fixture char model as its only model (in the
    pack's own folder, or in the folder of a model that several packs share: deru/char)."""
    root = tmp_path_factory.mktemp("data")
    (root / "languages").symlink_to(ROOT / "languages")
    for code in available_packs():
        folder = load_pack(code).models["char"].rpartition("/")[0] or code
        if (root / "models" / folder).is_dir():
            continue
        (root / "models" / folder).mkdir(parents=True)
        for name in ("char.json", "char.onnx"):
            (root / "models" / folder / name).symlink_to(FIXTURES / "models" / folder / name)
    return {**os.environ, "CHARRESTORE_DATA": str(root)}


def sample(code: str) -> tuple[str, str]:
    """(unspaced, spaced) lower-case forms without marks of the first line of the pack's fixture text."""
    pack = load_pack(code)
    base, classes = parse((FIXTURES / "text" / f"{code}.txt").read_text(encoding="utf-8").splitlines()[0], pack)
    spaced = render(base, classes & pack.bit("SPACE"), pack)
    return "".join(spaced.split()), spaced


@pytest.mark.parametrize("code", available_packs())
def test_fix_through_the_cli(env, code):
    pack = load_pack(code)
    unspaced, spaced = sample(code)
    lines = f"{unspaced}\n\n{spaced}\n"
    res = subprocess.run([sys.executable, "-m", "charrestore", "fix", "--lang", code, "--engine", "char"],
                         input=lines, capture_output=True, text=True, env=env, timeout=120)
    assert res.returncode == 0, res.stderr
    out = res.stdout.split("\n")
    assert len(out) == 4 and out[1] == "" and out[3] == ""
    for given, restored in ((unspaced, out[0]), (spaced, out[2])):
        assert base_text(restored, pack) == base_text(given, pack)
    if pack.bit("SPACE"):  # auto keeps the words of spaced input
        assert [base_text(w, pack) for w in out[2].split()] == [base_text(w, pack) for w in spaced.split()]

    named = subprocess.run([sys.executable, "-m", "charrestore", "fix", "--lang", code, "--engine", "char", "--json",
                            "--spaces", "keep", spaced], capture_output=True, text=True, env=env, timeout=120)
    assert named.returncode == 0, named.stderr
    row = json.loads(named.stdout)
    assert (row["lang"], row["engine"], row["spaces"]) == (code, "char", "keep")
    assert base_text(row["text"], pack) == base_text(spaced, pack)


@pytest.mark.parametrize("code", [c for c in available_packs() if load_pack(c).ready("nb")])
def test_segment_through_the_cli_with_the_shipped_counts(code):
    """``segment`` on every pack that ships NB counts: spaces inserted, nothing else changed, most words right."""
    unspaced, spaced = sample(code)
    res = subprocess.run([sys.executable, "-m", "charrestore", "segment", "--lang", code, unspaced],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    out = res.stdout.rstrip("\n")
    assert out.replace(" ", "") == unspaced
    assert len(set(out.split()) & set(spaced.split())) >= 0.6 * len(set(spaced.split()))


@pytest.mark.parametrize("code", available_packs())
def test_segment_with_the_char_models_spaces(env, code):
    """``segment --method char``: every space decided again by the char model, nothing else changed (the default
    where a pack has a char model and no NB counts, as in this folder); a pack without SPACE is a one-line error."""
    pack = load_pack(code)
    unspaced, spaced = sample(code)
    words = spaced.split()
    wrong = " ".join(w[:2] + " " + w[2:] if len(w) > 3 else w for w in words)  # spaces in the wrong places
    res = subprocess.run([sys.executable, "-m", "charrestore", "segment", "--lang", code],
                         input=f"{unspaced}\n{wrong}\n", capture_output=True, text=True, env=env, timeout=120)
    if not pack.has_space:
        assert res.returncode == 1 and res.stderr.count("\n") == 1 and "no SPACE feature" in res.stderr
        return
    assert res.returncode == 0, res.stderr
    out = res.stdout.split("\n")
    assert len(out) == 3 and out[2] == ""
    for given, got in ((unspaced, out[0]), (wrong, out[1])):
        assert got.replace(" ", "") == given.replace(" ", "")
    named = subprocess.run([sys.executable, "-m", "charrestore", "segment", "--lang", code, "--method", "char", "--json",
                            unspaced], capture_output=True, text=True, env=env, timeout=120)
    assert json.loads(named.stdout) == {"text": out[0], "lang": code, "method": "char"}


@pytest.mark.parametrize("code", available_packs())
def test_a_word_typed_in_another_script_stays_one_word(env, code):
    """A word of a script the pack does not write, typed with a capital ("YouTube" in Korean, "Москва" in
    German), comes back as typed in text that has spaces: no space, mark or case change inside it, glued to a word
    or not, whether the spaces are restored or kept. Without spaces (a pack with SPACE) a capitalised run may hold
    several words (unspaced Thai keeps the case of its Latin letters), and only nothing is lost."""
    pack = load_pack(code)
    assert pack.scripts, "every pack names the scripts it writes"
    word = "МосКва" if "Latin" in pack.scripts else "YouTube"
    unspaced, spaced = sample(code)
    middle = len(spaced.split()) // 2
    words = spaced.split()
    lines = [unspaced[:len(unspaced) // 2] + word + unspaced[len(unspaced) // 2:],
             " ".join(words[:middle] + [word + (words[middle] if middle < len(words) else "")] + words[middle + 1:])]
    for spaces in ("restore", "keep"):
        res = subprocess.run([sys.executable, "-m", "charrestore", "fix", "--lang", code, "--engine", "char",
                              "--spaces", spaces], input="\n".join(lines) + "\n", capture_output=True, text=True,
                             env=env, timeout=120)
        assert res.returncode == 0, res.stderr
        for given, out in zip(lines, res.stdout.splitlines()):
            assert base_text(out, pack) == base_text(given, pack)
            if " " in given or not pack.has_space:
                assert word in out, (code, spaces, given, out)
