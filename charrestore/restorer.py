"""The public API: a config, a restorer built once from it, and one call.

>>> from charrestore import Restorer, RestorerConfig      # doctest: +SKIP
>>> Restorer(RestorerConfig(lang="en"))("willaichangeourfuture")  # doctest: +SKIP
'Will AI change our future?'
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Iterator, Sequence

from .auto import AutoRestorer, is_auto, without_detector
from .engines import REGISTRY, engine_class
from .engines.base import SPACES_MODES, EngineOptions
from .hashtags import HASHTAG_MODES
from .packs import load_pack

SEGMENTERS = ("auto", "nb", "none", "char")
APOSTROPHES_MODES = ("restore", "keep")


@dataclass(frozen=True)
class RestorerConfig:
    lang: str = "en"  # a pack; auto: each text in the language the detector names; auto:en: English unless another
    # language is clearly more likely (auto.py)
    engine: str = "auto"  # char | pipeline | auto: the pack's choice (its ``engine`` key, measured on dev)
    spaces: str = "auto"  # auto | keep | restore
    segmenter: str = "auto"  # unspaced input: NB spaces (nb), the char model's (none: char engine, char: pipeline), auto: as tuned
    hashtags: str = "camel"  # camel: #ThrowbackThursday | split: prose words, the "#" dropped | keep: as given
    apostrophes: str = "restore"  # restore: "cant" -> "can't" in text without any (packs with the model) | keep
    threads: int = 1
    batch_size: int = 32
    models_dir: str | None = None  # default: the shipped models/


def checked(config: RestorerConfig | None = None, **overrides) -> RestorerConfig:
    """The config with ``overrides``; a ValueError names a setting that is not one of its choices."""
    config = RestorerConfig(**{**(config.__dict__ if config else {}), **overrides})
    if config.spaces not in SPACES_MODES:
        raise ValueError(f"spaces must be one of {', '.join(SPACES_MODES)}, not {config.spaces!r}")
    if config.engine not in ("auto", *REGISTRY):
        raise ValueError(f"engine must be one of auto, {', '.join(REGISTRY)}, not {config.engine!r}")
    if config.segmenter not in SEGMENTERS:
        raise ValueError(f"segmenter must be one of {', '.join(SEGMENTERS)}, not {config.segmenter!r}")
    if config.hashtags not in HASHTAG_MODES:
        raise ValueError(f"hashtags must be one of {', '.join(HASHTAG_MODES)}, not {config.hashtags!r}")
    if config.apostrophes not in APOSTROPHES_MODES:
        raise ValueError(f"apostrophes must be one of {', '.join(APOSTROPHES_MODES)}, not {config.apostrophes!r}")
    config = replace(config, lang=without_detector(config.lang))
    if config.threads < 1 or config.batch_size < 1:
        raise ValueError("threads and batch_size must be at least 1")
    return config


class Restorer:
    """Restores spaces, punctuation and case; load once, call many times (thread-safe ORT session).
    ``lang="auto"`` (or ``"auto:en"``) builds an ``auto.AutoRestorer``: the same calls, each text in its detected
    language."""

    def __new__(cls, config: RestorerConfig | None = None, **overrides):
        config = checked(config, **overrides)
        if is_auto(config.lang):
            return AutoRestorer(config, cls)
        return super().__new__(cls)

    def __init__(self, config: RestorerConfig | None = None, **overrides):
        config = checked(config, **overrides)
        self.pack = load_pack(config.lang)
        if config.engine == "auto":
            config = replace(config, engine=self.pack.engine)
        self.config = config  # with the engine that runs (never "auto")
        options = EngineOptions(config.threads, config.batch_size, config.segmenter, config.apostrophes == "restore")
        models_dir = Path(config.models_dir) if config.models_dir else None
        self.engine = engine_class(config.engine).load(self.pack, models_dir, options)
        self.engine.preload(config.spaces)
        self.engine.check_apostrophes()

    def __call__(self, text: str, spaces: str | None = None) -> str:
        """``text`` restored; ``spaces`` overrides the config's mode for this call."""
        return self.engine.restore_one(text, spaces or self.config.spaces, self.config.hashtags)

    restore = __call__

    def restore_pieces(self, text: str) -> Iterator[str]:
        """The restored ``text`` in consecutive pieces (one for a short text): a long line written as it goes
        is never held twice in memory."""
        return self.engine.restore_pieces(text, self.config.spaces, self.config.hashtags)

    def stream(self, lookahead: int | None = None, context: int | None = None):
        """A live stream (``push(text)``, ``end()``): each word becomes final once ``lookahead`` more words
        have arrived (default: the value measured on dev, ``streaming.DEFAULT_LOOKAHEAD``)."""
        from .streaming import DEFAULT_CONTEXT, DEFAULT_LOOKAHEAD, Stream

        return Stream(self.engine, DEFAULT_LOOKAHEAD if lookahead is None else lookahead,
                      DEFAULT_CONTEXT if context is None else context)

    @property
    def uses_times(self) -> bool:
        """Whether the engine's punctuation reads the pauses between words (``restore_words``' ``times``)."""
        return getattr(self.engine, "uses_times", False)

    def restore_words(self, words: Sequence[str], end: bool = True, times=None) -> list[str]:
        """The input's words restored, one string per word (case and marks only; the words stay the boundaries).
        ``end=False``: more words follow; ``times``: a ``(start, end)`` or None per word, where ``uses_times``."""
        return self.engine.restore_words(words, end=end, **({} if times is None else {"times": times}))

    def restore_many(self, texts: Sequence[str]) -> list[str]:
        """Several documents, each restored on its own (the same output as one call each)."""
        return self.engine.restore(texts, self.config.spaces, self.config.hashtags)


@lru_cache(maxsize=8)
def _restorer(**config) -> Restorer:
    return Restorer(RestorerConfig(**config))


def restore(text: str, **config) -> str:
    """One-shot restore with a cached restorer: ``restore("willaichangeourfuture", lang="en")``."""
    return _restorer(**config)(text)
