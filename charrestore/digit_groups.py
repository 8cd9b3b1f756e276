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

A number typed in groups with spaces between them is one number too (``typed_groups``): a phone number ("555 123
4567", "06 12 34 56 78", "+49 30 1234567") or an amount ("1 200 000", "20 000") takes no mark between its groups,
where the models read the spaces as word ends ("555, 123, 4567"). A list of numbers stays the models' to mark ("10,
20, 30", "2018, 2019 and 2020"): only groups a list would not hold make a number (one that starts with 0 or "+", the
three, three and four digits of a North American number, a later group of three that is no round hundred; a
number after another, "2019 20 000", is one).

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
    cls = typed_groups(base, cls, pack, given, protected)
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


def typed_groups(base: list[str], cls: np.ndarray, pack: LanguagePack, given: np.ndarray,
                 protected: np.ndarray | None = None) -> np.ndarray:
    """``cls`` without the marks the engines put between the groups of a number typed with spaces in it, its typed
    spaces kept (module docstring).

    >>> import numpy as np
    >>> from charrestore import load_pack
    >>> en = load_pack("en")
    >>> base, given = list("at5551234567ok"), np.zeros(14, int)
    >>> given[[1, 4, 7, 11]] = en.bit("SPACE")  # "at 555 123 4567 ok"
    >>> cls = given | np.isin(np.arange(14), [4, 7]) * en.bit(",")  # the model's "555, 123,"
    >>> typed_groups(base, cls, en, given).tolist() == given.tolist()
    True
    """
    space_bit = pack.bit(SPACE)
    if not space_bit or not (given & space_bit).any():
        return cls
    n, k = len(base), 0
    while k < n:
        if not _digit(base[k]) or (k and (_digit(base[k - 1]) or _joins(base[k - 1]) and base[k - 1] != "+"
                                          and not given[k - 1] & space_bit)):
            k += 1
            continue
        plus = (k > 0 and base[k - 1] == "+" and not given[k - 1] & space_bit
                and (k == 1 or given[k - 2] & space_bit or not _joins(base[k - 2])))
        groups, e = [], k
        while True:
            a = e
            while e < n and _digit(base[e]) and (e == a or not given[e - 1] & (space_bit | pack.mark_bits)):
                e += 1
            groups.append((a, e))
            if not (e < n and _digit(base[e]) and given[e - 1] & space_bit and not given[e - 1] & pack.mark_bits):
                break
        closed = e == n or given[e - 1] & (space_bit | pack.mark_bits) or not _joins(base[e])
        forms = ["".join(base[a:b]) for a, b in groups]
        if not _one_number(forms, plus) and _one_number(forms[1:], False, phone=False):  # "2019 20 000"
            groups, forms, plus = groups[1:], forms[1:], False
        if closed and _one_number(forms, plus) and (protected is None or not protected[groups[0][0]:e].any()):
            for a, b in groups[:-1]:
                cls[a:b] = (cls[a:b] & ~(pack.mark_bits | space_bit)) | (given[a:b] & space_bit)
            a, b = groups[-1]
            cls[a:b - 1] &= ~(pack.mark_bits | space_bit)
            if plus:  # "+49": no mark after the sign
                cls[k - 1] = (cls[k - 1] & ~(pack.mark_bits | space_bit)) | given[k - 1]
        k = e
    return cls


def _one_number(groups: list[str], plus: bool, phone: bool = True) -> bool:
    """Whether digit groups typed with spaces between them are one number (a phone number, an amount in groups of
    three) rather than a list of numbers.

    >>> [_one_number(g.split(), False) for g in ("555 123 4567", "06 12 34 56 78", "1 200 000", "20 000")]
    [True, True, True, True]
    >>> [_one_number(g.split(), False) for g in ("10 20 30", "2018 2019 2020", "100 200 300", "1 400", "1 9 7 0 4",
    ...                                          "2020 04 01", "100 500 1000")]
    [False, False, False, False, False, False, False]
    """
    lengths = [len(g) for g in groups]
    if len(groups) < 2 or sum(lengths) > 15:
        return False
    later = groups[1:]
    amount = (lengths[0] <= 3 and groups[0][0] != "0" and all(n == 3 for n in lengths[1:])
              and any(g.startswith("0") or int(g) % 100 for g in later)
              and (len(groups) >= 3 or later[0].startswith("0")))
    return amount or phone and len(groups) >= 3 and (
        ((plus or groups[0].startswith("0")) and all(2 <= n <= 8 for n in lengths[1:]))
        or lengths == [3, 3, 4] and any(int(g) % 10 for g in groups))  # not round: "100 500 1000" is a list


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
