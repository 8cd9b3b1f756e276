"""The char E2E engine: one BiLSTM tagger restores every feature of every grapheme in one step.

normalize -> overlapped windows -> one ONNX Runtime call per batch of windows -> merge -> decode -> render.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import numpy as np

from .. import runtime
from ..cards import card_location, load_card
from ..chunking import plan
from ..clusters import ends_sentence_on, upper_of
from ..codec import spans_with
from ..packs import CAPS, SPACE, LanguagePack
from ..digit_groups import digit_groups
from ..spans import typed_spaces
from ..abbreviation_forms import abbreviation_forms
from ..small_words import small_case
from ..units import unit_case
from .base import Engine, EngineOptions
from .char_case import abbreviation_case, typed_mixed_case
from .char_digits import inside_digits, number_gaps
from .char_openers import SentenceOpeners
from .char_pairs import Pairing
from .char_input import (GIVEN_JOIN, GIVEN_SPACE, HAS_SPACE, NB_JOIN, NB_SPACE, NO_SPACE, UNKNOWN, grapheme_ids,
                         input_ids, vocab_index)
from .char_accents import AccentReader
from .char_settings import CharSettings, agreed, class_bias, state_masks
from .char_symbols import Unread
from .char_words import one_source_spaces
from .symbols import Symbols


UNEXPECTED = 0.01  # given marks the model gives less than this chance decide no case (CharEngine.scores)


class CharEngine(Engine):
    """Restores text with one char E2E model; thread count and batch size never change the output."""

    def __init__(self, pack: LanguagePack, card: dict, onnx_path: Path, options: EngineOptions = EngineOptions(),
                 segmenter=None):
        """``segmenter``: the NB segmenter for unspaced input, or a function that loads it (on first use)."""
        super().__init__(pack)
        self.card, self._segmenter = card, segmenter
        if list(card["features"]) != list(pack.features):
            raise ValueError(f"{onnx_path}: model features {card['features']} differ from pack {pack.code}")
        self.vocab, self.index = card["vocab"], vocab_index(card["vocab"])
        # the language's most frequent words that are no name, apostrophes left out (a capital after a comma on one
        # is a sentence start or no capital: ``common_capital_penalty``; scripts/build_common_words.py)
        self.common = frozenset(card.get("common_words", ()))
        self.options = options
        self.session = runtime.session(Path(onnx_path), options.threads)
        self.batch_size = options.batch_size
        self.caps_bit, self.space_bit = pack.bit(CAPS), pack.bit(SPACE)
        self.sentence_bits, self.capital_bits = pack.sentence_bits, pack.capital_bits
        self.no_space = np.flatnonzero((np.arange(pack.n_classes) & self.space_bit) == 0)
        self.sentence_classes = np.flatnonzero(np.arange(pack.n_classes) & self.sentence_bits)
        self.symbols = Symbols(pack, [None, *pack.marks])  # what the model never read (char_symbols.py)
        self.mark_bits = pack.mark_bits
        self.class_marks = np.arange(pack.n_classes) & self.mark_bits
        self.other_marks = sum(pack.bit(m) for m in pack.marks if m not in pack.sentence_marks)
        classes, marks = np.arange(pack.n_classes), self.other_marks | self.sentence_bits
        self.final_variants = [classes[((classes & ~marks) == (c & ~marks)) & (classes & self.sentence_bits != 0)
                                       & (classes & self.other_marks == 0)] for c in classes]
        self.pairing = Pairing(pack)
        self.openers = SentenceOpeners(pack, card, self.vocab)  # the last mark weighed by its sentence's first word
        self.proper = None  # the pack's proper forms (proper_case.py), where it ships them
        self.accents = None  # plain text read with its words' likely accents (char_accents.py), where the pack asks
        self.settings = CharSettings.from_card(card)
        self._with_settings(self.settings)

    @classmethod
    def load(cls, pack: LanguagePack, models_dir: Path | None = None,
             options: EngineOptions = EngineOptions()) -> "CharEngine":
        """The pack's char model; on unspaced input its spaces come from the NB segmenter when ``options``
        say ``nb``, or say ``auto`` and the card's ``nb_spaces`` (tuned on dev) is on."""
        name = pack.models.get("char")
        if not name:
            raise ValueError(f"pack {pack.code!r} names no char model")
        card, path = load_card(pack.code, name, models_dir)
        segmenter = None
        if options.segmenter == "nb" or (options.segmenter == "auto" and card.get("nb_spaces", False)):
            from ..segmenter import Segmenter

            segmenter = partial(Segmenter.load, pack.code, models_dir, prose=True)
        engine = cls(pack, card, path, options, segmenter)
        engine.models_dir = models_dir
        engine.accents = AccentReader.of(pack, models_dir)
        proper = pack.models.get("proper")  # capitals a word always has (proper_case.py), where the list ships
        if proper and engine.caps_bit and card_location(pack.code, proper, models_dir).is_file():
            from ..proper_case import ProperCase

            engine.proper = ProperCase.load(pack.code, models_dir, proper)
        return engine

    @property
    def segmenter(self):
        """The NB segmenter whose spaces unspaced input takes (None: the model's own), loaded on first use."""
        if callable(self._segmenter):
            self._segmenter = self._segmenter()
        return self._segmenter

    def preload(self, spaces: str) -> None:
        """The NB segmenter's files are checked (card, sha256) now; its counts are read on the first unspaced input."""
        if spaces != "keep" and callable(self._segmenter):
            from ..segmenter import Segmenter

            Segmenter.verify(self.pack.code, self.models_dir)

    def _with_settings(self, settings: CharSettings) -> None:
        self.bias = class_bias(self.pack, settings.bias)
        self.end_bias = class_bias(self.pack, settings.end_bias)
        self.masks = state_masks(self.pack, settings)

    def window_logits(self, ids: np.ndarray):
        """Yield (window, logits of its kept part) for overlapped windows, one ORT call per batch."""
        windows = plan(len(ids), self.settings.window, self.settings.overlap, self.settings.cut)
        for b in range(0, len(windows), self.batch_size):
            batch = windows[b:b + self.batch_size]
            logits = runtime.run(self.session, np.stack([ids[w.start:w.end] for w in batch]))
            for w, lg in zip(batch, logits):
                yield w, lg[w.keep_start - w.start:w.keep_end - w.start]

    def logits(self, gids: np.ndarray, states: np.ndarray) -> np.ndarray:
        """The model's merged logits per position (each window's kept part), reading ``states`` as the spaces."""
        out = np.zeros((len(gids), self.pack.n_classes), np.float32)
        for w, lg in self.window_logits(input_ids(gids, states)):
            out[w.keep_start:w.keep_end] = lg
        return out

    def decode(self, gids: np.ndarray, states: np.ndarray, end_mark: bool = False,
                enforce: np.ndarray | None = None, marks: np.ndarray | None = None,
                fixed: np.ndarray | None = None, logits: np.ndarray | None = None) -> np.ndarray:
        """Merged argmax class per position (biases added, the spaces of ``enforce``, default ``states``, enforced),
        the two ends of the pack's paired marks then decided together (char_pairs.py). ``logits``: the merged
        logits to decode (default: the model's reading of ``gids`` and ``states``).

        With ``end_mark`` the last position must take a sentence-final mark: training windows are cut from running
        text, so the model never learns that the end of the input is the end of a sentence. ``marks``: the mark
        bits the input already has per position; where ``fixed`` (default: where it has any) the class keeps
        exactly those marks.
        """
        enforce = states if enforce is None else enforce
        out = np.empty(len(gids), np.int32)
        # training windows start inside running text, so the model may read the input's first grapheme as the end
        # of a sentence before it (ja "すごい" came out "す。ごい", after "…ます。"): it ends none unless it is a word
        given = fixed if fixed is not None else marks if marks is not None else np.zeros(len(gids), bool)
        one_grapheme_start = len(gids) > 1 and enforce[0] != HAS_SPACE and not given[0]
        gains = np.zeros((len(self.pairing.pairs), 3, len(gids)), np.float32) if self.pairing else None
        logits = self.logits(gids, states) if logits is None else logits
        for w in plan(len(gids), self.settings.window, self.settings.overlap, self.settings.cut):
            keep = slice(w.keep_start, w.keep_end)
            scores = self.scores(logits[keep], enforce[keep], at_end=w.keep_end == len(gids), end_mark=end_mark,
                                 marks=None if marks is None else marks[keep],
                                 fixed=None if fixed is None else fixed[keep])
            if w.keep_start == 0 and one_grapheme_start:
                scores[0, self.sentence_classes] = -np.inf
            best = self.one_source_spaces(scores, scores.argmax(-1), enforce[keep])
            out[keep] = self.sentence_end_alone(scores, self.capital_after_mark(scores, best, gids=gids[keep]),
                                                given[keep])
            if end_mark and w.keep_end == len(gids) and self.openers and self.settings.sentence_opener_weight:
                out[keep] = self.openers.at_end(scores, out[keep], gids[keep], w.keep_start == 0,
                                                self.settings.sentence_opener_weight)
            if self.pairing:
                gains[:, :, keep] = self.pairing.gains(scores, out[keep])
        return self.pairing.resolve(out, gains, self.settings.pair_bonus) if self.pairing else out

    def one_source_spaces(self, scores: np.ndarray, cls: np.ndarray, enforce: np.ndarray) -> np.ndarray:
        """``cls`` spaced, in each run where the soft NB spaces and the model's own disagree, as one of them
        (char_words.py)."""
        soft = np.isin(enforce, (NB_SPACE, NB_JOIN))
        if not soft.any():
            return cls
        return one_source_spaces(scores, cls, soft, enforce == NB_SPACE, self.masks[enforce, self.space_bit],
                                 self.space_bit)

    def decode_reread(self, gids: np.ndarray, states: np.ndarray, end_mark: bool, enforce: np.ndarray,
                      marks: np.ndarray | None, fixed: np.ndarray | None) -> np.ndarray:
        """``decode``; where the spaces are restored (``states`` all unknown) and the card's ``reread`` is on, then
        again from the logits mixed with a second reading that is given the decided spaces. The model reads the
        marks and case of spaced input better (ru dev, CAPS: 0.753 unspaced, 0.771 with the true spaces); the
        first reading hedges the spaces it got wrong."""
        logits = self.logits(gids, states)
        cls = self.decode(gids, states, end_mark, enforce, marks, fixed, logits)
        if not self.settings.reread or not self.space_bit or len(gids) < 2 or (states != UNKNOWN).any():
            return cls
        spaces, mixed = self.second_reading(gids, cls, logits)
        return self.decode(gids, states, end_mark, spaces, marks, fixed, mixed)

    def second_reading(self, gids: np.ndarray, cls: np.ndarray, logits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The spaces that the first reading's classes ``cls`` decided, as states, and the logits of a second
        reading given them, mixed with the first's (``logits``, scaled in place: a long input's are large)."""
        spaces = np.where(cls & self.space_bit, HAS_SPACE, NO_SPACE).astype(np.int32)
        spaces[-1] = NO_SPACE
        weight = self.settings.reread
        logits *= 1 - weight
        mixed = self.logits(gids, spaces)
        mixed *= weight
        mixed += logits
        return spaces, mixed

    def sentence_end_alone(self, scores: np.ndarray, cls: np.ndarray, given: np.ndarray) -> np.ndarray:
        """In a cased pack a ``capital_after`` mark and another closing mark on one grapheme ("Präsident., Sehr")
        become the better of the two alone by ``scores``; the input's marks (``given``) stay. Uncased packs read
        some such pairs ("?"라고: "?,") and put no capital after them; "¿" stands before its grapheme."""
        others = self.other_marks & ~self.pack.opening_bits if self.caps_bit else 0
        both = np.flatnonzero((cls & self.capital_bits != 0) & (cls & others != 0) & (given == 0))
        alone, rest = cls[both] & ~others, cls[both] & ~self.capital_bits
        cls[both] = np.where(scores[both, alone] >= scores[both, rest], alone, rest)
        return cls

    def capital_after_mark(self, scores: np.ndarray, cls: np.ndarray, penalty: float | None = None,
                           gids: np.ndarray | None = None) -> np.ndarray:
        """Resolve a capital after a non-final mark ("year, And"). The model predicts the mark and the next capital
        independently, so it may want both a sentence end (the capital) and a comma (the mark). Each such pair
        becomes the best of: a sentence-final mark instead, no capital, no mark (a name goes on), or both kept at a
        cost of ``penalty`` (default: the card's ``capital_after_mark_penalty``, tuned on dev; inf keeps every pair);
        where the capital starts a common word (``gids``: the graphemes read), at the cost of the card's
        ``common_capital_penalty``. Pairs are resolved within a window's kept part, so the result does not depend
        on the batch."""
        penalty = self.settings.capital_after_mark_penalty if penalty is None else penalty
        common = self.settings.common_capital_penalty if gids is not None and self.common else np.inf
        if not (np.isfinite(penalty) or np.isfinite(common)) or not (self.caps_bit and self.space_bit
                                                                      and self.sentence_bits):
            return cls
        prev, nxt = cls[:-1], cls[1:]
        pairs = np.flatnonzero((nxt & self.caps_bit != 0) & (prev & self.space_bit != 0)
                               & (prev & self.other_marks != 0) & (prev & self.sentence_bits == 0))
        for j in pairs:
            word = np.isfinite(common) and self.common_word_at(gids, cls, j + 1)
            cost = common if word else penalty
            if not np.isfinite(cost):
                continue
            a, b = int(cls[j]), int(cls[j + 1])
            ends = self.final_variants[a]  # a with its marks swapped for a sentence-final one
            end = ends[scores[j, ends].argmax()]
            bare = a & ~self.other_marks  # the mark dropped: a name goes on ("Emmanuel Macron"), no common word
            options = ((scores[j, end] - scores[j, a], end, b),
                       (scores[j + 1, b & ~self.caps_bit] - scores[j + 1, b], a, b & ~self.caps_bit),
                       (-np.inf if word else scores[j, bare] - scores[j, a], bare, b),
                       (-cost, a, b))
            _, cls[j], cls[j + 1] = max(options, key=lambda o: o[0])
        return cls

    def common_word_at(self, gids: np.ndarray, cls: np.ndarray, i: int) -> bool:
        """Whether the word that starts at ``i`` (up to the next space of ``cls``) is one of the card's common words."""
        spaces = np.flatnonzero(cls[i:] & self.space_bit)
        end = i + int(spaces[0]) + 1 if len(spaces) else len(cls)
        return "".join(self.vocab[g] for g in gids[i:end].tolist()).replace("'", "") in self.common

    def scores(self, logits: np.ndarray, enforce: np.ndarray, bias: np.ndarray | None = None, at_end: bool = False,
               end_mark: bool = False, marks: np.ndarray | None = None,
               fixed: np.ndarray | None = None) -> np.ndarray:
        """Decision scores: logits + biases + the enforced spaces (and the input's own marks where ``fixed``,
        default: where it has any).
        At the end of the input a class and its +SPACE twin are one class (the model, trained on running text,
        expects a space there; rendering drops it)."""
        bias = self.bias if bias is None else bias
        scores = logits + bias + self.masks[enforce]
        if at_end and self.space_bit:
            last = np.full_like(logits[-1], -np.inf)
            last[self.no_space] = np.maximum(logits[-1, self.no_space], logits[-1, self.no_space | self.space_bit])
            scores[-1] = last + bias + self.masks[enforce[-1]]
        if marks is not None:
            at = np.flatnonzero(marks if fixed is None else fixed)
            if len(at):
                # where the model gives the input's marks almost no chance ("opina?" read as "opina"), the classes
                # with those marks say nothing of the case ("opinA?"): the case is then the model's own choice
                allowed = self.class_marks == marks[at, None]
                if self.caps_bit:
                    p = np.exp((scores[at] - scores[at].max(-1, keepdims=True)).astype(np.float64))
                    has = (np.arange(self.pack.n_classes) & self.caps_bit) != 0
                    unexpected = (p * allowed).sum(-1) < UNEXPECTED * p.sum(-1)
                    caps = p[unexpected][:, has].sum(-1) > p[unexpected][:, ~has].sum(-1)
                    allowed[unexpected] &= has[None, :] == caps[:, None]
                scores[at] += np.where(allowed, 0.0, -np.inf)
        if at_end and end_mark:  # the best keeps its sentence mark; else only the mark changes (case: the best's)
            best = int(scores[-1].argmax())
            keep = np.full_like(scores[-1], -np.inf)
            keep[self.sentence_classes if best & self.sentence_bits else self.final_variants[best]] = 0.0
            scores[-1] += keep + self.end_bias  # the card's end_bias: the sentence marks weighed anew at the end
        return scores

    def encode(self, base: list[str], given: np.ndarray, keep: bool, protected=((), ())):
        """Normalized input: its vocabulary ids, the space states the model reads (the given spaces when
        ``keep``, else unknown), and the states decoded with: the given spaces enforced when ``keep``; else the
        segmenter's (which never cuts inside the ``protected`` character spans and cuts at their edges), or the
        model's own spaces. In spaced input the model's spaces favour the input's spaces and joins by the card's
        ``given_space`` and ``given_join`` (with the segmenter: where its cuts, which weighed them, agree)."""
        states = np.full(len(base), UNKNOWN, np.int32)
        if keep and self.space_bit and base:
            states = np.where(given & self.space_bit, HAS_SPACE, NO_SPACE).astype(np.int32)
            states[-1] = NO_SPACE
            return grapheme_ids(base, self.index), states, states
        spaced = given & self.space_bit != 0
        if self.segmenter is not None and self.space_bit and base:
            enforce = self.segmented(base, protected, spaced)
            if spaced.any() and (self.settings.given_space or self.settings.given_join):
                enforce = agreed(enforce, spaced)
            return grapheme_ids(base, self.index), states, enforce
        if spaced.any() and (self.settings.given_space or self.settings.given_join):
            return grapheme_ids(base, self.index), states, np.where(spaced, GIVEN_SPACE, GIVEN_JOIN).astype(np.int32)
        return grapheme_ids(base, self.index), states, states

    def segmented(self, base: list[str], protected=((), ()), spaced: np.ndarray | None = None) -> np.ndarray:
        """The NB segmenter's spaces as states to decode with. The model still reads the unspaced input: its marks
        and case stay as good as without the segmenter. The spaces come from the word model, enforced, or, where
        the card tuned them soft (``nb_space``, ``nb_join``), as evidence the char model may overrule: each
        model errs where the other rarely does (NB splits a rare word, the char model a long one). Where the input
        had spaces (``spaced``, per grapheme), the segmenter weighs them (its card's ``given_space``, ``given_join``)."""
        ends = np.cumsum([len(g) for g in base])
        cut = np.zeros(ends[-1] + 1, bool)
        cut[self.segmenter.cuts("".join(base), *protected, spaced=typed_spaces(base, spaced))] = True
        space, join = (NB_SPACE, NB_JOIN) if self.settings.soft_nb else (HAS_SPACE, NO_SPACE)
        states = np.where(cut[ends], space, join).astype(np.int32)
        states[-1] = join
        return states

    def sentence_case(self, base: list[str], cls: np.ndarray, marks: np.ndarray | None = None) -> np.ndarray:
        """Capitalize the first grapheme and every grapheme after a mark of the pack's ``capital_after`` (by default
        every sentence-final mark) plus space, except after an abbreviation of the input (a word whose given marks
        include one before its last grapheme: "u.s.")."""
        if not self.caps_bit:
            return cls
        starts = np.flatnonzero((cls[:-1] & self.capital_bits != 0) & (cls[:-1] & self.space_bit != 0)) + 1
        if marks is not None and len(starts):
            word_start = np.concatenate([[0], np.flatnonzero(cls[:-1] & self.space_bit) + 1])
            begin = word_start[np.searchsorted(word_start, starts - 1, side="right") - 1]
            abbreviation = (marks[starts - 1] != 0) & spans_with(marks, begin, starts - 1)
            starts = starts[~abbreviation]
        for i in [0, *starts.tolist()]:
            if upper_of(base[i]) is not None:
                cls[i] |= self.caps_bit
        return cls

    def proper_case(self, base: list[str], cls: np.ndarray, typed: np.ndarray | None = None,
                    words: bool = True) -> np.ndarray:
        """The capitals of the words in the pack's list of proper forms added ("сша" -> "США"), the model's mixed
        case taken off other ``words``, no comma between a given name and a surname; ``typed``: the input's classes."""
        between = self.other_marks & ~self.pack.opening_bits
        return cls if self.proper is None else self.proper.apply(base, cls, self.caps_bit, self.space_bit, typed,
                                                                 words, between)

    def classes(self, base, given, kept, keep, end=True, frozen=None):
        """The input's own marks stay as they are ("3.5", "Hello, world"); the model adds marks elsewhere.
        The capitals of mixed-case input stay too ("McDonald"). A protected span takes no space or mark inside
        (its states and marks are enforced), keeps its case, and is a word of its own
        where it is glued to a word or another span."""
        gids, states, enforce = self.encode(base, given, keep, frozen.for_segmenter(base) if frozen else ((), ()))
        if self.accents is not None and self.accents.reads(base):
            gids = self.accents.ids(base, gids, np.isin(enforce, (HAS_SPACE, NB_SPACE, GIVEN_SPACE)), self.index)
        marks = kept & self.mark_bits
        digits = inside_digits(base) & (given & self.space_bit == 0)  # a given space ends a run: "in 1999, 2000 people"
        fixed = (marks != 0) | digits
        if frozen is not None:
            fixed |= frozen.closed
        required = None  # spaces no reading may take away: a span's edges, a typed space between two digits
        if not keep and self.space_bit:
            required = number_gaps(base, given & self.space_bit) | (frozen is not None and frozen.edges)
            enforce = np.where(required, HAS_SPACE, enforce)
            if frozen is not None:  # no space inside a span, nor after the text
                enforce = np.where(frozen.joined, NO_SPACE, enforce)
                enforce[-1] = NO_SPACE
        unread = Unread(base, given, self.pack, self.symbols, frozen, keep, required)
        if unread.any:  # symbols training text never shows (char_symbols.py)
            if not len(unread.vis):
                return base, unread.back(np.zeros(0, np.int32))
            vis, read = unread.vis, [base[i] for i in unread.vis]
            forced, fixed = unread.forced(marks[vis], fixed[vis])
            gids, states, enforce, marks = gids[vis], unread.states(states), unread.states(enforce, True), marks[vis]
        else:
            read, forced = base, marks
        end_mark = (end and bool(self.sentence_bits) and (unread.ends_sentence(base) if unread.any else
                    self.ends_sentence(base)) and not forced[-1] and not (frozen and frozen.trailing))
        cls = self.sentence_case(read, self.decode_reread(gids, states, end_mark, enforce, forced, fixed), marks)
        words = not keep or bool((given & self.space_bit).any())  # kept unspaced input has no words to go by
        if unread.any:
            cls = unread.back(cls)
            if required is not None:  # beside an unread run too ('" 0%', '0% “': the model read no space there)
                cls[:-1] |= np.where(required[:-1], self.space_bit, 0).astype(cls.dtype)
        cls = self.proper_case(base, cls | (kept & self.caps_bit), kept, words)
        if self.pack.abbreviations and self.caps_bit:
            cls = abbreviation_case(base, cls, kept, self.pack)
        cls = abbreviation_forms(base, cls, self.pack, kept, keep, None if frozen is None else frozen.inside)
        cls = small_case(base, unit_case(base, cls, self.pack, kept), self.pack, kept, self.proper)
        cls = digit_groups(base, cls, self.pack, given, keep, None if frozen is None else frozen.inside)
        if self.caps_bit and (kept & self.caps_bit).any():
            cls = typed_mixed_case(base, cls, kept, self.pack)
        if frozen is not None and self.caps_bit:
            cls = np.where(frozen.inside, (cls & ~self.caps_bit) | (given & self.caps_bit), cls)
        return base, cls

    def ends_sentence(self, base: list[str]) -> bool:
        """Whether the input's last grapheme must take a sentence-final mark (a letter, digit, percent or currency
        sign: clusters.ends_sentence_on)."""
        return bool(self.sentence_bits) and ends_sentence_on(base[-1])
