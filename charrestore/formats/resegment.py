"""``--resegment``: new subtitle cues cut at sentence ends, within the usual limits (at most 42 characters a
line, 2 lines, 7 seconds a cue).

A word's times are its own where the file has them (VTT inline times, ASR JSON word times); inside a cue
without them, the cue's span is shared out over its words by length. Cues end after every sentence-final
mark; a sentence too long for one cue is cut at its last comma that fits, else before the word that does not
fit. The new cues hold the restored words only: styling tags and per-cue settings belonged to the old cues,
so they go; cues without words ("[Music]") stay as they were, and a VTT file keeps its header (everything
before its first cue).
"""

from __future__ import annotations

from typing import Sequence

from .base import Word

MAX_CHARS, MAX_LINES, MAX_SECONDS = 42, 2, 7.0


def word_times(words: Sequence[Word]) -> list[tuple[float, float]]:
    """(start, end) of each word: its own, or its share of its cue's span (by length) when all the words of a
    cue carry the cue's times (SRT, VTT without inline times)."""
    out: list[tuple[float, float]] = []
    i = 0
    while i < len(words):
        j = i
        while j < len(words) and words[j].cue == words[i].cue:
            j += 1
        group = words[i:j]
        spans = {(w.start, w.end) for w in group}
        if len(spans) == 1 and None not in next(iter(spans)):
            (start, end), = spans
            weights = [len(w.text) + 1 for w in group]
            total, done = sum(weights), 0
            for weight in weights:
                out.append((start + (end - start) * done / total, start + (end - start) * (done + weight) / total))
                done += weight
        else:
            out.extend(_fill(group))
        i = j
    return out


def _fill(group: Sequence[Word]) -> list[tuple[float, float]]:
    """Own times; a word without them (WhisperX leaves some unaligned) takes the end of the word before."""
    out, last = [], next((w.start for w in group if w.start is not None), 0.0)
    for w in group:
        start = w.start if w.start is not None else last
        end = w.end if w.end is not None else start
        out.append((start, end))
        last = end
    return out


def lines(words: Sequence[str]) -> list[str]:
    """The words on one line, or on two lines as even as possible."""
    text = " ".join(words)
    if len(text) <= MAX_CHARS or len(words) < 2:
        return [text]
    best = min(range(1, len(words)), key=lambda k: max(len(" ".join(words[:k])), len(" ".join(words[k:]))))
    return [" ".join(words[:best]), " ".join(words[best:])]


def _fits(words: Sequence[str], times: Sequence[tuple[float, float]]) -> bool:
    shown = lines(words)
    return len(words) < 2 or (len(shown) <= MAX_LINES and all(len(x) <= MAX_CHARS for x in shown)
                              and times[-1][1] - times[0][0] <= MAX_SECONDS)


def cues(restored: Sequence[str], times: Sequence[tuple[float, float]],
         sentence_marks: Sequence[str]) -> list[tuple[float, float, list[str]]]:
    """(start, end, lines) of the new cues."""
    out: list[tuple[float, float, list[str]]] = []
    current: list[int] = []

    def emit(ids: list[int]) -> None:
        if ids:
            out.append((times[ids[0]][0], times[ids[-1]][1], lines([restored[i] for i in ids])))

    for i, word in enumerate(restored):
        if current and not _fits([restored[k] for k in current + [i]], [times[k] for k in current + [i]]):
            commas = [n for n, k in enumerate(current[:-1], 1) if restored[k].endswith(",")]
            cut = commas[-1] if commas and commas[-1] * 2 >= len(current) else len(current)
            emit(current[:cut])
            current = current[cut:]
        current.append(i)
        if word[-1:] in sentence_marks:
            emit(current)
            current = []
    emit(current)
    return out


def _stamp(seconds: float, sep: str) -> str:
    ms = round(seconds * 1000)
    return f"{ms // 3600000:02d}:{ms // 60000 % 60:02d}:{ms // 1000 % 60:02d}{sep}{ms % 1000:03d}"


def write(parsed, restored: Sequence[str], fmt: str, sentence_marks: Sequence[str]) -> str:
    """The restored words as new SRT or VTT cues."""
    new = sorted(cues(restored, word_times(parsed.words), sentence_marks) + parsed.silent, key=lambda c: c[0])
    if fmt == "srt":
        return "".join(f"{k}\n{_stamp(a, ',')} --> {_stamp(b, ',')}\n" + "\n".join(text) + "\n\n"
                       for k, (a, b, text) in enumerate(new, 1))
    head = parsed.preamble if parsed.preamble.endswith("\n\n") else parsed.preamble.rstrip("\n") + "\n\n"
    return head + "".join(f"{_stamp(a, '.')} --> {_stamp(b, '.')}\n" + "\n".join(text) + "\n\n" for a, b, text in new)
