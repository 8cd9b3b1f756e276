"""The property that both engines keep what the input fixes: its marks, and the capitals of mixed-case input."""

import numpy as np

from charrestore.codec import kept_features, parse


def input_marks_kept(text: str, out: str, pack) -> bool:
    """Every kept feature of ``text`` (``kept_features``: marks; capitals if mixed-case) is set on the same base
    grapheme of ``out`` (True when the graphemes do not align, which only happens when a space added before a
    combining sign merges two clusters)."""
    base_in, cls_in = parse(text, pack, apply_map=False)
    base_out, cls_out = parse(out, pack, apply_map=False)
    if base_in != base_out:
        return True
    kept = kept_features(text, cls_in, pack).astype(np.int64)
    return bool(((np.asarray(cls_out, np.int64) & kept) == kept).all())
