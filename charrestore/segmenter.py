"""The Naive Bayes word segmenter: restores spaces with a unigram+bigram word model (Norvig 2009).

The model is data: word and word-pair counts (``models/<lang>/nb.counts`` and its card). Decoding is an
iterative Viterbi over (position, last word) states, linear in the input length for a fixed maximum word
length ``L``, with no recursion. Texts longer than ``BLOCK`` characters are decoded a block at a time, each
block resuming at the last boundary found well inside the previous one, so memory stays bounded.

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

import math
from bisect import bisect_right
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple, Sequence

import numpy as np
import regex

from . import codec_fast, fast_viterbi, viterbi
from .cards import ModelError, load_card
from .clusters import inside_graphemes
from .counts import reach_of, read as read_counts
from .packs import PackError, load_pack
from .plain_letters import PlainUnigrams, is_plain, keyboard_plain, made_plain, marked_by_plain
from .quote_apostrophes import FREQUENT, ApostropheWords, apostrophe_words, split_runs
from .sorted_words import SortedWords
from .viterbi import START
from .word_runs import AT_JOINER, CAMEL, CAPS, DIGIT_CHANGE, HYPHENS, INSIDE_NUMBER, LATTICE_RUN, TOKEN, digit_change

HARD = math.inf
BLOCK, MARGIN = 100_000, 1_000  # characters decoded at once; a block's last MARGIN characters are decoded again
PARAMS = ("L", "smoothing", "camel", "digits", "caps", "given_space", "given_join")


def _lower(c: str) -> str:
    """Lower case for look-up only, one character for one so that positions stay aligned."""
    low = c.lower()
    return low if len(low) == 1 else c


class Lattice(NamedTuple):
    """The decoders' input: ``s`` (word runs, lower case, joined), ``kind`` and ``bonus`` per boundary of ``s``
    (see ``_lattice``), and where each run starts in ``s`` and its offset in the text."""
    s: str
    kind: bytearray
    bonus: list[float]
    s_starts: list[int]
    offsets: list[int]
    silent: frozenset[int] = frozenset()  # boundaries after an elided clitic ("l'|inflation"): no space goes there
    opening: frozenset[int] = frozenset()  # boundaries after an opening quote ("said'|hello"): the space before it

    def to_text(self, ends: Sequence[int]) -> list[int]:
        """Text positions of the word boundaries ``ends`` (indices into ``s``) that insert a space."""
        return [k + self.offsets[bisect_right(self.s_starts, k) - 1] - (k in self.opening) for k in ends
                if self.kind[k] <= 2 and k not in self.silent]


class Segmenter:
    """Unigram+bigram word model with Norvig-style backoff and an unknown-word penalty growing with length.

    ``P(w | prev) = c(prev w) / c(prev)`` when the pair was seen, else ``P(w) = c(w) / N``; a word never seen scores
    ``λ / (N · λ^len(w))`` (Norvig's constant 10 made the tunable ``smoothing`` λ). ``L`` is the longest word
    considered, in characters. ``camel`` and ``digits`` weigh the evidence of a case change (``followFriday``,
    ``NASAMission``) or a letter/digit change (``iphone6``): a bonus in log10 units for a boundary there, ``math.inf``
    to force one, 0 to ignore it. ``caps`` is the bonus for a boundary between two capitals (``NATA``: acronyms
    rarely split; ``-math.inf`` forbids it).
    ``given_space`` and ``given_join`` correct the spacing of spaced text (``cuts(..., spaced=...)``): a cut gains
    the one where the text had a space and pays the other where it had none (log10 units; 0: spaces ignored).
    """
    given_space = given_join = 0.0
    _elided, _keyboard = None, ""  # where a word may start after an elided clitic (``elide``); keyboard_letters
    _digit_change = DIGIT_CHANGE  # the letter/digit changes that ``digits`` weighs (``ordinals``)

    def __init__(self, unigrams: dict[str, float], bigrams: dict[str, float], total: float | None = None, L: int = 20,
                 smoothing: float = 10.0, camel: float = HARD, digits: float = HARD, caps: float = 0.0):
        self.total = float(total or sum(unigrams.values()))
        grouped: dict[str, list[str]] = {}
        for pair, c in bigrams.items():
            prev, _, word = pair.partition(" ")
            grouped.setdefault(prev, []).append(f"{word} {c!r}")
        self._index(list(unigrams), list(unigrams.values()), {p: " ".join(v) for p, v in grouped.items()})
        self._set(L=L, smoothing=smoothing, camel=camel, digits=digits, caps=caps)

    def _index(self, words: list[str], counts, contexts: dict[str, str], is_sorted: bool = False) -> None:
        """log10 P(w) per word (``is_sorted``: by bisection, sorted_words.py); each context word's pairs stay a raw
        "word count ..." string until that word is met: loading parses none of the hundreds of thousands."""
        self._log_n = math.log10(self.total)
        with np.errstate(divide="ignore"):
            logp = (np.log10(np.asarray(counts, float)) - self._log_n).tolist()
        self._uni = SortedWords(words, logp) if is_sorted else dict(zip(words, logp))
        self._raw_contexts = contexts
        self._contexts: dict[str, dict[str, float]] = {}

    def _context(self, prev: str) -> dict[str, float]:
        """word -> log10 P(word | prev) for the pairs seen after ``prev`` (parsed once, then cached)."""
        table = self._contexts.get(prev)
        if table is None:
            raw, logp = self._raw_contexts.get(prev), self._uni.get(prev)
            table = {}
            if raw and logp is not None:
                items = raw.split(" ")
                norm = logp + self._log_n
                table = {w: math.log10(float(c)) - norm for w, c in zip(items[0::2], items[1::2])}
            self._contexts[prev] = table
        return table

    def _set(self, **params) -> None:
        for name, value in params.items():
            if name not in PARAMS:
                raise TypeError(f"unknown parameter {name!r}")
            setattr(self, name, value)
        if self.L < 1 or self.smoothing <= 1.0:
            raise ValueError(f"need L >= 1 and smoothing > 1, got L={self.L}, smoothing={self.smoothing}")
        self.L, self.smoothing = int(self.L), float(self.smoothing)
        self._unk1 = math.log10(self.smoothing)
        self._unk0 = self._unk1 - self._log_n  # an unknown word of length k scores _unk0 - k * _unk1

    @classmethod
    def load(cls, lang: str, root: Path | None = None, prose: bool = False) -> Segmenter:
        """The shipped model of a language (``models/<lang>/nb.json``), read once and cached.

        ``root`` overrides the models folder. ``prose``: with the card's ``prose_params`` (tuned on de-spaced text
        alone; ``params`` also serve hashtags). A file missing or unlike its card raises ``ModelError``.
        """
        return _load(lang, None if root is None else Path(root), prose)

    @staticmethod
    def verify(lang: str, root: Path | None = None) -> None:
        """Check the shipped model's card and its file's sha256 without reading the counts (``ModelError``)."""
        load_card(lang, "nb", None if root is None else Path(root))

    def configured(self, **params) -> Segmenter:
        """A copy with other parameters (``PARAMS``), sharing the counts."""
        other = object.__new__(Segmenter)
        other.__dict__.update(self.__dict__)
        other.__dict__.pop("_plain", None)
        other._set(**params)
        return other

    def elide(self, clitics: Sequence[str]) -> Segmenter:
        """Let a word start right after an elided clitic ("l'", "qu'": a pack's ``elisions``). The counts hold "l'homme"
        as one word, but seldom "l'inflation" or "l'Insee"; now such a word also scores as the clitic and the word
        the counts know alone, with no space between. A clitic's P is that of all the seen words it begins.

        >>> seg = Segmenter({"l'homme": 30, "inflation": 5, "le": 60, "taux": 8}, {}, L=12).elide(["l'"])
        >>> seg.segment("l'inflationletaux"), seg.segment("l'homme")
        ("l'inflation le taux", "l'homme")
        """
        if not clitics:
            return self
        mass = dict.fromkeys(clitics, 0.0)
        for word, logp in self._uni.items():
            if "'" in word and 0 < (cut := word.find("'") + 1) < len(word) and word[:cut] in mass:
                mass[word[:cut]] += 10.0 ** logp
        reach = self._reach()
        for clitic, p in mass.items():
            for form in {clitic, clitic.replace("'", "\u2019")}:
                if p and form not in self._uni:
                    self._uni[form] = math.log10(p)
                reach[form[-3:]] = max(reach.get(form[-3:], 2), len(form))
        self.__dict__.pop("_fast_tables", None)
        names = "|".join(sorted((regex.escape(c[:-1]) for c in clitics), key=len, reverse=True))
        self._elided = regex.compile(rf"(?:{names})['\u2019](?=\p{{L}})") if names else None
        return self

    def ordinals(self, suffixes: Sequence[str]) -> Segmenter:
        """No bonus for a boundary after a digit where a pack's ordinal suffix starts (word_runs.digit_change).

        >>> seg = Segmenter({"1st": 5, "and": 90, "1": 20, "stand": 10, "thousand": 9}, {}, L=8, digits=2.0)
        >>> seg.segment("1stand 5thousand"), seg.ordinals(["st", "th"]).segment("1stand 5thousand")
        ('1 stand 5 thousand', '1st and 5 thousand')
        """
        self._digit_change = digit_change(suffixes)
        return self

    def know(self, spellings: Sequence[str]) -> Segmenter:
        """Count a pack's ``spellings`` ("ChatGPT", "macOS") as words seen once in a million where the counts lack
        them, so that unspaced text keeps them whole: "chatgptopenai" is "chatgpt openai", not "chat gpt open ai".

        >>> seg = Segmenter({"chat": 50, "gpt": 2, "open": 60, "ai": 20}, {}, total=10**6, L=12)
        >>> seg.segment("chatgpt"), seg.know(["ChatGPT"]).segment("chatgpt")
        ('chat gpt', 'chatgpt')
        """
        reach = self._reach()
        for word in {w.lower() for w in spellings if w.isalnum()}:
            self._uni.setdefault(word, FREQUENT)
            reach[word[-3:]] = max(reach.get(word[-3:], 2), len(word))
        self.__dict__.pop("_fast_tables", None)
        return self

    def score(self, word: str, previous: str | None = None) -> float:
        """log10 P(word | previous) as the decoder uses it (``word`` in lower case)."""
        if previous is not None:
            pair = self._context(previous).get(word)
            if pair is not None:
                return pair
        logp = self._uni.get(word)
        return self._unk0 - self._unk1 * len(word) if logp is None else logp

    def segment(self, text: str, protected: Sequence[tuple[int, int]] = (), forced: Sequence[int] = (),
                spaced: Sequence[int] | None = None) -> str:
        """``text`` with spaces inserted between words; no other character is changed, added or dropped."""
        cuts = self.cuts(text, protected, forced, spaced)
        return " ".join(text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)])) if cuts else text

    def words(self, text: str) -> list[str]:
        """The words of ``text`` as segmented, in their original case; punctuation runs stand apart."""
        return [token for piece in self.segment(text).split() for token in TOKEN.findall(piece)]

    def cuts(self, text: str, protected: Sequence[tuple[int, int]] = (), forced: Sequence[int] = (),
             spaced: Sequence[int] | None = None) -> list[int]:
        """Positions in ``text`` where a space is to be inserted (ascending); never inside a grapheme cluster.
        ``protected``: character spans that are data (a URL, a number), never cut inside; ``forced``: positions
        that are cut (a URL glued to a word); ``spaced``: where ``text`` had its spaces before they were taken out,
        the evidence that ``given_space`` and ``given_join`` weigh (spacing correction)."""
        if (plain := self.plain_for(text)) is not None:
            return plain.cuts(keyboard_plain(text, self._keyboard), protected, forced, spaced)
        rules = {k: 1 for a, b in protected for k in range(a + 1, b)}
        rules.update((k, 2) for k in forced if 0 < k < len(text))
        given = None if spaced is None else np.isin(np.arange(len(text) + 1), np.asarray(spaced, np.int64))
        out, start = [], 0
        while len(text) - start > BLOCK:
            end = start + BLOCK
            part = {k - start: v for k, v in rules.items() if start <= k < end} if rules else None
            keep = [start + k for k in self._cuts(text[start:end], part, given, start) if start + k <= end - MARGIN]
            out += keep
            start = keep[-1] if keep else end - MARGIN
        part = {k - start: v for k, v in rules.items() if k >= start} if rules else None
        out += [start + k for k in self._cuts(text[start:], part, given, start)]
        return sorted(set(out).union(k for k, v in rules.items() if v == 2)) if rules else out

    def plain_for(self, text: str) -> Segmenter | None:
        """This segmenter with its counts made plain (plain_letters.py; derived once, shared by its copies), for a
        ``text`` whose letters carry no mark but the pack's ``keyboard_letters``, where its ``plain_typing`` asks."""
        shared = self.__dict__.get("_plain_parts")
        if shared is None or not is_plain(keyboard_plain(text, self._keyboard)) or not regex.search(r"\p{L}", text):
            return None
        if "_plain" not in self.__dict__:
            if "made" not in shared:
                shared["made"] = made_plain(self._uni, self._raw_contexts, self._reach(), self.marked_by_plain())
            plain = self._plain = self.configured()
            plain._uni, plain._raw_contexts, plain._reach_table = shared["made"]
            plain.__dict__.update(_contexts={}, _plain_parts=None, _fast_tables=None, _apostrophes=None, _keyboard="")
        return self._plain

    def marked_by_plain(self) -> dict[str, list[str]]:
        """The counts' marked words by plain form (plain_letters.py; built once, shared by copies, for accents.py)."""
        shared = {} if (had := self.__dict__.get("_plain_parts")) is None else had
        if "marked" not in shared:
            shared["marked"] = marked_by_plain(list(self._uni))
        return shared["marked"]

    def _cuts(self, text: str, rules: dict[int, int] | None = None, given: np.ndarray | None = None,
              at: int = 0) -> list[int]:  # given: where the text had spaces (len(text) + 1, from ``at``)
        lattice = self._lattice(text, rules, None if given is None else given[at:at + len(text) + 1])
        if lattice is None:
            return []
        if fast_viterbi.available and len(lattice.s) >= fast_viterbi.MIN_CHARS:
            return lattice.to_text(fast_viterbi.viterbi(self, START, *lattice[:3]))
        return lattice.to_text(self._viterbi(*lattice[:3]))

    def _lattice(self, text: str, rules: dict[int, int] | None = None,
                 given: np.ndarray | None = None) -> Lattice | None:
        """What the decoders read: the word runs of ``text`` lower-cased and joined, and per boundary its kind and
        bonus (None: no word run; ``given``: where ``text`` had spaces, weighed inside the runs by ``given_space`` and
        ``given_join``, and kept between two digits: "1 000"). kbest.py decodes the same lattice."""
        spans = [m.span() for m in LATTICE_RUN.finditer(text)]
        if not spans:
            return None
        opening_at = set()
        if "'" in text or "\u2019" in text:  # an apostrophe that no known word holds stands between two words
            spans, opening_at = split_runs(text, spans, self._uni, self._apostrophe_words(), self.L,
                                           {k for k, v in (rules or {}).items() if v == 1})
        n = sum(e - b for b, e in spans)
        # kind[k] for a boundary before s[k]: 0 impossible, 1 possible, 2 forced by evidence, 3 forced by white
        # space or a hyphen (context carries over), 4 forced by punctuation (context restarts); 1, 2 insert a space.
        kind = bytearray(b"\x01") * (n + 1)
        bonus = [0.0] * (n + 1)
        evidence = ((self._digit_change, self.digits), (CAMEL, self.camel), (CAPS, self.caps), (INSIDE_NUMBER, -HARD),
                    (AT_JOINER, -HARD))
        glued = None if codec_fast.singletons(text) else inside_graphemes(text)
        pieces, s_starts, offsets, pos, last, silent, opening = [], [], [], 0, 0, set(), set()
        for b, e in spans:
            if pos:
                between = text[last:b]
                kind[pos] = 3 if between.isspace() or between in HYPHENS else 2 if between in ("'", "\u2019") else 4
                if b in opening_at:
                    opening.add(pos)
            word = text[b:e]
            low = word.lower()
            pieces.append(low if len(low) == len(word) else "".join(map(_lower, word)))
            s_starts.append(pos)
            offsets.append(b - pos)
            for pattern, value in evidence:
                if value == 0.0:
                    continue
                for m in pattern.finditer(word):
                    k = pos + m.start()
                    if value == HARD:
                        kind[k] = 2
                    elif value == -HARD:
                        kind[k] = 0
                    else:
                        bonus[k] = value
            if self._elided is not None:
                for m in self._elided.finditer(pieces[-1]):
                    kind[pos + m.end()] = 1
                    silent.add(pos + m.end())
            if glued:
                for k in range(b + 1, e):
                    if glued[k]:
                        kind[pos + k - b] = 0
            pos += e - b
            last = e
        kind[n] = 4
        if rules:  # text position -> 1: no cut (inside a protected span), 2: a cut; only inside a word run
            run_starts = [b for b, _ in spans]
            for k, v in rules.items():
                r = bisect_right(run_starts, k) - 1
                if r >= 0 and spans[r][0] < k < spans[r][1] and not (glued and glued[k]):
                    kind[k - offsets[r]] = 0 if v == 1 else 2
        if given is not None:
            extra, weigh = np.asarray(bonus), bool(self.given_space or self.given_join)
            for (b, e), pos in zip(spans, s_starts):
                if weigh:
                    extra[pos + 1:pos + e - b] += np.where(given[b + 1:e], self.given_space, -self.given_join)
                for k in (np.flatnonzero(given[b + 1:e]) + b + 1).tolist():
                    if text[k - 1].isdigit() and text[k].isdigit():
                        kind[pos + k - b] = 2
            bonus = extra.tolist()
        return Lattice("".join(pieces), kind, bonus, s_starts, offsets, frozenset(silent), frozenset(opening))

    def _viterbi(self, s: str, kind: bytearray, bonus: list[float]) -> list[int]:
        """Word boundaries (indices into ``s``) of the best segmentation, by the Python loop (viterbi.py)."""
        return viterbi.decode(self, s, kind, bonus)

    def _apostrophe_words(self) -> ApostropheWords:
        """What the counts' words with an apostrophe say of one typed between letters, found on first use."""
        found, uni = self.__dict__.get("_apostrophes"), self._uni
        if found is None:  # of counts made plain: their apostrophe words alone, not all 300,000 made
            held = uni.holding("'") if isinstance(uni, PlainUnigrams) else (w for w in uni if "'" in w)
            found = self._apostrophes = apostrophe_words(held)
        return found

    def _reach(self) -> dict[str, int]:
        """Last three letters -> length of the longest seen word ending in them (the counts file's, or built)."""
        reach = self.__dict__.get("_reach_table")
        if reach is None:
            reach = self._reach_table = reach_of(list(self._uni))
        return reach


@lru_cache(maxsize=8)
def _load(lang: str, root: Path | None, prose: bool = False) -> Segmenter:
    if prose:  # the same counts, shared, with the card's prose_params where it has them (the card is read once)
        return (general := _load(lang, root, False)).configured(**general.prose_params)
    card, path = load_card(lang, "nb", root)
    try:
        words, counts, contexts, reach, is_sorted = read_counts(path)
        params = card.get("params", {})
        seg = object.__new__(Segmenter)
        seg.total = float(card.get("total") or counts.sum())
        seg._index(words, counts, contexts, is_sorted)
        seg._reach_table = reach
        seg.prose_params = card.get("prose_params") or {}
        seg._set(L=params.get("L", 20), smoothing=params.get("smoothing", 10.0),
                 camel=_evidence(params.get("camel", "hard")), digits=_evidence(params.get("digits", "hard")),
                 caps=_evidence(params.get("caps", 0.0)))
    except (OSError, EOFError, ValueError) as exc:
        raise ModelError(f"{path}: unreadable counts ({exc})") from None
    try:
        pack = load_pack(lang)
    except PackError:  # no pack of that code is installed
        return seg
    seg._plain_parts = {} if pack.plain_typing else None  # the counts made plain (plain_for), when a text needs them
    seg._keyboard = pack.keyboard_letters
    return seg.elide(pack.elisions).know(pack.spellings).ordinals(pack.ordinal_suffixes)


def _evidence(value) -> float:
    """A card's boundary-evidence setting: "hard", "never" or a log10 bonus."""
    return {"hard": HARD, "never": -HARD}.get(value, value) if isinstance(value, str) else float(value)


def segment(text: str, lang: str = "en") -> str:
    """Insert spaces between the words of ``text`` with the shipped model of ``lang``."""
    return Segmenter.load(lang).segment(text)
