/**
 * Protected spans of social text (charrestore/spans.py): URLs, e-mails, @mentions, #hashtags, $cashtags,
 * numbers, emoji, code; and words typed in a script the language does not write ("iPhone" in Korean).
 * Restoration gives them back byte-identical. The patterns are Python's, spelled for
 * JavaScript: its \w, \d, \b and \s are ASCII-only or differ, (?i:...) is spelled out, and \X (one grapheme)
 * becomes an emoji with its extenders. Offsets are UTF-16 code units throughout the port.
 */

import { caseSplit, graphemes, isSpace, PY_SPACE, startsAlnum, startsAlpha, startsCased, startsDigit } from "./clusters.js";

const anyCase = (s) => s.replace(/[a-z]/gi, (c) => `[${c.toLowerCase()}${c.toUpperCase()}]`);
const WC = "\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\u200c\\u200d"; // Python regex's \w, inside a class
const WORD = `[${WC}]`;
const WORD_EDGE = `(?:(?<=${WORD})(?!${WORD})|(?<!${WORD})(?=${WORD}))`; // \b
const SPACES = PY_SPACE.slice(1, -1);
const TLD = "com|org|net|edu|gov|mil|int|io|co|ai|app|dev|uk|de|fr|es|nl|ru|jp|cn|au|ca|info|biz|tv|ly|gl|eu|ch|se|xyz";
const W = "[\\p{L}\\p{M}\\p{N}_]";
const SCHEME = `(?:${anyCase("https")}?|${anyCase("ftp")})://`;
const NAME = `(?!\\p{M})${W}+?(?=${SCHEME}|(?!${W}))`;
const NOT_URL = `${SPACES}<>"“”\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}、。？！（）`;
const URL_TAIL = `[^${NOT_URL}]*[^${NOT_URL}.,;:!?)\\]}'’]`;
const EMOJI_CHAR = "[\\p{Extended_Pictographic}\\p{Regional_Indicator}]";
// one emoji grapheme: its first character with the extenders, joiners and modifiers that \X would take along
export const EMOJI = `${EMOJI_CHAR}(?:[\\p{Grapheme_Extend}\\p{Emoji_Modifier}\\u200d\\u{E0020}-\\u{E007F}]|(?<=\\u200d)\\p{Extended_Pictographic})*`;
// a command line's option: "-v", "-rf", "--dry-run", "--out=x.txt" (a word of its own)
const OPTION = `(?<![^${SPACES}])(?:-[A-Za-z]{1,2}|--[A-Za-z][${WC}\\-]*(?:=[^${SPACES}]*[^${SPACES}.,;:!?)])?)(?![\\p{L}\\p{M}\\p{N}=\\-])`;
// an emoticon typed as a word of its own (":)", "<3", "xD") is an emoji too (EMOTICON in spans.py)
const EMOTICON = "(?:<\\/?3+|[:;=][\\-'^]?[)(\\]\\[DPpOo\\/\\\\|*3]+|[xX]D+|\\^_*\\^|-_-|;_;)";
const EMOTICON_WORD = `(?<![^${SPACES}])${EMOTICON}(?=[${SPACES}.,!?]|$)`;
const CURRENCY = "$€£¥";
const AFTER = "%‰€"; // signs a number may end with; a word starts after one ("25%in"), and before its number
const EXT = "py|js|ts|json|txt|md|csv|tsv|html|css|cpp|hpp|java|rs|go|sh|yml|yaml|toml|pdf|png|jpe?g|gif|zip|exe|log|ipynb";
const D = "\\p{Nd}";
const UNITS = "am|pm|AM|PM|k|K|M|km|kg|MB|GB|mb|gb|x";
const ALTERNATIVES = [
  `(?<email>(?<![\\p{L}\\p{N}._%+\\-])[\\p{L}\\p{N}._%+\\-]+@[\\p{L}\\p{N}\\-]+(?:\\.[\\p{L}\\p{N}\\-]+)*\\.\\p{L}{2,}(?!${W}))`,
  `(?<url>(?:${SCHEME}|${anyCase("www")}\\.)${URL_TAIL}` +
    `|(?<![\\p{L}\\p{N}.@/\\-])(?![\\p{L}\\p{N}\\-]*${anyCase("www")}\\.)[\\p{L}\\p{N}\\-]+(?:\\.[\\p{L}\\p{N}\\-]+)*\\.(?:${anyCase(TLD)})(?![\\p{L}\\p{N}])` +
    `(?:[/?#]${URL_TAIL})?)`,
  `(?<code>(?<![\\p{L}\\p{N}])[A-Za-z]\\+\\+(?![\\p{L}\\p{N}+])|(?<![\\p{L}\\p{N}])[CFcf]#(?!${W})` +
    `|(?<![${WC}.])(?:~|\\.{1,2})?\\/(?:[${WC}.\\-]+\\/)*[${WC}.\\-]*${WORD}` +
    `|${WORD_EDGE}[A-Za-z]:\\\\[^${SPACES}]*[^${SPACES}.,;:!?)]` +
    `|(?<!${W})${W}+(?:\\/[${WC}.\\-]+)*\\.(?:${EXT})${WORD_EDGE}` +
    `|${WORD_EDGE}\\p{L}${WORD}*\\(\\)|${WORD_EDGE}[\\p{L}\\p{N}]+(?:_[\\p{L}\\p{N}]+)+${WORD_EDGE}|${OPTION})`,
  `(?<mention>@${NAME})`,
  `(?<hashtag>#${NAME})`,
  `(?<cashtag>\\$[A-Za-z]{1,6}(?![\\p{L}\\p{N}]))`,
  `(?<number>(?:[${CURRENCY}]|(?<![\\p{L}\\p{N}.])[vV](?=${D})|(?<![\\p{N}.,]))${D}+(?:[.,:/]${D}+)+(?:[${AFTER}]|(?:${UNITS})(?!\\p{L}))?` +
    `|(?:[${CURRENCY}]|(?<![\\p{L}\\p{N}.,]))${D}+(?:[${AFTER}]|(?:${UNITS}|st|nd|rd|th)(?!\\p{L}))|(?<=\\p{L})${D}+[${AFTER}]|[${CURRENCY}]${D}+)`,
  `(?<emoji>(?:${EMOJI})+|${EMOTICON_WORD})`,
];
// inside a run of letters no span starts but a URL scheme or "www.": the gate skips those positions at once
const GATE = `(?:(?<![\\p{L}\\p{Nd}])|(?!\\p{L})|(?=${anyCase("https")}://|${anyCase("http")}://|${anyCase("ftp")}://|${anyCase("www")}\\.))`;
const PATTERN = new RegExp(`${GATE}(?:${ALTERNATIVES.join("|")})`, "gu");
const TRIGGER = new RegExp(`[@#$€£¥.:/\\\\+_(${D};=<^]|(?<![^${SPACES}])(?:[xX]D|-)|${EMOJI_CHAR}`, "gu");
const SPACE_RE = new RegExp(PY_SPACE, "gu");
const ANY_SPACE = new RegExp(PY_SPACE, "u");
const KINDS = ["email", "url", "code", "mention", "hashtag", "cashtag", "number", "emoji"];
// kinds that, standing at the end of a post, are no sentence: no mark is forced or added after them
const TRAILING = new Set(["url", "mention", "hashtag", "emoji"]);
const WORDS = new Set(["url", "email", "code"]); // words of their own when spaces are restored
const TAGS = new Set(["hashtag", "cashtag"]); // their "#" or "$" starts a word ("jo@xcom" may be an e-mail)

/** The protected spans of ``text`` ({start, end, kind}), left to right, never overlapping. The pattern
 * runs only over the white-space-delimited chunks that hold a character every span has. */
export function find(text) {
  const out = [];
  let done = 0;
  TRIGGER.lastIndex = 0;
  for (let t; (t = TRIGGER.exec(text)); ) {
    if (t.index < done) continue;
    let start = done;
    for (let i = t.index - 1; i >= done; i--) {
      if (isSpace(text[i])) {
        start = i + 1;
        break;
      }
    }
    SPACE_RE.lastIndex = t.index + t[0].length;
    const after = SPACE_RE.exec(text);
    done = after ? after.index : text.length;
    const chunk = text.slice(0, done); // lookbehinds see the text before the chunk, lookaheads stop at its end
    PATTERN.lastIndex = start;
    for (let m; (m = PATTERN.exec(chunk)); ) {
      const kind = KINDS.find((k) => m.groups[k] !== undefined);
      out.push({ start: m.index, end: m.index + m[0].length, kind });
    }
    TRIGGER.lastIndex = Math.max(TRIGGER.lastIndex, done);
  }
  return out;
}

/** The UTF-16 offset of each grapheme in ``gs.join("")``, and the total at the end. */
export function offsets(gs) {
  const out = new Int32Array(gs.length + 1);
  for (let i = 0; i < gs.length; i++) out[i + 1] = out[i] + gs[i].length;
  return out;
}

/** First index whose value is > v (``right``) or >= v, in an ascending array. */
export function searchSorted(arr, v, right = false) {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (arr[mid] < v || (right && arr[mid] === v)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const FOREIGN = new Map(); // the pack's scripts -> its pattern of runs of other scripts' letters
const CAPITAL = /[\p{Lu}\p{Lt}]/u;

/** The words of ``text`` in a script other than ``scripts`` that have a capital ("iPhone" in Korean), kind
 * "foreign": runs of two or more letters with their combining marks, of none of ``scripts`` (nor Common,
 * Inherited); a lower-case run may hold several words, and the model cuts it (spans.py: foreign_words). */
export function foreignWords(text, scripts) {
  if (!scripts.length) return [];
  const key = scripts.join(",");
  if (!FOREIGN.has(key)) {
    const own = [...scripts, "Common", "Inherited"].map((name) => `\\p{Script=${name}}`).join("");
    FOREIGN.set(key, new RegExp(`(?:(?![${own}])\\p{L}\\p{M}*){2,}`, "gu"));
  }
  const out = [];
  for (const m of text.matchAll(FOREIGN.get(key))) {
    if (CAPITAL.test(m[0])) out.push({ start: m.index, end: m.index + m[0].length, kind: "foreign" });
  }
  return out;
}

/** ``found`` with the spans of ``more`` that overlap none of them, left to right (both are ordered). */
function merged(found, more) {
  const out = [];
  let k = 0;
  for (const span of more) {
    while (k < found.length && found[k].end <= span.start) k++;
    if (k === found.length || found[k].start >= span.end) out.push(span);
  }
  return [...found, ...out].sort((a, b) => a.start - b.start);
}

/** For each grapheme of the normalized text, its index in ``base`` (-1: a mark or space that parse took off). */
function align(gs, base) {
  const out = [];
  let j = 0;
  for (const g of gs) {
    if (j < base.length && (g === base[j] || caseSplit(g)[0] === base[j])) out.push(j++);
    else out.push(-1);
  }
  return out;
}

/** The spans of ``text`` as [start, end, kind] over the base graphemes that ``parse(text)`` gave. */
export function baseSpans(text, base, pack) {
  const norm = text.normalize(pack.normalization);
  // unspaced input keeps the case of another script's letters where the pack has none ("ที่BangkokPostรายงาน"):
  // there a capitalised run may hold several words, and the model cuts it (spans.py)
  const typed = !pack.hasSpace || ANY_SPACE.test(norm);
  const found = merged(find(norm), typed ? foreignWords(norm, pack.scripts) : []);
  if (!found.length) return [];
  const gs = graphemes(norm);
  const at = offsets(gs);
  const index = align(gs, base);
  const out = [];
  for (const s of found) {
    const inner = [];
    for (let k = searchSorted(at, s.start, true) - 1; k < searchSorted(at, s.end); k++) {
      if (index[k] >= 0) inner.push(index[k]);
    }
    if (inner.length) out.push([inner[0], inner[inner.length - 1] + 1, s.kind]);
  }
  return out;
}

// Brackets and quotes glued to the words around them ("5pm(or6)ok"): a word starts before an opening one and after a
// closing one. "„" and a bracket know their side; a quote mark opens, or closes the quote open before it (spans.py);
// "‚" opens, and "‘" closes the "‚" open before it (German ‚…‘), else opens (English ‘…’).
const OPENS = "([{„";
const CLOSES = ")]}";
const QUOTES = '"“”«»‹›„';

/** Each bracket or quote of ``base`` (its grapheme index) -> whether it opens; the quote marks pair up. */
export function bracketSides(base) {
  const out = new Map();
  let quoted = false;
  let lowSingle = false;
  base.forEach((g, k) => {
    if (g === "‚" || g === "‘") {
      out.set(k, g === "‚" || !lowSingle); // "‘" closes an open "‚"
      lowSingle = g === "‚";
      return;
    }
    if (g.length !== 1 || !(OPENS.includes(g) || CLOSES.includes(g) || QUOTES.includes(g))) return;
    const opening = QUOTES.includes(g) && g !== "„" ? !quoted : OPENS.includes(g);
    out.set(k, opening);
    if (QUOTES.includes(g)) quoted = opening;
  });
  return out;
}

/** Where a space goes after a grapheme when spaces are restored: before an opening bracket or quote and after a
 * closing one, where a letter of a cased script touches it or another bracket opens; null when there are none. */
export function bracketEdges(base) {
  const edges = new Uint8Array(base.length);
  let any = false;
  const sides = bracketSides(base);
  const word = (k) => k >= 0 && k < base.length && startsAlnum(base[k]);
  for (const [k, opening] of sides) { // (only a bracket that a word stands inside: not "a»“", nor a text's end)
    if (opening && k > 0 && word(k + 1)) {
      if (startsCased(base[k - 1]) || (sides.get(k - 1) === false && word(k - 2))) edges[k - 1] = any = 1;
    } else if (!opening && k < base.length - 1 && word(k - 1)
      && (startsCased(base[k + 1]) || (sides.get(k + 1) === true && word(k + 2)))) {
      edges[k] = any = 1;
    }
  }
  return any ? edges : null;
}

/** The masks of spans over ``base`` (null when there are none): ``inside`` a span, ``joined`` (no space after),
 * ``closed`` (no mark after but the given ones), ``edges`` (a space after it when spaces are restored), and
 * ``trailing`` (the document ends in a block of tags, mentions, URLs or emoji). */
export function protect(base, spans, spaced = null) {
  const brackets = bracketEdges(base);
  if (!spans.length && !brackets) return null;
  let n = base.length;
  const inside = new Uint8Array(n);
  const joined = new Uint8Array(n);
  const edges = new Uint8Array(n);
  for (const [s, e, kind] of spans) {
    inside.fill(1, s, e);
    joined.fill(1, s, e - 1);
    if (spaced && kind !== "emoji") for (const k of [s - 1, e - 1]) if (k >= 0 && k < n - 1 && spaced[k]) edges[k] = 1;
    if (WORDS.has(kind) && s > 0) {
      edges[s - 1] |= startsAlnum(base[s - 1]) && startsAlnum(base[s]);
    } else if (TAGS.has(kind) && s > 0) { // "love#tbt": a tag's "#" or "$" starts a word
      edges[s - 1] |= startsAlnum(base[s - 1]);
    } else if (kind === "number" && s > 0) { // "cost$100", "by25%": a price's or a share's number starts a word
      edges[s - 1] |= startsAlpha(base[s - 1]) && (CURRENCY.includes(base[s]) || AFTER.includes(base[e - 1])
        && startsCased(base[s - 1]));
    }
    if (WORDS.has(kind) && e < n) {
      edges[e - 1] |= startsAlnum(base[e - 1]) && startsAlnum(base[e]);
    } else if (TAGS.has(kind) && e < n) { // a tag ends where the text typed it to ("#tbt and")
      edges[e - 1] |= startsAlnum(base[e]);
    } else if (kind === "number" && e < n) { // "v2.0.1fixes": a unit would be in the span, so a word starts
      // (in a cased script: a Korean particle is part of the word, "2.5%로")
      edges[e - 1] |= (startsDigit(base[e - 1]) || AFTER.includes(base[e - 1])) && startsCased(base[e]);
    }
  }
  if (brackets) brackets.forEach((v, i) => v && !joined[i] && (edges[i] = 1)); // (not inside a span: "print()")
  const closed = joined.slice();
  let trailing = false;
  for (let k = spans.length - 1; k >= 0; k--) {
    const [s, e, kind] = spans[k];
    if (!TRAILING.has(kind) || e !== n) break;
    closed[e - 1] = 1;
    trailing = true;
    n = s;
  }
  return { inside, joined, closed, spans, trailing, edges };
}

/** The spans and the edges as UTF-16 offsets into ``base.join("")`` (what the NB segmenter reads). */
export function forSegmenter(frozen, base) {
  const ends = offsets(base);
  const spans = frozen.spans.map(([s, e]) => [ends[s], ends[e]]);
  const forced = [];
  frozen.edges.forEach((v, i) => v && forced.push(ends[i + 1]));
  return [spans, forced];
}
