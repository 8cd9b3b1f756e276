/**
 * Grapheme clusters and their case, and the few character classes of Python's str that the port needs
 * (charrestore/clusters.py). JavaScript's own \s, \w and \d differ from Python's, so they are spelled out here.
 */

const SEGMENTER = new Intl.Segmenter(undefined, { granularity: "grapheme" });

const ASCII = /^[\x00-\x7f]*$/;

/** Extended grapheme clusters (UAX #29): the unit every model sees. In ASCII text but "\r\n" every character
 * is one (the segmenter costs a tenth of a microsecond a character). */
export function graphemes(text) {
  if (ASCII.test(text) && !text.includes("\r\n")) return text.split("");
  const out = [];
  for (const { segment } of SEGMENTER.segment(text)) out.push(segment);
  return out;
}

// Python's str.isspace (bidi classes WS, B, S and Zs); JavaScript's \s differs (U+FEFF in, U+001C-1F out).
const SPACE_CHAR = "\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
export const PY_SPACE = `[${SPACE_CHAR}]`;
const IS_SPACE = new RegExp(`^${PY_SPACE}+$`);
const FIRST_SPACE = new RegExp(`^${PY_SPACE}`);
const FIRST_ALNUM = /^[\p{L}\p{N}]/u;
const FIRST_SENTENCE_END = /^[\p{L}\p{N}\p{Sc}%‰‱°]/u;
const FIRST_ALPHA = /^\p{L}/u;
const ALL_DIGITS = /^[\p{Nd}\u00b2\u00b3\u00b9\u2070\u2074-\u2079\u2080-\u2089\u2460-\u2468\u2474-\u247c\u2488-\u2490]+$/u;
const FIRST_DIGIT = /^[\p{Nd}\u00b2\u00b3\u00b9\u2070\u2074-\u2079\u2080-\u2089]/u;

export const isSpace = (s) => IS_SPACE.test(s); // str.isspace()
export const startsSpace = (s) => FIRST_SPACE.test(s); // s[:1].isspace()
export const startsAlnum = (s) => FIRST_ALNUM.test(s); // s[:1].isalnum()
// a sentence may end on it (clusters.py ends_sentence_on): a letter, digit, percent, degree or currency sign
export const endsSentenceOn = (s) => FIRST_SENTENCE_END.test(s);
export const startsAlpha = (s) => FIRST_ALPHA.test(s); // s[:1].isalpha()
export const startsDigit = (s) => FIRST_DIGIT.test(s); // s[:1].isdigit()
export const isDigits = (s) => ALL_DIGITS.test(s); // str.isdigit()
/** s[:1].lower() != s[:1].upper(): a letter of a cased script (Latin, Cyrillic; not Hangul, Han or Thai). */
export const startsCased = (s) => {
  const c = s ? String.fromCodePoint(s.codePointAt(0)) : "";
  return c.toLowerCase() !== c.toUpperCase();
};

function cached(fn) {
  const memo = new Map();
  return (g) => {
    let v = memo.get(g);
    if (v === undefined) {
      v = fn(g);
      if (memo.size > 65536) memo.clear();
      memo.set(g, v);
    }
    return v;
  };
}

/** ``g`` with only its first code point (in NFD: the base letter) case-mapped, its combining marks as they are. */
function recase(g, upper) {
  const d = g.normalize("NFD");
  const cp = d.codePointAt(0);
  if (cp === undefined) return g;
  const head = String.fromCodePoint(cp);
  const rest = d.slice(head.length);
  return ((upper ? head.toUpperCase() : head.toLowerCase()) + rest).normalize("NFC");
}

/** The upper-case form of a lower-case grapheme, if the round trip is exact (else null). */
export const upperOf = cached((g) => {
  const up = recase(g, true);
  if (up === g || graphemes(up).length !== 1 || recase(up, false) !== g) return null;
  return up;
});

/** [lower-case base, was upper case]; graphemes whose case does not round-trip (ß, ǅ) stay as they are. */
export const caseSplit = cached((g) => {
  const low = recase(g, false);
  if (low !== g && graphemes(low).length === 1 && upperOf(low) === g) return [low, true];
  return [g, false];
});

/** True if ``g`` would fuse with a mark or space inserted before it (combining marks, ZWJ...). */
export const gluesLeft = cached((g) => graphemes(" " + g).length < 2);

/** True if a mark or space inserted after ``g`` would fuse with it (prepend characters). */
export const gluesRight = cached((g) => graphemes(g + " ").length < 2);

/** An invalid input byte as Python's surrogate escape (U+DC80..U+DCFF): opaque, kept as it is. */
export function isEscape(g) {
  const c = g.charCodeAt(0);
  return c >= 0xdc80 && c <= 0xdcff;
}
