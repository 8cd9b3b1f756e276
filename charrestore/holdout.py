"""Which documents of a training file are dev documents: a share by id, stable across runs and machines.

Kept apart from the corpus reader (numpy, the codec) so that the CLI's argument parsers can use it and stay instant.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass


def held_out(doc_id: str, every: int, rest: int = 0) -> bool:
    """Whether a document is in the 1-in-``every`` dev share of its file: a numeric id that is ``rest`` modulo
    ``every``, else one whose CRC-32 is (stable across runs and machines, unlike ``hash``)."""
    return (int(doc_id) if doc_id.isdigit() else zlib.crc32(doc_id.encode("utf-8"))) % every == rest


@dataclass(frozen=True)
class Holdout:
    """The dev documents of a training file (``--holdout EVERY[:REST]``): ids equal to REST modulo EVERY, by
    ``held_out``. ``50`` is the share a run held out; ``100`` and ``100:50`` cut it into a tuning half and a test
    half, so that a number is measured on documents used for neither training nor tuning. ``0``: every document."""

    every: int = 0
    rest: int = 0

    @classmethod
    def parse(cls, spec) -> Holdout:
        """From ``50``, ``"100:50"`` or a Holdout (its ``str``); a bad spec raises ValueError (argparse's message)."""
        every, _, rest = str(spec).partition(":")
        holdout = cls(int(every), int(rest or 0))
        if holdout.every < 0 or not 0 <= holdout.rest < max(holdout.every, 1):
            raise ValueError(f"holdout {spec!r}: need EVERY >= 0 and 0 <= REST < EVERY")
        return holdout

    def __bool__(self) -> bool:
        return self.every > 0

    def __contains__(self, doc_id: str) -> bool:
        return not self or held_out(doc_id, self.every, self.rest)

    def __str__(self) -> str:
        return f"{self.every}:{self.rest}" if self.rest else str(self.every)

    def describe(self) -> str:
        return f"documents whose id % {self.every} == {self.rest}"
