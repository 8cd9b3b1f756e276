/**
 * The Naive Bayes word segmenter (charrestore/segmenter.py, after Norvig 2009): a unigram+bigram word model
 * decoded by an iterative Viterbi over (position, last word) states, linear in the input length. It gives the
 * en char engine its spaces on unspaced input (the card's ``nb_spaces``) and cuts hashtags into words.
 * Positions are UTF-16 code units (Python counts code points: they differ only for letters beyond the BMP).
 */

import { graphemes, isDigits, isSpace } from "./clusters.js";
import { readCounts } from "./counts.js";
import { isPlain, keyboardPlain, madePlain, markedByPlain } from "./plain_letters.js";
import { FREQUENT, apostropheWords, splitRuns } from "./quote_apostrophes.js";

const START = "<s>";
const HARD = Infinity;
const BLOCK = 100_000;
const MARGIN = 1_000;
const W = "[\\p{L}\\p{N}\\p{M}\\u200c\\u200d]";
const LATTICE_RUN = new RegExp(`${W}+(?:['’]${W}+)*`, "gu");
const DIGIT_CHANGE = /(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/gu;
const CAMEL = /(?<=\p{L}\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/gu;
const CAPS = /(?<=\p{Lu})(?=\p{Lu}(?!\p{Ll}))/gu;
const INSIDE_NUMBER = /(?<=\p{N})(?=\p{N})/gu;
const AT_JOINER = /(?=['’])|(?<=['’])/gu;
const HYPHENS = ["-", "\u2010"];

/** A card's boundary-evidence setting: "hard", "never" or a log10 bonus. */
const evidence = (v) => (v === "hard" ? HARD : v === "never" ? -HARD : Number(v));

/** Lower case for look-up only, one character for one, so that positions stay aligned. */
function lowered(word) {
  const low = word.toLowerCase();
  if (low.length === word.length) return low;
  let out = "";
  for (const c of word) {
    const l = c.toLowerCase();
    out += l.length === c.length ? l : c;
  }
  return out;
}

export class Segmenter {
  /** ``counts``: readCounts' object; ``card``: nb.json (its ``params``, and ``total``). */
  constructor(counts, card) {
    this.total = Number(card.total) || counts.counts.reduce((a, b) => a + b, 0);
    this.logN = Math.log10(this.total);
    this.uni = new Map();
    counts.words.forEach((w, i) => this.uni.set(w, Math.log10(counts.counts[i]) - this.logN));
    this.rawContexts = counts.contexts;
    this.contexts = new Map();
    this.reach = counts.reach;
    this.proseParams = card.prose_params ?? {}; // tuned on de-spaced text alone
    this.setParams(card.params ?? {});
  }

  static async fromBytes(bytes, card) {
    return new Segmenter(await readCounts(bytes), card);
  }

  setParams(params) {
    this.params = params;
    this.L = Math.trunc(params.L ?? 20);
    this.unk1 = Math.log10(Number(params.smoothing ?? 10.0));
    this.unk0 = this.unk1 - this.logN; // an unknown word of length k scores unk0 - k * unk1
    this.evidence = [[this.digitChange ?? DIGIT_CHANGE, evidence(params.digits ?? "hard")],
      [CAMEL, evidence(params.camel ?? "hard")], [CAPS, evidence(params.caps ?? 0)], [INSIDE_NUMBER, -HARD],
      [AT_JOINER, -HARD]];
    // spacing correction: a cut gains givenSpace where spaced text had a space, pays givenJoin where it had none
    this.givenSpace = Number(params.given_space ?? 0);
    this.givenJoin = Number(params.given_join ?? 0);
  }

  /** Let a word start right after an elided clitic ("l'", "qu'": the pack's ``elisions``), with no space between:
   * a clitic scores as all the seen words it begins (segmenter.py ``elide``). */
  elide(clitics) {
    if (!clitics.length) return this;
    const mass = new Map(clitics.map((c) => [c, 0]));
    for (const [word, logp] of this.uni) {
      const cut = word.indexOf("'") + 1;
      if (cut > 0 && cut < word.length && mass.has(word.slice(0, cut))) {
        mass.set(word.slice(0, cut), mass.get(word.slice(0, cut)) + 10 ** logp);
      }
    }
    for (const [clitic, p] of mass) {
      for (const form of new Set([clitic, clitic.replace("'", "\u2019")])) {
        if (p && !this.uni.has(form)) this.uni.set(form, Math.log10(p));
        const key = form.slice(-3);
        this.reach.set(key, Math.max(this.reach.get(key) ?? 2, form.length));
      }
    }
    const names = clitics.map((c) => c.slice(0, -1).replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .sort((a, b) => b.length - a.length);
    this.elided = new RegExp(`(?:${names.join("|")})['\u2019](?=\\p{L})`, "gu");
    return this;
  }

  /** A digit's next letter is no evidence of a boundary where one of the pack's ``ordinal_suffixes`` starts
   * ("1st", "2e"): the counts decide (segmenter.py ``ordinals``, word_runs.py ``digit_change``). */
  ordinals(suffixes) {
    if (!suffixes.length) return this;
    const ends = [...suffixes].sort((a, b) => b.length - a.length).map((x) => x.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    this.digitChange = new RegExp(`(?<=\\p{L})(?=\\p{N})|(?<=\\p{N})(?!(?:${ends.join("|")}))(?=\\p{L})`, "giu");
    this.setParams(this.params);
    return this;
  }

  /** Count a pack's ``spellings`` ("ChatGPT") as words seen once in a million where the counts lack them, so that
   * unspaced text keeps them whole (segmenter.py ``know``). */
  know(spellings) {
    for (const word of new Set(spellings.filter((w) => /^[\p{L}\p{N}]+$/u.test(w)).map((w) => w.toLowerCase()))) {
      if (!this.uni.has(word)) this.uni.set(word, FREQUENT);
      const key = word.slice(-3);
      this.reach.set(key, Math.max(this.reach.get(key) ?? 2, word.length));
    }
    return this;
  }

  /** A copy sharing the counts, with other ``params`` over these (the card's ``prose_params``: tuned on
   * de-spaced text alone). */
  configured(params) {
    const other = Object.assign(Object.create(Segmenter.prototype), this);
    other.plain = null;
    other.setParams({ ...this.params, ...params });
    return other;
  }

  /** This segmenter with its counts made plain (derived once, shared by the configured copies), for a ``text``
   * whose letters carry no mark, where the pack's ``plain_typing`` asks (``plainParts``, set by the restorer); else
   * null (segmenter.py ``plain_for``). */
  plainFor(text) {
    if (!this.plainParts || !isPlain(keyboardPlain(text, this.keyboard)) || !/\p{L}/u.test(text)) return null;
    if (!this.plain) {
      const shared = this.plainParts;
      shared.made ??= madePlain(this.uni, this.rawContexts, this.reach, this.markedByPlain());
      const plain = this.configured({});
      [plain.uni, plain.rawContexts, plain.reach] = shared.made;
      plain.contexts = new Map();
      plain.plainParts = null;
      plain.keyboard = "";
      plain.apostrophes = null; // the apostrophe words of the plain counts ("l'ete"), found when first needed
      this.plain = plain;
    }
    return this.plain;
  }

  /** The counts' marked words by plain form (built once, shared by the copies; segmenter.py ``marked_by_plain``). */
  markedByPlain() {
    const shared = this.plainParts ?? {};
    shared.marked ??= markedByPlain([...this.uni.keys()]);
    return shared.marked;
  }

  /** word -> log10 P(word | prev) for the pairs seen after ``prev`` (parsed once, then cached). */
  context(prev) {
    let table = this.contexts.get(prev);
    if (table === undefined) {
      table = new Map();
      const raw = this.rawContexts.get(prev);
      const logp = this.uni.get(prev);
      if (raw && logp !== undefined) {
        const items = raw.split(" ");
        const norm = logp + this.logN;
        for (let k = 0; k + 1 < items.length; k += 2) table.set(items[k], Math.log10(Number(items[k + 1])) - norm);
      }
      this.contexts.set(prev, table);
    }
    return table;
  }

  /** Positions in ``text`` where a space goes (ascending), never inside a grapheme cluster. ``protectedSpans``:
   * [start, end] spans never cut inside; ``forced``: positions that are cut; ``spaced``: where ``text`` had its
   * spaces before they were taken out (the evidence of ``given_space`` and ``given_join``), or null. */
  cuts(text, protectedSpans = [], forced = [], spaced = null) {
    const plain = this.plainFor(text);
    if (plain) return plain.cuts(keyboardPlain(text, this.keyboard), protectedSpans, forced, spaced);
    let given = null; // where the text had spaces
    if (spaced) {
      given = new Uint8Array(text.length + 1);
      for (const k of spaced) given[k] = 1;
    }
    const rules = new Map();
    for (const [a, b] of protectedSpans) for (let k = a + 1; k < b; k++) rules.set(k, 1);
    for (const k of forced) if (k > 0 && k < text.length) rules.set(k, 2);
    const part = (lo, hi) => {
      const out = new Map();
      for (const [k, v] of rules) if (k >= lo && k < hi) out.set(k - lo, v);
      return out;
    };
    const out = [];
    let start = 0;
    while (text.length - start > BLOCK) {
      const end = start + BLOCK;
      const keep = this.blockCuts(text.slice(start, end), part(start, end), given && given.subarray(start, end + 1))
        .map((k) => start + k)
        .filter((k) => k <= end - MARGIN);
      out.push(...keep);
      start = keep.length ? keep[keep.length - 1] : end - MARGIN;
    }
    out.push(...this.blockCuts(text.slice(start), part(start, Infinity), given && given.subarray(start))
      .map((k) => start + k));
    if (!rules.size) return out;
    for (const [k, v] of rules) if (v === 2) out.push(k);
    return [...new Set(out)].sort((a, b) => a - b);
  }

  blockCuts(text, rules, given = null) {
    const lattice = this.lattice(text, rules, given);
    if (!lattice) return [];
    const { kind, sStarts, offsets, silent, opening } = lattice;
    const out = [];
    for (const k of this.viterbi(lattice.s, kind, lattice.bonus)) {
      if (kind[k] > 2 || silent.has(k)) continue;
      let r = sStarts.length - 1;
      while (sStarts[r] > k) r--;
      out.push(k + offsets[r] - (opening.has(k) ? 1 : 0)); // after an opening quote the space goes before it
    }
    return out;
  }

  /** The word runs of ``text`` lower-cased and joined (``s``), and per boundary of ``s`` its ``kind`` (0
   * impossible, 1 possible, 2 forced by evidence, 3 forced by white space or a hyphen, 4 forced by punctuation:
   * the context restarts) and ``bonus`` (``given``: where ``text`` had spaces, weighed inside the runs by
   * ``given_space`` and ``given_join``, and kept between two digits: "1 000"); null when there is no word run. */
  lattice(text, rules, given = null) {
    let spans = Array.from(text.matchAll(LATTICE_RUN), (m) => [m.index, m.index + m[0].length]);
    if (!spans.length) return null;
    let openingAt = new Set(); // an apostrophe that no known word holds stands between two words
    if (/['’]/.test(text)) {
      this.apostrophes ??= apostropheWords(this.uni.keys());
      const uncut = new Set([...(rules ?? [])].filter(([, v]) => v === 1).map(([k]) => k));
      ({ spans, before: openingAt } = splitRuns(lowered(text), spans, this.uni, this.apostrophes, this.L, uncut));
    }
    const n = spans.reduce((a, [b, e]) => a + e - b, 0);
    const kind = new Uint8Array(n + 1).fill(1);
    const bonus = new Float64Array(n + 1);
    const glued = insideGraphemes(text);
    const pieces = [];
    const sStarts = [];
    const offsets = [];
    const silent = new Set(); // boundaries after an elided clitic ("l'|inflation"): no space goes there
    const opening = new Set(); // boundaries after an opening quote ("said'|hello'"): the space goes before it
    let pos = 0;
    let last = 0;
    for (const [b, e] of spans) {
      if (pos) {
        const between = text.slice(last, b);
        kind[pos] = isSpace(between) || HYPHENS.includes(between) ? 3 : between === "'" || between === "’" ? 2 : 4;
        if (openingAt.has(b)) opening.add(pos);
      }
      const word = text.slice(b, e);
      pieces.push(lowered(word));
      sStarts.push(pos);
      offsets.push(b - pos);
      for (const [pattern, value] of this.evidence) {
        if (value === 0) continue;
        for (const m of word.matchAll(pattern)) {
          const k = pos + m.index;
          if (value === HARD) kind[k] = 2;
          else if (value === -HARD) kind[k] = 0;
          else bonus[k] = value;
        }
      }
      if (this.elided) {
        for (const m of pieces[pieces.length - 1].matchAll(this.elided)) {
          kind[pos + m.index + m[0].length] = 1;
          silent.add(pos + m.index + m[0].length);
        }
      }
      if (glued) for (let k = b + 1; k < e; k++) if (glued[k]) kind[pos + k - b] = 0;
      pos += e - b;
      last = e;
    }
    kind[n] = 4;
    for (const [k, v] of rules ?? []) { // only inside a word run
      let r = spans.length - 1;
      while (r >= 0 && spans[r][0] > k) r--;
      if (r >= 0 && spans[r][0] < k && k < spans[r][1] && !(glued && glued[k])) kind[k - offsets[r]] = v === 1 ? 0 : 2;
    }
    if (given) {
      const weigh = this.givenSpace || this.givenJoin;
      spans.forEach(([b, e], r) => {
        for (let k = b + 1; k < e; k++) {
          if (weigh) bonus[sStarts[r] + k - b] += given[k] ? this.givenSpace : -this.givenJoin;
          if (given[k] && isDigits(text[k - 1]) && isDigits(text[k])) kind[sStarts[r] + k - b] = 2;
        }
      });
    }
    return { s: pieces.join(""), kind, bonus, sStarts, offsets, silent, opening };
  }

  /** Word boundaries (indices into ``s``) of the best segmentation: states are (end position, last word); a seen
   * word ending at ``j`` is looked up only as far back as the longest seen word with its last three letters, an
   * unseen one comes from a sliding-window maximum. The same arithmetic as Python's, in the same order. */
  viterbi(s, kind, bonus) {
    const { uni, unk0, unk1, L, reach } = this;
    const n = s.length;
    // the states at a position (one per last word, in Python's dict order): scores, state ids, the pairs after them
    const start = { scores: [0], ids: [-1], pairs: [this.context(START)], top: 0, topId: -1 };
    const backLen = [];
    const backPrev = [];
    const live = new Array(n + 1).fill(null);
    live[0] = start;
    let window = [[0, 0]]; // [best score + unk1 * position, position], scores decreasing
    let head = 0;
    let floor = 0; // the last forced boundary: no word crosses it
    let lastOpen = 0; // the last position holding states
    for (let j = 1; j <= n; j++) {
      if (!kind[j]) continue;
      const lo = Math.max(floor, j - L);
      while (head < window.length && window[head][1] < lo) head++;
      const from = head < window.length ? window[head][1] : lastOpen; // else a run longer than L is one word
      const unkBest = (head < window.length ? window[head][0] + unk0 - unk1 * j : live[from].top + unk0 - unk1 * (j - from));
      const state = { scores: [], ids: [], pairs: [], top: -Infinity, topId: -1 };
      const extra = bonus[j];
      const far = Math.max(lo, j - (j >= 3 ? reach.get(s.slice(j - 3, j)) ?? 2 : 2));
      for (let i = j - 1; i >= far; i--) {
        const entry = live[i];
        if (entry === null) continue;
        const w = s.slice(i, j);
        const lp = uni.get(w);
        if (lp === undefined) continue;
        let best = -Infinity;
        let bestFrom = -1;
        const { scores, pairs, ids } = entry;
        for (let k = 0; k < scores.length; k++) {
          const pair = pairs[k].get(w);
          const sc = scores[k] + (pair === undefined ? lp : pair);
          if (sc > best) {
            best = sc;
            bestFrom = ids[k];
          }
        }
        backLen.push(j - i);
        backPrev.push(bestFrom);
        add(state, best + extra, backLen.length - 1, this.context(w));
        if (best > state.top) {
          state.top = best;
          state.topId = backLen.length - 1;
        }
      }
      backLen.push(j - from);
      backPrev.push(live[from].topId);
      add(state, unkBest + extra, backLen.length - 1, NO_PAIRS);
      if (unkBest >= state.top) {
        state.top = unkBest;
        state.topId = backLen.length - 1;
      }
      state.top += extra;
      live[j] = kind[j] === 4 // punctuation: the context restarts
        ? { scores: [state.top], ids: [state.topId], pairs: [start.pairs[0]], top: state.top, topId: state.topId }
        : state;
      lastOpen = j;
      if (kind[j] >= 2) {
        floor = j;
        window = [];
        head = 0;
      }
      const value = state.top + unk1 * j;
      while (window.length > head && window[window.length - 1][0] <= value) window.pop();
      window.push([value, j]);
      if (j > L) live[j - L - 1] = null;
    }
    let sid = live[n].topId;
    const ends = [];
    let pos = n;
    while (sid !== -1) {
      pos -= backLen[sid];
      if (pos > 0) ends.push(pos);
      sid = backPrev[sid];
    }
    return ends.reverse();
  }
}

const NO_PAIRS = new Map();

function add(state, score, id, pairs) {
  state.scores.push(score);
  state.ids.push(id);
  state.pairs.push(pairs);
}

/** 1 where a UTF-16 unit continues a grapheme cluster (spaces go only between clusters); null if none does. */
function insideGraphemes(text) {
  const gs = graphemes(text);
  if (gs.length === text.length) return null;
  const inside = new Uint8Array(text.length).fill(1);
  let at = 0;
  for (const g of gs) {
    inside[at] = 0;
    at += g.length;
  }
  return inside;
}
