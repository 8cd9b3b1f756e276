"""Byte-identical outputs of the shipped models on a fixed set of inputs (written by scripts/make_golden.py).

A refactor must keep every one; a change meant to alter outputs regenerates the file and says why.
"""

import json
from collections import defaultdict
from pathlib import Path

import pytest

from charrestore import Restorer

CASES = json.loads((Path(__file__).parent / "golden" / "golden.json").read_text(encoding="utf-8"))
GROUPS = defaultdict(list)
for case in CASES:
    GROUPS[(case["lang"], case["engine"], case["spaces"], case.get("segmenter", "auto"))].append(case)


def test_golden_covers_every_pack_engine_and_input_kind():
    assert len(CASES) >= 200
    assert {c["lang"] for c in CASES} >= {"en", "ja", "gu"}
    assert {c["engine"] for c in CASES} == {"char", "pipeline"}
    assert any(" " not in c["input"] and len(c["input"]) > 20 for c in CASES)


@pytest.mark.parametrize("key", sorted(GROUPS), ids=lambda k: "-".join(k))
def test_outputs_are_byte_identical(key):
    lang, engine, spaces, segmenter = key
    restorer = Restorer(lang=lang, engine=engine, spaces=spaces, segmenter=segmenter)
    got = [restorer(c["input"]) for c in GROUPS[key]]
    assert got == [c["output"] for c in GROUPS[key]]
