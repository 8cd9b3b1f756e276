"""Digits in the char engine: a number is the input's own, so the model adds no mark inside a run of digits, and
where spaces are restored a space typed inside one stays."""

from __future__ import annotations

import numpy as np


def inside_digits(base: list[str]) -> np.ndarray:
    """Graphemes followed by a digit within a run of digits: they take no mark the input does not give them
    (a phone number stays whole); a run's marks follow its last digit.

    >>> inside_digits(list("a 5551")).tolist()
    [False, False, True, True, True, False]
    """
    digit = np.fromiter((g.isdigit() for g in base), bool, len(base))
    return np.concatenate([digit[:-1] & digit[1:], [False]]) if len(base) else digit


def number_gaps(base: list[str], spaced: np.ndarray) -> np.ndarray:
    """Graphemes followed by a typed space and then a digit, digits themselves: where spaces are restored, that
    space stays (a number's own format, "1 000", or two numbers, "1999 2000").

    >>> number_gaps(list("a1000"), np.array([1, 1, 0, 0, 0])).tolist()
    [False, True, False, False, False]
    """
    digit = np.fromiter((g.isdigit() for g in base), bool, len(base))
    return np.concatenate([digit[:-1] & digit[1:] & (spaced[:-1] != 0), [False]]) if len(base) else digit
