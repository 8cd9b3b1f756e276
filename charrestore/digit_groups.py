"""Long numbers get the pack's thousands separator: "170000" -> "170.000" (es, vi), "170,000" (en, ko), "170 000"
(de, fr, ru).

The engines keep a run of digits as typed: no model guesses a mark inside a number ("35" may be "3,5" or 35). But a
run of five to nine digits typed without a separator is, in the training and dev text of these packs, nearly always
an amount written in groups of three ("40.000", "170 000"); years have four digits, a phone number ten or more. A pack
names its separator (``thousands`` in pack.toml: one of its marks, or " "); after either engine decodes, such a run
gets it before every third digit from its end, in place of the spaces the segmenter may have cut it with ("2500
000": its counts hold "000" as a word). A run stays as typed where a mark was typed inside it (a space ends it),
where it starts with 0 ("00123"), inside a protected span (an address, a tag), where a letter or a sign of codes
touches it ("A38000", "+4917012345", "0170-12345"), and, for " ", where the spaces are kept as typed.

>>> import numpy as np
>>> from charrestore import load_pack
>>> es = load_pack("es")
>>> dot, space = es.bit("."), es.bit("SPACE")
>>> base = list("costó1700000euros")
>>> cls = np.zeros(len(base), int); cls[[4, 11]] = space  # "costó 1700000 euros"
>>> out = digit_groups(base, cls, es, given=np.zeros(len(base), int))
>>> "".join(g + ("." if c & dot else "") + (" " if c & space else "") for g, c in zip(base, out))
'costó 1.700.000 euros'
"""

from __future__ import annotations

import numpy as np

from .packs import SPACE, LanguagePack

MIN_DIGITS = 5  # the shortest run that is grouped: four digits are most often a year ("2023")
MAX_DIGITS = 9  # the longest: ten digits or more are a phone number or an ID as often as an amount ("5551234567")
CODE_SIGNS = "+-/:#@_&=\u2010\u2011"  # a run beside one is a phone number, a date, a code ("+4917012345", "0170-12345")


def digit_groups(base: list[str], cls: np.ndarray, pack: LanguagePack, given: np.ndarray, keep: bool = False,
                 protected: np.ndarray | None = None) -> np.ndarray:
    """``cls`` with the pack's thousands separator inside every long run of digits that is a word of its own
    (module docstring), and no other mark or space the engines put inside it ("2500 000": the segmenter's);
    ``given``: the input's classes, whose spaces and marks end or keep a run; ``protected``: graphemes inside
    protected spans."""
    sep = pack.thousands
    space_bit = pack.bit(SPACE)
    bit = space_bit if sep == " " else pack.bit(sep) if sep else 0
    if not bit or (sep == " " and keep):
        return cls
    n, k = len(base), 0
    while k < n:
        if not _digit(base[k]):
            k += 1
            continue
        e = k + 1
        while e < n and _digit(base[e]) and not given[e - 1] & space_bit:
            e += 1
        for a, b in _runs(cls, k, e, space_bit):
            alone = (a == 0 or not _joins(base[a - 1]) or cls[a - 1] & space_bit) and (
                b == n or not _joins(base[b]) or cls[b - 1] & space_bit)
            typed = (given[a:b - 1] & pack.mark_bits).any()  # a decimal, a date: "3,14159", "1.5.2023"
            if (MIN_DIGITS <= b - a <= MAX_DIGITS and alone and base[a] != "0" and not typed
                    and (protected is None or not protected[a:b].any())):
                cls[a:b - 1] &= ~(pack.mark_bits | space_bit)
                cls[np.arange(b - 4, a - 1, -3)] |= bit  # the digit before each group of three from the end
        k = e
    return cls


def _runs(cls: np.ndarray, k: int, e: int, space_bit: int) -> list[tuple[int, int]]:
    """The numbers in the digits ``k:e`` (no space typed between them): one, where the engines' spaces cut it only
    into whole groups of three after the first ("2500 000", "1 200000"); else each piece between those spaces
    ("1945 1946")."""
    cuts = [i + 1 for i in range(k, e - 1) if cls[i] & space_bit]
    pieces = list(zip([k, *cuts], [*cuts, e]))
    return [(k, e)] if all((b - a) % 3 == 0 for a, b in pieces[1:]) else pieces


def _joins(g: str) -> bool:
    """A grapheme that makes a run of digits next to it part of a word or a code ("A38000", "+4917012345")."""
    return g[0].isalpha() or g in CODE_SIGNS


def _digit(g: str) -> bool:
    """An ASCII digit (a grapheme of one)."""
    return len(g) == 1 and "0" <= g <= "9"
