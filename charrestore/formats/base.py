"""What every file format shares: words with their cue and timing, a template that writes the file back, and
the one restoration of all the words of a file.

A reader turns a file into a :class:`Parsed`: the words the model reads (in document order) and a way to
write the file again with restored words in their places. Subtitle and text files are a :class:`Template`:
literal pieces (timings, settings, tags, white space, non-speech cues), kept byte for byte, and word slots.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Iterator, Sequence

import numpy as np

from ..codec import graphemes, parse
from ..long_text import CONTEXT, PIECE
from ..packs import LanguagePack


class FormatError(ValueError):
    """A malformed input file; the message names the line (the CLI prints it as one line, exit 1)."""

    def __init__(self, line: int, detail: str):
        super().__init__(f"line {line}: {detail}")
        self.line, self.detail = line, detail


@dataclass(frozen=True)
class Word:
    """A word the model reads: its text (no white space), its cue or segment, its times in seconds if known;
    ``timed``: the times are the word's own (ASR JSON words, inline VTT times), not its cue's."""
    text: str
    cue: int
    start: float | None = None
    end: float | None = None
    timed: bool = False


class Parsed(ABC):
    """A read file: ``words`` in document order, and ``write`` to render the file with restored words."""

    words: list[Word]

    @abstractmethod
    def write(self, restored: Sequence[str], pack: LanguagePack) -> str:
        """The file with ``restored[i]`` (word i restored: same base graphemes, new case and marks) in place."""

    def restore_iter(self, restorer, timing: bool = True) -> Iterator[str]:
        """The file with all its words restored as one document, each in its place, in consecutive pieces (a
        writer need not hold it whole)."""
        texts = [w.text for w in self.words]
        yield self.write(restore_words(restorer, texts, own_times(self.words, restorer, timing)), restorer.pack)


def own_times(words: Sequence[Word], restorer, timing: bool = True) -> list[tuple[float, float] | None] | None:
    """Each word's own (start, end) or None, for an engine whose punctuation reads pauses; None if no word has
    its own times, the engine reads none, or ``timing`` is off (``--no-timing``)."""
    if not (timing and restorer.uses_times and any(w.timed for w in words)):
        return None
    return [(w.start, w.end) if w.timed else None for w in words]


class PlainText(Parsed):
    """Plain text, its white space kept: the words are the runs of non-space characters, one cue a line.
    Only the words' offsets are held, and the restored words are joined piece by piece: as a Template (a Word,
    a slot and an occurrence for each word) a 3 MB file took 270 MB, as lists of words 10 MB still took 467 MB."""

    def __init__(self, text: str) -> None:
        self.text = text
        offset = np.int32 if len(text) < 2**30 else np.int64  # 8 bytes a word, not 16: a word is ~5 characters
        n = sum(1 for _ in re.finditer(r"\S+", text))  # counted first: one array, never grown by copies
        spans = np.fromiter((i for m in re.finditer(r"\S+", text) for i in m.span()), offset, count=2 * n)
        self.starts, self.ends = spans[0::2], spans[1::2]

    @property
    def words(self) -> list[Word]:
        """The words with their line as cue (built when asked: ``restore`` reads the text by offsets)."""
        breaks = np.fromiter((m.start() for m in re.finditer("\n", self.text)), np.int64)
        lines = np.searchsorted(breaks, self.starts)
        return [Word(w, int(n)) for w, n in zip(self._texts(0, len(self.starts)), lines)]

    def _texts(self, lo: int, hi: int) -> list[str]:
        return [self.text[s:e] for s, e in zip(self.starts[lo:hi].tolist(), self.ends[lo:hi].tolist())]

    def write(self, restored: Sequence[str], pack: LanguagePack) -> str:
        return "".join(self._join([(0, list(restored))]))

    def restore_iter(self, restorer, timing: bool = True) -> Iterator[str]:
        n = len(self.starts)
        restored = ((a, restore_piece(restorer, self._texts(lo, hi), end=hi == n)[a - lo:b - lo])
                    for a, b, lo, hi in word_pieces(self.ends - self.starts + 1, PIECE, CONTEXT))
        return self._join(restored)

    def _join(self, restored) -> Iterator[str]:
        """The text in pieces, with (first word index, restored words) pieces in the words' places."""
        pos = 0
        for first, words in restored:
            piece = []
            for s, e, w in zip(self.starts[first:first + len(words)].tolist(),
                               self.ends[first:first + len(words)].tolist(), words):
                piece += (self.text[pos:s], w)
                pos = e
            yield "".join(piece)
        yield self.text[pos:]


def keep_line_breaks(text: str, restored: str) -> list[str]:
    """``restored`` (``text`` restored as one line, its white space read as spaces) in pieces, with ``text``'s line
    breaks back: each run of white space that holds one replaces the restored spaces at its place, after the marks
    put there (other runs are the restorer's to decide). As one line if the two do not align."""
    out, j, pos = [], 0, 0
    for run in re.finditer(r"\s*\n\s*", text):
        start = j
        for c in text[pos:run.start()]:  # past this line's characters and what was put among them
            if not c.isspace():
                while j < len(restored) and restored[j].lower() != c.lower():
                    j += 1
                j += 1
        gap, after = j, text[run.end():run.end() + 1].lower()
        while j < len(restored) and restored[j].lower() != after:  # the marks put before the line break
            j += 1
        out.append(restored[start:gap] + re.sub(r"\s+", "", restored[gap:j]) + run.group())
        pos = run.end()
    out.append(restored[j:])
    joined = "".join(out)
    if joined.count("\n") != text.count("\n") or re.sub(r"\s+", "", joined) != re.sub(r"\s+", "", restored):
        return [restored + ("\n" if text.endswith("\n") else "")]
    return out


def split_like(restored: str, parts: Sequence[str], pack: LanguagePack) -> list[str]:
    """``restored`` cut into as many pieces as the original word had ``parts`` (a word that tags cut into
    fragments, as in ``hel<i>lo</i>``): each piece takes its part's base graphemes and the marks after them."""
    if len(parts) == 1:
        return [restored]
    counts = [len(parse(p, pack, apply_map=False)[0]) for p in parts]
    pieces, current, k, seen = [], [], 0, 0
    for g in graphemes(restored):
        is_base = bool(parse(g, pack, apply_map=False)[0])
        if is_base and seen == counts[k] and k < len(parts) - 1:
            pieces.append("".join(current))
            current, k, seen = [], k + 1, 0
            while counts[k] == 0 and k < len(parts) - 1:  # a part of marks only: it keeps nothing of its own
                pieces.append("")
                k += 1
        current.append(g)
        seen += is_base
    pieces.append("".join(current))
    return pieces + [""] * (len(parts) - len(pieces))


def restore_words(restorer, words: Sequence[str], times=None) -> list[str]:
    """All the words of a file restored as ONE document (in pieces with context, ``word_pieces``), one string
    per word; ``times`` (a ``(start, end)`` or None per word) for an engine whose punctuation uses pauses."""
    out, n = [], len(words)
    for a, b, lo, hi in word_pieces([len(w) + 1 for w in words], PIECE, CONTEXT):
        part = restore_piece(restorer, list(words[lo:hi]), None if times is None else list(times[lo:hi]), hi == n)
        out += part[a - lo:b - lo]
    return out


def restore_piece(restorer, words: list[str], times=None, end: bool = True) -> list[str]:
    """One piece of a file's words restored (``end=False``: more words follow). ``Engine.restore_words`` keeps
    the input's words as the word boundaries and only changes case and adds marks; that is checked here, since
    every word must go back to its own cue."""
    if not words:
        return []
    out = restorer.restore_words(words, end, times)
    pack = restorer.pack
    if len(out) != len(words):
        raise RuntimeError(f"the engine returned {len(out)} words for {len(words)}")
    for word, new in zip(words, out):
        if re.search(r"\s", new) or parse(new, pack, apply_map=False)[0] != parse(word, pack, apply_map=False)[0]:
            raise RuntimeError(f"the engine changed the word {word!r} into {new!r}; cannot put it back in its cue")
    return out


def word_pieces(lengths: Sequence[int], piece: int = PIECE, context: int = CONTEXT) -> list[tuple[int, int, int, int]]:
    """(start, end, context start, context end) word indices of the pieces of a long document, as ``long_text`` cuts
    a long line: about ``piece`` characters each, restored with ``context`` characters of words on either side,
    so that memory does not grow with the file (a 3 MB text file took 1 GB as one call). One piece for a short one.

    >>> word_pieces([4] * 10, piece=12, context=4)
    [(0, 3, 0, 4), (3, 6, 2, 7), (6, 10, 5, 10)]
    """
    n, starts = len(lengths), np.concatenate([[0], np.cumsum(lengths)])  # starts[n]: the whole length
    if starts[n] <= piece + 2 * context:
        return [(0, n, 0, n)]
    cuts = [0]
    while starts[n] - starts[cuts[-1]] > piece + context:
        cuts.append(max(int(np.searchsorted(starts, starts[cuts[-1]] + piece, "right")) - 1, cuts[-1] + 1))
    cuts.append(n)
    return [(a, b, int(np.searchsorted(starts, starts[a] - context)),
             min(n, int(np.searchsorted(starts, starts[b] + context)))) for a, b in zip(cuts, cuts[1:])]


class Template(Parsed):
    """A file as literal pieces and word slots. Each slot is one fragment of a word; a word may repeat (a
    YouTube caption line shown again in the next cue), so every occurrence points at the word it copies."""

    def __init__(self) -> None:
        self.pieces: list[str | int] = []  # literal text, or the index of a slot
        self.slots: list[tuple[int, int]] = []  # (occurrence, fragment index)
        self.occurrences: list[tuple[int, list[str]]] = []  # (word index, the fragments as in the file)
        self.words: list[Word] = []

    def literal(self, text: str) -> None:
        self.pieces.append(text)

    def occurrence(self, word: list[str], new: Word | None, copy_of: int | None = None) -> None:
        """Add a word ([fragment, tag, fragment, ...]) as slots between its tags: a new word (``new``) or a
        copy of the word ``copy_of``."""
        if copy_of is None:
            copy_of = len(self.words)
            self.words.append(new)
        n = len(self.occurrences)
        self.occurrences.append((copy_of, word[::2]))
        for k, piece in enumerate(word):
            if k % 2:
                self.literal(piece)
            else:
                self.pieces.append(len(self.slots))
                self.slots.append((n, k // 2))

    def texts(self, restored: Sequence[str], pack: LanguagePack) -> list[str]:
        """Each piece's text with the restored words in the slots."""
        split = [split_like(restored[w], fragments, pack) for w, fragments in self.occurrences]
        return [p if isinstance(p, str) else split[self.slots[p][0]][self.slots[p][1]] for p in self.pieces]

    def write(self, restored: Sequence[str], pack: LanguagePack) -> str:
        return "".join(self.texts(restored, pack))

    def add_text(self, text: str, cue: int, start: float | None = None, end: float | None = None,
                 timed: bool = False) -> None:
        """Cue text (see ``cue_tokens``) as literals and new words, all with the same times."""
        for kind, value in cue_tokens(text):
            if kind == "literal":
                self.literal(value)
            else:
                self.occurrence(value, Word("".join(value[::2]), cue, start, end, timed))


# Cue text: tags (<i>, </c>, <00:00:01.230>, <v Bob>, {\an8}), character references, non-speech in brackets.
_TOKEN = re.compile(r"(?P<tag><[^<>\n]*>|\{\\[^{}\n]*\}|&(?:[A-Za-z]+|#[0-9]+|#[xX][0-9A-Fa-f]+);)"
                    r"|(?P<literal>\[[^\[\]\n]*\]|\([^()\n]*\)|\s+)|(?P<text>[^\s<{&\[(]+|.)")


def cue_tokens(text: str) -> list[tuple[str, str | list[str]]]:
    """Cue text as ("literal", text) and ("word", [fragment, tag, fragment, ...]) tokens. A word is a run of
    text that only tags interrupt (``hel<i>lo``); it must hold a letter or digit, so a lone "-", "♪" or ">>"
    stays literal, as do tags, white space and non-speech in brackets ("[Music]", "(applause)")."""
    tokens: list[tuple[str, str | list[str]]] = []
    word: list[str] = []  # fragments at even places, the tags between them at odd places
    tags: list[str] = []  # tags after the word's last fragment

    def flush():
        if word and any(c.isalnum() for f in word[::2] for c in f):
            tokens.append(("word", list(word)))
        elif word:
            tokens.append(("literal", "".join(word)))
        tokens.extend(("literal", t) for t in tags)
        word.clear()
        tags.clear()

    for m in _TOKEN.finditer(text):
        kind, value = m.lastgroup, m.group()
        if kind == "tag":
            tags.append(value)
        elif kind == "literal":
            flush()
            tokens.append(("literal", value))
        elif not word:
            tokens.extend(("literal", t) for t in tags)
            tags.clear()
            word.append(value)
        elif tags:
            word.extend(["".join(tags), value])
            tags.clear()
        else:
            word[-1] += value
    flush()
    return tokens
