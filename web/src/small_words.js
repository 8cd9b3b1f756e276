/**
 * Words a language writes small inside a sentence (fr "mardi", es "martes"): a capital the model gave one on its
 * first letter alone is taken off, unless the input typed it or a sentence starts there (the first word, after a
 * sentence mark, or after a grapheme that is no letter or digit), as charrestore/small_words.py does.
 */

import { wordSpans } from "./codec.js";

const ALNUM = /^[\p{L}\p{N}]/u;

/** ``cls`` with the capital taken off each word of ``smallWords`` as above (``kept``: the input's classes). */
export function smallCase(base, cls, smallWords, caps, space, sentenceBits, kept) {
  if (!smallWords.size || !caps || !space || base.length < 2) return cls;
  for (const [s, e] of wordSpans(cls, space).slice(1)) {
    if (!(cls[s] & caps) || kept[s] & caps || cls[s - 1] & sentenceBits || !ALNUM.test(base[s - 1])) continue;
    if (cls.slice(s + 1, e).some((c) => c & caps)) continue;
    if (smallWords.has(base.slice(s, e).join("").toLowerCase())) cls[s] &= ~caps;
  }
  return cls;
}
