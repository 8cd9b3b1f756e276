"""SubRip (.srt) and WebVTT (.vtt): a small reader/writer of our own that keeps the file byte for byte outside
the restored words.

Why not pysubs2 (the maintained subtitle library the issue suggests): it reads every cue into its ASS model
and writes a new file. Checked on 1.8.1, a VTT file loses its cue settings (``align:start position:10%``),
its NOTE and STYLE blocks, its ``<v>`` voice spans, and every cue with inline word times (``so<00:00:04.500>
<c> what</c>``) comes back empty; an SRT file loses ``<font>`` tags, ``{\\an8}``, its cue numbers, its CRLF
line ends and the coordinates after a timing. Restoration must change nothing but the words, so both formats
are read here as literal pieces (everything but the words of cue text) and word slots.

YouTube auto-captions ("rolling" cues) show each line twice: new, with inline word times, then again as the
first line of the next cue (and in 10 ms transition cues). Such a line is restored once: the later copies
point at the words of the first, so every copy is written the same way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .base import FormatError, Template, Word, cue_tokens

_SRT_TIME = r"(\d+):([0-5]\d):([0-5]\d)[,.](\d{1,3})"
_SRT_TIMING = re.compile(rf"\s*{_SRT_TIME}\s*-->\s*{_SRT_TIME}(?:\s.*)?$")
_VTT_TIME = r"(?:(\d{2,}):)?([0-5]\d):([0-5]\d)\.(\d{3})"
_VTT_TIMING = re.compile(rf"{_VTT_TIME}[ \t]+-->[ \t]+{_VTT_TIME}(?:[ \t].*)?$")
_INLINE_TIME = re.compile(rf"<{_VTT_TIME}>")
_VTT_BLOCKS = re.compile(r"(NOTE|STYLE|REGION)(?:[ \t]|$)")


def _seconds(h: str | None, m: str, s: str, ms: str) -> float:
    return int(h or 0) * 3600 + int(m) * 60 + int(s) + int(ms.ljust(3, "0")) / 1000


def _lines(text: str) -> list[tuple[str, str]]:
    """(content, line end) pairs; \\r\\n, \\r and \\n all end a line, and each keeps its own."""
    out, pos = [], 0
    for m in re.finditer(r"\r\n|\r|\n", text):
        out.append((text[pos:m.start()], m.group()))
        pos = m.end()
    if pos < len(text):
        out.append((text[pos:], ""))
    return out


@dataclass
class Cue:
    start: float
    end: float
    head: list[str]  # the identifier and timing lines, with their line ends
    lines: list[tuple[list, str]] = field(default_factory=list)  # (cue_tokens of the line, line end)


def _blocks(lines, blank) -> list[tuple[int, list[tuple[str, str]]]]:
    """Runs of non-blank lines as (number of the first line, lines); blank lines are runs of their own."""
    out: list[tuple[int, list]] = []
    for n, (content, end) in enumerate(lines, 1):
        if out and not blank(content) and not blank(out[-1][1][-1][0]):
            out[-1][1].append((content, end))
        else:
            out.append((n, [(content, end)]))
    return out


def _cues(number: int, block, timing: re.Pattern, kind: str) -> list[Cue]:
    """The cues of a block: a timing line inside cue text (cues without the blank line between them) starts a
    new cue, with the number line before it."""
    at = 0 if "-->" in block[0][0] else 1
    cuts = [0] + [i - (i - 1 > at and block[i - 1][0].strip().isdigit()) for i in range(at + 1, len(block))
                  if "-->" in block[i][0]] + [len(block)]
    return [_cue(number + a, block[a:b], timing, kind) for a, b in zip(cuts, cuts[1:])]


def _cue(number: int, block, timing: re.Pattern, kind: str) -> Cue:
    """A cue block: an optional identifier, the timing line, the text lines."""
    at = 0 if "-->" in block[0][0] or len(block) == 1 else 1
    content = block[at][0]
    if "-->" not in content:
        raise FormatError(number + at, f"expected a {kind} cue timing (start --> end), got {content[:60]!r}")
    m = timing.match(content)
    if not m:
        raise FormatError(number + at, f"bad {kind} cue timing {content[:60]!r}")
    start, end = _seconds(*m.groups()[:4]), _seconds(*m.groups()[4:8])
    if end < start:
        raise FormatError(number + at, f"cue ends before it starts: {content[:60]!r}")
    return Cue(start, end, [c + e for c, e in block[:at + 1]],
               [(cue_tokens(c), e) for c, e in block[at + 1:]])


def read_srt(text: str) -> Template:
    body = text.removeprefix("\ufeff")
    if not body.strip():
        raise FormatError(1, "empty SRT file")
    items: list[Cue | str] = [text[:len(text) - len(body)]]
    for number, block in _blocks(_lines(body), lambda c: not c.strip()):
        if not block[0][0].strip():
            items.extend(c + e for c, e in block)
            continue
        if "-->" not in block[0][0] and not block[0][0].strip().isdigit():
            raise FormatError(number, f"expected a cue number or timing, got {block[0][0][:60]!r}")
        items.extend(_cues(number, block, _SRT_TIMING, "SRT"))
    return _template(items)


def read_vtt(text: str) -> Template:
    body = text.removeprefix("\ufeff")
    if not body.strip():
        raise FormatError(1, "empty WebVTT file")
    lines = _lines(body)
    if not re.match(r"WEBVTT(?:[ \t]|$)", lines[0][0]):
        raise FormatError(1, f"a WebVTT file starts with 'WEBVTT', not {lines[0][0][:60]!r}")
    items: list[Cue | str] = [text[:len(text) - len(body)]]
    header = True
    for number, block in _blocks(lines, lambda c: c == ""):
        literal = header or block[0][0] == "" or _VTT_BLOCKS.match(block[0][0])
        header = header and block[0][0] != ""
        if literal:
            items.extend(c + e for c, e in block)
        else:
            items.extend(_cues(number, block, _VTT_TIMING, "WebVTT"))
    return _template(items)


def _keys(cue: Cue) -> list[tuple[str, ...]]:
    return [tuple("".join(v[::2]) for k, v in tokens if k == "word") for tokens, _ in cue.lines]


def _texts(cue: Cue) -> list[str]:
    return ["".join(v if k == "literal" else "".join(v) for k, v in tokens) for tokens, _ in cue.lines]


def _rolling(cues: list[Cue]) -> bool:
    """YouTube-style captions: most cues repeat a line of the cue before them."""
    repeats = sum(any(k and k in set(_keys(prev)) for k in _keys(cue)) for prev, cue in zip(cues, cues[1:]))
    return repeats >= 2 and repeats * 2 > len(cues)


def _word_times(tokens, start: float, end: float) -> list[tuple[float, float]]:
    """(start, end) of each word of a cue line: the inline time before it (else the cue start) and the next
    inline time (else the cue end)."""
    starts, current = [], start
    for kind, value in tokens:
        if kind == "word":
            starts.append(current)
        elif m := _INLINE_TIME.fullmatch(value):
            current = _seconds(*m.groups())
    ends, following = [], end
    for kind, value in reversed(tokens):
        if kind == "word":
            ends.append(following)
        elif m := _INLINE_TIME.fullmatch(value):
            following = _seconds(*m.groups())
    return list(zip(starts, reversed(ends)))


def _template(items: list) -> Template:
    out = Template()
    cues = [item for item in items if isinstance(item, Cue)]
    first = next((k for k, item in enumerate(items) if isinstance(item, Cue)), len(items))
    out.preamble = "".join(items[:first])  # the header, notes and styles before the first cue (--resegment)
    out.silent = [(cue.start, cue.end, _texts(cue)) for cue in cues  # cues without words, as "[Music]" (--resegment)
                  if not any(_keys(cue)) and "".join(_texts(cue)).strip()]
    rolling = _rolling(cues)
    shown: dict[tuple[str, ...], list[int]] = {}  # the previous cue's lines: their words' indices
    index = 0
    for item in items:
        if isinstance(item, str):
            out.literal(item)
            continue
        for line in item.head:
            out.literal(line)
        lines_now: dict[tuple[str, ...], list[int]] = {}
        for (tokens, eol), key in zip(item.lines, _keys(item)):
            copies = shown.get(key) if rolling and key else None
            times = iter(_word_times(tokens, item.start, item.end))
            timed = any(kind == "literal" and _INLINE_TIME.fullmatch(value) for kind, value in tokens)
            ids = []
            for kind, value in tokens:
                if kind == "literal":
                    out.literal(value)
                    continue
                start, end = next(times)
                copy_of = copies[len(ids)] if copies else None
                ids.append(copy_of if copies else len(out.words))
                out.occurrence(value, Word("".join(value[::2]), index, start, end, timed), copy_of)
            out.literal(eol)
            lines_now.setdefault(key, ids)
        shown = lines_now
        index += 1
    return out
