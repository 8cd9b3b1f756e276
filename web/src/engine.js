/**
 * The char E2E engine's runtime path (charrestore/engines/char_e2e.py): one BiLSTM tagger restores every
 * feature of every grapheme in one step. Parsed input -> ids and space states -> overlapped windows, one ONNX
 * call per batch -> scores -> argmax -> sentence case -> the classes of the whole input.
 */

import { endsSentenceOn, upperOf, isDigits } from "./clusters.js";
import { plan } from "./chunking.js";
import { spansWith } from "./codec.js";
import { Decoder } from "./decode.js";
import { Pairing } from "./pairs.js";
import {
  GIVEN_JOIN, GIVEN_SPACE, graphemeIds, HAS_SPACE, NB_JOIN, NB_SPACE, NO_SPACE, N_STATES, UNKNOWN, vocabIndex,
} from "./input.js";
import { SPACE } from "./pack.js";
import { forSegmenter, offsets, searchSorted } from "./spans.js";
import { symbolGaps, Unread } from "./unread.js";
import { unitCase } from "./units.js";
import { smallCase } from "./small_words.js";
import { abbreviationForms } from "./abbreviation_forms.js";
import { digitGroups } from "./digit_groups.js";

const BATCH = 32; // windows per ONNX call (the output never depends on it)

/** Graphemes followed by a digit within a run of digits: they take no mark the input does not give them. */
function insideDigits(base) {
  return Uint8Array.from(base, (g, i) => i + 1 < base.length && isDigits(g) && isDigits(base[i + 1]));
}

/** Where spaces are restored, a space typed between two digits stays ("1 000", "1999 2000"; char_digits.py). */
function numberGaps(base, given, space) {
  return Uint8Array.from(base, (g, i) => i + 1 < base.length && given[i] & space && isDigits(g) && isDigits(base[i + 1]));
}

export class CharEngine {
  /** ``segmenter``: an async function giving the NB segmenter whose spaces unspaced input takes (or null). */
  constructor(pack, card, model, segmenter = null) {
    if (card.features.join("\u0000") !== pack.features.join("\u0000")) {
      throw new Error(`model features ${card.features} differ from pack ${pack.code}`);
    }
    this.pack = pack;
    this.card = card;
    this.model = model;
    this.segmenter = segmenter;
    this.index = vocabIndex(card.vocab);
    this.decoder = new Decoder(pack, card);
    this.pairing = new Pairing(pack);
    this.space = pack.bit(SPACE);
    this.gaps = symbolGaps(pack);
    this.proper = null; // the pack's proper forms, where it ships them (proper_case.js)
    this.accents = null; // plain text read with its words' likely accents (accents.js), where the pack asks
  }

  /** Yield [window, its logits] for overlapped windows, one model call per batch. */
  async *windowLogits(ids) {
    const { window, overlap, cut } = this.card;
    const windows = plan(ids.length, window, overlap, cut);
    const n = this.pack.nClasses;
    for (let b = 0; b < windows.length; b += BATCH) {
      const batch = windows.slice(b, b + BATCH);
      const time = batch[0].end - batch[0].start;
      const flat = new Int32Array(batch.length * time);
      batch.forEach((w, k) => flat.set(ids.subarray(w.start, w.end), k * time));
      const logits = await this.model.run(flat, batch.length, time);
      for (let k = 0; k < batch.length; k++) yield [batch[k], logits.subarray(k * time * n, (k + 1) * time * n)];
    }
  }

  /** Each window's logits: the model's reading of ``states``, kept in ``first`` (an array) when given; with
   * ``again`` (the restored spaces' states), that kept reading mixed with a second one that reads them, by the
   * card's ``reread`` weight, in float32 as numpy mixes them (char_e2e.py ``decode_reread``). */
  async *readings(gids, states, first, again) {
    const ids = (st) => Int32Array.from(gids, (g, i) => g * N_STATES + st[i]);
    if (!again) {
      for await (const [w, lg] of this.windowLogits(ids(states))) {
        if (first) first.push(lg.slice());
        yield [w, lg];
      }
      return;
    }
    const [a, b] = [Math.fround(1 - this.card.reread), Math.fround(this.card.reread)];
    let k = 0;
    for await (const [w, lg] of this.windowLogits(ids(again))) {
      const one = first[k++];
      yield [w, lg.map((v, i) => Math.fround(Math.fround(a * one[i]) + Math.fround(b * v)))];
    }
  }

  /** Merged argmax class per position; with ``endMark`` the last one takes a sentence-final mark (training
   * windows are cut from running text, so the model never learns that the input's end ends a sentence).
   * ``first``, ``again``: as ``readings`` takes them. */
  async decode(gids, states, endMark, enforce, marks, fixed, first = null, again = null) {
    const out = new Int32Array(gids.length);
    // the model may read the first grapheme as the end of a sentence before it: it ends none unless it is a word
    const oneGraphemeStart = gids.length > 1 && enforce[0] !== HAS_SPACE && !fixed[0];
    const pairs = this.pairing.pairs.length;
    const gains = Array.from({ length: pairs }, () => [0, 1, 2].map(() => new Float32Array(gids.length)));
    for await (const [w, lg] of this.readings(gids, states, first, again)) {
      const scores = this.decoder.scores(lg, w.start, w.keepStart, w.keepEnd, enforce, w.keepEnd === gids.length,
        endMark, marks, fixed);
      if (w.keepStart === 0 && oneGraphemeStart) for (const c of this.decoder.sentenceClasses) scores[0][c] = -Infinity;
      const read = gids.subarray(w.keepStart, w.keepEnd);
      const cls = this.sentenceEndAlone(scores, this.decoder.argmax(scores, enforce, w.keepStart, read), fixed ?? marks,
        w.keepStart);
      if (endMark && w.keepEnd === gids.length && this.decoder.openers.size && this.decoder.openerWeight && this.space) {
        this.decoder.atEnd(scores, cls, read, w.keepStart === 0);
      }
      out.set(cls, w.keepStart);
      if (pairs) this.pairing.gains(scores, cls, gains, w.keepStart);
    }
    return pairs ? this.pairing.resolve(out, gains, this.card.pair_bonus ?? 0) : out;
  }

  /** ``decode``; where the spaces are restored and the card's ``reread`` is on, then again from the first reading
   * mixed with a second one given the restored spaces (char_e2e.py ``decode_reread``). */
  async decodeReread(gids, states, endMark, enforce, marks, fixed) {
    const reread = this.card.reread ?? 0;
    const twice = Boolean(reread && this.space && gids.length > 1 && states.every((s) => s === UNKNOWN));
    const first = twice ? [] : null;
    const cls = await this.decode(gids, states, endMark, enforce, marks, fixed, first);
    if (!twice) return cls;
    const spaces = Int32Array.from(cls, (c) => (c & this.space ? HAS_SPACE : NO_SPACE));
    spaces[spaces.length - 1] = NO_SPACE;
    return this.decode(gids, states, endMark, spaces, marks, fixed, first, spaces);
  }

  /** In a cased pack a capital_after mark and another closing mark on one grapheme ("Präsident., Sehr") become the
   * better of the two alone by ``scores`` (rows from ``start``); the input's marks (``given``) stay (char_e2e.py
   * ``sentence_end_alone``). */
  sentenceEndAlone(scores, cls, given, start) {
    const { capitalBits, otherMarks, caps } = this.decoder;
    if (!caps) return cls; // uncased packs read some pairs ("?"라고: "?,"), and no capital follows them
    const others = otherMarks & ~this.pack.openingBits; // "¿" stands before its grapheme: not the same side
    for (let j = 0; j < cls.length; j++) {
      if (!(cls[j] & capitalBits && cls[j] & others) || (given && given[start + j])) continue;
      const alone = cls[j] & ~others;
      const rest = cls[j] & ~capitalBits;
      cls[j] = scores[j][alone] >= scores[j][rest] ? alone : rest;
    }
    return cls;
  }

  /** [ids, the space states the model reads, the states decoded with]: the given spaces when ``keep``, else unknown
   * (decoded with: the segmenter's, which never cuts inside a protected span and cuts at its edges, or else the
   * model's own; in spaced input the model's spaces favour the input's spaces and joins, or the segmenter's cuts
   * that weighed them, by the card's ``given_space`` and ``given_join``). */
  async encode(base, given, keep, frozen) {
    const gids = graphemeIds(base, this.index);
    if (keep && this.space && base.length) {
      const states = Int32Array.from(given, (c) => (c & this.space ? HAS_SPACE : NO_SPACE));
      states[states.length - 1] = NO_SPACE;
      return [gids, states, states];
    }
    const states = new Int32Array(base.length).fill(UNKNOWN);
    const segmenter = this.segmenter && this.space && base.length ? await this.segmenter() : null;
    if (!segmenter) {
      const { givenSpace, givenJoin } = this.decoder;
      if (!(givenSpace || givenJoin) || !given.some((c) => c & this.space)) return [gids, states, states];
      return [gids, states, Int32Array.from(given, (c) => (c & this.space ? GIVEN_SPACE : GIVEN_JOIN))];
    }
    const [spans, forced] = frozen ? forSegmenter(frozen, base) : [[], []];
    const ends = offsets(base);
    // spacing correction: the input's spaces, where it has any, weighed by the segmenter (its prose given_*)
    const spaced = given.some((c) => c & this.space) ? ends.slice(1).filter((_, i) => given[i] & this.space) : null;
    const cuts = new Set(segmenter.cuts(base.join(""), spans, forced, spaced));
    // NB's spaces enforced, or as evidence the model may overrule where the card tuned them soft
    const [space, join] = this.decoder.softNb ? [NB_SPACE, NB_JOIN] : [HAS_SPACE, NO_SPACE];
    const cut = Uint8Array.from(base, (_, i) => i + 1 < base.length && cuts.has(ends[i + 1]));
    const { givenSpace, givenJoin } = this.decoder;
    // spaced input: where NB's cut or join agrees with the typed text, given_space or given_join weighs it
    const agree = spaced && (givenSpace || givenJoin) ? (i) => !cut[i] === !(given[i] & this.space) : () => false;
    const enforce = Int32Array.from(cut, (c, i) => (agree(i) ? (c ? GIVEN_SPACE : GIVEN_JOIN) : c ? space : join));
    return [gids, states, enforce];
  }

  /** Capitalize the first grapheme and every one after a mark of the pack's capital_after plus space, except after an
   * abbreviation of the input (a word whose given marks include one before its last grapheme: "u.s."). */
  sentenceCase(base, cls, marks) {
    const { caps, capitalBits } = this.decoder;
    if (!caps) return cls;
    let starts = [];
    for (let i = 0; i + 1 < cls.length; i++) if (cls[i] & capitalBits && cls[i] & this.space) starts.push(i + 1);
    if (starts.length) {
      const wordStart = [0];
      for (let i = 0; i + 1 < cls.length; i++) if (cls[i] & this.space) wordStart.push(i + 1);
      const begin = starts.map((s) => wordStart[searchSorted(wordStart, s - 1, true) - 1]);
      const within = spansWith(marks, begin, starts.map((s) => s - 1));
      starts = starts.filter((s, k) => !(marks[s - 1] !== 0 && within[k]));
    }
    for (const i of [0, ...starts]) if (upperOf(base[i]) !== null) cls[i] |= caps;
    return cls;
  }

  /** A word typed with a capital after its first letter ("iPhone", "McDonald", "NASA") keeps the case it was typed
   * in, at a sentence's start too: the model adds no capital to it (char_e2e.py ``typed_mixed_case``). */
  typedMixedCase(base, cls, kept) {
    const { caps } = this.decoder;
    let start = 0;
    for (let i = 0; i < cls.length; i++) {
      if (i + 1 < cls.length && !(cls[i] & this.space)) continue;
      let inner = false;
      for (let k = start + 1; k <= i; k++) inner ||= Boolean(kept[k] & caps);
      if (inner) for (let k = start; k <= i; k++) cls[k] = (cls[k] & ~caps) | (kept[k] & caps);
      start = i + 1;
    }
    return cls;
  }

  /** A word of the pack's abbreviations typed with its marks ("e.g.") keeps the input's case, but for the capital
   * that starts a sentence (char_e2e.py ``abbreviation_case``). */
  abbreviationCase(base, cls, kept) {
    const { caps, capitalBits } = this.decoder;
    const { markBits } = this.pack;
    const bounds = [0];
    for (let i = 0; i < cls.length; i++) if (cls[i] & this.space) bounds.push(i + 1);
    bounds.push(base.length);
    for (let k = 0; k + 1 < bounds.length; k++) {
      const [s, e] = [bounds[k], bounds[k + 1]];
      if (s >= e || !kept.slice(s, e).some((c) => c & markBits)) continue;
      if (!this.pack.abbreviations.has(base.slice(s, e).join(""))) continue;
      const first = s === 0 || cls[s - 1] & capitalBits ? cls[s] & caps : 0;
      for (let i = s; i < e; i++) cls[i] = (cls[i] & ~caps) | (kept[i] & caps);
      cls[s] |= first;
    }
    return cls;
  }

  /** The classes of the restoration of parsed input. The input's own marks stay, and the capitals of mixed-case
   * input (``kept``); a protected span (``frozen``) takes no space or mark inside, keeps its case, and is a word of
   * its own where it is glued to one; ``end``: the input ends the document. */
  async classes(base, given, kept, keep, end = true, frozen = null) {
    const { caps, sentenceBits } = this.decoder;
    let [gids, states, enforce] = await this.encode(base, given, keep, frozen);
    if (this.accents && this.accents.reads(base)) {
      const spaced = Uint8Array.from(enforce, (e) => e === HAS_SPACE || e === NB_SPACE || e === GIVEN_SPACE);
      gids = await this.accents.ids(base, gids, spaced, this.index);
    }
    let marks = kept.map((c) => c & this.pack.markBits);
    const digits = insideDigits(base);
    let fixed = Uint8Array.from(marks, (m, i) => m !== 0 || (digits[i] && !(given[i] & this.space)));
    if (frozen) frozen.closed.forEach((c, i) => c && (fixed[i] = 1));
    let required = null; // spaces no reading may take away: a span's edges, a typed space between two digits
    if (!keep && this.space) {
      const gaps = numberGaps(base, given, this.space);
      required = Uint8Array.from(gaps, (g, i) => g || (frozen ? frozen.edges[i] : 0));
      enforce = enforce.map((e, i) => (required[i] ? HAS_SPACE : e));
      if (frozen) { // no space inside a span, nor after the text
        enforce = enforce.map((e, i) => (frozen.joined[i] ? NO_SPACE : e));
        enforce[enforce.length - 1] = NO_SPACE;
      }
    }
    const unread = new Unread(base, given, this.pack, this.gaps, frozen, keep, required);
    let read = base;
    let forced = marks;
    if (unread.any) { // symbols training text never shows (unread.js)
      if (!unread.vis.length) return unread.back(new Int32Array(0));
      const pick = (arr) => arr.constructor.from(unread.vis, (i) => arr[i]);
      read = unread.vis.map((i) => base[i]);
      [forced, fixed] = unread.forced(pick(marks), pick(fixed));
      [gids, states, enforce, marks] = [pick(gids), unread.states(states), unread.states(enforce, true), pick(marks)];
    }
    const endsSentence = unread.any ? unread.endsSentence(base) : endsSentenceOn(base[base.length - 1]);
    const endMark = end && Boolean(sentenceBits) && endsSentence && !forced[forced.length - 1] && !frozen?.trailing;
    let cls = this.sentenceCase(read, await this.decodeReread(gids, states, endMark, enforce, forced, fixed), marks);
    if (unread.any) {
      cls = unread.back(cls);
      if (required) { // beside an unread run too ('" 0%', '0% “': the model read no space there)
        for (let i = 0; i < cls.length - 1; i++) if (required[i]) cls[i] |= this.space;
      }
    }
    cls = cls.map((c, i) => c | (kept[i] & caps));
    if (this.proper && caps) { // proper_case.js; kept unspaced input has no words to go by
      const words = !keep || given.some((c) => c & this.space);
      const between = this.decoder.otherMarks & ~this.pack.openingBits; // no comma between a name and a surname
      cls = this.proper.apply(base, cls, caps, this.space, kept, words, between);
    }
    if (this.pack.abbreviations.size && caps) cls = this.abbreviationCase(base, cls, kept);
    const { markBits, openingBits, abbreviationForms: forms } = this.pack;
    const bits = { caps, space: this.space, markBits, capitalBits: this.decoder.capitalBits, openingBits };
    cls = abbreviationForms(base, cls, forms, bits, kept, keep, frozen?.inside ?? null); // abbreviation_forms.js
    const markBit = new Map(this.pack.marks.map((m) => [m, this.pack.bit(m)]));
    cls = unitCase(base, cls, this.pack.units, caps, this.space, markBits, kept, markBit,
      this.pack.joiningUnits, this.pack.ordinalSuffixes); // units.js
    cls = smallCase(base, cls, this.pack, caps, this.space, sentenceBits, kept, this.proper); // small_words.js
    const sep = this.pack.thousands; // digit_groups.js
    const sepBit = sep === " " ? this.space : sep ? this.pack.bit(sep) : 0;
    cls = digitGroups(base, cls, sepBit, sep === " ", this.space, this.pack.markBits, given, keep, frozen?.inside ?? null);
    if (caps && kept.some((c) => c & caps)) cls = this.typedMixedCase(base, cls, kept);
    if (frozen && caps) cls = cls.map((c, i) => (frozen.inside[i] ? (c & ~caps) | (given[i] & caps) : c));
    return cls;
  }
}
