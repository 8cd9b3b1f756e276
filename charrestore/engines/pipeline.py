"""The pipeline engine: spaces from a segmenter (or from the input), then punctuation and case per word.

normalize -> words (given spaces, or the segmentation of unspaced input) -> token model -> render.
Unspaced input is cut by the NB segmenter, or by the pack's char model where that places spaces better (its card's
``nb_spaces``, tuned on dev, is off: gu) or ``--segmenter char`` asks for it; the char model's marks and case are
dropped, the token model decides those.
Only marks, spaces and case change: the words' graphemes are rendered as they are, so characters the
tokenizer does not know pass through untouched. The input's own marks stay where they are ("3.5",
"yahoo.com", "Hello, world"): the model reads the words without them and only adds marks elsewhere. In
mixed-case input, a word with capitals keeps exactly its case ("McDonald", "GitHub").
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import replace
from pathlib import Path

import numpy as np

from ..apostrophes import has_apostrophe
from ..cards import ModelError, load_card
from ..clusters import ends_sentence_on
from ..codec import parse, spans_with
from ..labels import words
from ..packs import CAPS, SPACE, LanguagePack
from ..spans import TRAILING, spoken, typed_spaces
from ..digit_groups import digit_groups
from ..abbreviation_forms import abbreviation_forms, dotted_capitals
from ..small_words import small_case
from ..units import unit_case
from .base import Engine, EngineOptions
from .symbols import Symbols
from .token import TokenModel

_TIMES: ContextVar = ContextVar("word_times", default=None)  # [words, (start, end)] of restore_words(times=...)


def closing(spans: list[tuple[int, int]], kinds: dict, kind: str) -> int:
    """Where the spans of ``kind`` start in the block of tags, mentions, URLs and emoji that ends a post: the first
    of them (len(spans): none). A post's last sentence ends before its closing emoji, so the tags after them are not
    read as its words ("Great game today. 👍🏽 #fun", not "today, 👍🏽 #fun"). Two or more closing hashtags are no
    words of it either ("See you all. #travel #nyc"); one is when the model reads it as one, with no mark before it
    ("I love #python", not "Great game today, #fun")."""
    at = len(spans)
    for i in range(len(spans) - 1, -1, -1):
        found = kinds.get(spans[i])
        if found not in TRAILING:
            break
        at = i if found == kind else at
    return at


class PipelineEngine(Engine):
    reads_apostrophes = True  # its token model reads the chosen forms (classes), the words staying as typed
    def __init__(self, pack: LanguagePack, model: TokenModel, models_dir: Path | None,
                 options: EngineOptions = EngineOptions()):
        super().__init__(pack)
        self.model, self.models_dir, self.options = model, models_dir, options
        self.card = model.card
        self.space_bit = pack.bit(SPACE)
        self.mark_bits = pack.mark_bits
        self.caps_bit = pack.bit(CAPS)
        self._segmenter = None
        self.symbols = Symbols(pack, model.marks)

    @property
    def settings(self):
        return self.model.settings

    @settings.setter
    def settings(self, value) -> None:
        self.model = self.model.configured(value)

    def _with_settings(self, settings) -> None:
        """Nothing derives from the settings here: the token model holds them."""

    @classmethod
    def load(cls, pack: LanguagePack, models_dir: Path | None = None,
             options: EngineOptions = EngineOptions()) -> "PipelineEngine":
        name = pack.models.get("token")
        if not name:
            raise ModelError(f"pack {pack.code!r} has no token model, which the pipeline engine needs "
                             "(use --engine char)")
        if options.segmenter == "none":
            raise ValueError("the pipeline takes the spaces of unspaced input from a segmenter (nb or char); "
                             "segmenter 'none' (the model's own spaces) needs engine 'char'")
        if options.segmenter == "char" and not pack.models.get("char"):
            raise ModelError(f"pack {pack.code!r} has no char model, which --segmenter char needs")
        card, path = load_card(pack.code, name, models_dir)
        return cls(pack, TokenModel(pack, card, path, options.threads, options.batch_size), models_dir, options)

    def preload(self, spaces: str) -> None:
        """The segmenter of unspaced input: the char engine is loaded now, the NB model's files only checked (card,
        sha256; its counts are read on the first unspaced input, which spaced input never needs)."""
        if spaces == "keep":
            return
        if self.spaces_from() == "char":
            self.segmenter()
        else:
            from ..segmenter import Segmenter

            Segmenter.verify(self.pack.code, self.models_dir)

    @property
    def uses_times(self) -> bool:
        """Whether word times change the output: the token model's card has pause offsets."""
        return self.model.pause_measure is not None

    def restore_words(self, words, end: bool = True, times=None) -> list[str]:
        """``Engine.restore_words``; ``times`` (one ``(start, end)`` in seconds per word, None or nan where
        unknown) lets the pauses between words shift the punctuation (the card's ``pause_bias``)."""
        if times is None or not self.uses_times:
            return super().restore_words(words, end)
        real = [t for w, t in zip(words, times) if parse(w, self.pack, apply_map=False)[0]]  # the words decoded
        token = _TIMES.set(np.array([(np.nan, np.nan) if t is None else t for t in real], np.float64).reshape(-1, 2))
        try:
            return super().restore_words(words, end)
        finally:
            _TIMES.reset(token)

    def segmenter(self):
        """The NB segmenter or the char engine, loaded on the first unspaced input (spaced input never needs it)."""
        if self._segmenter is None:
            if self.spaces_from() == "char":
                from .char_e2e import CharEngine

                self._segmenter = CharEngine.load(self.pack, self.models_dir, replace(self.options, segmenter="none"))
            else:
                from ..segmenter import Segmenter

                self._segmenter = Segmenter.load(self.pack.code, self.models_dir, prose=True)
        return self._segmenter

    def spaces_from(self) -> str:
        """``nb`` or ``char``: as asked, else the char model when the pack has one whose card found its own spaces
        better than the NB segmenter's on dev (``nb_spaces`` off), or when the pack has no NB model."""
        if self.options.segmenter in ("nb", "char"):
            return self.options.segmenter
        if not self.pack.models.get("char"):
            return "nb"
        if not self.pack.models.get("nb"):
            return "char"
        card, _ = load_card(self.pack.code, self.pack.models["char"], self.models_dir)
        return "nb" if card.get("nb_spaces", False) else "char"

    def segmented(self, base: list[str], protected=((), ()), spaced: np.ndarray | None = None) -> np.ndarray:
        """A SPACE after each grapheme the NB segmenter cuts after (the graphemes stay as they are: where a
        space cannot be shown, beside an invalid byte or before a lone combining mark, rendering leaves it out);
        where the input had spaces (``spaced``, per grapheme), the segmenter weighs them (spacing correction)."""
        return self.spaces_at(base, self.segmenter().cuts("".join(base), *protected,
                                                          spaced=typed_spaces(base, spaced)))

    def spaces_at(self, base: list[str], cuts) -> np.ndarray:
        """A SPACE after each grapheme that ends at one of the character offsets ``cuts`` of ``"".join(base)``."""
        ends = np.cumsum([len(g) for g in base])
        cuts = np.asarray(cuts, np.int64)
        at = np.searchsorted(ends, cuts)
        given = np.zeros(len(base), np.int32)
        given[at[(at < len(base)) & (ends[np.minimum(at, len(base) - 1)] == cuts)]] = self.space_bit
        return given

    def classes(self, base, given, kept, keep, end=True, frozen=None):
        """A protected span is one word (the segmenter never cuts inside it) whose case and inner marks stay as
        given; a word ending a trailing block of tags takes no mark."""
        own, segmenter = given, None if keep else self.segmenter()
        if isinstance(segmenter, Engine):  # the char model's spaces, its marks and case dropped
            given = segmenter.classes(base, given, kept, False, end, frozen)[1]
        elif not keep:
            protected = frozen.for_segmenter(base) if frozen else ((), ())
            given = self.segmented(base, protected, own & self.space_bit)
        if not keep:  # neither segmenter cuts after "!!!" or an emoji between two letters
            given = given | self.spaces_at(base, self.symbols.cuts("".join(base)))
        given = given & self.space_bit
        marks, caps = kept & self.mark_bits, kept & self.caps_bit
        spans = words(base, given, self.pack)
        forms = ["".join(base[s:e]) for s, e in spans]
        if frozen is not None:
            kinds = {(s, e): kind for s, e, kind in frozen.spans}
            forms = [spoken(kinds[span], f) if span in kinds else f for span, f in zip(spans, forms)]
        fix = self.apostrophe_model() if not has_apostrophe("".join(base)) else None
        if fix is not None:  # the model reads "we'll see" where the output will show it (Engine.restore_pieces)
            forms = fix.reading(forms)
        starts, ends = np.array(spans).T
        # a word of the pack's abbreviations typed with its marks ("e.g.", "vs.") keeps the input's case; it ends no
        # sentence, as no word with a mark before its last grapheme ("u.s.") does
        listed = spans_with(marks, starts, ends) & np.fromiter((f in self.pack.abbreviations for f in forms), bool,
                                                                len(forms))
        forced = self.model.forced_labels(marks[ends - 1], spans_with(marks, starts, ends - 1) | listed)
        if forced[-1] < 0 and not ends_sentence_on(base[-1]):  # an input ending in ":)" or "😂": no mark after it
            forced[-1] = self.model.punct_labels.index("O")
        if frozen is not None:
            forced = np.where(frozen.closed[ends - 1] & (forced < 0), self.model.punct_labels.index("O"), forced)
        times = _TIMES.get() if keep else None
        times = times if times is not None and len(times) == len(forms) else None
        none = self.model.punct_labels.index("O")
        forms, read, forced, typed = self.symbols.read(forms, forced, none)

        def label(read):  # words of symbols alone are not read, and take no label
            punct, case = np.full(len(forms), none), np.full(len(forms), self.model.O)
            if read.any():
                punct[read], case[read] = self.model.labels([f for f, r in zip(forms, read) if r], forced[read], end,
                                                            None if times is None else times[read],
                                                            keep_case=listed[read])
            return punct, case

        lead, tags, several = 0, len(spans), False
        if frozen is not None:  # a post's leading @mentions address it: its first sentence starts after them
            lead = next((i for i, span in enumerate(spans) if kinds.get(span) != "mention"), len(spans))
            tags = closing(spans, kinds, "hashtag")
            several = sum(kinds.get(span) == "hashtag" for span in spans[tags:]) > 1
            read[:lead] = False
            read[closing(spans, kinds, "emoji"):] = False
        if several and lead < tags and read[tags - 1]:
            read[tags:] = False  # the post's closing tags are no words of its last sentence
        punct, case = label(read)
        if lead < tags < len(spans) and read[tags - 1] and read[tags] and punct[tags - 1] != none:
            read[tags:] = False  # one closing tag that the model does not read as the sentence's last word
            punct, case = label(read)
        punct[typed] = none  # a typed "!" shows the label it gave
        classes = given | self.model.word_classes(base, spans, punct, case) | marks
        if caps.any():  # a word the input capitalized keeps exactly the input's case
            mixed = np.repeat(spans_with(caps, starts, ends), ends - starts)
            classes = np.where(mixed, (classes & ~self.caps_bit) | caps, classes)
        classes = abbreviation_forms(base, classes, self.pack, kept, keep, None if frozen is None else frozen.inside)
        classes = dotted_capitals(base, classes, self.pack, kept)
        classes = small_case(base, unit_case(base, classes, self.pack, kept), self.pack, kept)
        classes = digit_groups(base, classes, self.pack, own, keep, None if frozen is None else frozen.inside)
        if frozen is not None:
            classes = np.where(frozen.closed, (classes & ~self.mark_bits) | marks, classes)
            classes = np.where(frozen.inside, (classes & ~self.caps_bit) | (own & self.caps_bit), classes)
        classes[-1] &= ~self.space_bit
        return base, classes.astype(np.int32)
