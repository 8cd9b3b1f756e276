"""Signatures (sacrebleu style): every setting that changes a number, printed beside it.

Two numbers are comparable only when their signatures match, so a score or a timing never travels without
the pack, the mapping, the level, the spaces mode, the engines... and the version of charrestore that made it.
``eval`` and ``bench`` build theirs with the same :class:`Signature`.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

from ..packs import LanguagePack


def _version() -> str:
    from .. import __version__  # read lazily: the installed metadata, once

    return __version__


@dataclass(frozen=True)
class Signature:
    """``charrestore.<tool>|key:value|...|v:<version>``; settings whose value is ``None`` are left out.

    >>> str(Signature.of("bench", lang="en", spaces=None, runs=3))  # doctest: +ELLIPSIS
    'charrestore.bench|lang:en|runs:3|v:...'
    """

    tool: str
    settings: tuple[tuple[str, object], ...]
    version: str = field(default_factory=_version)

    @classmethod
    def of(cls, tool: str, **settings: object) -> "Signature":
        return cls(tool, tuple((k, v) for k, v in settings.items() if v is not None))

    def __str__(self) -> str:
        return "|".join([f"charrestore.{self.tool}", *(f"{k}:{v}" for k, v in self.settings), f"v:{self.version}"])


def pack_hash(pack: LanguagePack) -> str:
    """8 hex digits over everything in a pack that changes parsing: features, case, normalization, mapping,
    marks that open a span or take a space before them."""
    data = {"features": list(pack.features), "cased": pack.cased, "normalization": pack.normalization,
            "map": pack.map, "map_between_words": pack.map_between_words}
    after_end = {"map": pack.map_after_sentence_end, "after": list(pack.sentence_marks)}
    optional = {"map_before_lower": pack.map_before_lower, "opening_marks": list(pack.opening),
                "space_before": pack.space_before,
                "map_after_sentence_end": after_end if pack.map_after_sentence_end else None}
    data.update({k: v for k, v in optional.items() if v})  # only where a pack has them: the other packs' hashes
    # stay as their reports print them
    return hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:8]


def signature(pack: LanguagePack, level: str, apply_map: bool = True, spaces: str | None = None) -> str:
    """``charrestore.eval|lang:en|feats:CAPS.,?SPACE|pack:<hash>|map:yes|level:char|spaces:keep|v:0.1.0``.

    ``pack`` hashes the pack's features, normalization and mapping tables; ``spaces`` (how the
    hypotheses were made) is recorded only when given.
    """
    return str(Signature.of("eval", lang=pack.code, feats="".join(pack.features), pack=pack_hash(pack),
                            map="yes" if apply_map else "no", level=level, spaces=spaces or None))
