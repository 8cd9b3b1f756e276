/**
 * Decision scores and their argmax (the decoding half of charrestore/engines/char_e2e.py): logits + per-class
 * biases + the enforced spaces and marks, a sentence-final mark at the end, and the "mark, Capital" pairs.
 * numpy adds the float32 logits and biases in float32, so the sums are rounded to float32 here too
 * (Math.fround): a near-tie must be decided on the same numbers.
 */

import { GIVEN_JOIN, GIVEN_SPACE, HAS_SPACE, NB_JOIN, NB_SPACE, NO_SPACE, UNK } from "./input.js";
import { CAPS, SPACE } from "./pack.js";

const UNEXPECTED = 0.01; // given marks the model gives less than this chance decide no case
const GAP = 2; // disagreements of NB's spaces with the model's this close (in graphemes) are one run (char_words.py)

/** Per-class logit offsets from per-feature ones; a class with several marks takes its largest mark offset. */
function classBias(pack, bias) {
  const out = new Float32Array(pack.nClasses);
  for (let c = 0; c < pack.nClasses; c++) {
    const on = Object.entries(bias).filter(([f]) => c & pack.bit(f));
    const plain = on.filter(([f]) => !pack.marks.includes(f)).reduce((a, [, v]) => a + v, 0);
    const marks = on.filter(([f]) => pack.marks.includes(f)).map(([, v]) => v);
    out[c] = plain + (marks.length ? Math.max(...marks) : 0);
  }
  return out;
}

/** Index of the first largest value among ``idx`` of ``row`` (numpy's argmax). */
function argmaxOf(row, idx) {
  let best = idx[0];
  for (const c of idx) if (row[c] > row[best]) best = c;
  return best;
}

export class Decoder {
  constructor(pack, card) {
    const n = pack.nClasses;
    const all = Array.from({ length: n }, (_, c) => c);
    this.n = n;
    this.caps = pack.bit(CAPS);
    this.space = pack.bit(SPACE);
    this.sentenceBits = pack.sentenceMarks.reduce((s, m) => s | pack.bit(m), 0);
    this.capitalBits = pack.capitalAfter.reduce((s, m) => s | pack.bit(m), 0);
    this.otherMarks = pack.marks.filter((m) => !pack.sentenceMarks.includes(m)).reduce((s, m) => s | pack.bit(m), 0);
    this.markBits = pack.markBits;
    this.bias = classBias(pack, card.bias ?? {});
    this.endBias = classBias(pack, card.end_bias ?? {}); // the sentence marks weighed anew at the input's end
    this.penalty = card.capital_after_mark_penalty ?? Infinity;
    // the penalty where the capital starts one of the card's common words (char_e2e.py ``common_word_at``)
    this.commonPenalty = card.common_capital_penalty ?? Infinity;
    this.common = new Set(card.common_words ?? []);
    // the input's last mark weighed by the first word of its sentence (char_openers.py): mark bit -> word -> lift
    this.openers = new Map(Object.entries(card.sentence_openers ?? {})
      .filter(([mark, words]) => pack.sentenceMarks.includes(mark) && Object.keys(words).length)
      .map(([mark, words]) => [pack.bit(mark), new Map(Object.entries(words))]));
    this.openerWeight = card.sentence_opener_weight ?? 0;
    this.vocab = card.vocab;
    this.noSpace = all.filter((c) => !(c & this.space));
    this.hasSpace = all.filter((c) => c & this.space);
    this.sentenceClasses = all.filter((c) => c & this.sentenceBits);
    const marks = this.otherMarks | this.sentenceBits;
    this.finalVariants = all.map((c) => all.filter((k) => (k & ~marks) === (c & ~marks) && k & this.sentenceBits
      && !(k & this.otherMarks)));
    this.givenSpace = card.given_space ?? 0;
    this.givenJoin = card.given_join ?? 0;
    // NB's spaces as evidence (null: enforced, never in the NB states)
    this.softNb = Number.isFinite(card.nb_space ?? null) && Number.isFinite(card.nb_join ?? null);
    this.masks = Array.from({ length: NB_SPACE + 1 }, (_, s) => Float32Array.from(all, (c) => {
      if (!this.space) return 0;
      if (s === HAS_SPACE) return c & this.space ? 0 : -Infinity;
      if (s === NO_SPACE) return c & this.space ? -Infinity : 0;
      if (s === GIVEN_SPACE) return c & this.space ? this.givenSpace : 0;
      if (s === GIVEN_JOIN) return c & this.space ? -this.givenJoin : 0;
      if (s === NB_SPACE && this.softNb) return c & this.space ? card.nb_space : 0;
      if (s === NB_JOIN && this.softNb) return c & this.space ? -card.nb_join : 0;
      return 0;
    }));
  }

  /** Where the soft NB spaces and the model's own disagree (runs of disagreements at most GAP apart), the spaces
   * of one side, not a mix: the side whose classes score higher in total, NB's on a tie (char_words.py). */
  oneSource(scores, cls, enforce, from) {
    if (!this.softNb || !this.space) return cls;
    const withSpace = scores.map((row) => argmaxOf(row, this.hasSpace)).map((c, t) => scores[t][c]);
    const without = scores.map((row) => argmaxOf(row, this.noSpace)).map((c, t) => scores[t][c]);
    const state = (t) => enforce[from + t];
    const soft = (t) => state(t) === NB_SPACE || state(t) === NB_JOIN;
    const cut = (t) => (cls[t] & this.space) !== 0; // where the spaces are not soft, both sides: as decoded
    const nbCut = (t) => (soft(t) ? state(t) === NB_SPACE : cut(t));
    const modelCut = (t) => (soft(t) ? Math.fround(withSpace[t] - this.masks[state(t)][this.space]) > without[t]
      : cut(t));
    const at = [];
    for (let t = 0; t < cls.length; t++) if (modelCut(t) !== nbCut(t)) at.push(t);
    const runs = [];
    for (const t of at) {
      if (runs.length && t - runs[runs.length - 1].at(-1) <= GAP) runs[runs.length - 1].push(t);
      else runs.push([t]);
    }
    for (const run of runs) {
      const span = Array.from({ length: run.at(-1) - run[0] + 1 }, (_, k) => run[0] + k);
      const sides = [span.map(nbCut), span.map(modelCut)];
      const decided = span.map(cut);
      if (sides.some((side) => side.every((c, k) => c === decided[k]))) continue;
      const totals = sides.map((side) => side.reduce((a, c, k) => a + (c ? withSpace[span[k]] : without[span[k]]), 0));
      if (Math.max(...totals) === -Infinity) continue;
      const side = sides[totals[1] > totals[0] ? 1 : 0];
      span.forEach((t, k) => {
        if (decided[k] !== side[k]) cls[t] = argmaxOf(scores[t], side[k] ? this.hasSpace : this.noSpace);
      });
    }
    return cls;
  }

  /** Scores [t][class] of a window's kept part [from, to); ``logits`` are the window's, from ``start`` on. ``atEnd``: it ends the input, where a class and its +SPACE twin
   * are one; ``endMark``: the last position takes a sentence-final mark; where ``fixed``, the class keeps exactly
   * the ``marks`` given. */
  scores(logits, start, from, to, enforce, atEnd, endMark, marks, fixed) {
    const { n, bias } = this;
    const out = [];
    for (let t = from; t < to; t++) {
      const row = new Float32Array(n);
      const mask = this.masks[enforce[t]];
      for (let c = 0; c < n; c++) row[c] = Math.fround(logits[(t - start) * n + c] + bias[c]) + mask[c];
      out.push(row);
    }
    const last = out[out.length - 1];
    if (atEnd && this.space) {
      const mask = this.masks[enforce[to - 1]];
      const base = (to - 1 - start) * n;
      last.fill(-Infinity);
      for (const c of this.noSpace) {
        last[c] = Math.fround(Math.max(logits[base + c], logits[base + (c | this.space)]) + bias[c]) + mask[c];
      }
    }
    for (let t = from; t < to; t++) {
      if (!fixed[t]) continue;
      const row = out[t - from];
      // where the model gives the input's marks almost no chance, the case is the model's own choice (char_e2e.py)
      let caps = -1;
      if (this.caps) {
        const top = Math.max(...row);
        let given = 0, total = 0, withCaps = 0, without = 0;
        for (let c = 0; c < n; c++) {
          const p = Math.exp(row[c] - top);
          total += p;
          if (c & this.caps) withCaps += p;
          else without += p;
          if ((c & this.markBits) === marks[t]) given += p;
        }
        if (given < UNEXPECTED * total) caps = withCaps > without ? this.caps : 0;
      }
      for (let c = 0; c < n; c++) {
        if ((c & this.markBits) !== marks[t] || (caps >= 0 && (c & this.caps) !== caps)) row[c] = -Infinity;
      }
    }
    if (atEnd && endMark) { // the best keeps its sentence mark; else only the mark changes (case: the best's)
      const best = argmaxOf(last, Array.from(last.keys()));
      const keep = new Set(best & this.sentenceBits ? this.sentenceClasses : this.finalVariants[best]);
      for (let c = 0; c < n; c++) last[c] = keep.has(c) ? last[c] + this.endBias[c] : -Infinity;
    }
    return out;
  }

  /** Argmax per row; the soft NB spaces' disagreements with the model's own spaced as one side (oneSource); then
   * "year, And": a capital after a non-final mark becomes the best of a sentence-final mark instead, no capital,
   * no mark, or both kept at a cost of the card's ``capital_after_mark_penalty`` (``common_capital_penalty`` where
   * the capital starts a common word of ``gids``, the window's graphemes read: then never "no mark"). ``enforce``
   * from ``from`` on: the rows' space states. */
  argmax(scores, enforce, from, gids) {
    const all = Array.from({ length: this.n }, (_, c) => c);
    const cls = this.oneSource(scores, Int32Array.from(scores, (row) => argmaxOf(row, all)), enforce, from);
    const common = this.common.size ? this.commonPenalty : Infinity;
    if (!(Number.isFinite(this.penalty) || Number.isFinite(common)) || !(this.caps && this.space && this.sentenceBits)) {
      return cls;
    }
    const pairs = [];
    for (let j = 0; j + 1 < cls.length; j++) {
      const prev = cls[j];
      if (cls[j + 1] & this.caps && prev & this.space && prev & this.otherMarks && !(prev & this.sentenceBits)) pairs.push(j);
    }
    for (const j of pairs) {
      const word = Number.isFinite(common) && this.commonWordAt(gids, cls, j + 1);
      const cost = word ? common : this.penalty;
      if (!Number.isFinite(cost)) continue;
      const a = cls[j];
      const b = cls[j + 1];
      const ends = this.finalVariants[a];
      const end = argmaxOf(scores[j], ends);
      const lower = b & ~this.caps;
      const bare = a & ~this.otherMarks; // the mark dropped: a name goes on ("Emmanuel Macron"), no common word
      const options = [[Math.fround(scores[j][end] - scores[j][a]), end, b],
        [Math.fround(scores[j + 1][lower] - scores[j + 1][b]), a, lower],
        [word ? -Infinity : Math.fround(scores[j][bare] - scores[j][a]), bare, b], [-cost, a, b]];
      let pick = options[0];
      for (const o of options.slice(1)) if (o[0] > pick[0]) pick = o;
      [, cls[j], cls[j + 1]] = pick;
    }
    return cls;
  }

  /** The first word of the last sentence of ``cls`` (a window's kept part that ends the input; ``fromStart``: it
   * starts the input too), its letters up to the next space without the signs at its edges, or null
   * (char_openers.py ``opener``). */
  openerOf(gids, cls, fromStart) {
    let start = -1;
    for (let j = 0; j + 1 < cls.length; j++) if (cls[j] & this.sentenceBits) start = j + 1;
    if (start < 0) {
      if (!fromStart) return null;
      start = 0;
    }
    let word = "";
    for (let k = start; k < cls.length; k++) {
      word += gids[k] > UNK ? this.vocab[gids[k]] : "\0"; // a grapheme the model does not know: a sign
      if (cls[k] & this.space) break;
    }
    const chars = Array.from(word);
    const letters = chars.flatMap((c, k) => (/\p{L}/u.test(c) ? [k] : []));
    return letters.length ? chars.slice(letters[0], letters.at(-1) + 1).join("") : null;
  }

  /** ``cls`` with its last class's sentence mark weighed anew by the last sentence's opener: each listed mark
   * gains the opener's lift times the card's ``sentence_opener_weight`` against the model's (char_openers.py
   * ``at_end``). */
  atEnd(scores, cls, gids, fromStart) {
    const last = cls[cls.length - 1];
    if (!(last & this.sentenceBits)) return cls;
    const word = this.openerOf(gids, cls, fromStart);
    if (word === null) return cls;
    const options = new Map([[last, 0]]);
    for (const [bit, words] of this.openers) {
      if (words.has(word)) options.set((last & ~this.sentenceBits) | bit, words.get(word));
    }
    const row = scores[scores.length - 1];
    let best = last;
    let top = -Infinity;
    for (const [c, lift] of options) {
      const score = row[c] + this.openerWeight * lift;
      if (score > top) [best, top] = [c, score];
    }
    cls[cls.length - 1] = best;
    return cls;
  }

  /** Whether the word that starts at ``i`` (up to the next space of ``cls``) is one of the card's common words. */
  commonWordAt(gids, cls, i) {
    let word = "";
    for (let k = i; k < cls.length; k++) {
      word += this.vocab[gids[k]];
      if (cls[k] & this.space) break;
    }
    return this.common.has(word.replaceAll("'", ""));
  }
}
