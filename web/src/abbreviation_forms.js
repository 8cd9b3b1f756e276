/**
 * Abbreviations written as the language writes them ("zb" -> "z. B.", "eeuu" -> "EE. UU."): a word, or a run of
 * words, whose letters are one listed form's and that the input typed no mark in takes the form's marks and
 * capitals and, where the spaces are restored, its inner spaces (charrestore/abbreviation_forms.py).
 */

import { graphemes } from "./clusters.js";

/** A pack's forms by their small letters: per letter, one class bit set (its capital, marks, a space after it). */
export function parseForms(forms, features) {
  const bit = (f) => (features.includes(f) ? 1 << features.indexOf(f) : 0);
  const table = new Map();
  for (const form of forms) {
    const letters = [];
    const classes = [];
    for (const g of graphemes(form)) {
      if (g !== "CAPS" && g !== "SPACE" && features.includes(g)) classes[classes.length - 1] |= bit(g);
      else if (g === " ") classes[classes.length - 1] |= bit("SPACE");
      else {
        letters.push(g.toLowerCase());
        classes.push(g !== g.toLowerCase() ? bit("CAPS") : 0);
      }
    }
    table.set(letters.join(""), classes);
  }
  return table;
}

/** ``cls`` with every listed abbreviation written as its form, but where ``kept`` has a mark or ``inside`` (a
 * protected span) is set; ``keep``: the spaces are the input's, and stay. ``bits``: caps, space, markBits,
 * capitalBits, openingBits. */
export function abbreviationForms(base, cls, forms, bits, kept, keep, inside = null) {
  if (!forms.size || !base.length) return cls;
  const { caps, space, markBits, capitalBits, openingBits } = bits;
  let longest = 1;
  for (const f of forms.values()) longest = Math.max(longest, f.filter((c) => c & space).length + 1);
  const starts = [0];
  for (let i = 0; i + 1 < base.length; i++) if (cls[i] & space) starts.push(i + 1);
  const ends = [...starts.slice(1), base.length];
  let i = 0;
  while (i < starts.length) {
    let matched = 0;
    for (let m = Math.min(longest, starts.length - i); m > 0 && !matched; m--) {
      const [s, e] = [starts[i], ends[i + m - 1]];
      const form = forms.get(base.slice(s, e).map((g) => g.toLowerCase()).join(""));
      if (!form || form.length !== e - s) continue;
      let skip = !free(s, e);
      for (let p = s; p < e - 1; p++) if (cls[p] & space && !(form[p - s] & space)) skip = true;
      if (skip) continue;
      write(s, form);
      matched = m;
    }
    if (!matched) { // a form before or after an apostrophe's clitic ("OpenAI's", fr "l'OpenAI")
      const [s, e] = [starts[i], ends[i]];
      const at = [];
      for (let k = s; k < e; k++) if (base[k] === "'" || base[k] === "\u2019") at.push(k);
      for (const [a, b] of at.length ? [[s, at[0]], [at[at.length - 1] + 1, e]] : []) {
        const form = forms.get(base.slice(a, b).map((g) => g.toLowerCase()).join(""));
        if (!form || form.length !== b - a || form.some((c) => c & (space | markBits))) continue; // a spelling
        if (free(a, b)) write(a, form);
        break;
      }
    }
    i += matched || 1;
  }
  return cls;

  function free(s, e) { // no typed mark, no protected span
    for (let p = s; p < e; p++) if (kept[p] & markBits || (inside && inside[p])) return false;
    return true;
  }

  function write(s, form) {
    form.forEach((c, k) => {
      const j = s + k;
      const old = cls[j];
      const last = k === form.length - 1;
      let marks = c & markBits;
      if (last) marks |= old & markBits;
      if (k === 0) marks |= old & openingBits;
      const opens = k === 0 && (s === 0 || cls[s - 1] & capitalBits);
      const upper = (c | kept[j] | (opens ? old : 0)) & caps;
      const sp = keep || last ? old & space : c & space;
      cls[j] = (old & ~(caps | markBits | space)) | upper | marks | sp;
    });
  }
}
