"""``lang="auto"``: each text restored by the pack of the language it is in, as the detector names it.

The detector (``detect.py``) answers only among the installed packs that it knows, and a text goes to exactly the
Restorer that ``lang=<that language>`` would build (one per language, built on first use), so ``fix --lang auto`` on
a line prints what ``fix --lang <detected>`` prints.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterator, Sequence

AUTO = "auto"


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


def language_of(text: str, among: Sequence[str] | None = None) -> str:
    """The language of ``text`` among ``among`` (default: the installed packs)."""
    from .detect import Detector

    return Detector.load().detect(text, among or installed())


class AutoRestorer:
    """What ``Restorer(RestorerConfig(lang="auto"))`` builds: the Restorer's calls, each text sent to the Restorer
    of its language. ``language(text)`` says which that is; ``restorer_for(lang)`` is that Restorer."""

    def __init__(self, config, build) -> None:
        """``build(config)``: the Restorer of one language (``restorer.Restorer``, which builds this one)."""
        self.config, self.build = config, build
        self.among = installed()
        self._restorers: dict = {}

    def language(self, text: str) -> str:
        return language_of(text, self.among)

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
