/**
 * Apostrophes inside words, put back where a text has none (charrestore/apostrophes.py): for each word that an
 * apostrophe form shares its letters with ("its"/"it's", "were"/"we're"), the form its two neighbours make
 * likeliest under word and word-pair counts. A text with any apostrophe of its own keeps its spelling; only plain
 * words change, by an apostrophe and case ("im" -> "I'm").
 */

import { readCounts } from "./counts.js";
import { isPlain, plain as unmarked, plainTable, translate } from "./plain_letters.js";

const WORD = "[\\p{L}\\p{M}\\p{N}]";
const TOKEN = new RegExp(`${WORD}+(?:'${WORD}+)*(?:(?<=[sS])'(?!${WORD}))?`, "gu");
const LETTERS = /^\p{L}+$/u;
const OPENS = /\s["“‘(\[]{0,3}$/u;
const CLOSES = /^[.,?!:;"”)\]]{0,3}\s/u;
const START = "<s>";
const MARK = "'";

/** Whether the text writes apostrophes itself (then none is added). */
export function hasApostrophe(text) {
  return text.includes("'") || text.includes("\u2019");
}

/** Whether ``text.slice(start, end)`` is a word of letters alone between white space and plain punctuation. */
function plain(text, start, end) {
  return LETTERS.test(text.slice(start, end)) && OPENS.test(" " + text.slice(Math.max(0, start - 4), start))
    && CLOSES.test(text.slice(end, end + 4) + " ");
}

/** ``word``'s letters with ``form``'s apostrophes, and a capital where ``form`` has one. */
function spelled(word, form) {
  const letters = [...word];
  let k = 0;
  return [...form].map((c) => {
    const letter = c === "'" ? MARK : letters[k++];
    return c !== c.toLowerCase() ? letter.toUpperCase() : letter;
  }).join("");
}

export class Apostrophes {
  /** ``counts``: readCounts' object; ``card``: apostrophes.json (``total``, ``params``, ``cased``). */
  constructor({ words, counts, contexts }, card) {
    this.count = new Map(words.map((w, i) => [w, counts[i]]));
    this.contexts = contexts;
    this.total = card.total;
    this.smoothing = card.params.smoothing ?? 1000;
    this.bias = (card.params.bias ?? 0) * Math.LN10;
    this.cased = new Map(Object.entries(card.cased ?? {}));
    this.forms = new Map();
    for (const w of words) {
      if (!w.includes("'")) continue;
      const key = w.replaceAll("'", "");
      if (!this.forms.has(key)) this.forms.set(key, []);
      this.forms.get(key).push(w);
    }
    this.parsed = new Map();
    this.plainTyping = false; // the pack's plain_typing: text without diacritics reads madePlain()
    this.clitics = new Set(); // the pack's elisions without their apostrophe ("l", "qu"): apostrophesBefore
    this.plainModel = null;
  }

  static async fromBytes(bytes, card) {
    return new Apostrophes(await readCounts(bytes), card);
  }

  /** This model with its words written plain ("j'espère" -> "j'espere"), the counts of the words that become one
   * summed, for text typed without diacritics (apostrophes.py ``made_plain``; built once). */
  madePlain() {
    if (!this.plainModel) {
      const words = [...this.count.keys()];
      const table = plainTable(words);
      const made = (w) => translate(w, table);
      const count = new Map();
      for (const [w, c] of this.count) count.set(made(w), (count.get(made(w)) ?? 0) + c);
      const merged = new Map();
      for (const prev of this.contexts.keys()) {
        const key = made(prev);
        if (!merged.has(key)) merged.set(key, new Map());
        const into = merged.get(key);
        for (const [w, c] of this.pairs(prev)) into.set(made(w), (into.get(made(w)) ?? 0) + c);
      }
      const cased = Object.fromEntries([...this.cased].map(([k, v]) => [made(k), unmarked(v)]));
      const card = { total: this.total, params: { smoothing: this.smoothing, bias: this.bias / Math.LN10 }, cased };
      this.plainModel = new Apostrophes({ words: [...count.keys()], counts: [...count.values()], contexts: new Map() },
        card);
      this.plainModel.parsed = merged;
    }
    return this.plainModel;
  }

  pairs(word) {
    let pairs = this.parsed.get(word);
    if (!pairs) {
      const raw = (this.contexts.get(word) ?? "").split(" ");
      pairs = new Map();
      for (let i = 0; i + 1 < raw.length; i += 2) pairs.set(raw[i], Number(raw[i + 1]));
      this.parsed.set(word, pairs);
    }
    return pairs;
  }

  p(word) {
    return Math.max(this.count.get(word) ?? 0, 0.5) / this.total;
  }

  /** log P(form | prev) + log P(next | form), up to what every form shares; additive smoothing. */
  score(form, prev, next) {
    const s = this.smoothing;
    let score = Math.log((this.pairs(prev).get(form) ?? 0) + s * this.p(form));
    if (next !== null) {
      score += Math.log(((this.pairs(form).get(next) ?? 0) + s * this.p(next)) / ((this.count.get(form) ?? 0) + s));
    }
    return score - (form.includes("'") ? this.bias : 0);
  }

  /** The forms of lower-case ``words``, each chosen after the one before. */
  choose(words) {
    const out = [...words];
    let prev = START;
    words.forEach((word, i) => {
      const forms = this.forms.get(word);
      if (forms) {
        const next = i + 1 < words.length ? words[i + 1] : null;
        let best = word;
        let top = this.score(word, prev, next);
        for (const f of forms) {
          const sc = this.score(f, prev, next);
          if (sc > top) [best, top] = [f, sc];
        }
        out[i] = best;
      }
      prev = out[i];
    });
    return out;
  }

  /** Each of ``words`` (no white space inside) with its apostrophes, the others as context. */
  restoreWords(words) {
    if (words.some(hasApostrophe)) return words;
    const out = this.restore(words.join(" ")).split(" ");
    return out.length === words.length ? out : words;
  }

  /** ``text`` with the apostrophes its words' context asks for; unchanged if it has any apostrophe. */
  restore(text) {
    if (hasApostrophe(text)) return text;
    if (this.plainTyping && isPlain(text)) return this.madePlain().restore(text);
    const matches = [...text.matchAll(TOKEN)];
    const words = matches.map((m) => m[0].toLowerCase());
    const chosen = this.choose(words);
    let out = "";
    let at = 0;
    matches.forEach((m, i) => {
      const end = m.index + m[0].length;
      if (chosen[i] === words[i] || !plain(text, m.index, end)) return;
      out += text.slice(at, m.index) + spelled(m[0], this.cased.get(chosen[i]) ?? chosen[i]);
      at = end;
    });
    return at ? out + text.slice(at) : text;
  }
}

const ELIDED_BEFORE = /^[aeiouyhæœ]/iu; // the letters (made plain) that an elided clitic stands before
// Unspaced text whose words a segmenter may find before the apostrophes step: no address, tag or mention in it.
const PLAIN_TEXT = /^[\p{L}\p{M}\p{N}\s.,;:!?-]*$/u;

/** Unspaced ``text`` with the apostrophes of its words as the NB ``segmenter`` finds them ("jaivulhomme" ->
 * "j'aivul'homme"), so that the char model reads the forms it learned; a clitic of the pack's elisions cut off
 * alone before a word takes its apostrophe too ("surl'immigration"; apostrophes.py ``apostrophes_before``). */
export function apostrophesBefore(text, model, segmenter) {
  if (hasApostrophe(text) || !PLAIN_TEXT.test(text)) return text;
  const chunks = text.split(/(\s+)/u);
  const pieces = chunks.filter((c) => c && !/^\s+$/u.test(c)).map((chunk) => {
    const cuts = segmenter.cuts(chunk);
    return [0, ...cuts].map((a, i) => chunk.slice(a, i < cuts.length ? cuts[i] : chunk.length));
  });
  const words = model.restoreWords(pieces.flat())[Symbol.iterator]();
  const parts = pieces[Symbol.iterator]();
  const elided = (run) => run.map((w, k) => (k + 1 < run.length && model.clitics.has(w.toLowerCase())
    && ELIDED_BEFORE.test(unmarked(run[k + 1].slice(0, 1))) ? w + "'" : w)).join(""); // elision's place: a vowel, h
  return chunks.map((c) => (!c || /^\s+$/u.test(c) ? c : elided(parts.next().value.map(() => words.next().value))))
    .join("");
}
