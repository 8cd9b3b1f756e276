"""Unit symbols after a number keep their spelling: "3 kg", "30 mph", "5 kW", not "3 KG", "30 MPH" or "3, Kg".

The models read a rare symbol after a number as an acronym, or the number as a sentence's end: en's token model
wrote "3 KG", "3 MPH", "3. Km" (its training text is speech, where units are spelled out). A pack may list its unit
symbols (``units = ["km", "kg", "kW"]`` in pack.toml); after either engine decodes, a word that is a listed unit
(in any case) straight after a word ending in a digit takes the listed spelling, and the number takes no mark. What
the input typed stays: a capital, a mark.

>>> import numpy as np
>>> base, cls = list("3kgnow"), np.array([2 | 4, 1, 1 | 4, 0, 0, 0])  # CAPS 1, "." 2, SPACE 4: "3. KG now"
>>> out = unit_case(base, cls, {"kg": "kg"}, caps_bit=1, space_bit=4, mark_bits=2, kept=np.zeros(6, int))
>>> "".join(g.upper() if c & 1 else g for g, c in zip(base, out)), (out & 2).tolist()
('3kgnow', [0, 0, 0, 0, 0, 0])
"""

from __future__ import annotations

import numpy as np


def unit_case(base: list[str], cls: np.ndarray, units: dict[str, str], caps_bit: int, space_bit: int,
              mark_bits: int, kept: np.ndarray) -> np.ndarray:
    """``cls`` with every listed unit after a number spelled as listed (``units``: small letters -> spelling) and
    no mark after its number, but where ``kept`` (the input's classes) has a capital or a mark."""
    if not units or not space_bit or len(base) < 2:
        return cls
    cuts = (np.flatnonzero(cls[:-1] & space_bit) + 1).tolist()
    for s, e in zip(cuts, [*cuts[1:], len(base)]):
        spelling = units.get("".join(base[s:e]).lower()) if base[s - 1][:1].isdigit() else None
        if spelling is None or len(spelling) != e - s:
            continue
        cls[s - 1] = (cls[s - 1] & ~mark_bits) | (kept[s - 1] & mark_bits)
        if caps_bit:
            for k, c in enumerate(spelling, s):
                cls[k] = cls[k] | caps_bit if c.isupper() or kept[k] & caps_bit else cls[k] & ~caps_bit
    return cls
