/**
 * Unit symbols and number words after a number keep their spelling ("3 kg", not "3 KG" or "3, Kg"; "5 Mio."), and
 * the number takes no mark, nor a joining unit between two numbers ("10 h 30"); what the input typed stays
 * (charrestore/units.py).
 */

import { startsDigit } from "./clusters.js";

/** ``cls`` with every listed unit (``units``: small letters -> spelling) after a number spelled as listed, with a
 * listed final mark (``marks``: mark -> class bit); ``joining``: the bare joining units. */
export function unitCase(base, cls, units, caps, space, markBits, kept, marks = new Map(), joining = new Set()) {
  if (!units.size || !space || base.length < 2) return cls;
  const cuts = [];
  for (let i = 0; i < base.length - 1; i++) if (cls[i] & space) cuts.push(i + 1);
  cuts.forEach((s, w) => {
    const e = w + 1 < cuts.length ? cuts[w + 1] : base.length;
    const spelling = startsDigit(base[s - 1]) ? units.get(base.slice(s, e).join("").toLowerCase()) : undefined;
    if (spelling === undefined) return;
    const chars = [...spelling];
    let n = chars.length;
    while (n > 0 && marks.has(chars[n - 1])) n--;
    if (n !== e - s) return;
    cls[s - 1] = (cls[s - 1] & ~markBits) | (kept[s - 1] & markBits);
    if (e < base.length && startsDigit(base[e]) && joining.has(base.slice(s, e).join("").toLowerCase())) {
      cls[e - 1] = (cls[e - 1] & ~markBits) | (kept[e - 1] & markBits); // "10 h 30"
    }
    if (!(kept[e - 1] & markBits)) chars.slice(n).forEach((m) => { cls[e - 1] |= marks.get(m); }); // "Mio."
    if (!caps) return;
    chars.slice(0, n).forEach((c, k) => {
      const upper = c !== c.toLowerCase() || kept[s + k] & caps;
      cls[s + k] = upper ? cls[s + k] | caps : cls[s + k] & ~caps;
    });
  });
  return cls;
}
