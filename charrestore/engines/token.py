"""The token model at run time: per word, the mark after it (O/COMMA/PERIOD/QUESTION) and its casing (O/UPP/CAP/MIX).

words -> SentencePiece subwords -> overlapped word windows (merged by the min_words_cut rule of
``chunking``) -> one ONNX Runtime call per batch of windows -> labels -> consistency -> grapheme classes.
Only numpy, onnxruntime and sentencepiece: no TensorFlow.
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .. import runtime
from ..cards import ModelError, sha256_of
from ..chunking import plan
from ..clusters import case_split, graphemes, upper_of
from ..labels import MARK_LABELS
from ..packs import CAPS, LanguagePack
from .token_input import load_tokenizer, pack_windows, word_pieces

_FIRST_ALNUM = re.compile(r"[^\W_]")
SECONDS_PER_CHAR = 0.07  # "excess": the time to the next word beyond 70 ms per letter or digit of the word


def known_letters(sp) -> str:
    """The letters in a tokenizer's pieces. A word with letters but none of these (another script: "привет" for en)
    reaches the model as UNK alone, so the casing head can only guess there."""
    pieces = (sp.id_to_piece(i) for i in range(sp.get_piece_size()) if not (sp.is_unknown(i) or sp.is_control(i)))
    return "".join(sorted({ch for piece in pieces for ch in piece if ch.isalpha()}))


def pause_values(forms: list[str], times: np.ndarray, measure: str) -> np.ndarray:
    """The pause after each word in seconds, from word times ``[words, (start, end)]`` (nan: unknown), by
    ``measure``: ``gap`` (the next word's start minus this one's end), ``ioi`` (the next word's start minus this
    one's start: the word and the silence after it, which aligners often put inside the word) or ``excess``
    (``ioi`` beyond 70 ms per letter or digit). nan where a time is unknown, after the last word, and between
    two words with the same times (pieces of one timed word)."""
    starts, ends = times[:, 0], times[:, 1]
    out = starts[1:] - (ends[:-1] if measure == "gap" else starts[:-1])
    if measure == "excess":
        out = out - SECONDS_PER_CHAR * np.array([sum(ch.isalnum() for ch in f) for f in forms[:-1]])
    out[(starts[1:] == starts[:-1]) & (ends[1:] == ends[:-1])] = np.nan
    return np.append(out, np.nan)


@dataclass(frozen=True)
class TokenSettings:
    """Decoding settings of a token model, as its card gives them (tuned on dev). ``consistency = False``
    leaves the raw casing as the model predicted it (for measuring the capital-after-sentence-end rule)."""
    window: int
    overlap: int
    cut: int
    bias: dict[str, float] = field(default_factory=dict)  # punctuation logit offsets per label
    case_bias: dict[str, float] = field(default_factory=dict)  # casing logit offsets per label
    final_mark: bool = True
    consistency: bool = True
    end_bias: dict[str, float] = field(default_factory=dict)  # further punctuation offsets at a document's last word

    @classmethod
    def from_card(cls, card: dict) -> "TokenSettings":
        return cls(card["window"], card["overlap"], card["cut"], dict(card.get("bias", {})),
                   dict(card.get("case_bias", {})), bool(card.get("final_mark", True)),
                   end_bias=dict(card.get("end_bias", {})))


class TokenModel:
    """Labels words with one token model; thread count and batch size never change the output.

    ``stats`` counts, over every call, the words whose raw casing the consistency rule overrode
    (``lower_after_end``: a word after PERIOD/QUESTION predicted O) beside the sentence starts it saw.
    ``final_mark`` (card key, default on): the last word of a document gets PERIOD or QUESTION, whichever
    the punctuation head prefers, when the model predicted no sentence end there. ``end_bias`` (card key) adds
    offsets at that last word only: tuned on single sentences, where that choice is most of what is decided,
    while the ``bias`` offsets are tuned on whole talks (see ``tuning.token.tune_end_bias``).
    """

    def __init__(self, pack: LanguagePack, card: dict, onnx_path: Path, threads: int = 1, batch_size: int = 32):
        self.pack, self.card = pack, card
        tok_path = Path(onnx_path).parent / card["tokenizer"]["file"]
        if not tok_path.is_file():
            raise ModelError(f"{tok_path}: tokenizer of {Path(onnx_path).name} missing")
        if sha256_of(tok_path) != card["tokenizer"]["sha256"]:
            raise ModelError(f"{tok_path}: sha256 does not match its card (corrupt or replaced)")
        self.sp = load_tokenizer(tok_path)
        known = re.escape(known_letters(self.sp))
        self._other_letter = re.compile(rf"[^\W\d_{known}]")
        self._known_letter = re.compile(f"[{known}]" if known else "(?!)")
        self.session = runtime.session(Path(onnx_path), threads)
        self.batch_size = batch_size
        self.mixed: dict[str, str] = card.get("mixed", {})  # "youtube": "YouTube" (training/proper.py)
        self.lexicon: dict[str, str] = {**card.get("lexicon", {}), **self.mixed}
        self.proper = frozenset(card.get("proper", ()))  # forms the training text capitalizes (training/proper.py)
        self.pairs = frozenset(card.get("proper_pairs", ()))  # "macbook pro": the second capitalized after the first
        self.read_as: dict[str, str] = card.get("read_as", {})  # "dont": "don't", "u": "you" (build_read_as.py)
        self.punct_labels, self.case_labels = card["punct_labels"], card["case_labels"]
        by_label = {MARK_LABELS.get(m, m): m for m in pack.marks}
        self.marks = [by_label.get(lab) for lab in self.punct_labels]  # None for O
        self.sentence_ends = np.array([m in pack.sentence_marks for m in self.marks])
        self.capital_after = np.array([m in pack.capital_after for m in self.marks])
        self.O, self.CAP = self.case_labels.index("O"), self.case_labels.index("CAP")
        self.MIX = self.case_labels.index("MIX") if "MIX" in self.case_labels else -1
        self.UPP = self.case_labels.index("UPP") if "UPP" in self.case_labels else -1
        self.dotted = frozenset(pack.dotted_capitals)  # "us": in capitals with a period, "U.S." (abbreviation_forms.py)
        self.stats: Counter = Counter()
        self.edge = card.get("edge_id")  # None: a model trained without document edges
        pause = card.get("pause_bias")  # per pause bucket, punctuation offsets for words with times (validated)
        self.pause_measure = pause["measure"] if pause else None
        if pause:
            self.pause_edges = np.array(pause["edges"], np.float64)
            self.pause_table = np.array([pause.get(lab, [0.0] * (len(pause["edges"]) + 1))
                                         for lab in self.punct_labels], np.float32).T  # [buckets, labels]
            self.pause_table[:, self.punct_labels.index("O")] = 0.0
        self._set(TokenSettings.from_card(card))

    def _set(self, settings: TokenSettings) -> None:
        self.settings = settings
        self.bias_punct = np.array([settings.bias.get(lab, 0.0) for lab in self.punct_labels], np.float32)
        self.bias_case = np.array([settings.case_bias.get(lab, 0.0) for lab in self.case_labels], np.float32)
        self.bias_end = np.array([settings.end_bias.get(lab, 0.0) for lab in self.punct_labels], np.float32)

    def configured(self, settings: TokenSettings, session=None) -> "TokenModel":
        """A copy decoding with ``settings`` (and, for tuning, another session, e.g. a caching one);
        the tokenizer, the session and the statistics are shared."""
        other = copy.copy(self)
        other._set(settings)
        if session is not None:
            other.session = session
        return other

    def logits(self, forms: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """Merged punctuation and casing logits [words, labels] of a word sequence."""
        flat, offsets = word_pieces(self.sp, forms)
        punct = np.empty((len(forms), len(self.punct_labels)), np.float32)
        case = np.empty((len(forms), len(self.case_labels)), np.float32)
        windows = plan(len(forms), self.settings.window, self.settings.overlap, self.settings.cut)
        for b in range(0, len(windows), self.batch_size):
            batch = windows[b:b + self.batch_size]
            ids, starts = pack_windows(flat, offsets, [(w.start, w.end) for w in batch], self.edge,
                                       [(w.start == 0, w.end == len(forms)) for w in batch])
            p, c = self.session.run(None, {"ids": ids, "starts": starts})
            for w, pw, cw in zip(batch, p, c):
                keep = slice(w.keep_start - w.start, w.keep_end - w.start)
                punct[w.keep_start:w.keep_end] = pw[keep]
                case[w.keep_start:w.keep_end] = cw[keep]
        return punct, case

    def forced_labels(self, mark_bits: np.ndarray, inner: np.ndarray) -> np.ndarray:
        """Punctuation label ids that the input fixes, from the mark bits of each word's last grapheme: the mark's
        label, O for several marks (they are kept as given, and none is added), -1 where the input has none.
        A word with marks inside it too ("u.s.", "e.g.") is an abbreviation: its final mark is kept but ends no
        sentence (O), so the next word's case is the model's."""
        bits = [self.pack.bit(m) if m else 0 for m in self.marks]
        forced = np.where(mark_bits != 0, self.punct_labels.index("O"), -1)
        for label, b in enumerate(bits):
            if b:
                forced[(mark_bits == b) & ~(inner & self.sentence_ends[label])] = label
        return forced

    def pause_bias(self, forms: list[str], times) -> np.ndarray | None:
        """Punctuation offsets [words, labels]: the card's ``bias``, plus for each word with a known pause after
        it the offsets of its pause bucket (card ``pause_bias``). None when the card has none."""
        if self.pause_measure is None:
            return None
        pauses = pause_values(forms, np.asarray(times, np.float64).reshape(len(forms), 2), self.pause_measure)
        bias = np.repeat(self.bias_punct[None, :], len(forms), 0)
        known = ~np.isnan(pauses)
        bias[known] += self.pause_table[np.searchsorted(self.pause_edges, pauses[known], side="right")]
        return bias

    def labels(self, forms: list[str], forced: np.ndarray | None = None, end: bool = True, times=None,
               keep_case: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Punctuation and casing label ids per word, with the consistency rule applied: the first word
        and every word after a sentence end start with a capital, and the last word ends a sentence
        (when ``end``: the words end the document). ``forced`` (from ``forced_labels``): the input's own
        marks, which the model does not overrule. ``times`` (``[words, (start, end)]`` in seconds, nan where
        unknown): word times, whose pauses shift the punctuation when the card has ``pause_bias``. A word typed
        without its apostrophe, or a chat's shorthand, is read as the card's ``read_as`` spells it ("dont" as "don't",
        "u" as "you"): typed so, ted_dev lost 2.4 and 8.0 punctuation F1 (scripts/build_read_as.py). ``keep_case``:
        the abbreviations the input typed ("e.g."), for ``decode``."""
        if not forms:
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        letter_first = np.array([bool(m) and m.group().isalpha() for m in map(_FIRST_ALNUM.search, forms)])
        bias = None if times is None else self.pause_bias(forms, times)
        read = [self.read_as.get(f, f) for f in forms] if self.read_as else forms  # as its training text writes them
        dotted = np.fromiter((f in self.dotted for f in read), bool, len(read)) if self.dotted else None
        return self.decode(*self.logits(read), bias_punct=bias, forced=forced, letter_first=letter_first, end=end,
                           named=self.named(read), spelled=self.spelled(read), unread=self.unread(forms),
                           abbreviation=keep_case, dotted=dotted)

    def unread(self, forms: list[str]) -> np.ndarray | None:
        """Which words have letters but none that the tokenizer knows (None: no such word), for ``decode``."""
        if not self._other_letter.search("".join(forms)):
            return None
        return np.fromiter((bool(self._other_letter.search(f)) and not self._known_letter.search(f) for f in forms),
                           bool, len(forms))

    def named(self, forms: list[str], proper: frozenset | None = None,
              pairs: frozenset | None = None) -> np.ndarray | None:
        """Which words are in ``proper`` or follow their word of ``pairs`` (default: the card's lists; None when
        both are empty), for ``decode``."""
        proper = self.proper if proper is None else proper
        pairs = self.pairs if pairs is None else pairs
        if not proper and not pairs:
            return None
        after = [""] + forms[:-1]
        return np.fromiter((f in proper or f"{a} {f}" in pairs for a, f in zip(after, forms)), bool, len(forms))

    def spelled(self, forms: list[str], mixed: dict | None = None) -> np.ndarray | None:
        """Which words have a mixed-case spelling in ``mixed`` (default: the card's; None when it is empty)."""
        mixed = self.mixed if mixed is None else mixed
        return np.fromiter((f in mixed for f in forms), bool, len(forms)) if mixed else None

    def decode(self, p: np.ndarray, c: np.ndarray, bias_punct: np.ndarray | None = None,
               bias_case: np.ndarray | None = None, punct: np.ndarray | None = None,
               forced: np.ndarray | None = None, letter_first: np.ndarray | None = None,
               end: bool = True, bias_end: np.ndarray | None = None,
               named: np.ndarray | None = None, unread: np.ndarray | None = None,
               abbreviation: np.ndarray | None = None, spelled: np.ndarray | None = None,
               dotted: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Label ids from merged logits: the offsets (the card's by default) added, then the rules. Tuning
        tries other offsets (``bias_end``: those of the last word); ``punct`` (gold marks, for an oracle) replaces
        the decoded marks; ``forced`` (-1: free) fixes the marks of some words, the input's own. ``letter_first``
        (default: all): the words whose first letter or digit is a letter; the sentence-start rule capitalizes
        only those ("3pm", not "3Pm"). ``named``: the words of the card's ``proper`` list, CAP where the model
        says O. ``spelled``: the words of the card's ``mixed`` list, MIX (spelled as the list does) where the model
        says O or CAP. ``unread``: the words in a script the tokenizer cannot read (``TokenModel.unread``), O whatever the model says: they
        keep the input's case, and only the sentence-start rule may capitalize them. ``abbreviation``: words that
        keep the input's case too ("e.g.", forced to end no sentence); where the model read one as a sentence end,
        its capital on the next word is that misreading's, and goes unless the word is ``named``. ``dotted``: the
        words of the pack's ``dotted_capitals``; in capitals with a period ("U.S."), the period is theirs, and the
        next word keeps the model's case (the sentence-start rule wrote "US. Government")."""
        bias_punct = self.bias_punct if bias_punct is None else bias_punct
        bias_case = self.bias_case if bias_case is None else bias_case
        case = (c + bias_case).argmax(-1)
        if named is not None:
            case[named & (case == self.O)] = self.CAP
        if spelled is not None and self.MIX >= 0:
            case[spelled & ((case == self.O) | (case == self.CAP))] = self.MIX
        if unread is not None:
            case[unread] = self.O
        if abbreviation is not None:
            case[abbreviation] = self.O
            if punct is None:
                misread = abbreviation & self.sentence_ends[(p + bias_punct).argmax(-1)]
                after = np.concatenate([[False], misread[:-1]]) & (case == self.CAP)
                case[after if named is None else after & ~named] = self.O
        if punct is None:
            p = p + bias_punct
            if end and len(p):  # the document's last word (not a stream's piece that more text follows)
                p[-1] += self.bias_end if bias_end is None else bias_end
            punct = p.argmax(-1)
            if forced is not None:
                punct = np.where(forced >= 0, forced, punct)
            free = forced is None or forced[-1] < 0
            if end and self.settings.final_mark and free and not self.sentence_ends[punct[-1]]:
                # A document ends a sentence; the model never saw a document end (its training windows are
                # cut from running text, where the last word's next word is merely out of view).
                ends = np.flatnonzero(self.sentence_ends)
                punct[-1] = ends[p[-1, ends].argmax()]
                self.stats["final_mark_added"] += 1
        starts = np.concatenate([[True], self.capital_after[punct[:-1]]])
        if dotted is not None:
            starts[1:] &= ~(dotted & (case == self.UPP))[:-1]
        lower = starts & (case == self.O) & (True if letter_first is None else letter_first)
        self.stats["words"] += len(case)
        self.stats["sentence_starts"] += int(starts.sum())
        self.stats["lower_after_end"] += int(lower[1:].sum())
        self.stats["cap_not_after_end"] += int(((case == self.CAP) & ~starts).sum())
        if self.settings.consistency:
            case[lower] = self.CAP
        return punct, case

    def word_classes(self, base: list[str], spans, punct: np.ndarray, case: np.ndarray) -> np.ndarray:
        """CAPS and mark bits of the graphemes of ``spans`` from the word labels (spaces are not touched)."""
        caps = self.pack.bit(CAPS)
        mark_bits = [self.pack.bit(m) if m else 0 for m in self.marks]
        out = np.zeros(len(base), np.int32)
        for (s, e), p, c in zip(spans, punct, case):
            out[e - 1] |= mark_bits[p]
            kind = self.case_labels[c]
            if kind == "O" or not caps:
                continue
            cased = [i for i in range(s, e) if upper_of(base[i]) is not None]
            if kind == "MIX":
                upper = self._mixed(base[s:e])
                if upper is not None:
                    out[s:e] |= np.where(upper, caps, 0).astype(np.int32)
                    continue
                kind = "CAP"
            for i in cased[:1] if kind == "CAP" else cased:
                out[i] |= caps
        return out

    def _mixed(self, word: list[str]) -> list[bool] | None:
        """Which graphemes of a MIX word are upper case, from the lexicon (None: unknown word)."""
        surface = self.lexicon.get("".join(word))
        if surface is None:
            return None
        split = [case_split(g) for g in graphemes(surface)]
        if [b for b, _ in split] != word:
            return None
        return [up for _, up in split]
