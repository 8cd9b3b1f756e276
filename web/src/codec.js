/**
 * Text <-> (base graphemes, class ids), as charrestore/codec.py reads user input (``apply_map=False``): a
 * base grapheme is a grapheme cluster with its case removed; its class is a bit set over the pack's features
 * (CAPS on the grapheme, each mark or SPACE after it).
 */

import { caseSplit, gluesLeft, gluesRight, graphemes, isEscape, isSpace, startsSpace, upperOf } from "./clusters.js";
import { CAPS, SPACE } from "./pack.js";

/** Whether the space or mark ``gs[i]`` is text rather than a feature (beside an invalid byte, or white space
 * before a lone combining mark: taking it out would fuse what is around it). */
function held(gs, i) {
  const next = i + 1 < gs.length ? gs[i + 1] : "";
  if ((next && isEscape(next)) || (i > 0 && isEscape(gs[i - 1]))) return true;
  return isSpace(gs[i]) && next !== "" && gluesLeft(next);
}

/** Whether the white space ``gs[i]`` (with any after it) stands right before a mark that the pack writes after a
 * space ("quoi ?"), and after a grapheme that is not white space: that space is the mark's, not a SPACE. */
function beforeSpacedMark(gs, i, pack) {
  let j = i + 1;
  while (j < gs.length && isSpace(gs[j])) j++;
  return i > 0 && !isSpace(gs[i - 1]) && j < gs.length && gs[j] in pack.spaceBefore;
}

/** User input -> {base, classes}: only the pack's own marks and spaces are taken off; each mark attaches to the
 * base grapheme before it, an opening mark ("¿") to the one after it (a repeat counts once; marks before the
 * first one are dropped, opening marks after the last one too). */
export function parse(text, pack) {
  const gs = graphemes(text.normalize(pack.normalization));
  const spaceBit = pack.bit(SPACE);
  const capsBit = pack.bit(CAPS);
  const base = [];
  const classes = [];
  let pending = 0; // opening marks waiting for their grapheme
  for (let i = 0; i < gs.length; i++) {
    let g = gs[i];
    let bits = 0;
    let typography = false;
    if (spaceBit && isSpace(g)) {
      typography = Object.keys(pack.spaceBefore).length > 0 && beforeSpacedMark(gs, i, pack);
      bits = spaceBit;
    } else if (pack.marks.includes(g)) bits = pack.bit(g);
    if (!bits || held(gs, i)) {
      let upper = false;
      if (capsBit) [g, upper] = caseSplit(g);
      base.push(g);
      classes.push((upper ? capsBit : 0) | pending);
      pending = 0;
    } else if (typography) {
      continue;
    } else if (bits & pack.openingBits) {
      pending |= bits;
    } else if (classes.length) {
      classes[classes.length - 1] |= bits;
    }
  }
  const arr = Int32Array.from(classes);
  if (arr.length) arr[arr.length - 1] &= ~spaceBit;
  return { base, classes: arr };
}

/** The features of parsed input that restoration keeps: its own marks, and its capitals when it is mixed-case
 * ("McDonald"); all-caps input says nothing about case. */
export function keptFeatures(text, classes, pack) {
  let keep = pack.markBits;
  if (text !== text.toLowerCase() && text !== text.toUpperCase()) keep |= pack.bit(CAPS);
  return classes.map((c) => c & keep);
}

/** (base graphemes, class ids) -> text: CAPS, then the marks in pack order, then the space. A mark or space that
 * would fuse into a neighbouring cluster is left out, so the output splits back into the same base graphemes. */
export function render(base, classes, pack) {
  const capsBit = pack.bit(CAPS);
  const spaceBit = pack.bit(SPACE);
  const opening = pack.opening.map((m) => [pack.bit(m), m]);
  const marks = pack.marks.filter((m) => !pack.opening.includes(m))
    .map((m) => [pack.bit(m), (pack.spaceBefore[m] ?? "") + m]);
  const after = (pack.markBits & ~pack.openingBits) | spaceBit;
  const out = [];
  const last = base.length - 1;
  for (let i = 0; i < base.length; i++) {
    let g = base[i];
    const c = classes[i];
    const prev = i ? base[i - 1] : "";
    const blocked = gluesLeft(g) || (prev && gluesRight(prev)) || isEscape(g) || (prev && isEscape(prev));
    if (c & pack.openingBits && !blocked) for (const [b, m] of opening) if (c & b) out.push(m);
    if (c & capsBit) g = upperOf(g) ?? g;
    out.push(g);
    const next = i < last ? base[i + 1] : "";
    if (!(c & after) || gluesRight(g) || (next && gluesLeft(next)) || isEscape(g) || (next && isEscape(next))) continue;
    for (const [b, m] of marks) if (c & b) out.push(m);
    if (c & spaceBit && next && !(startsSpace(g) || startsSpace(next))) out.push(" ");
  }
  return out.join("").normalize(pack.normalization);
}

/** Word spans [start, end) over the graphemes: a word ends after each class with ``space`` (and at the end; no empty
 * word after a last class that has it), as codec.py ``word_spans``. */
export function wordSpans(cls, space) {
  const ends = [];
  if (space) for (let i = 0; i < cls.length - 1; i++) if (cls[i] & space) ends.push(i + 1);
  if (cls.length) ends.push(cls.length);
  return ends.map((e, w) => [w ? ends[w - 1] : 0, e]);
}

/** Which grapheme spans [start, end) hold a nonzero flag. */
export function spansWith(flags, starts, ends) {
  const counts = new Int32Array(flags.length + 1);
  for (let i = 0; i < flags.length; i++) counts[i + 1] = counts[i] + (flags[i] ? 1 : 0);
  return starts.map((s, k) => counts[ends[k]] > counts[s]);
}
