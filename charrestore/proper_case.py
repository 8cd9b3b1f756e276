"""Capitals that a word always has: "путин" -> "Путин", "сша" -> "США", wherever the char model left them out.

A char model learns the case of the names its training text holds: ru's classic prose knows "Петербург" but no
"НАТО" or "Путин", which news is full of. A pack's ``proper`` model is data: the cased forms of words that are
(nearly) never written in small letters, one per line in a gzip file (``scripts/build_proper_case.py``), and its
card. After the char engine decodes, each word of the output (its letters, between spaces, without the
punctuation around them) that the list holds takes that form's capitals. A surname that is also a common word
("песков": sand's genitive, or Peskov) is listed as ``after-name``: it takes its capitals only straight after a
given name or patronymic of the list (a ``name`` line, "Дмитрий Песков"), nothing between them but the space.
It adds capitals: the model's own first letter ("Иван", a sentence's first letter) and the input's stay, but a listed
word's letters after the first take its form's case ("DortMund" -> "Dortmund", "YOuTube" -> "YouTube"), and its
first letter gives up the model's capital where the form has a small one before a capital ("Iphone" -> "iPhone");
a capital the input typed always stays. A word (or a part of one) that the list lacks and that the model wrote in mixed case ("миниСтр",
"ЛаВрецкий", "AEVal") is a guess the training text never taught: it becomes all capitals where most of its
letters are ("AEVAL"), else keeps only its first letter's case ("министр"). The list holds the mixed forms that
the training text does write ("AfD", "VinaPhone"), so the model's learned ones stay. A protected span (an address, a hashtag) keeps its case, as it does without the list. (The
pipeline's token model has its own names lexicon: training/proper.py.)

>>> proper = ProperCase(["Путин", "США", "McDonald", "ONU"])
>>> proper.capitals("сша"), proper.capitals("путин"), proper.capitals("mcdonald"), proper.capitals("мир")
((0, 1, 2), (0,), (0, 2), None)
>>> import numpy as np
>>> named = ProperCase(["Дмитрий\\tname", "Песков\\tafter-name"])
>>> base = list("дмитрийпесковигорапесков")
>>> cut = np.zeros(len(base), int); cut[[6, 12, 13, 17]] = 8
>>> "".join(g.upper() if c & 1 else g for g, c in zip(base, named.apply(base, cut, caps_bit=1, space_bit=8)))
'ДмитрийПесковигорапесков'
>>> base = list("iphone")
>>> "".join(g.upper() if c else g for g, c in zip(base, ProperCase(["iPhone"]).apply(base, np.eye(6, dtype=int)[0], 1, 8)))
'iPhone'
>>> base = list("путинвсша,")
>>> cls = proper.apply(base, np.array([0, 0, 0, 0, 8, 8, 0, 0, 0, 0]), caps_bit=1, space_bit=8)
>>> cls.tolist()
[1, 0, 0, 0, 8, 8, 1, 1, 1, 0]
>>> base = list("l'onu")
>>> "".join(g.upper() if c else g for g, c in zip(base, proper.apply(base, np.zeros(5, int), 1, 8)))
"l'ONU"
>>> base = list("министраеval")
>>> cls = proper.apply(base, np.array([0, 0, 0, 1, 0, 0, 8, 1, 1, 1, 0, 0]), caps_bit=1, space_bit=8)
>>> "".join(g.upper() if c & 1 else g for g, c in zip(base, cls))
'министрАЕVAL'
>>> base = list("премьер-министр-путин")
>>> "".join(g.upper() if c else g for g, c in zip(base, proper.apply(base, np.zeros(len(base), int), 1, 8)))
'премьер-министр-Путин'
"""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import Iterable

import numpy as np

from .cards import ModelError, load_card
from .clusters import upper_of
from .codec import graphemes, word_spans

FORMAT = ("UTF-8 text in gzip: one cased form per line, optionally a tab and its role: name (a given name or "
          "patronymic), after-name (capitals only straight after a name) or small (a word in small letters that "
          "takes no capital inside a sentence: small_words.py) (charrestore/proper_case.py)")
NAME, AFTER_NAME, SMALL = "name", "after-name", "small"
# an elision or a possessive, a hyphen between the parts of a compound: each part is looked up alone
JOINERS = ("'", "\u2019", "-", "\u2010", "\u2011")


class ProperCase:
    """Word (its small letters) -> its one cased form."""

    def __init__(self, lines: Iterable[str]):
        self._forms: dict[str, str] = {}
        self._after_name: dict[str, str] = {}
        self._names: set[str] = set()
        small = set()  # the words the training text writes in small letters inside a sentence (small_words.py)
        for line in lines:
            form, _, role = line.partition("\t")
            if role == SMALL:
                small.add(form)
            if form == form.lower():
                continue
            (self._after_name if role == AFTER_NAME else self._forms)[form.lower()] = form
            if role == NAME:
                self._names.add(form.lower())
        self.small = frozenset(small)

    def __len__(self) -> int:
        return len(self._forms) + len(self._after_name)

    @classmethod
    def load(cls, lang: str, root: Path | None = None, name: str = "proper") -> "ProperCase":
        card, path = load_card(lang, name, root, kind="proper_case")
        try:
            text = gzip.decompress(path.read_bytes()).decode("utf-8")
        except (OSError, EOFError, UnicodeDecodeError) as exc:
            raise ModelError(f"{path}: unreadable list of proper forms ({exc})") from None
        return cls(text.splitlines())

    def capitals(self, word: str, after_name: bool = False) -> tuple[int, ...] | None:
        """The positions (graphemes) of ``word``'s capitals in its cased form; None when the list lacks it (or
        the cased form has other graphemes than the word). ``after_name``: the word follows a name."""
        form = self._forms.get(word.lower()) or (self._after_name.get(word.lower()) if after_name else None)
        if form is None:
            return None
        gs, low = graphemes(form), graphemes(word.lower())
        if len(gs) != len(low):
            return None
        return tuple(k for k, g in enumerate(gs) if g != low[k])

    def apply(self, base: list[str], cls: np.ndarray, caps_bit: int, space_bit: int,
              typed: np.ndarray | None = None, words: bool = True, between: int = 0) -> np.ndarray:
        """``cls`` with the CAPS bit added to the capitals of every listed word; a word is the letters between
        the spaces that ``cls`` gives, without the graphemes other than letters at its two ends. A listed word also
        gives up the capitals its form lacks (module docstring) where ``typed`` (the input's classes) has none. Without ``words`` (unspaced input whose spaces stay as typed: its capitals start words that no space
        shows) the model's mixed case stays in words the list lacks. ``between``: the marks (a comma) that a given
        name and the word after it never take between them (``names_go_on``)."""
        if not self._forms or not caps_bit or not len(base):
            return cls
        named = False  # the word before was a name, nothing after it but the space
        for s, e in word_spans(cls, space_bit):
            end = e
            after_name, named = named and s < e and base[s][0].isalpha(), False
            while s < e and not base[s][0].isalpha():
                s += 1
            while e > s and not base[e - 1][0].isalpha():
                e -= 1
            word = "".join(base[s:e])
            if self._names and e == end and word.lower() in self._names:
                named = not cls[e - 1] & ~(caps_bit | space_bit)  # no mark after it
            whole = self.capitals(word, after_name) if e - s > 1 else None
            for a, b, caps in [(s, e, whole)] if whole else self._parts(base, s, e) or [(s, e, None)]:
                if caps is None:
                    if words:
                        unlisted_case(base, cls, a, b, caps_bit, typed)
                elif caps and caps[-1] < b - a:
                    cls[[a + k for k in caps]] |= caps_bit
                    # the form's small letters after the first: "Dortmund", not "DortMund"; "YouTube", not
                    # "YOuTube"; and a small first letter before a capital: "iPhone"
                    small = [a + k for k in range(0 if caps[0] == 1 else 1, b - a) if k not in caps]
                    cls[[i for i in small if typed is None or not typed[i] & caps_bit]] &= ~caps_bit
        return self.names_go_on(base, cls, caps_bit, space_bit, between, typed) if between and self._names else cls

    def names_go_on(self, base: list[str], cls: np.ndarray, caps_bit: int, space_bit: int, between: int,
                    typed: np.ndarray | None = None) -> np.ndarray:
        """``cls`` without the ``between`` marks (a comma, alone) after a given name of the list whose next word
        starts with a capital and is no name: "Emmanuel Macron", "Olaf Scholz". The fr model, read on novels, wrote
        "Emmanuel, Macron", the comma of an address; a list of names keeps its commas ("Marie, Pierre"), and so
        does a mark the input typed."""
        spans = word_spans(cls, space_bit)
        for (s, e), (t, u) in zip(spans, spans[1:]):
            mark = cls[e - 1] & ~(caps_bit | space_bit)
            if not mark or mark & ~between or (typed is not None and typed[e - 1] & mark):
                continue
            if not cls[t] & caps_bit or not base[t][0].isalpha():
                continue
            if "".join(base[s:e]).lower() in self._names and "".join(base[t:u]).lower() not in self._names:
                cls[e - 1] &= ~between
        return cls

    def _parts(self, base: list[str], s: int, e: int) -> list[tuple[int, int, tuple[int, ...] | None]]:
        """A word the list lacks, by its parts between apostrophes and hyphens ("l'onu": "onu"; "mcdonald's":
        "mcdonald"; "жан-поль": "жан", "поль"), each with its capitals."""
        cuts = [k for k in range(s, e) if base[k] in JOINERS]
        if not cuts:
            return []
        return [(a, b, self.capitals("".join(base[a:b])) if b - a > 1 else None)
                for a, b in zip([s, *(k + 1 for k in cuts)], [*cuts, e])]


def unlisted_case(base: list[str], cls: np.ndarray, a: int, b: int, caps_bit: int, typed: np.ndarray | None) -> None:
    """Each run of letters in ``a:b`` (a word the list lacks; "USD/thùng" and "H.Thạch" hold two), in mixed case by
    the model (not by the input): all capitals where most of its letters are, else only its first letter's case
    kept ("ЛаВрецкий" -> "Лаврецкий")."""
    changes = [k - a for k in range(a + 1, b) if base[k][0].isalpha() != base[k - 1][0].isalpha()]
    runs = np.split(np.arange(a, b), changes)
    for run in runs:
        cased = [int(k) for k in run if upper_of(base[k]) is not None]
        up = [k for k in cased if cls[k] & caps_bit]
        if len(up) == len(cased) or not any(k != cased[0] for k in up):
            continue  # all capitals, or none after the first letter
        if typed is not None and any(typed[k] & caps_bit for k in cased):
            continue
        if 2 * len(up) > len(cased):
            cls[cased] |= caps_bit
        else:
            cls[cased[1:]] &= ~caps_bit
