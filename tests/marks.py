"""The property that both engines keep the input's own marks: each mark of the input is still on its grapheme."""

import numpy as np

from charrestore.codec import parse


def input_marks_kept(text: str, out: str, pack) -> bool:
    """Every mark bit of ``text`` is set on the same base grapheme of ``out`` (True when the graphemes do not
    align, which only happens when a space added before a combining sign merges two clusters)."""
    base_in, cls_in = parse(text, pack, apply_map=False)
    base_out, cls_out = parse(out, pack, apply_map=False)
    if base_in != base_out:
        return True
    marks = sum(pack.bit(m) for m in pack.marks)
    given = np.asarray(cls_in, np.int64) & marks
    return bool(((np.asarray(cls_out, np.int64) & given) == given).all())
