"""Words a language writes small inside a sentence: fr "mardi", "janvier"; es "martes", "enero".

A char model learns case from its training text, and old or narrow text writes some of these words as names now
and then: the fr model, read on novels of 1840-1920, wrote "le président a rencontré Mardi à Paris", and the es
model "aprobó el Martes". Modern text writes the days and months of these languages small but at a sentence's
start. A pack lists such words (``small_words = ["lundi", "janvier"]``; a ``plain_typing`` pack matches them
typed without their accents too, "fevrier"), and after either engine decodes, a listed word with a capital on its
first letter alone loses it, unless the input typed that capital or the word starts a sentence: the first word,
a word after a sentence mark, or one after a grapheme that is no letter or digit (a quote or a dash may open
dialogue: «Mardi, dit-il»). Words that are also given names (es "Domingo", "Julio") are left off the lists.

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

from .labels import words
from .packs import CAPS, LanguagePack


def small_case(base: list[str], cls: np.ndarray, pack: LanguagePack, kept: np.ndarray) -> np.ndarray:
    """``cls`` with the capital taken off each word of the pack's ``small_words`` that has one on its first
    grapheme alone, where ``kept`` (the input's classes) has none and no sentence starts there."""
    if not pack.small_words or not pack.cased or len(base) < 2:
        return cls
    caps = pack.bit(CAPS)
    for s, e in words(base, cls, pack)[1:]:
        if not cls[s] & caps or kept[s] & caps or cls[s - 1] & pack.sentence_bits:
            continue
        if not base[s - 1][:1].isalnum() or any(cls[j] & caps for j in range(s + 1, e)):
            continue
        if "".join(base[s:e]).lower() in pack.small_words:
            cls[s] &= ~caps
    return cls
