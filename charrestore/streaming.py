"""Live restoration: words arrive one push at a time, and each word becomes final after ``lookahead`` more.

Every decision is made by one decode of a bounded window: up to ``context`` final words (as they were
output, so their marks and capitals hold) plus the word being finalized and its ``lookahead`` words of right
context. A word is decided exactly once, with exactly that context, so the finals do not depend on how the
input was cut into pushes, and the cost per word and the memory stay constant however long the stream runs.
Words are split at white space and joined by one space.

>>> from charrestore import Restorer                        # doctest: +SKIP
>>> stream = Restorer(lang="en").stream(lookahead=4)        # doctest: +SKIP
>>> stream.push("will ai change our future obviously the")  # doctest: +SKIP
Update(final='Will AI change', provisional=' our future? Obviously, the')
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

DEFAULT_LOOKAHEAD = 8  # the smallest within 2 points of full-context punctuation F1 on ted_dev (docs/results.md)
DEFAULT_CONTEXT = 16


@dataclass(frozen=True)
class Update:
    """``final``: text that became final since the last update (it never changes, and the finals of a stream
    concatenate to its restoration); ``provisional``: the current restored tail after it (it may change)."""
    final: str
    provisional: str


class Stream:
    """One live stream over an engine (see the module docstring). Not thread-safe: one stream per speaker."""

    def __init__(self, engine, lookahead: int = DEFAULT_LOOKAHEAD, context: int = DEFAULT_CONTEXT):
        if lookahead < 0 or context < 0:
            raise ValueError("lookahead and context must be at least 0")
        self.engine, self.lookahead = engine, lookahead
        self.done: deque[str] = deque(maxlen=context)  # the last final words, as output
        self.pending: list[str] = []
        self.started = False
        self.ended = False

    def push(self, text: str) -> Update:
        """Add words (split at white space); returns what became final and the new provisional tail."""
        if self.ended:
            raise ValueError("the stream has ended")
        self.pending.extend(text.split())
        final = []
        while len(self.pending) > self.lookahead:
            window = self.pending[:self.lookahead + 1]
            word = self.engine.restore_words([*self.done, *window], end=False)[len(self.done)]
            final.append(self._final(word))
            self.pending.pop(0)
        return Update("".join(final), self._provisional(end=False, lead=bool(final) or self.started))

    def end(self) -> Update:
        """The end of the stream: every pending word becomes final (the last one ends a sentence)."""
        self.ended = True
        if not self.pending:
            return Update("", "")
        words = self.engine.restore_words([*self.done, *self.pending], end=True)[len(self.done):]
        self.pending = []
        return Update("".join(self._final(w) for w in words), "")

    def _final(self, word: str) -> str:
        out = (" " if self.started else "") + word
        self.started = True
        self.done.append(word)
        return out

    def _provisional(self, end: bool, lead: bool) -> str:
        if not self.pending:
            return ""
        words = self.engine.restore_words([*self.done, *self.pending], end=end)[len(self.done):]
        return (" " if lead else "") + " ".join(words)


def text_chunks(fd: int, size: int = 4096):
    """Text from a file descriptor as it arrives (an ASR piped in), cut after the last white space so that
    no word is split across chunks. Invalid UTF-8 bytes pass through as surrogate escapes."""
    import codecs
    import os

    decoder = codecs.getincrementaldecoder("utf-8")("surrogateescape")
    tail = ""
    while block := os.read(fd, size):
        text = tail + decoder.decode(block)
        cut = max(text.rfind(c) for c in " \t\n\r")
        tail = text[cut + 1:]
        if cut >= 0:
            yield text[:cut + 1]
    if tail + decoder.decode(b"", final=True):
        yield tail + decoder.decode(b"", final=True)


def run(stream: Stream, fd: int, write, as_json: bool = False) -> None:
    """Feed ``fd`` to ``stream`` and ``write`` each update: its final text (plain), or one JSON object per line
    with ``final`` and ``provisional`` (``as_json``). Plain output ends with one newline."""
    import json

    for chunk in text_chunks(fd):
        update = stream.push(chunk)
        if as_json:
            write(json.dumps(update.__dict__, ensure_ascii=False) + "\n")
        elif update.final:
            write(update.final)
    update = stream.end()
    write(json.dumps(update.__dict__, ensure_ascii=False) + "\n" if as_json else update.final + "\n")
