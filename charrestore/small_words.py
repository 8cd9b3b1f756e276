"""Words a language writes small inside a sentence: fr "mardi", "américain"; es "martes", "alemán".

A char model learns case from its training text, and old or narrow text writes some of these words as names now
and then: the fr model, read on novels of 1840-1920, wrote "le président a rencontré Mardi à Paris" and "le
président Américain", and the es model "aprobó el Martes" and "el presidente Estadounidense". Modern text writes
the days and months of these languages small but at a sentence's start, and the words of a people or country
(demonyms) small where they are adjectives. A pack lists such words (``small_words = ["lundi", "janvier"]``, and
``[demonyms] words``; a ``plain_typing`` pack matches them typed without their accents too, "fevrier"), and after
either engine decodes, a listed word with a capital on its first letter alone loses it, unless the input typed
that capital or the word starts a sentence: the first word, a word after a sentence mark, or one after a grapheme
that is no letter or digit (a quote or a dash may open dialogue: «Mardi, dit-il»). Words that are also given names
(es "Domingo", "Julio") or places (es "China", fr "Argentine") are left off the lists. A pack's list of proper forms
may add the words that its training text writes in small letters nearly always inside a sentence (``small`` lines:
de "traf", "fest"; ``scripts/build_proper_case.py``), which take the same rule.

A demonym or a word of the proper list's small ones is a noun, and keeps the model's capital, after a word of the
pack's ``nouns_after`` (fr "les Américains", "un jeune Anglais", an elided "l'Allemand"; de "das Waschen", "zum
Applaudieren", "Herr Lange"); with ``[demonyms] in_names`` (es), a demonym after a word with a capital
continues a name ("la Unión Europea", "el País Vasco"; not after a sentence's first word: "Los estadounidenses").

>>> import numpy as np
>>> from charrestore import load_pack
>>> fr = load_pack("fr")
>>> caps, space = fr.bit("CAPS"), fr.bit("SPACE")
>>> base = list("vumardi")
>>> cls = np.array([caps, space, caps, 0, 0, 0, 0])  # "Vu Mardi"
>>> out = small_case(base, cls, fr, kept=np.zeros(7, int))
>>> "".join(g.upper() if c & caps else g for g, c in zip(base, out))
'Vumardi'
"""

from __future__ import annotations

import numpy as np

from .abbreviation_forms import APOSTROPHES
from .labels import words
from .packs import CAPS, LanguagePack


def small_case(base: list[str], cls: np.ndarray, pack: LanguagePack, kept: np.ndarray, proper=None) -> np.ndarray:
    """``cls`` with the capital taken off each word of the pack's ``small_words`` or of ``proper``'s (its list of
    proper forms: a ProperCase) small words, and each demonym that is no noun and continues no name, that has one on
    its first grapheme alone, where ``kept`` (the input's classes) has none and no sentence starts there."""
    small = proper.small if proper is not None else frozenset()
    if not (pack.small_words or pack.demonyms or small) or not pack.cased or len(base) < 2:
        return cls
    caps = pack.bit(CAPS)
    spans = words(base, cls, pack)
    for k, (s, e) in enumerate(spans[1:], 1):
        clitic = _clitic(base, s, e, pack)
        start = s + len(clitic)
        if start >= e or not cls[start] & caps or kept[start] & caps or cls[s - 1] & pack.sentence_bits:
            continue
        if not base[s - 1][:1].isalnum() or any(cls[j] & caps for j in range(start + 1, e)):
            continue
        word = "".join(base[start:e]).lower()
        demonym = word in pack.demonyms
        if word in pack.small_words or ((demonym or word in small)
                                        and not _noun_or_name(base, cls, spans[k - 1], clitic, pack, caps, demonym)):
            cls[start] &= ~caps
    return cls


def _clitic(base: list[str], s: int, e: int, pack: LanguagePack) -> str:
    """The elided clitic that opens the word ``base[s:e]`` ("l'" of "l'Allemand", either apostrophe), or ""."""
    for clitic in pack.elisions:
        n = len(clitic)
        if e - s > n and "".join(base[s:s + n - 1]).lower() == clitic[:-1] and base[s + n - 1] in APOSTROPHES:
            return clitic
    return ""


def _noun_or_name(base: list[str], cls: np.ndarray, before: tuple[int, int], clitic: str, pack: LanguagePack,
                  caps: int, demonym: bool) -> bool:
    """Whether a word after the word ``before`` (or after its own elided ``clitic``) is a noun, or, a
    ``demonym``, continues a name (``in_names``: that word has a capital and opens no sentence)."""
    if clitic:
        return clitic in pack.nouns_after
    s, e = before
    if "".join(base[s:e]).lower() in pack.nouns_after:
        return True
    opens = s == 0 or cls[s - 1] & pack.sentence_bits or not base[s - 1][:1].isalnum()  # "Los Estadounidenses"
    return demonym and pack.demonyms_in_names and not opens and any(cls[j] & caps for j in range(s, e))
