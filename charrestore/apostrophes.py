"""Apostrophes inside words, put back where a text has none: "i cant believe its there" -> "i can't believe it's
there".

Hashtags, chat and some speech recognizers drop every apostrophe; the engines restore spaces, marks and case but read
an apostrophe as part of a word's spelling. This step picks, for each word that some apostrophe form shares its letters
with ("its"/"it's", "were"/"we're", "worlds"/"world's"), the form that its neighbours make likeliest under word and
word-pair counts of text that keeps its apostrophes (``training/train_apostrophes.py``). The model is data: a counts
file (``counts.py``) and its card. A text with any apostrophe of its own is spelled with them and is left as it is;
only letters words change, never a hashtag, mention, address or number, and only by an apostrophe and case ("I'm").

>>> model = Apostrophes(["it's", "its", "a", "own", "can't", "cant"], [50, 20, 100, 30, 10, 1],
...                     {"it's": "a 20", "its": "own 15"}, total=300, smoothing=1)
>>> model.restore("its a dog that cant find its own bone")
"it's a dog that can't find its own bone"
>>> model.restore("It's a dog, its bone")  # spelled with apostrophes: left as it is
"It's a dog, its bone"
"""

from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path
from typing import Sequence

import regex

from .cards import load_card
from .counts import read as read_counts
from .packs import load_pack
from .plain_letters import is_plain, made_pairs, plain as unmarked, plain_table

START = "<s>"  # the context of a sentence's first word
FORMAT = "charrestore counts 1 (charrestore/counts.py): apostrophe forms, their plain forms and neighbours' pairs"
MARK = "'"
_WORD = r"[\p{L}\p{M}\p{N}]"
# A word with inner apostrophes, or a plural's closing one ("parents'"). Marks are not read: the step decides
# alike before the token model reads the words (none yet) and after the engine placed them.
_TOKEN = regex.compile(rf"{_WORD}+(?:'{_WORD}+)*(?:(?<=[sS])'(?!{_WORD}))?")
# What the step may change: a white-space-delimited token of letters between plain punctuation (not "#tag",
# "@name", "a.b.com", "3rd"): what may stand before and after the word in it.
_OPENS = regex.compile(r"\s[\"“‘(\[]{0,3}$")
_CLOSES = regex.compile(r"[.,?!:;\"”)\]]{0,3}\s")

_LETTERS = regex.compile(r"\p{L}+")
ELIDED_BEFORE = frozenset("aeiouyhæœ")  # the letters (made plain) that an elided clitic stands before


def has_apostrophe(text: str) -> bool:
    """Whether the text writes apostrophes itself (then none is added: its spelling is its own)."""
    return "'" in text or "\u2019" in text


def strip(word: str) -> str:
    """The word's letters without its apostrophes."""
    return word.replace("'", "")


def words_of(text: str) -> list[str]:
    """The words of ``text`` in their own case ("’" read as "'"), as the counts were taken."""
    return _TOKEN.findall(text.replace("\u2019", "'"))


class Apostrophes:
    """Chooses among a word's forms with and without apostrophes by the counts of the word and its two neighbours."""

    def __init__(self, words: Sequence[str], counts: Sequence[float], contexts: dict[str, str], total: float,
                 smoothing: float = 1000.0, bias: float = 0.0, cased: dict[str, str] | None = None):
        self.count = dict(zip(words, map(float, counts)))
        self.contexts, self.total = contexts, float(total)
        self.smoothing, self.bias = smoothing, bias * math.log(10)
        self.cased = cased or {}
        self.forms: dict[str, list[str]] = {}
        for w in words:
            if "'" in w:
                self.forms.setdefault(strip(w), []).append(w)
        self._pairs = lru_cache(maxsize=4096)(self._parse)
        self.plain_typing, self._plain = False, None  # a pack's plain_typing: text without diacritics reads plain
        self.clitics: frozenset[str] = frozenset()  # a pack's elisions without their apostrophe ("l", "qu")

    @classmethod
    def load(cls, lang: str, root: Path | None = None, name: str = "apostrophes") -> "Apostrophes":
        card, path = load_card(lang, name, root, kind="apostrophes")
        words, counts, contexts = read_counts(path)[:3]
        params = card["params"]
        model = cls(words, counts, contexts, card["total"], params.get("smoothing", 1000.0), params.get("bias", 0.0),
                    card.get("cased"))
        pack = load_pack(lang)
        model.plain_typing, model.clitics = pack.plain_typing, frozenset(c.rstrip("'") for c in pack.elisions)
        return model

    def made_plain(self) -> "Apostrophes":
        """This model with its words written plain ("j'espère" -> "j'espere"), the counts of the words that become
        one summed: text typed without diacritics ("jespere", "cetait") reads it (built once, on first use).

        >>> accented = Apostrophes(["j'espère", "jespère", "que"], [40, 1, 90], {"j'espère": "que 30"}, total=200)
        >>> accented.plain_typing = True
        >>> accented.restore("jespere que"), accented.restore("jespère que")
        ("j'espere que", "j'espère que")
        """
        if self._plain is None:
            words = list(self.count)  # every context word is counted too
            made = dict(made_pairs(words, plain_table(words)))
            count: dict[str, float] = {}
            for word, c in self.count.items():
                count[made.get(word, word)] = count.get(made.get(word, word), 0.0) + c
            pairs: dict[str, dict[str, float]] = {}
            for prev in self.contexts:
                merged = pairs.setdefault(made.get(prev, prev), {})
                for word, c in self._parse(prev).items():
                    key = made.get(word, word)
                    merged[key] = merged.get(key, 0.0) + c
            self._plain = Apostrophes(list(count), list(count.values()),
                                      {p: " ".join(f"{w} {c!r}" for w, c in d.items()) for p, d in pairs.items()},
                                      self.total, self.smoothing, self.bias / math.log(10),
                                      {made.get(k, k): unmarked(v) for k, v in self.cased.items()})
        return self._plain

    def _parse(self, word: str) -> dict[str, float]:
        raw = self.contexts.get(word, "").split(" ")
        return {raw[i]: float(raw[i + 1]) for i in range(0, len(raw) - 1, 2)}

    def _p(self, word: str) -> float:
        return max(self.count.get(word, 0.0), 0.5) / self.total

    def score(self, form: str, prev: str, nxt: str | None) -> float:
        """log P(form | prev) + log P(next | form), up to what every form shares; additive smoothing."""
        s = self.smoothing
        score = math.log(self._pairs(prev).get(form, 0.0) + s * self._p(form))
        if nxt is not None:
            score += math.log((self._pairs(form).get(nxt, 0.0) + s * self._p(nxt)) / (self.count.get(form, 0.0) + s))
        return score - (self.bias if "'" in form else 0.0)

    def choose(self, words: Sequence[str]) -> list[str]:
        """The forms of lower-case ``words``, each chosen after the one before."""
        out = list(words)
        prev = START
        for i, word in enumerate(words):
            forms = self.forms.get(word)
            if forms:
                nxt = words[i + 1] if i + 1 < len(words) else None
                out[i] = max([word, *forms], key=lambda f: self.score(f, prev, nxt))
            prev = out[i]
        return out

    def reading(self, words: Sequence[str]) -> list[str]:
        """``words`` (an engine's words, lower case, no marks) as the model reads them: a word of letters alone in
        its chosen form."""
        chosen = self.choose([w.lower() for w in words])
        return [c if c != w.lower() and _LETTERS.fullmatch(w) else w for w, c in zip(words, chosen)]

    def restore(self, text: str) -> str:
        """``text`` with the apostrophes its words' context asks for; unchanged if it has any apostrophe."""
        if has_apostrophe(text):
            return text
        if self.plain_typing and is_plain(text):
            return self.made_plain().restore(text)
        matches = list(_TOKEN.finditer(text))
        words = [m.group().lower() for m in matches]
        pieces, at = [], 0
        for m, word, form in zip(matches, words, self.choose(words)):
            if form == word or not plain(text, m.start(), m.end()):
                continue
            pieces += [text[at:m.start()], spelled(m.group(), self.cased.get(form, form))]
            at = m.end()
        return "".join(pieces) + text[at:] if pieces else text

    def restore_words(self, words: Sequence[str]) -> list[str]:
        """Each of ``words`` (no white space inside) with its apostrophes, the others as context."""
        if any(has_apostrophe(w) for w in words):
            return list(words)
        out = self.restore(" ".join(words)).split(" ")
        return out if len(out) == len(words) else list(words)


# Unspaced text whose words a segmenter may find before the apostrophes step: no address, tag or mention in it.
_PLAIN_TEXT = regex.compile(r"[\p{L}\p{M}\p{N}\s.,;:!?-]*")


def apostrophes_before(text: str, model: Apostrophes, segmenter) -> str:
    """Unspaced ``text`` with the apostrophes of its words, as the NB ``segmenter`` finds them ("jaivulhomme" ->
    "j'aivul'homme"), so that a char model reads the forms it learned: read without them, the fr model wrote
    "à L'école" for "àlécole". ``text`` itself if it holds an apostrophe, or anything but letters, digits, white
    space and plain punctuation. A clitic of the pack's elisions that the segmenter cut off alone before a word
    takes its apostrophe too ("surlimmigration" -> "surl'immigration": the counts held no "l'immigration").

    >>> model = Apostrophes(["j'ai", "jai", "l'homme", "lhomme", "vu"], [50, 1, 20, 1, 30], {}, total=200, smoothing=1)
    >>> model.clitics = frozenset(["l"])
    >>> from charrestore.segmenter import Segmenter
    >>> seg = Segmenter({"jai": 51, "vu": 30, "lhomme": 21, "l": 20, "avion": 5, "paulet": 5}, {}, L=8)
    >>> apostrophes_before("jaivulavion", model, seg), apostrophes_before("jaivulpaulet", model, seg)
    ("j'aivul'avion", "j'aivulpaulet")
    """
    if has_apostrophe(text) or not _PLAIN_TEXT.fullmatch(text):
        return text
    chunks = regex.split(r"(\s+)", text)
    pieces = [[chunk[a:b] for a, b in zip([0, *cuts], [*cuts, len(chunk)])]
              for chunk in chunks if chunk and not chunk.isspace() for cuts in [segmenter.cuts(chunk)]]
    words, parts = iter(model.restore_words([w for part in pieces for w in part])), iter(pieces)
    return "".join(c if not c or c.isspace() else elided([next(words) for _ in next(parts)], model.clitics)
                   for c in chunks)


def elided(words: list[str], clitics: frozenset[str]) -> str:
    """The words of an unspaced run joined, a clitic (``clitics``: "l", "qu") alone before a vowel or "h" with its
    apostrophe: elision's place; not "m" before "paulet" (an abbreviation, "M. Paulet", its period dropped)."""
    return "".join(w + MARK if k + 1 < len(words) and w.lower() in clitics
                   and unmarked(words[k + 1][:1]).lower() in ELIDED_BEFORE else w for k, w in enumerate(words))


def plain(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is a word of letters alone between white space and plain punctuation."""
    return bool(_LETTERS.fullmatch(text, start, end) and _OPENS.search(" " + text[max(0, start - 4):start])
                and _CLOSES.match(text[end:end + 4] + " "))


def spelled(word: str, form: str) -> str:
    """``word``'s letters with ``form``'s apostrophes, and a capital where ``form`` has one ("im", "I'm" -> "I'm")."""
    out, letters = [], iter(word)
    for c in form:
        letter = MARK if c == "'" else next(letters)
        out.append(letter.upper() if c.isupper() else letter)
    return "".join(out)
