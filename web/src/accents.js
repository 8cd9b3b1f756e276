/**
 * The likely accents of words typed without them, for the char model to read: "que haces" as "qué haces"
 * (charrestore/accents.py). A Viterbi over each plain word's marked forms, by log10 P(word | previous word) of the
 * NB counts; the letters printed stay the input's, only the ids the model reads change.
 */

import { UNK } from "./input.js";
import { isPlain, keyboardPlain } from "./plain_letters.js";

const MOST = 4; // the marked forms of a plain word weighed, the most frequent first
const START = "<s>";
const WORD = /\p{L}+(?:['’]\p{L}+)*/gu;

export class Accents {
  /** ``seg``: the NB segmenter, its counts as they are (not made plain). */
  constructor(seg) {
    this.seg = seg;
    this.marked = seg.markedByPlain(); // plain form -> its marked words, ranked when first asked for
    this.forms = new Map();
  }

  /** ``form`` itself where the counts know it, then its MOST most frequent marked words (accents.py ``_ranked``). */
  ranked(form) {
    let found = this.forms.get(form);
    if (found === undefined) {
      const uni = this.seg.uni;
      const words = this.marked.get(form) ?? [];
      const top = words.map((w, i) => [w, i]).sort((a, b) => uni.get(b[0]) - uni.get(a[0]) || a[1] - b[1])
        .slice(0, MOST).map(([w]) => w);
      found = (uni.has(form) && words.length ? [form] : []).concat(top);
      this.forms.set(form, found);
    }
    return found;
  }

  /** The forms ``word`` (plain, lower case) may stand for (accents.py ``candidates``). */
  candidates(word) {
    let found = this.ranked(word);
    if (!found.length && word.includes("'") && !this.seg.uni.has(word)) {
      const cut = word.lastIndexOf("'");
      found = this.ranked(word.slice(cut + 1)).map((f) => `${word.slice(0, cut + 1)}${f}`);
    }
    return found.length ? found : [word];
  }

  score(word, prev) {
    const pair = this.seg.context(prev).get(word);
    if (pair !== undefined) return pair;
    const logp = this.seg.uni.get(word);
    return logp === undefined ? this.seg.unk0 - this.seg.unk1 * [...word].length : logp;
  }

  /** The most likely form of each plain lower-case word of ``words`` (accents.py ``forms``). */
  choose(words) {
    let best = new Map([[START, 0]]);
    const back = [];
    for (const word of words) {
      const step = new Map();
      const links = new Map();
      for (const option of this.candidates(word)) {
        let top = -Infinity;
        let from = null;
        for (const [prev, s] of best) {
          const v = s + this.score(option, prev);
          if (from === null || v > top) [top, from] = [v, prev];
        }
        step.set(option, top);
        links.set(option, from);
      }
      back.push(links);
      best = step;
    }
    if (!words.length) return [];
    let last = null;
    let top = -Infinity;
    for (const [o, s] of best) if (last === null || s > top) [top, last] = [s, o];
    const chosen = [last];
    for (let k = back.length - 1; k > 0; k--) chosen.push(back[k].get(chosen[chosen.length - 1]));
    return chosen.reverse();
  }
}

/** The pack's NB counts, read on the first plain text, and their marked words by plain form, built once
 * (engines/char_accents.py ``AccentReader``). ``counts``: an async function giving the NB segmenter. */
export class AccentReader {
  /** ``keyboard``: the pack's ``keyboard_letters``, marked letters that a text typed without accents still holds. */
  constructor(counts, keyboard = "") {
    this.counts = counts;
    this.keyboard = keyboard;
    this.accents = null;
  }

  /** Whether ``base`` holds a letter and none with a mark, but for the keyboard's own letters. */
  reads(base) {
    const text = base.join("");
    return isPlain(keyboardPlain(text, this.keyboard)) && /\p{L}/u.test(text);
  }

  /** ``gids`` with each word of ``base`` (lower-case plain graphemes; ``spaced``: a space decided after the
   * grapheme) read as its most likely marked form, where that form is as long and the model knows its letters. */
  async ids(base, gids, spaced, index) {
    if (!this.accents) this.accents = new Accents(await this.counts());
    const text = base.map((g) => (g.length === 1 ? g : "\u0000")).join(""); // one character per grapheme
    const spans = [];
    for (const m of text.matchAll(WORD)) {
      const edges = [m.index];
      for (let k = m.index + 1; k < m.index + m[0].length; k++) if (spaced[k - 1]) edges.push(k);
      edges.push(m.index + m[0].length);
      for (let k = 0; k + 1 < edges.length; k++) spans.push([edges[k], edges[k + 1]]);
    }
    const words = spans.map(([a, b]) => text.slice(a, b).replaceAll("’", "'"));
    const forms = this.accents.choose(words);
    let out = gids;
    spans.forEach(([a, b], k) => {
      const form = forms[k];
      if (form === words[k] || [...form].length !== b - a) return;
      const ids = [...form].map((c) => index.get(c) ?? UNK);
      if (ids.includes(UNK)) return;
      if (out === gids) out = Int32Array.from(gids);
      out.set(ids, a);
    });
    return out;
  }
}
