"""``lang="auto"``: each text restored by the pack of the language it is in, as the detector names it.

The detector (``detect.py``) answers only among the installed packs that it knows, and a text goes to exactly the
Restorer that ``lang=<that language>`` would build (one per language, built on first use), so ``fix --lang auto`` on
a line prints what ``fix --lang <detected>`` prints. ``lang="auto:en"`` (the CLI's default) prefers a language: a
text stays English unless another language is clearly more likely (``Detector.detect``'s ``prefer``), since a short
line is often about as likely in a neighbour language; where no detector is installed (a models folder of one's
own), it is simply that language.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterator, Sequence

AUTO = "auto"
DEFAULT_LANG = "auto:en"  # the commands' --lang default (fix, segment, hashtag, batch, serve): English unless another
# language is clearly more likely (docs/detect.md)


def is_auto(lang: str) -> bool:
    """Whether ``lang`` asks for detection: ``auto``, or ``auto:<preferred language>``."""
    return lang == AUTO or lang.startswith(AUTO + ":")


def preferred(lang: str) -> str | None:
    """The language that ``auto:<lang>`` prefers (None for plain ``auto``)."""
    return lang.partition(":")[2] or None if is_auto(lang) else None


def detector_installed() -> bool:
    """Whether the models folder holds the language detector."""
    from .paths import models_dir

    return (models_dir() / "detect" / "detect.json").is_file()


def without_detector(lang: str) -> str:
    """``lang``, but ``auto:L`` is plain L where the models folder has no detector (a folder of one's own)."""
    prefer = preferred(lang)
    return prefer if prefer and not detector_installed() else lang


def installed(model: str | None = None) -> list[str]:
    """The packs the detector can name whose models are installed, in the detector's order: the model of the pack's
    default engine, or with ``model`` the model of that kind (``nb``: the packs that ``segment`` serves). A pack
    whose model is still in training is not a candidate."""
    from .detect import Detector
    from .packs import available_packs, load_pack

    packs = set(available_packs())
    langs = [lang for lang in Detector.load().languages if lang in packs and load_pack(lang).ready(model)]
    if not langs:
        raise ValueError("no installed language pack is one the language detector knows: name the language")
    return langs


def per_line(lang: str, model: str | None = None) -> tuple[str, list[str] | None]:
    """``(lang, candidates)`` for a command that names each line's language: ``candidates`` the installed packs
    with ``model`` where ``lang`` asks for detection, else None; ``auto:L`` without the detector is plain L, and
    with it L must be a candidate (a ValueError, one line in the CLI)."""
    lang = without_detector(lang)
    if not is_auto(lang):
        return lang, None
    prefer = preferred(lang)
    among = installed(model)
    if prefer is not None and prefer not in among:
        kind = f" that has the {model} model" if model else ""
        raise ValueError(f"--lang {lang}: {prefer!r} is not an installed pack{kind} the language detector knows "
                         f"({', '.join(among)})")
    return lang, among


def language_of(text: str, among: Sequence[str] | None = None, prefer: str | None = None) -> str:
    """The language of ``text`` among ``among`` (default: the installed packs); ``prefer``: see ``Detector.detect``."""
    from .detect import Detector

    return Detector.load().detect(text, among or installed(), prefer)


class AutoRestorer:
    """What ``Restorer(RestorerConfig(lang="auto"))`` builds: the Restorer's calls, each text sent to the Restorer
    of its language. ``language(text)`` says which that is; ``restorer_for(lang)`` is that Restorer."""

    def __init__(self, config, build) -> None:
        """``build(config)``: the Restorer of one language (``restorer.Restorer``, which builds this one)."""
        self.config, self.build = config, build
        self.prefer = preferred(config.lang)
        # the packs that can run the engine asked for: --engine pipeline needs a token model
        self.among = installed({"auto": None, "pipeline": "token"}.get(config.engine, config.engine))
        if self.prefer is not None and self.prefer not in self.among:
            raise ValueError(f"--lang {config.lang}: {self.prefer!r} is not an installed pack the language detector "
                             f"knows that runs engine {config.engine} ({', '.join(self.among)})")
        self._restorers: dict = {}

    def language(self, text: str) -> str:
        return language_of(text, self.among, self.prefer)

    def restorer_for(self, lang: str):
        if lang not in self._restorers:
            self._restorers[lang] = self.build(replace(self.config, lang=lang))
        return self._restorers[lang]

    def __call__(self, text: str, spaces: str | None = None) -> str:
        return self.restorer_for(self.language(text))(text, spaces)

    restore = __call__

    def restore_pieces(self, text: str) -> Iterator[str]:
        return self.restorer_for(self.language(text)).restore_pieces(text)

    def restore_many(self, texts: Sequence[str]) -> list[str]:
        """Several documents, each in its own language (one batch per language, the output in input order)."""
        langs = [self.language(t) for t in texts]
        out: list[str] = [""] * len(texts)
        for lang in dict.fromkeys(langs):
            at = [i for i, x in enumerate(langs) if x == lang]
            for i, restored in zip(at, self.restorer_for(lang).restore_many([texts[i] for i in at])):
                out[i] = restored
        return out
