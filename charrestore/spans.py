"""Protected spans of social text: URLs, e-mails, @mentions, #hashtags, $cashtags, numbers, emoji, code; and words
typed in a script the language does not write.

They are data, not prose: restoration must give them back byte-identical (a changed URL or e-mail address
is data loss). ``find`` is a regex tokenizer over the text; ``protect`` maps its spans onto the base graphemes
of ``codec.parse`` and says which graphemes every engine must leave exactly as given. A word of another script
with a capital in it ("iPhone", "YouTube" in Korean or Thai) in text that has spaces was typed so and is one word:
``foreign_words`` finds them for a pack that names its ``scripts`` (a lower-case run, or any run in text without
spaces, as ASR or de-spaced text gives it, may hold several words, and the model cuts it).

>>> [(s.kind, s.text) for s in find("mail jo@x.org or see https://x.com/a?b=1. @jane #tbt $1,000")]
[('email', 'jo@x.org'), ('url', 'https://x.com/a?b=1'), ('mention', '@jane'), ('hashtag', '#tbt'), ('number', '$1,000')]
>>> [(s.kind, s.text) for s in find("miss you <3 :-D xD ok ;) re:) http://a.io")]
[('emoji', '<3'), ('emoji', ':-D'), ('emoji', 'xD'), ('emoji', ';)'), ('url', 'http://a.io')]
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import regex

from .clusters import case_split, graphemes
from .packs import LanguagePack

_TLD = "com|org|net|edu|gov|mil|int|io|co|ai|app|dev|uk|de|fr|es|nl|ru|jp|cn|au|ca|info|biz|tv|ly|gl|eu|ch|se|xyz"
_W = r"[\p{L}\p{M}\p{N}_]"
_SCHEME = r"(?i:https?|ftp)://"
# A word run of a mention or hashtag ends before a URL scheme glued to it ("@janecheckhttps://...").
_NAME = rf"(?!\p{{M}}){_W}+?(?={_SCHEME}|(?!{_W}))"  # not from a combining mark: that belongs to the "#" or "@"
# URL characters, not ending in punctuation that closes the sentence around it; a script written without
# spaces (日本語) ends a URL, since nothing else would.
_NOT_URL = r"""\s<>"“”\p{Han}\p{Hiragana}\p{Katakana}、。？！（）"""
_URL_TAIL = rf"""[^{_NOT_URL}]*[^{_NOT_URL}.,;:!?)\]}}'’]"""
EMOJI_CHAR = r"[\p{Extended_Pictographic}\p{Regional_Indicator}]"  # what starts an emoji grapheme
EMOJI = rf"(?={EMOJI_CHAR})\X"  # one emoji grapheme (with its modifiers and joiners)
# An emoticon typed as a word of its own (":)", ":-D", ";P", "<3", "xD", "^_^", "-_-") is an emoji too: the
# models read none, and wrote "I miss you, <3. See" for it.
EMOTICON = r"(?:</?3+|[:;=][-'^]?[)(\]\[DPpOo/\\|*3]+|[xX]D+|\^_*\^|-_-|;_;)"
_EMOTICON_WORD = rf"(?<!\S){EMOTICON}(?=[\s.,!?]|$)"
_CURRENCY = "$€£¥"  # signs a number may start with; when restored spaces meet one after a letter, a word starts
_AFTER = "%‰€"  # signs a number may end with; a word starts after one ("25%in", "10€for"), and before its number
_EXT = "py|js|ts|json|txt|md|csv|tsv|html|css|cpp|hpp|java|rs|go|sh|yml|yaml|toml|pdf|png|jpe?g|gif|zip|exe|log|ipynb"
# a command line's option: "-v", "-rf", "--dry-run", "--out=x.txt" (a word of its own)
_OPTION = r"(?<!\S)(?:-[A-Za-z]{1,2}|--[A-Za-z][\w-]*(?:=[^\s]*[^\s.,;:!?)])?)(?![\p{L}\p{M}\p{N}=-])"
_ALTERNATIVES = rf"""
    (?P<email>(?<![\p{{L}}\p{{N}}._%+-])[\p{{L}}\p{{N}}._%+-]+@[\p{{L}}\p{{N}}-]+(?:\.[\p{{L}}\p{{N}}-]+)*\.\p{{L}}{{2,}}(?!{_W}))
  | (?P<url>(?:{_SCHEME}|(?i:www)\.){_URL_TAIL}
      | (?<![\p{{L}}\p{{N}}.@/-])(?![\p{{L}}\p{{N}}-]*(?i:www)\.)[\p{{L}}\p{{N}}-]+(?:\.[\p{{L}}\p{{N}}-]+)*\.(?i:{_TLD})(?![\p{{L}}\p{{N}}])
        (?:[/?#]{_URL_TAIL})?)
  | (?P<code>(?<![\p{{L}}\p{{N}}])[A-Za-z]\+\+(?![\p{{L}}\p{{N}}+])|(?<![\p{{L}}\p{{N}}])[CFcf]\#(?!{_W})
      | (?<![\w.])(?:~|\.{{1,2}})?/(?:[\w.-]+/)*[\w.-]*\w | \b[A-Za-z]:\\[^\s]*[^\s.,;:!?)]
      | (?<!{_W}){_W}+(?:/[\w.-]+)*\.(?:{_EXT})\b | \b\p{{L}}\w*\(\) | \b[\p{{L}}\p{{N}}]+(?:_[\p{{L}}\p{{N}}]+)+\b
      | {_OPTION})
  | (?P<mention>@{_NAME})
  | (?P<hashtag>\#{_NAME})
  | (?P<cashtag>\$[A-Za-z]{{1,6}}(?![\p{{L}}\p{{N}}]))
  | (?P<number>(?:[{_CURRENCY}]|(?<![\p{{L}}\p{{N}}.])[vV](?=\d)|(?<![\p{{N}}.,]))
      \d+(?:[.,:/]\d+)+(?:[{_AFTER}]|(?:am|pm|AM|PM|k|K|M|km|kg|MB|GB|mb|gb|x)(?!\p{{L}}))?
      | (?:[{_CURRENCY}]|(?<![\p{{L}}\p{{N}}.,]))\d+(?:[{_AFTER}]|(?:am|pm|AM|PM|k|K|M|km|kg|MB|GB|mb|gb|x|st|nd|rd|th)(?!\p{{L}}))
      | (?<=\p{{L}})\d+[{_AFTER}] | [{_CURRENCY}]\d+)
  | (?P<emoji>(?:{EMOJI})+|{_EMOTICON_WORD})
"""
# Inside a run of letters no span starts (each alternative starts after a boundary or at a symbol or digit) but
# for a URL scheme or "www.": the gate skips those positions at once, instead of trying every alternative
# (2-3x faster on unspaced text; tests/test_spans.py checks it changes no match).
_GATE = r"(?:(?<![\p{L}\p{Nd}])|(?!\p{L})|(?=(?i:https?://|ftp://|www\.)))"
_PATTERN = regex.compile(f"{_GATE}(?:{_ALTERNATIVES})", regex.VERBOSE)
_TRIGGER = regex.compile(rf"[@#$€£¥.:/\\+_(\d;=<^]|(?<!\S)(?:[xX]D|-)|{EMOJI_CHAR}")
_SPACE, _SPACE_BEFORE = regex.compile(r"\s"), regex.compile(r"\s", regex.REVERSE)
# Kinds that, standing at the end of a post, are no sentence: no mark is forced or added after them.
TRAILING = frozenset({"url", "mention", "hashtag", "emoji"})
# Kinds that are words of their own when spaces are restored (an emoji or a number may touch a word: "3pm").
# Where their letter or digit meets one outside ("checkhttps://..."); "0@0" or "3pm" may be one word.
_WORDS = frozenset({"url", "email", "code"})
_TAGS = frozenset({"hashtag", "cashtag"})  # their "#" or "$" starts a word ("love#tbt"; "jo@xcom" may be an e-mail)


@dataclass(frozen=True)
class Span:
    start: int
    end: int
    kind: str
    text: str


def find(text: str) -> list[Span]:
    """The protected spans of ``text`` (character offsets), left to right, never overlapping. The pattern runs
    only over the white-space-delimited chunks that hold a character every span has (it costs microseconds a
    character; prose and long unspaced text mostly have none)."""
    out, done = [], 0
    for t in _TRIGGER.finditer(text):
        if t.start() < done:
            continue
        before = _SPACE_BEFORE.search(text, done, t.start())
        after = _SPACE.search(text, t.end())
        start, done = before.end() if before else done, after.start() if after else len(text)
        out += [Span(m.start(), m.end(), m.lastgroup, m.group()) for m in _PATTERN.finditer(text, start, done)]
    return out


@lru_cache(maxsize=16)
def _foreign(scripts: tuple[str, ...]) -> regex.Pattern:
    """Runs of two or more letters (with their combining marks) of none of ``scripts`` (nor Common, Inherited)."""
    own = "".join(rf"\p{{Script={name}}}" for name in (*scripts, "Common", "Inherited"))
    return regex.compile(rf"(?:(?![{own}])\p{{L}}\p{{M}}*){{2,}}")


_CAPITAL = regex.compile(r"[\p{Lu}\p{Lt}]")


def foreign_words(text: str, scripts: tuple[str, ...]) -> list[Span]:
    """The words of ``text`` in a script other than ``scripts`` that have a capital (kind "foreign"), left to right.

    >>> [(s.text, s.start) for s in foreign_words("새 iPhone을 youtube에서 봤다 NASA", ("Hangul", "Han"))]
    [('iPhone', 2), ('NASA', 23)]
    """
    if not scripts:
        return []
    return [Span(m.start(), m.end(), "foreign", m.group()) for m in _foreign(scripts).finditer(text)
            if _CAPITAL.search(m.group())]


def _merged(found: list[Span], more: list[Span]) -> list[Span]:
    """``found`` with the spans of ``more`` that overlap none of them, left to right (both are ordered)."""
    out, k = [], 0
    for span in more:
        while k < len(found) and found[k].end <= span.start:
            k += 1
        if k == len(found) or found[k].start >= span.end:
            out.append(span)
    return sorted(found + out, key=lambda s: s.start)


@dataclass(frozen=True)
class Protected:
    """Per base grapheme: ``inside`` a span (its case is the given one), ``joined`` (no space after it: every
    grapheme of a span but the last), ``closed`` (no mark after it but the given ones: the joined ones and the
    last of a trailing block); ``spans``: (start, end, kind) over the graphemes; ``trailing``:
    the document ends in a block of tags, mentions, URLs or emoji; ``edges``: a space goes after it when spaces
    are restored (a URL glued to a word is a word of its own)."""
    inside: np.ndarray
    joined: np.ndarray
    closed: np.ndarray
    spans: list[tuple[int, int, str]]
    trailing: bool
    edges: np.ndarray

    def for_segmenter(self, base: list[str]) -> tuple[list[tuple[int, int]], list[int]]:
        """The spans and the edges as character offsets into ``"".join(base)`` (what the NB segmenter reads)."""
        ends = _offsets(base).tolist()
        return [(ends[s], ends[e]) for s, e, _ in self.spans], [ends[i + 1] for i in np.flatnonzero(self.edges)]


_SITE = regex.compile(rf"^(?:(?i:https?|ftp)://)?(?:(?i:www))?([^/?#]*?)(?:{_TLD})?(?=[/?#]|$)")
# the token model reads a span as the one word a speaker would say for it
_SPOKEN = {"url": lambda f: _SITE.match(f).group(1), "email": lambda f: f.partition("@")[0],
           "mention": lambda f: f[1:], "hashtag": lambda f: f[1:], "cashtag": lambda f: f[1:]}


def spoken(kind: str, form: str) -> str:
    """The word the token model reads for a span's ``form`` (base graphemes: the pack's marks taken off), instead of
    a dozen subword pieces of symbols that no training text had: a URL's site name, an e-mail's user name, a mention's
    or tag's name. Other kinds (numbers, emoji, code) are read as they are.

    >>> [spoken(k, f) for k, f in [("url", "https://wwwyoutubecom/watch"), ("url", "examplecom"),
    ...                            ("email", "jo@xorg"), ("mention", "@jane"), ("number", "9:30am")]]
    ['youtube', 'example', 'jo', 'jane', '9:30am']
    """
    word = _SPOKEN[kind](form) if kind in _SPOKEN else form
    return word or form


def _offsets(gs: list[str]) -> np.ndarray:
    """The character offset of each grapheme in ``"".join(gs)``, and the total at the end."""
    n = sum(map(len, gs))
    return np.arange(n + 1) if n == len(gs) else np.concatenate([[0], np.cumsum([len(g) for g in gs])])


def typed_spaces(base: list[str], spaced: np.ndarray | None) -> np.ndarray | None:
    """Where the input had its spaces, as offsets into ``"".join(base)`` (what the NB segmenter reads: ``spaced``
    per grapheme); None for input without any.

    >>> typed_spaces(["a", "bc", "d"], np.array([0, 1, 0])).tolist()
    [3]
    """
    return _offsets(base)[1:][np.flatnonzero(spaced)] if spaced is not None and spaced.any() else None


def _align(gs: list[str], base: list[str]) -> list[int]:
    """For each grapheme of the normalized text, its index in ``base`` (-1: a mark or space that parse took off)."""
    if gs == base:  # nothing was taken off and no case changed (e.g. lower-case text without marks or spaces)
        return list(range(len(gs)))
    out, j = [], 0
    for g in gs:
        if j < len(base) and (g == base[j] or case_split(g)[0] == base[j]):
            out.append(j)
            j += 1
        else:
            out.append(-1)
    return out


def base_spans(text: str, base: list[str], pack: LanguagePack) -> list[tuple[int, int, str]]:
    """The spans of ``text`` as (start, end, kind) over the base graphemes that ``parse(text)`` gave."""
    norm = unicodedata.normalize(pack.normalization, text)
    # unspaced input (ASR, run-together text) keeps the case of another script's letters where the pack has none
    # ("ที่BangkokPostรายงาน"): there a capitalised run may hold several words, and the model cuts it
    typed = not pack.has_space or _SPACE.search(norm) is not None
    found = _merged(find(norm), foreign_words(norm, pack.scripts) if typed else [])
    if not found:
        return []
    gs = graphemes(norm)
    at = _offsets(gs)
    index = _align(gs, base)
    out = []
    for s in found:
        inner = [index[k] for k in range(np.searchsorted(at, s.start, "right") - 1, np.searchsorted(at, s.end))
                 if index[k] >= 0]
        if inner:
            out.append((inner[0], inner[-1] + 1, s.kind))
    return out


def _cased(g: str) -> bool:
    """Whether a grapheme starts with a letter of a cased script (Latin, Cyrillic: not Hangul, Han or Thai)."""
    return g[:1].lower() != g[:1].upper()


# Brackets and quotes glued to the words around them ("5pm(or6)ok", 'the book"dune"is'): a word starts before an
# opening one and after a closing one. "„" and a bracket know their side; a quote mark opens, or closes the quote
# open before it (“…” in English, „…“ in German, «…» in French, »…« in German books). Of the single quotes, "‚"
# opens, and "‘" closes the "‚" open before it (German ‚…‘), else opens (English ‘…’, closed by an apostrophe).
_OPENS, _CLOSES, _QUOTES, _LOW_SINGLE, _SINGLE = "([{„", ")]}", '"“”«»‹›„', "‚", "‘"
_BRACKET = regex.compile(f"[{regex.escape(_OPENS + _CLOSES + _QUOTES + _LOW_SINGLE + _SINGLE)}]")


def bracket_sides(base: list[str]) -> dict[int, bool]:
    """Each bracket or quote of ``base`` (its grapheme index) -> whether it opens (False: it closes); the quote
    marks pair up left to right.

    >>> bracket_sides(list('„a“(b)"c"'))
    {0: True, 2: False, 3: True, 5: False, 6: True, 8: False}
    >>> bracket_sides(list("‘a’‚b‘"))
    {0: True, 3: True, 5: False}
    """
    text = "".join(base)
    if not _BRACKET.search(text):
        return {}
    at, out, quoted, low_single = _offsets(base), {}, False, False
    for m in _BRACKET.finditer(text):
        k, c = int(np.searchsorted(at, m.start(), "right")) - 1, m.group()
        if at[k] != m.start() or len(base[k]) > 1:
            continue  # inside a grapheme, or one that a combining mark makes another character
        if c in (_LOW_SINGLE, _SINGLE):
            out[k] = c == _LOW_SINGLE or not low_single  # "‘" closes an open "‚"
            low_single = c == _LOW_SINGLE
            continue
        out[k] = c in _OPENS if c not in _QUOTES or c == "„" else not quoted
        if c in _QUOTES:
            quoted = out[k]
    return out


def bracket_edges(base: list[str]) -> np.ndarray | None:
    """Where a space goes after a grapheme when spaces are restored: before an opening bracket or quote and after a
    closing one (``bracket_sides``), where a letter of a cased script touches it (a Korean particle stays on its
    bracket: "(...)는") or another bracket opens ('"Dune"(1965)'); None when there are none.

    >>> base = list('by5pm(or6)ok"dune"is')
    >>> "".join(g + " " * int(e) for g, e in zip(base, bracket_edges(base)))
    'by5pm (or6) ok "dune" is'
    """
    sides = bracket_sides(base)
    edges, n = np.zeros(len(base), bool), len(base)

    def word(k: int) -> bool:
        return 0 <= k < n and base[k][:1].isalnum()

    for k, opening in sides.items():  # (only a bracket that a word stands inside: not "a»“", nor a text's end)
        if opening and k > 0 and word(k + 1):
            edges[k - 1] |= _cased(base[k - 1]) or sides.get(k - 1) is False and word(k - 2)
        elif not opening and k < n - 1 and word(k - 1):
            edges[k] |= _cased(base[k + 1]) or sides.get(k + 1) is True and word(k + 2)
    return edges if edges.any() else None


def protect(base: list[str], spans: list[tuple[int, int, str]], spaced: np.ndarray | None = None) -> Protected | None:
    """The masks of spans over ``base`` (None when there are none, nor brackets glued to words); ``spaced``: where
    the input had a space after a grapheme (a span's boundary typed with one stays one when spaces are restored:
    "and @jo"; not an emoji's)."""
    brackets = bracket_edges(base)
    if not spans and brackets is None:
        return None
    n = len(base)
    inside, joined, edges = np.zeros(n, bool), np.zeros(n, bool), np.zeros(n, bool)
    for s, e, kind in spans:
        inside[s:e] = True
        joined[s:e - 1] = True
        if spaced is not None and kind != "emoji":  # (emoji: the model does not read them, char_symbols.py)
            edges[[k for k in (s - 1, e - 1) if 0 <= k < n - 1 and spaced[k]]] = True
        if kind in _WORDS and s > 0:
            edges[s - 1] |= base[s - 1][:1].isalnum() and base[s][:1].isalnum()
        elif kind in _TAGS and s > 0:
            edges[s - 1] |= base[s - 1][:1].isalnum()
        elif kind == "number" and s > 0:  # "cost$100", "by25%": a price's or a share's number starts a word
            edges[s - 1] |= base[s - 1][:1].isalpha() and (base[s] in _CURRENCY or base[e - 1] in _AFTER
                                                          and _cased(base[s - 1]))
        if kind in _WORDS and e < n:
            edges[e - 1] |= base[e - 1][:1].isalnum() and base[e][:1].isalnum()
        elif kind in _TAGS and e < n:  # a tag ends where the text typed it to ("#tbt and")
            edges[e - 1] |= base[e][:1].isalnum()
        elif kind == "number" and e < n:  # "v2.0.1fixes": a unit would be in the span ("9:30am"), so a word starts
            # (in a cased script: a Korean particle is part of the word, "2.5%로")
            edges[e - 1] |= (base[e - 1][:1].isdigit() or base[e - 1] in _AFTER) and _cased(base[e])
    if brackets is not None:  # (not inside a span: "print()", a URL's brackets)
        edges |= brackets & ~joined
    closed, trailing = joined.copy(), False
    for s, e, kind in reversed(spans):
        if kind not in TRAILING or e != n:  # spaces between the spans are no base graphemes
            break
        closed[e - 1] = trailing = True
        n = s
    return Protected(inside, joined, closed, spans, trailing, edges)

