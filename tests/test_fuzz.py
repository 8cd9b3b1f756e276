"""Issue #22: a short coverage-guided fuzz run of scripts/fuzz.py (the codec, the NB segmenter, long-line pieces
and both engines, with their invariants); the long local run is `python scripts/fuzz.py -runs=1000000`."""

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("atheris", reason="atheris has wheels for Linux x86_64 only")
SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "fuzz.py"


def test_a_short_fuzz_run_finds_no_crash_and_no_violation(tmp_path):
    res = subprocess.run([sys.executable, str(SCRIPT), "-runs=3000", "-seed=7", "-max_len=256"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-3000:]
    assert "Done 3000 runs" in res.stderr
    assert not list(tmp_path.glob("crash-*"))
