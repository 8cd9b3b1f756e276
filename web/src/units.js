/**
 * Unit symbols and number words after a number keep their spelling ("3 kg", not "3 KG" or "3, Kg"; "5 Mio."), and
 * the number takes no mark, nor a joining unit between two numbers ("10 h 30"); what the input typed stays
 * (charrestore/units.py).
 */

import { startsDigit } from "./clusters.js";
import { wordSpans } from "./codec.js";

/** ``cls`` with every listed unit (``units``: small letters -> spelling; a unit of several words has them spaced,
 * "por ciento") after a number spelled as listed, with its listed marks (``marks``: mark -> class bit), and no
 * mark after the number, nor between the unit's words, nor inside them but its listed marks ("a.m.");
 * ``joining``: the bare joining units; ``ordinals``: the pack's ordinal suffixes, after a number as a number. */
export function unitCase(base, cls, units, caps, space, markBits, kept, marks = new Map(), joining = new Set(),
  ordinals = []) {
  if (!units.size || !space || base.length < 2) return cls;
  const spans = wordSpans(cls, space);
  const bare = ([s, e]) => base.slice(s, e).join("").toLowerCase();
  const longest = Math.max(...[...units.keys()].map((u) => u.split(" ").length));
  const clear = (j) => { cls[j] = (cls[j] & ~markBits) | (kept[j] & markBits); };
  for (let k = 1; k < spans.length; k++) {
    if (!startsDigit(base[spans[k][0] - 1]) && !ordinalBefore(bare(spans[k - 1]), ordinals)) continue;
    const key = (n) => spans.slice(k, k + n).map(bare).join(" ");
    let n = Math.min(longest, spans.length - k);
    while (n > 0 && !units.has(key(n))) n--;
    if (n === 0) continue;
    const spelled = units.get(key(n)).split(" ").map((w) => spell(w, marks));
    if (spelled.some((w, i) => w.length !== spans[k + i][1] - spans[k + i][0])) continue;
    clear(spans[k][0] - 1); // the number
    const [s, e] = spans[k + n - 1];
    // the unit's letters take their listed marks ("a.m.", "Mio."), what the input typed, or none ("pm", not "p.m")
    spelled.flat().forEach(([c, bits], i) => {
      const j = spans[k][0] + i;
      if (j < e - 1) cls[j] = (cls[j] & ~markBits) | (kept[j] & markBits || bits);
      else if (!(kept[j] & markBits)) cls[j] |= bits;
      if (caps) cls[j] = c !== c.toLowerCase() || kept[j] & caps ? cls[j] | caps : cls[j] & ~caps;
    });
    if (e < base.length && startsDigit(base[e]) && joining.has(bare([s, e]))) clear(e - 1); // "10 h 30"
  }
  return cls;
}

/** Whether ``word`` is a number and one of the pack's ordinal suffixes ("1er janvier"; units.py ``_number_before``). */
const ordinalBefore = (word, ordinals) => ordinals.some((o) => word.endsWith(o)
  && startsDigit(word.slice(0, -o.length).slice(-1)));

/** Each letter of a listed spelling with the bits of the marks written after it: "a.m." -> [a, "."], [m, "."]. */
function spell(word, marks) {
  const out = [];
  for (const c of word) {
    if (marks.has(c) && out.length) out[out.length - 1][1] |= marks.get(c);
    else out.push([c, 0]);
  }
  return out;
}
