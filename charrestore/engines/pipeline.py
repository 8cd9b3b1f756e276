"""The pipeline engine: spaces from the NB segmenter (or from the input), then punctuation and case per word.

normalize -> words (given spaces, or NB segmentation of unspaced input) -> token model -> render.
Only marks, spaces and case change: the words' graphemes are rendered as they are, so characters the
tokenizer does not know pass through untouched. The input's own marks stay where they are ("3.5",
"yahoo.com", "Hello, world"): the model reads the words without them and only adds marks elsewhere. In
mixed-case input, a word with capitals keeps exactly its case ("McDonald", "GitHub").
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..cards import ModelError, load_card
from ..codec import kept_features, parse, render, spans_with
from ..labels import words
from ..packs import CAPS, SPACE, LanguagePack
from .token import TokenModel


class PipelineEngine:
    def __init__(self, pack: LanguagePack, model: TokenModel, root: Path | None):
        self.pack, self.model, self.root = pack, model, root
        self.card = model.card
        self.space_bit = pack.bit(SPACE)
        self.mark_bits = pack.mark_bits
        self.caps_bit = pack.bit(CAPS)
        self._segmenter = None

    @classmethod
    def load(cls, pack: LanguagePack, root: Path | None = None, threads: int = 1, batch_size: int = 32):
        name = pack.models.get("token")
        if not name:
            raise ModelError(f"pack {pack.code!r} has no token model, which the pipeline engine needs "
                             "(use --engine char)")
        card, path = load_card(pack.code, name, root)
        return cls(pack, TokenModel(pack, card, path, threads, batch_size), root)

    def segmenter(self):
        """The NB segmenter, loaded on the first unspaced input (spaced input never needs it)."""
        if self._segmenter is None:
            from ..segmenter import Segmenter

            self._segmenter = Segmenter.load(self.pack.code, self.root)
        return self._segmenter

    def restore(self, text: str, spaces: str = "auto") -> str:
        base, given = parse(text, self.pack, apply_map=False)
        if not base:
            return ""
        kept = kept_features(text, given, self.pack)
        keep = spaces == "keep" or (spaces == "auto" and bool((given & self.space_bit).any()))
        if not keep:
            segmented, given = parse(self.segmenter().segment("".join(base)), self.pack, apply_map=False)
            if len(segmented) != len(base):  # a combining sign merged across a removed space: no longer aligned
                kept = np.zeros(len(segmented), np.int32)
            base = segmented
        given &= self.space_bit
        marks, caps = kept & self.mark_bits, kept & self.caps_bit
        spans = words(base, given, self.pack)
        forms = ["".join(base[s:e]) for s, e in spans]
        starts, ends = np.array(spans).T
        inner = spans_with(marks, starts, ends - 1)  # a mark before the word's last grapheme
        forced = self.model.forced_labels(marks[ends - 1], inner)
        if forced[-1] < 0 and not base[-1][0].isalnum():  # an input ending in ":)" or "😂" gets no mark after it
            forced[-1] = self.model.punct_labels.index("O")
        punct, case = self.model.labels(forms, forced)
        classes = given | self.model.word_classes(base, spans, punct, case) | marks
        if caps.any():  # a word the input capitalized keeps exactly the input's case
            own = np.repeat(spans_with(caps, starts, ends), ends - starts)
            classes = np.where(own, (classes & ~self.caps_bit) | caps, classes)
        classes[-1] &= ~self.space_bit
        return render(base, classes.astype(np.int32), self.pack)
