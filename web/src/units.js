/**
 * Unit symbols after a number keep their spelling ("3 kg", not "3 KG" or "3, Kg"), and the number takes no mark;
 * what the input typed stays (charrestore/units.py).
 */

import { startsDigit } from "./clusters.js";

/** ``cls`` with every listed unit (``units``: small letters -> spelling) after a number spelled as listed. */
export function unitCase(base, cls, units, caps, space, markBits, kept) {
  if (!units.size || !space || base.length < 2) return cls;
  const cuts = [];
  for (let i = 0; i < base.length - 1; i++) if (cls[i] & space) cuts.push(i + 1);
  cuts.forEach((s, w) => {
    const e = w + 1 < cuts.length ? cuts[w + 1] : base.length;
    const spelling = startsDigit(base[s - 1]) ? units.get(base.slice(s, e).join("").toLowerCase()) : undefined;
    if (spelling === undefined || [...spelling].length !== e - s) return;
    cls[s - 1] = (cls[s - 1] & ~markBits) | (kept[s - 1] & markBits);
    if (!caps) return;
    [...spelling].forEach((c, k) => {
      const upper = c !== c.toLowerCase() || kept[s + k] & caps;
      cls[s + k] = upper ? cls[s + k] | caps : cls[s + k] & ~caps;
    });
  });
  return cls;
}
