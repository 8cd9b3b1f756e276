"""The public API: a config, a restorer built once from it, and one call.

>>> from charrestore import Restorer, RestorerConfig      # doctest: +SKIP
>>> Restorer(RestorerConfig(lang="en"))("willaichangeourfuture")  # doctest: +SKIP
'Will AI change our future?'
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from .cards import load_card
from .engines.char_e2e import SPACES_MODES, CharEngine
from .packs import ENGINES, load_pack

SEGMENTERS = ("auto", "nb", "none")


@dataclass(frozen=True)
class RestorerConfig:
    lang: str = "en"
    engine: str = "auto"  # char | pipeline | auto: the pack's choice (its ``engine`` key, measured on dev)
    spaces: str = "auto"  # auto | keep | restore
    segmenter: str = "auto"  # char engine, unspaced input: NB spaces (nb), the model's (none), or as the card says (auto)
    threads: int = 1
    batch_size: int = 32
    models_dir: str | None = None  # default: the shipped models/


class Restorer:
    """Restores spaces, punctuation and case; load once, call many times (thread-safe ORT session)."""

    def __init__(self, config: RestorerConfig | None = None, **overrides):
        config = RestorerConfig(**{**(config.__dict__ if config else {}), **overrides})
        if config.spaces not in SPACES_MODES:
            raise ValueError(f"spaces must be one of {', '.join(SPACES_MODES)}, not {config.spaces!r}")
        if config.engine not in ("auto", *ENGINES):
            raise ValueError(f"engine must be one of auto, {', '.join(ENGINES)}, not {config.engine!r}")
        if config.segmenter not in SEGMENTERS:
            raise ValueError(f"segmenter must be one of {', '.join(SEGMENTERS)}, not {config.segmenter!r}")
        if config.threads < 1 or config.batch_size < 1:
            raise ValueError("threads and batch_size must be at least 1")
        self.pack = load_pack(config.lang)
        if config.engine == "auto":
            config = replace(config, engine=self.pack.engine)
        self.config = config  # with the engine that runs (never "auto")
        if config.engine == "pipeline" and config.segmenter == "none":
            raise ValueError("the pipeline takes the spaces of unspaced input from its NB segmenter; "
                             "segmenter 'none' (the model's own spaces) needs engine 'char'")
        root = Path(config.models_dir) if config.models_dir else None
        if config.engine == "char":
            name = self.pack.models.get("char")
            if not name:
                raise ValueError(f"pack {config.lang!r} names no char model")
            card, path = load_card(config.lang, name, root)
            use_nb = config.segmenter == "nb" or (config.segmenter == "auto" and card.get("nb_spaces", False))
            segmenter = None
            if use_nb:
                from .segmenter import Segmenter

                segmenter = Segmenter.load(config.lang, root)
            self.engine = CharEngine(self.pack, card, path, config.threads, config.batch_size, segmenter)
        else:
            from .engines.pipeline import PipelineEngine

            self.engine = PipelineEngine.load(self.pack, root, config.threads, config.batch_size)

    def __call__(self, text: str) -> str:
        return self.engine.restore(text, self.config.spaces)

    restore = __call__


@lru_cache(maxsize=8)
def _restorer(**config) -> Restorer:
    return Restorer(RestorerConfig(**config))


def restore(text: str, **config) -> str:
    """One-shot restore with a cached restorer: ``restore("willaichangeourfuture", lang="en")``."""
    return _restorer(**config)(text)
