/**
 * Words a language writes small inside a sentence (fr "mardi", "américain"; es "martes", "alemán"): a capital the
 * model gave one on its first letter alone is taken off, unless the input typed it or a sentence starts there (the
 * first word, after a sentence mark, or after a grapheme that is no letter or digit); a demonym or a word that a
 * pack's list of proper forms marks small (de "traf") keeps it as a noun, after a word of the pack's ``nounsAfter``
 * ("les Américains", "l'Allemand", "das Waschen"), and a demonym, with ``demonymsInNames``, inside a name ("la Unión
 * Europea"), as charrestore/small_words.py does.
 */

import { wordSpans } from "./codec.js";

const ALNUM = /^[\p{L}\p{N}]/u;
const APOSTROPHES = ["'", "’"];

/** ``cls`` with the capital taken off each such word of ``pack`` and of ``proper`` (its list of proper forms: its small
 * words) as above (``kept``: the input's classes). */
export function smallCase(base, cls, pack, caps, space, sentenceBits, kept, proper = null) {
  const small = proper?.small ?? new Set(); // the list of proper forms' small words
  if (!(pack.smallWords.size || pack.demonyms.size || small.size) || !caps || !space || base.length < 2) return cls;
  const spans = wordSpans(cls, space);
  for (let k = 1; k < spans.length; k++) {
    const [s, e] = spans[k];
    const clitic = cliticOf(base, s, e, pack.elisions);
    const start = s + clitic.length;
    if (start >= e || !(cls[start] & caps) || kept[start] & caps || cls[s - 1] & sentenceBits) continue;
    if (!ALNUM.test(base[s - 1]) || cls.slice(start + 1, e).some((c) => c & caps)) continue;
    const word = base.slice(start, e).join("").toLowerCase();
    const demonym = pack.demonyms.has(word);
    if (pack.smallWords.has(word) || ((demonym || small.has(word))
        && !nounOrName(base, cls, spans[k - 1], clitic, pack, caps, sentenceBits, demonym))) {
      cls[start] &= ~caps;
    }
  }
  return cls;
}

/** The elided clitic that opens the word ``base[s:e]`` ("l'" of "l'Allemand", either apostrophe), or "". */
function cliticOf(base, s, e, elisions) {
  for (const clitic of elisions) {
    const n = clitic.length;
    if (e - s > n && base.slice(s, s + n - 1).join("").toLowerCase() === clitic.slice(0, -1)
        && APOSTROPHES.includes(base[s + n - 1])) return clitic;
  }
  return "";
}

/** Whether a word after the word ``before`` (or its own elided ``clitic``) is a noun, or (a demonym) continues a
 * name. */
function nounOrName(base, cls, [s, e], clitic, pack, caps, sentenceBits, demonym) {
  if (clitic) return pack.nounsAfter.has(clitic);
  if (pack.nounsAfter.has(base.slice(s, e).join("").toLowerCase())) return true;
  const opens = s === 0 || cls[s - 1] & sentenceBits || !ALNUM.test(base[s - 1]); // "Los Estadounidenses"
  return demonym && pack.demonymsInNames && !opens && cls.slice(s, e).some((c) => c & caps);
}
