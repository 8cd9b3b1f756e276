/**
 * Words a language writes small inside a sentence (fr "mardi", "américain"; es "martes", "alemán"): a capital the
 * model gave one on its first letter alone is taken off, unless the input typed it or a sentence starts there (the
 * first word, after a sentence mark, or after a grapheme that is no letter or digit); a demonym keeps it as a noun,
 * after a word of the pack's ``demonymNounsAfter`` ("les Américains", "l'Allemand"), and, with
 * ``demonymsInNames``, inside a name ("la Unión Europea"), as charrestore/small_words.py does.
 */

import { wordSpans } from "./codec.js";

const ALNUM = /^[\p{L}\p{N}]/u;
const APOSTROPHES = ["'", "’"];

/** ``cls`` with the capital taken off each such word of ``pack`` as above (``kept``: the input's classes). */
export function smallCase(base, cls, pack, caps, space, sentenceBits, kept) {
  if (!(pack.smallWords.size || pack.demonyms.size) || !caps || !space || base.length < 2) return cls;
  const spans = wordSpans(cls, space);
  for (let k = 1; k < spans.length; k++) {
    const [s, e] = spans[k];
    const clitic = cliticOf(base, s, e, pack.elisions);
    const start = s + clitic.length;
    if (start >= e || !(cls[start] & caps) || kept[start] & caps || cls[s - 1] & sentenceBits) continue;
    if (!ALNUM.test(base[s - 1]) || cls.slice(start + 1, e).some((c) => c & caps)) continue;
    const word = base.slice(start, e).join("").toLowerCase();
    if (pack.smallWords.has(word)
        || (pack.demonyms.has(word) && !nounOrName(base, cls, spans[k - 1], clitic, pack, caps, sentenceBits))) {
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

/** Whether a demonym after the word ``before`` (or its own elided ``clitic``) is a noun, or continues a name. */
function nounOrName(base, cls, [s, e], clitic, pack, caps, sentenceBits) {
  if (clitic) return pack.demonymNounsAfter.has(clitic);
  if (pack.demonymNounsAfter.has(base.slice(s, e).join("").toLowerCase())) return true;
  const opens = s === 0 || cls[s - 1] & sentenceBits || !ALNUM.test(base[s - 1]); // "Los Estadounidenses"
  return pack.demonymsInNames && !opens && cls.slice(s, e).some((c) => c & caps);
}
