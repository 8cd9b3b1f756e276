"""What the NB segmenter reads in a text: its runs of word characters, and inside a run the evidence for or
against a boundary (a letter/digit change, a case change, an apostrophe, digits of one number).

>>> [m.start() for m in digit_change(["st", "th"]).finditer("1stand 5thousand a1")]
[18]
>>> [m.start() for m in DIGIT_CHANGE.finditer("1stand 5thousand a1")]
[1, 8, 18]
"""

from __future__ import annotations

from typing import Sequence

import regex

W = r"[\p{L}\p{N}\p{M}\u200c\u200d]"
# A run of word characters; an apostrophe or hyphen inside a word is part of it ("don't", "well-known").
WORD_RUN = regex.compile(rf"{W}+(?:['’-]{W}+)*")
DIGIT_CHANGE = regex.compile(r"(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})")
# A case change: lower to upper ("followFriday"), but not after a single word-initial lower-case letter
# ("iPhone", "eBay": mid-token case, left to the counts), and an acronym before a word ("NASAMission").
CAMEL = regex.compile(r"(?<=\p{L}\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})")
CAPS = regex.compile(r"(?<=\p{Lu})(?=\p{Lu}(?!\p{Ll}))")
INSIDE_NUMBER = regex.compile(r"(?<=\p{N})(?=\p{N})")
AT_JOINER = regex.compile(r"(?=['’])|(?<=['’])")
TOKEN = regex.compile(rf"{WORD_RUN.pattern}|(?:(?!{W}).)+", regex.DOTALL)
# The lattice's runs keep an inner apostrophe (a clitic is one word in the counts) but end at a hyphen, a boundary
# that keeps the context: the counts seldom hold a compound ("term-end") but nearly always its parts.
LATTICE_RUN = regex.compile(rf"{W}+(?:['’]{W}+)*")
HYPHENS = ("-", "\u2010")


def digit_change(ordinal_suffixes: Sequence[str]) -> regex.Pattern:
    """The letter/digit changes that are evidence of a boundary, less a digit's next letter where one of a pack's
    ``ordinal_suffixes`` starts ("1st", "2e"): there the word counts decide ("1st and", but "5 thousand")."""
    ends = "|".join(sorted(map(regex.escape, ordinal_suffixes), key=len, reverse=True))
    if not ends:
        return DIGIT_CHANGE
    return regex.compile(rf"(?<=\p{{L}})(?=\p{{N}})|(?<=\p{{N}})(?!(?i:{ends}))(?=\p{{L}})")
