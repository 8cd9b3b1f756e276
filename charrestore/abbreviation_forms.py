"""Abbreviations written as the language writes them: "zb" -> "z. B.", "eeuu" -> "EE. UU.", "г" -> "г.".

A char model learns the marks of the abbreviations its training text holds, and news is full of ones it holds
none of: the Bundestag's speeches say "zum Beispiel", the Spanish Congress "Estados Unidos", so the models wrote
"z b", "5 mio Euro", "a Eeuu. El". A pack may list its abbreviations as written (``abbreviation_forms = ["z. B.",
"Dr."]``). After either engine decodes, a word, or a run of words, whose letters are one form's and that the input
typed no mark in takes the form's marks and capitals and, where the spaces are restored, its inner spaces ("zb" and
"z b" -> "z. B."; spaces kept as typed: "zb" -> "z.B."). Its first letter keeps a capital the engine gave it only
at a sentence's start (the models capitalize letters they do not know: "das U a"). Its last mark ends no sentence:
the next word keeps the case the engine gave it, and the marks the engine put after the form stay ("etc., etc.",
"usw.?"). List only forms whose letters, run together too, are no word of the language ("т. е." would turn "те"
into it): ``python scripts/abbreviation_forms.py`` counts how the training text writes them. A pack's ``spellings``
(names in mixed case: "ChatGPT", "macOS") are such forms too.

>>> import numpy as np
>>> from charrestore import load_pack
>>> de = load_pack("de")
>>> caps, dot, space = de.bit("CAPS"), de.bit("."), de.bit("SPACE")
>>> base = list("daszbgut")
>>> cls = np.array([0, 0, space, 0, space, 0, 0, 0])  # "das zb gut"
>>> out = abbreviation_forms(base, cls.copy(), de, kept=np.zeros(8, int), keep=False)
>>> from charrestore.codec import render
>>> render(base, out, de)
'das z. B. gut'
>>> render(base, abbreviation_forms(base, cls, de, kept=np.zeros(8, int), keep=True), de)
'das z.B. gut'
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .codec import graphemes
from .labels import words
from .packs import CAPS, SPACE, LanguagePack

APOSTROPHES = ("'", "\u2019")


@lru_cache(maxsize=None)
def parsed(features: tuple[str, ...], forms: tuple[str, ...]) -> dict[tuple[str, ...], tuple[tuple[int, ...], ...]]:
    """Each form by its letters (small, as tuples of graphemes): per letter, its capital, its marks' bits and
    whether a space follows it, as one class bit set each ("z. B." -> ("z", "b"): (.+SPACE, CAPS+.))."""
    bit = {f: 1 << i for i, f in enumerate(features)}
    table = {}
    for form in forms:
        letters, classes = [], []
        for g in graphemes(form):
            if g in bit and g not in (CAPS, SPACE):
                classes[-1] |= bit[g]
            elif g == " ":
                classes[-1] |= bit.get(SPACE, 0)
            else:
                letters.append(g.lower())
                classes.append(bit.get(CAPS, 0) if g != g.lower() else 0)
        table[tuple(letters)] = tuple(classes)
    return table


def abbreviation_forms(base: list[str], cls: np.ndarray, pack: LanguagePack, kept: np.ndarray, keep: bool,
                       inside: np.ndarray | None = None) -> np.ndarray:
    """``cls`` with every listed abbreviation written as its form, but where ``kept`` (the input's classes) has a
    mark, or inside a protected span (``inside``). ``keep``: the spaces are the input's, and stay."""
    if not (pack.abbreviation_forms or pack.spellings) or not len(base):
        return cls
    forms = parsed(pack.features, pack.abbreviation_forms + pack.spellings)
    space_bit = pack.bit(SPACE)
    longest = max(sum(1 for c in f if c & space_bit) for f in forms.values()) + 1  # words in a form
    spans = words(base, cls, pack)
    i = 0
    while i < len(spans):
        for m in range(min(longest, len(spans) - i), 0, -1):
            s, e = spans[i][0], spans[i + m - 1][1]
            form = forms.get(tuple(g.lower() for g in base[s:e]))
            if (form is None or not _free(kept, inside, s, e, pack.mark_bits)
                    or any(cls[p] & space_bit and not form[p - s] & space_bit for p in range(s, e - 1))):
                continue  # no form, a typed mark, a protected span, or a word boundary the form does not have
            _write(cls, s, form, kept, keep, pack)
            i += m
            break
        else:
            part = _beside_clitic(base, *spans[i], forms, space_bit | pack.mark_bits)
            if part is not None and _free(kept, inside, part[0], part[0] + len(part[1]), pack.mark_bits):
                _write(cls, part[0], part[1], kept, keep, pack)
            i += 1
    return cls


def dotted_capitals(base: list[str], cls: np.ndarray, pack: LanguagePack, kept: np.ndarray) -> np.ndarray:
    """``cls`` with the inner periods of every word of the pack's ``dotted_capitals`` ("us" -> "U.S.") that the
    engine wrote in capitals with a period after it and the input typed no mark in. The token model reads "U.S." as
    the word "us" in capitals and a period (labels.py); written out, that was "US.", and the period no sentence end
    (TokenModel.decode).

    >>> from charrestore import load_pack
    >>> en = load_pack("en")
    >>> caps, dot, space = en.bit("CAPS"), en.bit("."), en.bit("SPACE")
    >>> base = list("theusgov")
    >>> cls = np.array([0, 0, space, caps, caps | dot | space, 0, 0, 0])  # "the US. gov"
    >>> from charrestore.codec import render
    >>> render(base, dotted_capitals(base, cls, en, np.zeros(8, int)), en)
    'the U.S. gov'
    """
    if not pack.dotted_capitals or not len(base):
        return cls
    caps_bit, dot = pack.bit(CAPS), pack.bit(".")
    for s, e in words(base, cls, pack):
        word = "".join(base[s:e]).lower()
        if (word in pack.dotted_capitals and all(cls[s:e] & caps_bit) and cls[e - 1] & dot
                and not (kept[s:e] & pack.mark_bits).any()):
            cls[s:e - 1] |= dot
    return cls


def _free(kept: np.ndarray, inside: np.ndarray | None, s: int, e: int, mark_bits: int) -> bool:
    """Whether ``s:e`` has no typed mark (``kept``) and lies outside every protected span (``inside``)."""
    return not (kept[s:e] & mark_bits).any() and (inside is None or not inside[s:e].any())


def _beside_clitic(base: list[str], s: int, e: int, forms: dict, bits: int) -> tuple[int, tuple] | None:
    """Where in the word ``base[s:e]`` a form with none of ``bits`` (a space, a mark: a spelling) stands before or
    after an apostrophe's clitic ("OpenAI's", fr "l'OpenAI"), and its classes; None when none does."""
    at = [k for k in range(s, e) if base[k] in APOSTROPHES]
    for a, b in ((s, at[0]), (at[-1] + 1, e)) if at else ():
        form = forms.get(tuple(g.lower() for g in base[a:b]))
        if form is not None and not any(c & bits for c in form):
            return a, form
    return None


def _write(cls: np.ndarray, s: int, form: tuple[int, ...], kept: np.ndarray, keep: bool, pack: LanguagePack) -> None:
    """The form's classes from ``s`` on: its capitals (the first letter's own capital at a sentence's start), its
    marks (the last letter's own ones too, the first letter's opening mark), its inner spaces unless ``keep``."""
    caps_bit, space_bit, mark_bits = pack.bit(CAPS), pack.bit(SPACE), pack.mark_bits
    opens = s == 0 or bool(cls[s - 1] & pack.capital_bits)
    for k, c in enumerate(form):
        j, old, last = s + k, int(cls[s + k]), k == len(form) - 1
        marks = (c & mark_bits) | (old & mark_bits if last else 0) | (old & pack.opening_bits if k == 0 else 0)
        case = (c | kept[j] | (old if k == 0 and opens else 0)) & caps_bit
        space = old & space_bit if keep or last else c & space_bit
        cls[j] = (old & ~(caps_bit | mark_bits | space_bit)) | case | marks | space
