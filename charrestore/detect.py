"""Which language a line is in: script rules first, then a naive Bayes over hashed character n-grams.

The n-grams are taken over the letters of a line only (NFC, lower-cased, without spaces, digits or marks), so a
line as written, its ASR form (lower case, no marks) and its de-spaced form give the same evidence: the forms this
project gets are one form to the model. The model is data: one int8 table of per-language log-probabilities by
n-gram bucket (``models/detect/detect.npz``), read through its card (``models/detect/detect.json``, sha256-checked).

>>> d = Detector.load()
>>> d.detect("wieistdaswetterheute", among=["en", "de", "fr"])
'de'
>>> d.detect("どこへ行きますか")
'ja'
>>> d.detect("wieistdaswetter", among=["en", "de"], prefer="en", odds=10.0)  # de: far more than 10 times as likely
'de'
>>> d.detect("das", among=["en", "de"], prefer="en", odds=1e9)
'en'
>>> d.scores("", among=["gu", "en"])  # no letters: no evidence, a flat answer in the order given
[('gu', 0.5), ('en', 0.5)]
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import ClassVar

import numpy as np
import regex

_NOT_LETTER = regex.compile(r"[^\p{L}\p{M}]+")
_LETTER = regex.compile(r"\p{L}")
# The scripts that some of the languages write and the rest never do (Latin, which every language mixes in, is
# none of them): a line in which one of these makes up a tenth of the letters is in a language that writes it.
SCRIPTS = {"Han": r"\p{Han}", "Kana": r"\p{Hiragana}\p{Katakana}", "Hangul": r"\p{Hangul}",
           "Cyrillic": r"\p{Cyrillic}", "Thai": r"\p{Thai}", "Gujarati": r"\p{Gujarati}"}
WRITES = {"ja": {"Han", "Kana"}, "zh": {"Han"}, "ko": {"Hangul", "Han"}, "ru": {"Cyrillic"}, "th": {"Thai"},
          "gu": {"Gujarati"}}
_SCRIPT = {name: regex.compile(f"[{chars}]") for name, chars in SCRIPTS.items()}
_ANY_SCRIPT = regex.compile("[" + "".join(SCRIPTS.values()) + "]")
MAX_LETTERS = 10_000  # a longer line is decided on its first 10,000 letters: bounded time and memory

# The n-gram hash: a polynomial over code points, mixed by a multiplicative (Fibonacci) hash whose top bits pick
# the bucket. Fixed constants, so the model file means the same on every machine (Python's hash() does not).
_STEP = np.uint64(0x100000001B3)
_MIX = np.uint64(0x9E3779B97F4A7C15)


def letters(text: str, limit: int | None = MAX_LETTERS) -> str:
    """The letters a decision rests on: NFC, lower case, without anything that is not a letter or a mark."""
    return _NOT_LETTER.sub("", unicodedata.normalize("NFC", text).lower())[:limit]


def gram_buckets(text: str, orders: Iterable[int], bits: int) -> np.ndarray:
    """The bucket (0 .. 2**bits - 1) of every n-gram of ``text`` (already ``letters``), of every order given."""
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32) + np.uint64(1)
    orders = sorted(orders)
    shift, parts, h = np.uint64(64 - bits), [], codes
    with np.errstate(over="ignore"):
        for n in range(1, min(orders[-1], len(codes)) + 1):
            if n > 1:
                h = h[:-1] * _STEP + codes[n - 1:]  # base-_STEP digits: orders differ in their count of digits
            if n in orders:
                parts.append(h)
        return (np.concatenate(parts) * _MIX >> shift).astype(np.intp) if parts else np.zeros(0, np.intp)


def scripts_of(text: str) -> set[str]:
    """The ``SCRIPTS`` that make up at least a tenth of the letters of ``text``."""
    if not _ANY_SCRIPT.search(text):
        return set()
    total = len(_LETTER.findall(text))
    return {name for name, script in _SCRIPT.items() if total and 10 * len(script.findall(text)) >= total}


@lru_cache(maxsize=64)
def not_in_scripts(scripts: frozenset[str]) -> regex.Pattern:
    """What to delete to keep the letters of ``scripts`` alone (``SCRIPTS`` names)."""
    return regex.compile("[^" + "".join(SCRIPTS[name] for name in sorted(scripts)) + "]+")


class Detector:
    """A loaded language detector: ``detect`` names one language, ``scores`` ranks them with probabilities.

    ``among`` restricts either to some of the model's languages (codes, kept in the order given; a set is taken
    in the model's order); ties (a line with no letters at all: digits, emoji, marks, nothing) go to the first.
    """

    _cache: ClassVar[dict[Path, Detector]] = {}

    def __init__(self, languages: list[str], weights: np.ndarray, scale: float, orders: list[int],
                 temperature: float, views: dict[str, tuple[list[str], np.ndarray]] | None = None,
                 card: dict | None = None):
        self.languages = list(languages)
        self.weights = weights  # int8 [buckets, languages]: centred log-probabilities / scale, as stored
        # A script that several languages write has its own table over the n-grams of its letters alone (Han:
        # ja, zh, ko), as a line in it is scored: a kanji-only line is not judged by n-grams made with kana.
        self.views = {script: (list(langs), table) for script, (langs, table) in (views or {}).items()}
        self.scale = float(scale)
        self.orders = [int(n) for n in orders]
        self.bits = int(weights.shape[0]).bit_length() - 1
        self.temperature = float(temperature)
        self.card = card or {}
        self._tables = {script: ({lang: i for i, lang in enumerate(langs)}, self._scored(table))
                        for script, (langs, table) in [("", (self.languages, weights)), *self.views.items()]}

    def _scored(self, table: np.ndarray) -> np.ndarray:
        """float32 nats, as scored: a sum of rows is then one matrix product."""
        return table.astype(np.float32) * np.float32(self.scale)

    @classmethod
    def load(cls, root: Path | None = None) -> Detector:
        """The model of ``<root>/detect/detect.json`` (default: the shipped models), read once per root."""
        from .cards import load_card
        from .paths import models_dir

        key = Path(root or models_dir()).resolve()
        if key not in cls._cache:
            card, artifact = load_card("detect", "detect", key, kind="detect")
            cls._cache[key] = cls.from_file(artifact, card)
        return cls._cache[key]

    @classmethod
    def from_file(cls, path: Path, card: dict | None = None) -> Detector:
        """A model file as ``training.train_detect.save`` writes it (no sha256 check: ``load`` does that)."""
        with np.load(path, allow_pickle=False) as npz:
            views = {key[5:-10]: ([str(x) for x in npz[key]], npz[key[:-10] + "_weights"])
                     for key in npz.files if key.startswith("view_") and key.endswith("_languages")}
            return cls([str(x) for x in npz["languages"]], npz["weights"], float(npz["scale"]),
                       npz["orders"].tolist(), float(npz["temperature"]), views, card)

    def candidates(self, among: Iterable[str] | None = None) -> list[str]:
        """``among`` checked against the model's languages (default: all of them, in the model's order)."""
        if among is None:
            return list(self.languages)
        if isinstance(among, str):
            among = among.split(",")
        if isinstance(among, (set, frozenset)):
            among = sorted(among, key=lambda lang: self._tables[""][0].get(lang, len(self.languages)))
        chosen = [lang for lang in dict.fromkeys(lang.strip() for lang in among) if lang]
        unknown = [lang for lang in chosen if lang not in self._tables[""][0]]
        if unknown or not chosen:
            raise ValueError(f"unknown language(s) {', '.join(unknown) or '(none given)'}: "
                             f"the detector knows {', '.join(self.languages)}")
        return chosen

    def scores(self, text: str, among: Iterable[str] | None = None) -> list[tuple[str, float]]:
        """Every candidate language with its probability, best first (they sum to 1). The scripts of the line
        narrow the candidates to those that write them (one left: it takes all); a line in Han alone is scored on
        its Han letters by the Han view (ja, zh); with no letters at all every candidate gets the same share."""
        langs = self.candidates(among)
        found = set() if text.isascii() else scripts_of(text)
        fits = [lang for lang in langs if found and found <= WRITES.get(lang, set())]
        index, table = self._tables[""]
        if fits:
            text = not_in_scripts(frozenset(found)).sub("", text)
            view = self._tables.get(min(found)) if len(found) == 1 else None
            if view and any(lang in view[0] for lang in fits):  # the view's languages: those that write it alone
                index, table = view
                fits = [lang for lang in fits if lang in index]
            langs = fits + [lang for lang in langs if lang not in fits]
            if len(fits) == 1:
                return [(fits[0], 1.0)] + [(lang, 0.0) for lang in langs[1:]]
        buckets = gram_buckets(letters(text), self.orders, self.bits)
        if not len(buckets):
            return [(lang, 1.0 / len(langs)) for lang in langs]
        cols = [index[lang] for lang in (fits or langs)]
        total = (np.ones(len(buckets), np.float32) @ table.take(buckets, axis=0))[cols]
        prob = np.exp((total - total.max()) / self.temperature)
        prob = (prob / prob.sum()).tolist() + [0.0] * (len(langs) - len(cols))
        order = sorted(range(len(langs)), key=prob.__getitem__, reverse=True)  # stable: ties keep the given order
        return [(langs[i], prob[i]) for i in order]

    def detect(self, text: str, among: Iterable[str] | None = None, prefer: str | None = None,
               odds: float | None = None) -> str:
        """The most likely language of ``text`` among the candidates; with ``prefer`` (one of them), that language
        unless another is at least ``odds`` times as likely (default: the card's ``prefer_odds``, chosen on short
        held-out lines by ``scripts/prefer_odds.py``): a short line is often as likely in a neighbour language."""
        return self.chosen(self.scores(text, among), prefer, odds)

    def chosen(self, ranked: list[tuple[str, float]], prefer: str | None = None, odds: float | None = None) -> str:
        """The language ``detect`` names from ``scores``' ranking (``prefer``, ``odds``: as ``detect``)."""
        if prefer is None or ranked[0][0] == prefer:
            return ranked[0][0]
        chance = dict(ranked)
        if prefer not in chance:
            raise ValueError(f"the preferred language {prefer!r} is not among {', '.join(chance)}")
        odds = float(self.card.get("prefer_odds", 1.0)) if odds is None else odds
        return ranked[0][0] if ranked[0][1] > odds * chance[prefer] else prefer
