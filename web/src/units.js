/**
 * Unit symbols and number words after a number keep their spelling ("3 kg", not "3 KG" or "3, Kg"; "5 Mio."), and
 * the number takes no mark, nor a joining unit between two numbers ("10 h 30"); what the input typed stays
 * (charrestore/units.py).
 */

import { startsDigit } from "./clusters.js";

/** ``cls`` with every listed unit (``units``: small letters -> spelling; a unit of several words has them spaced,
 * "por ciento") after a number spelled as listed, with a listed final mark (``marks``: mark -> class bit), and no
 * mark after the number, nor between the unit's words; ``joining``: the bare joining units. */
export function unitCase(base, cls, units, caps, space, markBits, kept, marks = new Map(), joining = new Set()) {
  if (!units.size || !space || base.length < 2) return cls;
  const cuts = [];
  for (let i = 0; i < base.length - 1; i++) if (cls[i] & space) cuts.push(i + 1);
  const spans = [0, ...cuts].map((s, w) => [s, w < cuts.length ? cuts[w] : base.length]);
  const bare = ([s, e]) => base.slice(s, e).join("").toLowerCase();
  const longest = Math.max(...[...units.keys()].map((u) => u.split(" ").length));
  const clear = (j) => { cls[j] = (cls[j] & ~markBits) | (kept[j] & markBits); };
  for (let k = 1; k < spans.length; k++) {
    if (!startsDigit(base[spans[k][0] - 1])) continue;
    const key = (n) => spans.slice(k, k + n).map(bare).join(" ");
    let n = Math.min(longest, spans.length - k);
    while (n > 0 && !units.has(key(n))) n--;
    if (n === 0) continue;
    const written = units.get(key(n)).split(" ");
    const letters = written.map((w) => {
      const chars = [...w];
      let m = chars.length;
      while (m > 0 && marks.has(chars[m - 1])) m--;
      return chars.slice(0, m);
    });
    if (letters.some((w, i) => w.length !== spans[k + i][1] - spans[k + i][0])) continue;
    clear(spans[k][0] - 1); // the number
    for (let i = k; i < k + n - 1; i++) clear(spans[i][1] - 1); // the unit's inner words
    const [s, e] = spans[k + n - 1];
    if (e < base.length && startsDigit(base[e]) && joining.has(bare([s, e]))) clear(e - 1); // "10 h 30"
    const last = [...written[n - 1]].slice(letters[n - 1].length);
    if (!(kept[e - 1] & markBits)) last.forEach((m) => { cls[e - 1] |= marks.get(m); }); // "Mio."
    if (!caps) continue;
    letters.forEach((word, i) => word.forEach((c, j) => {
      const at = spans[k + i][0] + j;
      const upper = c !== c.toLowerCase() || kept[at] & caps;
      cls[at] = upper ? cls[at] | caps : cls[at] & ~caps;
    }));
  }
  return cls;
}
