/**
 * Paired marks (charrestore/engines/char_pairs.py): a mark that opens a span ("¿") and the sentence-final mark that
 * closes it ("?"), decided together per sentence by the sum of the score changes each agreeing reading needs.
 * Gains are float32 differences of the float32 scores (Math.fround), as numpy computes them.
 */

import { SPACE } from "./pack.js";

export class Pairing {
  constructor(pack) {
    this.pairs = Object.entries(pack.pairs).map(([o, c]) => [pack.bit(o), pack.bit(c)]);
    this.space = pack.bit(SPACE);
    this.sentenceBits = pack.sentenceMarks.reduce((s, m) => s | pack.bit(m), 0);
    this.markBits = pack.markBits;
    this.openingBits = pack.openingBits;
    const singles = pack.sentenceMarks.map((m) => pack.bit(m));
    const closing = pack.markBits & ~pack.openingBits; // the marks a closing one replaces
    // per pair, per class: the classes that toggle its closing mark
    this.closeOptions = this.pairs.map(([, close]) => Array.from({ length: pack.nClasses }, (_, c) => {
      if (!(c & close)) return [(c & ~closing) | close];
      const others = singles.filter((s) => s !== close).map((s) => (c & ~this.sentenceBits) | s);
      return others.length ? others : [c & ~close];
    }));
  }

  /** Fill ``gains[k]`` (3 Float32Arrays: toggle the opening mark, toggle the closing one, that class) from ``at``. */
  gains(scores, cls, gains, at) {
    this.pairs.forEach(([openBit], k) => {
      const [open, close, alt] = gains[k];
      scores.forEach((row, t) => {
        const c = cls[t];
        open[at + t] = Math.fround(row[c ^ openBit] - row[c]);
        let best = this.closeOptions[k][c][0];
        for (const o of this.closeOptions[k][c]) if (row[o] > row[best]) best = o;
        close[at + t] = Math.fround(row[best] - row[c]);
        alt[at + t] = best;
      });
    });
  }

  /** Each sentence whose opening and closing disagree takes the better agreeing reading; the paired one gains
   * ``bonus`` (the card's ``pair_bonus``). */
  resolve(cls, gains, bonus = 0) {
    const b = Math.fround(bonus);
    const n = cls.length;
    if (!n) return cls;
    const ends = [];
    for (let t = 0; t < n; t++) if (cls[t] & this.sentenceBits) ends.push(t);
    if (!ends.length || ends[ends.length - 1] !== n - 1) ends.push(n - 1);
    // a word with a mark ends a clause ("ocurre,"); the word after it starts one
    const clauseEnd = Array.from(cls, (c) => (this.space ? Boolean(c & this.space) : true)
      && Boolean(c & this.markBits & ~this.openingBits));
    const starts = Array.from(cls, (_, t) => t === 0 || clauseEnd[t - 1]);
    let begin = 0;
    for (const end of ends) {
      this.pairs.forEach(([openBit, closeBit], k) => this.pair(cls, gains[k], openBit, closeBit, begin, end, starts, clauseEnd, b));
      begin = end + 1;
    }
    return cls;
  }

  pair(cls, [open, close, alt], openBit, closeBit, begin, end, starts, clauseEnd, bonus) {
    const opened = [];
    for (let t = begin; t <= end; t++) if (cls[t] & openBit) opened.push(t);
    const closed = Boolean(cls[end] & closeBit);
    if (Boolean(opened.length) === closed) return;
    const argmax = (at, gain) => at.reduce((b, t) => (gain[t] > gain[b] ? t : b), at[0]);
    if (closed) { // "?" without "¿": open at the best clause start, or end with the other mark
      const at = [begin];
      for (let t = begin + 1; t <= end; t++) if (starts[t]) at.push(t);
      const best = argmax(at, open);
      if (Math.max(open[best], close[end]) === -Infinity) return;
      if (Math.fround(open[best] + bonus) >= close[end]) cls[best] ^= openBit;
      else cls[end] = alt[end];
    } else { // "¿" without "?": close it at the best clause end from the last opening on, or drop every opening
      const at = [];
      for (let t = opened[opened.length - 1]; t <= end; t++) if (clauseEnd[t]) at.push(t);
      if (!at.length || at[at.length - 1] !== end) at.push(end);
      const best = argmax(at, close);
      let drop = 0;
      for (const t of opened) drop = Math.fround(drop + open[t]);
      if (Math.max(drop, close[best]) === -Infinity) return;
      if (Math.fround(close[best] + bonus) >= drop) cls[best] = alt[best];
      else for (const t of opened) cls[t] ^= openBit;
    }
  }
}
