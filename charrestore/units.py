"""Unit symbols after a number keep their spelling: "3 kg", "30 mph", "5 kW", not "3 KG", "30 MPH" or "3, Kg".

The models read a rare symbol after a number as an acronym, or the number as a sentence's end: en's token model
wrote "3 KG", "3 MPH", "3. Km" (its training text is speech, where units are spelled out). A pack may list its unit
symbols (``units = ["km", "kg", "kW"]`` in pack.toml), and the abbreviated number words that follow a number as
units do, with their final mark ("Mio.", "млн"), or of several words ("por ciento"); after either engine decodes, a
listed unit (in any case, without its marks) straight after a word ending in a digit (or in a digit and one of the
pack's ``ordinal_suffixes``: "1er janvier") takes the listed spelling, and
the number, the words of a unit of several but its last, and the letters inside a unit's words take no mark but
those of its spelling ("3 pm" -> "3 p.m."). A joining unit (``joining_units = ["h"]``) between two numbers of one
quantity takes none either: "10 h 30", not "10 h, 30" (a list of units keeps its commas: "3 kg, 5 kg"). What the
input typed stays: a capital, a mark.

>>> import numpy as np
>>> from charrestore import load_pack
>>> en = load_pack("en")
>>> caps, dot, space = en.bit("CAPS"), en.bit("."), en.bit("SPACE")
>>> base, cls = list("3kgnow"), np.array([dot | space, caps, caps | space, 0, 0, 0])  # "3. KG now"
>>> out = unit_case(base, cls, en, kept=np.zeros(6, int))
>>> "".join(g.upper() if c & caps else g for g, c in zip(base, out)), bool((out & dot).any())
('3kgnow', False)
"""

from __future__ import annotations

import numpy as np

from .labels import words
from .packs import CAPS, LanguagePack


def unit_case(base: list[str], cls: np.ndarray, pack: LanguagePack, kept: np.ndarray) -> np.ndarray:
    """``cls`` with every unit of ``pack.units`` after a number spelled as listed and no mark after its number, nor
    between the words of a unit of several ("por ciento"), nor after a joining unit before a number; but where
    ``kept`` (the input's classes) has a capital or a mark."""
    if not pack.units:
        return cls
    caps_bit, mark_bits = pack.bit(CAPS), pack.mark_bits
    spans = words(base, cls, pack)
    longest = max(u.count(" ") for u in pack.units) + 1
    for k in range(1, len(spans)):
        if not _number_before(base, spans[k - 1], pack.ordinal_suffixes):
            continue
        for n in range(min(longest, len(spans) - k), 0, -1):  # the longest listed unit first
            key = " ".join("".join(base[a:b]).lower() for a, b in spans[k:k + n])
            if key in pack.units:
                break
        else:
            continue
        spelled = [_spelled(w, pack) for w in pack.units[key].split(" ")]
        if any(len(w) != b - a for w, (a, b) in zip(spelled, spans[k:k + n])):
            continue
        j = spans[k][0] - 1  # the number
        cls[j] = (cls[j] & ~mark_bits) | (kept[j] & mark_bits)
        s, e = spans[k + n - 1]
        # the unit's letters take their listed marks ("a.m.", "Mio."), what the input typed, or none ("pm", not "p.m")
        for j, (c, bits) in zip(range(spans[k][0], e), (x for w in spelled for x in w)):
            if j < e - 1:
                cls[j] = (cls[j] & ~mark_bits) | (kept[j] & mark_bits or bits)
            elif not kept[j] & mark_bits:
                cls[j] |= bits
            if caps_bit:
                cls[j] = cls[j] | caps_bit if c.isupper() or kept[j] & caps_bit else cls[j] & ~caps_bit
        if e < len(base) and base[e][:1].isdigit() and "".join(base[s:e]).lower() in pack.joining_units:
            cls[e - 1] = (cls[e - 1] & ~mark_bits) | (kept[e - 1] & mark_bits)
    return cls


def _number_before(base: list[str], span: tuple[int, int], ordinals: tuple[str, ...]) -> bool:
    """Whether the word at ``span`` ends in a digit ("12"), or in a digit and an ordinal suffix ("1er janvier")."""
    word = "".join(base[span[0]:span[1]]).lower()
    return base[span[1] - 1][:1].isdigit() or any(
        word.endswith(o) and word[:-len(o)][-1:].isdigit() for o in ordinals)


def _spelled(word: str, pack: LanguagePack) -> list[tuple[str, int]]:
    """Each letter of a listed spelling with the bits of the pack's marks written after it: "a.m." -> a ".", m "."."""
    out: list[tuple[str, int]] = []
    for c in word:
        if c in pack.marks and out:
            out[-1] = (out[-1][0], out[-1][1] | pack.bit(c))
        else:
            out.append((c, 0))
    return out
