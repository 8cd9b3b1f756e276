/**
 * Long documents in pieces (charrestore/long_text.py): a text of more than PIECE + 2 * CONTEXT characters is cut
 * into pieces of about PIECE characters, at white space where there is some, else between two letters; each piece
 * is restored with CONTEXT characters of the text on either side, and only its own graphemes are kept. Python does
 * this to bound its memory; the port does it so that the windows, and so the output, are Python's.
 * Offsets are UTF-16 code units (Python's are code points: they differ only where the text has astral characters).
 */

import { gluesLeft, graphemes, isEscape, isSpace, startsAlnum } from "./clusters.js";
import { parse, render } from "./codec.js";
import { find } from "./spans.js";

const PIECE = 1 << 16;
const CONTEXT = 1 << 11;
const SEARCH = 1 << 10; // how far back from a piece's nominal end a cut is looked for, before giving up on a kind
const MARK = /^\p{M}/u;

export const isLong = (text) => text.length > PIECE + 2 * CONTEXT;

/** Does ``text`` hold a word (letters between white space, punctuation at its edges aside) of the pack's scripts
 * longer than its ``longestWord``: words typed without their spaces (digits may stand in one, but not in a word with
 * a capital after its first letter: a code)? Each word is looked at once
 * (long_text.py ``runs_together``). */
export function runsTogether(text, pack) {
  if (!pack.longestWord) return false;
  const letters = pack.scripts.map((s) => `\\p{Script=${s}}`).join("");
  const longRun = new RegExp(`(?:\\p{L}\\p{M}*){${pack.longestWord + 1}}`, "gu");
  const other = new RegExp(`[^\\p{L}\\p{M}\\p{N}'’-]${letters ? `|(?=\\p{L})[^${letters}]` : ""}`, "u");
  let m;
  while ((m = longRun.exec(text)) !== null) {
    let start = m.index;
    let end = m.index + m[0].length;
    while (start && !isSpace(text[start - 1])) start--;
    while (end < text.length && !isSpace(text[end])) end++;
    while (start < end && OPENER.test(text[start]) && !"#@/\\".includes(text[start])) start++;
    while (end > start && CLOSER.test(text[end - 1])) end--;
    const word = text.slice(start, end);
    if (!other.test(word) && (!DIGIT.test(word) || !CAPITAL.test(word.slice(1)))) return true;
    longRun.lastIndex = Math.max(end, m.index + m[0].length);
  }
  return false;
}

const OPENER = /[\p{Ps}\p{Pi}\p{Po}]/u;
const DIGIT = /\p{N}/u;
const CAPITAL = /\p{Lu}|\p{Lt}/u; // a word with digits and a capital after its first letter is a code
const CLOSER = /[\p{Pe}\p{Pf}\p{Po}]/u;

/** Whether a piece may start at ``i``: a grapheme boundary before a character that parses as a base grapheme on
 * its own (no white space, mark, invalid byte, or character that would fuse with what precedes it). */
function cuttable(text, i, pack) {
  const c = text[i];
  const before = text[i - 1];
  if (isSpace(c) || pack.marks.includes(c) || isEscape(c) || isEscape(before) || MARK.test(c) || gluesLeft(c)
    || (before + c).normalize(pack.normalization) !== before + c) return false;
  const lo = Math.max(0, i - 16);
  let at = lo;
  for (const g of graphemes(text.slice(lo, i + 16))) {
    at += g.length;
    if (at >= i) return at === i;
  }
  return false;
}

function insideSpan(text, i) {
  const lo = Math.max(0, i - 256);
  return find(text.slice(lo, i + 256)).some((s) => s.start < i - lo && i - lo < s.end);
}

/** A piece boundary in (floor, target], as near ``target`` as it can be: after white space if there is one near,
 * else between two letters or digits outside any protected span, else at any safe grapheme boundary; or null. */
function cutAt(text, target, floor, pack) {
  target = Math.min(target, text.length - 1);
  floor = Math.max(floor, 0);
  const near = Math.max(floor + 1, target - SEARCH);
  const tests = [(i) => isSpace(text[i - 1]),
    (i) => startsAlnum(text[i - 1]) && startsAlnum(text[i]) && !insideSpan(text, i), () => true];
  for (const ok of tests) {
    for (let i = target; i >= near; i--) if (ok(i) && cuttable(text, i, pack)) return i;
  }
  for (let i = near - 1; i > floor; i--) if (cuttable(text, i, pack)) return i;
  return null;
}

/** [start, end] offsets of the pieces of ``text``, in order, covering it. */
function pieces(text, pack) {
  const out = [];
  let start = 0;
  let end;
  while (text.length - start > PIECE && (end = cutAt(text, start + PIECE, start, pack)) !== null) {
    out.push([start, end]);
    start = end;
  }
  out.push([start, text.length]);
  return out;
}

/** The restored text of a long document, piece by piece. ``restorer``: its ``protected`` and ``engine``; ``keep``
 * and the mixed-case ``keepBits`` are decided once, on the whole text, as for a short one. */
export async function restoreLong(restorer, text, keep, keepBits, each = (piece) => piece) {
  const pack = restorer.pack;
  text = text.normalize(pack.normalization);
  const bounds = pieces(text, pack);
  const out = [];
  for (let k = 0; k < bounds.length; k++) {
    const [a, b] = bounds[k];
    const lo = a <= CONTEXT ? 0 : cutAt(text, a - CONTEXT, bounds[k - 1][0], pack) || bounds[k - 1][0];
    const hi = b + CONTEXT >= text.length ? text.length : cutAt(text, b + CONTEXT, b, pack) || bounds[k + 1][1];
    const window = text.slice(lo, hi);
    const { base, classes } = parse(window, pack);
    const left = parse(text.slice(lo, a), pack).base.length;
    const mid = base.length - left - parse(text.slice(b, hi), pack).base.length;
    if (!mid) continue;
    const [given, frozen] = await restorer.protected(window, base, classes);
    const cls = await restorer.engine.classes(base, given, given.map((c) => c & keepBits), keep, hi === text.length, frozen);
    const end = left + mid;
    if (end < base.length) { // the next piece's first grapheme, rendered plain, shows render what follows
      const shown = render(base.slice(left, end + 1), [...cls.subarray(left, end), 0], pack);
      out.push(each(shown.slice(0, shown.length - base[end].length)));
    } else {
      out.push(each(render(base.slice(left, end), cls.subarray(left, end), pack)));
    }
  }
  return out.join("");
}
