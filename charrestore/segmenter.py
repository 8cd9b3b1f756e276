"""The Naive Bayes word segmenter: restores spaces with a unigram+bigram word model (Norvig 2009).

The model is data: word and word-pair counts (``models/<lang>/nb.tsv.gz`` and its card). Decoding is an
iterative Viterbi over (position, last word) states, linear in the input length for a fixed maximum word
length ``L``, so any input is segmented in one pass, with no recursion and no chunking.

>>> seg = Segmenter({"follow": 50, "friday": 40, "fri": 5, "day": 60, "the": 100, "bus": 10},
...                 {"follow friday": 20}, L=8, smoothing=10.0)
>>> seg.segment("FollowFriday")
'Follow Friday'
>>> seg.words("#followfriday on thebus!")
['#', 'follow', 'friday', 'on', 'the', 'bus', '!']
>>> seg.score("friday", "follow") > seg.score("friday")
True
"""

from __future__ import annotations

import gzip
import math
import unicodedata
from array import array
from functools import lru_cache
from pathlib import Path

import numpy as np
import regex

from .cards import ModelError, load_card

START = "<s>"  # the context of the first word of a text, and after punctuation
_GRAPHEME = regex.compile(r"\X")
_JOINERS = frozenset("'’-")  # inside a word ("don't", "well-known") they are part of it
HARD = math.inf


def _is_word_char(c: str) -> bool:
    return c.isalnum() or unicodedata.category(c)[0] == "M" or c in "\u200c\u200d"


def _lower(c: str) -> str:
    """Lower case for look-up only, one character for one so that positions stay aligned."""
    low = c.lower()
    return low if len(low) == 1 else c


class Segmenter:
    """Unigram+bigram word model with Norvig-style backoff and an unknown-word penalty growing with length.

    ``P(w | prev) = c(prev w) / c(prev)`` when the pair was seen, else ``P(w) = c(w) / N``; a word never
    seen scores ``λ / (N · λ^len(w))`` (Norvig's constant 10 made the tunable ``smoothing`` λ).
    ``L`` is the longest word considered, in characters. ``camel`` and ``digits`` weigh the evidence of
    a case change (``followFriday``, ``NASAMission``) or a letter/digit change (``iphone6``): a bonus in
    log10 units for a boundary there, ``math.inf`` to force one, 0 to ignore it.
    """

    def __init__(self, unigrams: dict[str, float], bigrams: dict[str, float], total: float | None = None,
                 L: int = 20, smoothing: float = 10.0, camel: float = HARD, digits: float = HARD):
        self.total = float(total or sum(unigrams.values()))
        self._index(list(unigrams), list(unigrams.values()), list(bigrams), list(bigrams.values()))
        self._set(L=L, smoothing=smoothing, camel=camel, digits=digits)

    def _index(self, words: list[str], counts, pairs: list[str], pair_counts) -> None:
        """log10 P(w) per word and log10 c(prev w) per pair: P(w | prev) is then one subtraction away."""
        self._log_n = math.log10(self.total)
        with np.errstate(divide="ignore"):
            self._uni = dict(zip(words, (np.log10(np.asarray(counts, float)) - self._log_n).tolist()))
            self._bi = dict(zip(pairs, np.log10(np.asarray(pair_counts, float)).tolist()))

    def _set(self, **params) -> None:
        for name, value in params.items():
            if name not in ("L", "smoothing", "camel", "digits"):
                raise TypeError(f"unknown parameter {name!r}")
            setattr(self, name, value)
        if self.L < 1 or self.smoothing <= 1.0:
            raise ValueError(f"need L >= 1 and smoothing > 1, got L={self.L}, smoothing={self.smoothing}")
        self.L, self.smoothing = int(self.L), float(self.smoothing)
        self._unk1 = math.log10(self.smoothing)
        self._unk0 = self._unk1 - self._log_n  # an unknown word of length k scores _unk0 - k * _unk1

    @classmethod
    def load(cls, lang: str, root: Path | None = None) -> Segmenter:
        """The shipped model of a language (``models/<lang>/nb.json``), read once and cached.

        ``root`` overrides the models folder. Raises ``ModelError`` naming the file if it is missing
        or does not match its card.
        """
        return _load(lang, None if root is None else Path(root))

    def configured(self, **params) -> Segmenter:
        """A copy with other ``L``, ``smoothing``, ``camel`` or ``digits``, sharing the counts."""
        other = object.__new__(Segmenter)
        other.__dict__.update(self.__dict__)
        other._set(**params)
        return other

    def score(self, word: str, previous: str | None = None) -> float:
        """log10 P(word | previous) as the decoder uses it (``word`` in lower case)."""
        if previous is not None and previous in self._uni:
            pair = self._bi.get(f"{previous} {word}", -math.inf)
            if pair > -math.inf:
                return pair - self._uni[previous] - self._log_n
        logp = self._uni.get(word)
        return self._unk0 - self._unk1 * len(word) if logp is None else logp

    def segment(self, text: str) -> str:
        """``text`` with spaces inserted between words; no other character is changed, added or dropped."""
        cuts = self._cuts(text)
        if not cuts:
            return text
        parts, last = [], 0
        for k in cuts:
            parts.append(text[last:k])
            last = k
        parts.append(text[last:])
        return " ".join(parts)

    def words(self, text: str) -> list[str]:
        """The words (and punctuation runs) of ``text`` as segmented, in their original case."""
        cuts = self._cuts(text)
        pieces, last = [], 0
        for k in cuts + [len(text)]:
            pieces.extend(text[last:k].split())
            last = k
        out = []
        for piece in pieces:  # punctuation runs stand apart from the words next to them
            out.extend(m.group() for m in regex.finditer(r"[\p{L}\p{N}\p{M}\u200c\u200d'’-]+|[^\p{L}\p{N}\p{M}\u200c\u200d'’-]+", piece))
        return out

    # --- decoding ------------------------------------------------------------------------

    def _cuts(self, text: str) -> list[int]:
        """Positions in ``text`` where a space is to be inserted (ascending)."""
        n_text = len(text)
        # s: the word characters in lower case; orig[k]: their index in text.
        is_word = [_is_word_char(c) for c in text]
        for k, c in enumerate(text):
            if c in _JOINERS and 0 < k < n_text - 1 and is_word[k - 1] and is_word[k + 1]:
                is_word[k] = True
        orig = [k for k in range(n_text) if is_word[k]]
        if not orig:
            return []
        s = "".join(_lower(text[k]) for k in orig)
        n = len(s)
        grapheme_start = _grapheme_starts(text)
        # kind[k] for a boundary before s[k]: 0 impossible, 1 possible, 2 forced by evidence, 3 forced by
        # whitespace (context carries over), 4 forced by punctuation (context restarts); 1 and 2 insert a space.
        kind = bytearray(n + 1)
        bonus = [0.0] * (n + 1)
        kind[n] = 4
        camel, digits = self.camel, self.digits
        for k in range(1, n):
            a, b = orig[k - 1], orig[k]
            if b != a + 1:
                kind[k] = 3 if text[a + 1:b].isspace() else 4
                continue
            ca, cb = text[a], text[b]
            if not grapheme_start[b] or (ca.isdigit() and cb.isdigit()):
                continue
            kind[k] = 1
            evidence = 0.0
            if ca.isdigit() != cb.isdigit() and ca.isalnum() and cb.isalnum():
                evidence = digits
            elif (ca.islower() and cb.isupper()) or (
                    ca.isupper() and cb.isupper() and b + 1 < n_text and text[b + 1].islower()):
                evidence = camel
            if evidence == HARD:
                kind[k] = 2
            else:
                bonus[k] = evidence
        ends = self._viterbi(s, kind, bonus)
        return [orig[k] for k in ends if kind[k] <= 2]

    def _viterbi(self, s: str, kind: bytearray, bonus: list[float]) -> list[int]:
        """Word boundaries (indices into ``s``) of the best segmentation.

        States are (end position, last word); a word never seen keeps one state per position, since it
        has no bigrams. Only the last ``L`` positions are kept live; back pointers go into flat arrays.
        """
        uni, bi, unk0, unk1, L, log_n = self._uni, self._bi, self._unk0, self._unk1, self.L, self._log_n
        n = len(s)
        # a state: context word -> (score, state id, log10 count of the context word)
        start = {START: (0.0, -1, uni[START] + log_n)} if START in uni else {"": (0.0, -1, 0.0)}
        back_len = array("l")   # state id -> length of its word
        back_prev = array("l")  # state id -> id of the state before it (-1: start)
        live: dict[int, tuple[dict[str, tuple[float, int, float]], float, int]] = {0: (start, 0.0, -1)}
        floor = 0  # the last forced boundary: no word crosses it
        last_open = 0  # the last position holding states
        for j in range(1, n + 1):
            if not kind[j]:
                continue
            lo = max(floor, j - L)
            starts = list(range(j - 1, lo - 1, -1))
            if last_open < lo:
                starts.append(last_open)  # a grapheme or digit run longer than L is one word
            cands: dict[str, tuple[float, int, float]] = {}
            unk_best, unk_from, unk_len = -math.inf, -1, 0
            for i in starts:
                entry = live.get(i)
                if entry is None:
                    continue
                states, top, top_id = entry
                w = s[i:j]
                lp = uni.get(w)
                if lp is None:
                    sc = top + unk0 - unk1 * (j - i)
                    if sc > unk_best:
                        unk_best, unk_from, unk_len = sc, top_id, j - i
                    continue
                best, best_from = -math.inf, -1
                suffix = " " + w
                for prev, (psc, pid, norm) in states.items():
                    pair = bi.get(prev + suffix)
                    sc = psc + (lp if pair is None else pair - norm)
                    if sc > best:
                        best, best_from = sc, pid
                cands[w] = (best, best_from, lp + log_n)
            extra = bonus[j]
            new: dict[str, tuple[float, int, float]] = {}
            top, top_id = -math.inf, -1
            for w, (sc, pid, norm) in cands.items():
                sid = len(back_len)
                back_len.append(len(w))
                back_prev.append(pid)
                sc += extra
                new[w] = (sc, sid, norm)
                if sc > top:
                    top, top_id = sc, sid
            if unk_len:
                sid = len(back_len)
                back_len.append(unk_len)
                back_prev.append(unk_from)
                unk_best += extra
                new[""] = (unk_best, sid, 0.0)
                if unk_best > top:
                    top, top_id = unk_best, sid
            if not new:
                continue
            if kind[j] == 4:
                ((context, (_, _, norm)),) = start.items()
                new = {context: (top, top_id, norm)}
            live[j] = (new, top, top_id)
            last_open = j
            if kind[j] >= 2:
                floor = j
                live = {j: live[j]}
            elif j - L - 1 in live and j - L - 1 != last_open:
                del live[j - L - 1]
        _, _, sid = live[n]
        ends = []
        pos = n
        while sid != -1:
            pos -= back_len[sid]
            if pos > 0:
                ends.append(pos)
            sid = back_prev[sid]
        ends.reverse()
        return ends


def _grapheme_starts(text: str) -> bytearray:
    """1 where a grapheme cluster starts: spaces go only between clusters."""
    if text.isascii() and "\r\n" not in text:
        return bytearray(b"\x01") * len(text)
    starts = bytearray(len(text))
    for m in _GRAPHEME.finditer(text):
        starts[m.start()] = 1
    return starts


def read_counts(path: Path) -> tuple[list[str], np.ndarray, list[str], np.ndarray]:
    """Words, their counts, pairs, their counts from a gzip TSV (``key<TAB>count``, words before pairs;
    a pair's key holds one space). Read in bulk: a per-line loop would take seconds."""
    with gzip.open(path, "rb") as fh:
        fields = fh.read().decode("utf-8").replace("\t", "\n").split("\n")
    keys, counts = fields[0:-1:2], np.asarray(fields[1::2], dtype=float)
    del fields
    n_words = next((k for k, key in enumerate(keys) if " " in key), len(keys))
    return keys[:n_words], counts[:n_words], keys[n_words:], counts[n_words:]


@lru_cache(maxsize=8)
def _load(lang: str, root: Path | None) -> Segmenter:
    card, path = load_card(lang, "nb", root)
    try:
        words, counts, pairs, pair_counts = read_counts(path)
        params = card.get("params", {})
        seg = object.__new__(Segmenter)
        seg.total = float(card.get("total") or counts.sum())
        seg._index(words, counts, pairs, pair_counts)
        seg._set(L=params.get("L", 20), smoothing=params.get("smoothing", 10.0),
                 camel=_evidence(params.get("camel", "hard")), digits=_evidence(params.get("digits", "hard")))
        return seg
    except (OSError, EOFError, ValueError) as exc:
        raise ModelError(f"{path}: unreadable counts ({exc})") from None


def _evidence(value) -> float:
    """A card's boundary-evidence setting: "hard" or a log10 bonus."""
    return HARD if value == "hard" else float(value)


def segment(text: str, lang: str = "en") -> str:
    """Insert spaces between the words of ``text`` with the shipped model of ``lang``."""
    return Segmenter.load(lang).segment(text)
