"""The engine protocol: what every engine offers the Restorer, streaming and the tuners.

An engine is built once by ``load(pack, models_dir, options)`` and then only called. Its decoding
settings (windows, logit offsets, rules) are a frozen dataclass read from the model card; a tuner passes
other settings in through ``configured`` and never patches attributes. The skeleton every engine shares,
parse -> kept features -> spaces -> the engine's classes -> render, lives here once.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterator, Sequence

import numpy as np

from .. import long_text
from ..apostrophes import apostrophes_before, has_apostrophe
from ..clusters import case_split, graphemes, upper_of
from ..codec import kept_features, parse, render
from ..hashtags import HASHTAG_MODES, forms, split_text
from ..packs import CAPS, SPACE, LanguagePack
from ..spans import Protected, base_spans, protect

SPACES_MODES = ("auto", "keep", "restore")


@dataclass(frozen=True)
class EngineOptions:
    """How an engine runs: ORT threads, windows per call, which segmenter gives the char engine's spaces on
    unspaced input (``auto``: as the card says, ``nb`` or ``none``), and whether the pack's apostrophes model
    restores apostrophes in text that has none (``apostrophes``)."""
    threads: int = 1
    batch_size: int = 32
    segmenter: str = "auto"
    apostrophes: bool = True


def keeps_spaces(text: str, spaces: str, pack: LanguagePack) -> bool:
    """Are the input's spaces the word boundaries: ``keep``, or ``auto`` on spaced text. Text with a word longer
    than the pack's ``longest_word`` ran words together ("willaichangeourfuture whereareyou"): ``auto`` restores
    its spaces then, the typed ones weighed as evidence, as ``restore`` does."""
    return spaces == "keep" or (spaces == "auto" and long_text.has_space(text, pack)
                                and not long_text.runs_together(text, pack))


class Engine(ABC):
    """Restores documents; the output depends on the text, the spaces mode and the settings only."""

    settings: object  # the engine's frozen decoding settings
    models_dir: Path | None = None  # where the models came from (the NB segmenter of hashtags is read there too)
    options: EngineOptions = EngineOptions()
    reads_apostrophes = False  # whether the engine's model reads the apostrophes step's forms itself (the pipeline)
    segmenter = None  # the NB segmenter whose words unspaced input takes (the char engine's, where its card says so)

    def __init__(self, pack: LanguagePack):
        self.pack = pack

    @classmethod
    @abstractmethod
    def load(cls, pack: LanguagePack, models_dir: Path | None, options: EngineOptions) -> "Engine":
        """The engine with the pack's models from ``models_dir`` (default: the shipped ones)."""

    @abstractmethod
    def classes(self, base: list[str], given: np.ndarray, kept: np.ndarray, keep: bool,
                end: bool = True, frozen: Protected | None = None) -> tuple[list[str], np.ndarray]:
        """(base graphemes, class ids) of the restoration of parsed input. ``given``: the input's classes,
        ``kept``: the features restoration keeps, ``keep``: the input's spaces are the word boundaries,
        ``end``: the input ends the document (its last word takes a sentence-final mark), ``frozen``: the
        protected spans, whose graphemes keep their given case and take no space or mark inside."""

    @abstractmethod
    def _with_settings(self, settings) -> None:
        """Recompute what derives from ``self.settings`` (called on a copy by ``configured``)."""

    def configured(self, **changes) -> "Engine":
        """A copy of this engine decoding with other settings (the models and sessions are shared)."""
        other = copy.copy(self)
        other.settings = replace(self.settings, **changes)
        other._with_settings(other.settings)
        return other

    def restore(self, texts: Sequence[str], spaces: str = "auto", hashtags: str = "camel") -> list[str]:
        """Restored documents, one per input document."""
        return [self.restore_one(text, spaces, hashtags) for text in texts]

    def restore_one(self, text: str, spaces: str = "auto", hashtags: str = "camel") -> str:
        return "".join(self.restore_pieces(text, spaces, hashtags))

    def restore_pieces(self, text: str, spaces: str = "auto", hashtags: str = "camel") -> Iterator[str]:
        """The restored document in consecutive pieces: one for a short text, one per ``long_text`` piece for a
        long one, so that a writer never holds the whole output (memory bounded by the piece size)."""
        if hashtags not in HASHTAG_MODES:
            raise ValueError(f"hashtags must be one of {', '.join(HASHTAG_MODES)}, not {hashtags!r}")
        if hashtags == "split" and "#" in text:
            text = split_text(text, self.hashtag_segmenter(), self.pack.normalization)
        fix = self.apostrophe_model() if not has_apostrophe(text) else None
        keep = keeps_spaces(text, spaces, self.pack)
        if fix is not None and keep and not self.reads_apostrophes:
            text = fix.restore(text)  # the words are the input's: the model reads "we'll see" as it learned to
        elif fix is not None and not self.reads_apostrophes and self.segmenter is not None:
            text = apostrophes_before(text, fix, self.segmenter)  # the words are the char engine's NB segmenter's
        if long_text.is_long(text):
            pieces = long_text.restore(self, text, keep, hashtags == "camel")
        else:
            pieces = iter([self._restore_short(text, keep, hashtags)])
        for piece in pieces:
            yield fix.restore(piece) if fix else piece

    def _restore_short(self, text: str, keep: bool, hashtags: str) -> str:
        base, given = parse(text, self.pack, apply_map=False)
        if not base:
            return ""
        kept = kept_features(text, given, self.pack)
        given, frozen = self.protected(text, base, given, hashtags == "camel")
        base, classes = self.classes(base, given, kept, keep, frozen=frozen)
        return render(base, classes, self.pack)

    def protected(self, text: str, base: list[str], given: np.ndarray, camel: bool):
        """(given classes, protected spans) of parsed input: with ``camel``, the hashtags' graphemes take the
        case of their CamelCase form in ``given`` (a protected span keeps its given case)."""
        spans = base_spans(text, base, self.pack)
        caps = self.pack.bit(CAPS)
        tags = [(s, e) for s, e, kind in spans if kind == "hashtag"] if camel and caps else []
        if tags:
            given = np.array(given, np.int32)
            segmenter = self.hashtag_segmenter()
            shown = ["".join(upper_of(g) or g if c & caps else g for g, c in zip(base[s:e], given[s:e])) for s, e in tags]
            for (s, e), (_, form) in zip(tags, forms(shown, segmenter, self.word_case)):
                upper = [case_split(g)[1] for g in graphemes(form)]
                if len(upper) == e - s:
                    given[s:e] = np.where(upper, given[s:e] | caps, given[s:e] & ~caps)
        return given, protect(base, spans, np.asarray(given) & self.pack.bit(SPACE) != 0)

    def preload(self, spaces: str) -> None:
        """Load now what this engine would load on first use under ``spaces``, so that a missing or damaged
        file fails when the Restorer is built, before any output (no-op unless an engine loads lazily)."""

    def hashtag_segmenter(self):
        """The pack's segmenter that cuts hashtags into words: the reranked NB where the language has one, else
        the plain NB (None: the pack or the models folder has none; a tag then stays one word)."""
        if "nb" not in self.pack.models:
            return None
        from ..cards import ModelError
        from ..rerank import best_segmenter

        try:
            return best_segmenter(self.pack.code, self.models_dir)
        except ModelError:
            return None

    def apostrophes_name(self) -> str | None:
        """The pack's model of apostrophes inside words where the models folder has it (yours or a fixture's may
        not: then no apostrophe is restored)."""
        from ..cards import card_location

        name = self.pack.models.get("apostrophes") if self.options.apostrophes else None
        return name if name and card_location(self.pack.code, name, self.models_dir).is_file() else None

    def check_apostrophes(self) -> None:
        """Check that model's card and file (``ModelError``) without reading it: it loads on first use."""
        from ..cards import load_card

        name = self.apostrophes_name()
        if name:
            load_card(self.pack.code, name, self.models_dir, kind="apostrophes")

    def apostrophe_model(self):
        """The apostrophes model (``apostrophes.Apostrophes``), loaded on first use; None where there is none."""
        if not hasattr(self, "_apostrophes"):
            from ..apostrophes import Apostrophes

            name = self.apostrophes_name()
            self._apostrophes = Apostrophes.load(self.pack.code, self.models_dir, name) if name else None
        return self._apostrophes

    def word_case(self, words: list[str]) -> list[str]:
        """``words`` in the case this engine gives them in context (``nasa mission`` -> ``NASA mission``)."""
        marks = "".join(self.pack.marks)
        return [w.rstrip(marks) for w in self.restore_words(words, end=False)]

    def restore_words(self, words: Sequence[str], end: bool = True) -> list[str]:
        """Each word restored (its case and the marks after it) with the others as context: what a stream
        decodes for its last window of words. ``end=False``: more words follow, so no final mark is forced.
        A word is any text without white space (joined by one space, which a pack without a SPACE feature
        reads as a character); one with nothing the model reads (a lone "--") comes back as it is."""
        parsed = [parse(w, self.pack, apply_map=False) for w in words]
        real = [i for i, (b, _) in enumerate(parsed) if b]
        out = list(words)
        if not real:
            return out
        text = " ".join(words[i] for i in real)
        base, given = parse(text, self.pack, apply_map=False)
        lengths = [len(parsed[i][0]) for i in real]
        gap = 0 if self.pack.has_space else 1  # without a SPACE feature the space is a grapheme of its own
        if sum(lengths) + gap * (len(real) - 1) != len(base):  # a word fusing with the one before: decode alone
            for i in real:
                out[i] = self.restore_one(words[i], "keep")
            return out
        kept = kept_features(text, given, self.pack)
        given, frozen = self.protected(text, base, given, True)
        base, classes = self.classes(base, given, kept, True, end, frozen)
        classes = classes & ~self.pack.bit(SPACE)
        start = 0
        for i, n in zip(real, lengths):
            out[i] = render(base[start:start + n], classes[start:start + n], self.pack)
            start += n + gap
        fix = self.apostrophe_model() if not any(has_apostrophe(w) for w in words) else None
        return fix.restore_words(out) if fix else out
