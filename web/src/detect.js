/**
 * Which language a line is in, as charrestore/detect.py names it: script rules first, then a naive Bayes over hashed
 * character n-grams of the line's letters, read from the same model file (models/detect/detect.npz, its card's
 * sha256 checked). ``await Detector.load()``, then ``detector.detect(text, among, {prefer, odds})``.
 */

import { fetchBytes, fetchText } from "./fetch.js";
import { readNpz } from "./npz.js";
import { sha256Hex } from "./sha256.js";

// The scripts that some of the languages write and the rest never do (detect.py SCRIPTS, WRITES)
const SCRIPTS = {
  Han: "\\p{Script=Han}", Kana: "\\p{Script=Hiragana}\\p{Script=Katakana}", Hangul: "\\p{Script=Hangul}",
  Cyrillic: "\\p{Script=Cyrillic}", Thai: "\\p{Script=Thai}", Gujarati: "\\p{Script=Gujarati}",
};
const WRITES = {
  ja: ["Han", "Kana"], zh: ["Han"], ko: ["Hangul", "Han"], ru: ["Cyrillic"], th: ["Thai"], gu: ["Gujarati"],
};
const SCRIPT = {};
for (const [name, chars] of Object.entries(SCRIPTS)) SCRIPT[name] = new RegExp(`[${chars}]`, "gu");
const ANY_SCRIPT = new RegExp(`[${Object.values(SCRIPTS).join("")}]`, "u");
const NOT_LETTER = /[^\p{L}\p{M}]+/gu;
const LETTER = /\p{L}/gu;
const MAX_LETTERS = 10000;
const STEP = 0x100000001b3n;
const MIX = 0x9e3779b97f4a7c15n;

/** The letters a decision rests on: NFC, lower case, nothing that is not a letter or a mark (code points). */
export function letters(text) {
  return Array.from(text.normalize("NFC").toLowerCase().replace(NOT_LETTER, "")).slice(0, MAX_LETTERS);
}

/** The bucket of every n-gram of ``chars`` (code points) of every order given: detect.py ``gram_buckets``. */
export function gramBuckets(chars, orders, bits) {
  const codes = chars.map((c) => BigInt(c.codePointAt(0) + 1));
  const top = Math.max(...orders);
  const shift = BigInt(64 - bits);
  const out = [];
  let h = codes;
  for (let n = 1; n <= Math.min(top, codes.length); n++) {
    if (n > 1) h = h.slice(0, -1).map((x, i) => BigInt.asUintN(64, x * STEP + codes[i + n - 1]));
    if (orders.includes(n)) for (const x of h) out.push(Number(BigInt.asUintN(64, x * MIX) >> shift));
  }
  return out;
}

/** The SCRIPTS that make up at least a tenth of the letters of ``text``. */
function scriptsOf(text) {
  if (!ANY_SCRIPT.test(text)) return new Set();
  const total = (text.match(LETTER) ?? []).length;
  return new Set(Object.keys(SCRIPTS).filter((name) => total && 10 * (text.match(SCRIPT[name]) ?? []).length >= total));
}

export class Detector {
  constructor(card, arrays) {
    this.card = card;
    this.languages = arrays.languages.data;
    this.orders = arrays.orders.data;
    this.temperature = arrays.temperature.data[0];
    const scale = arrays.scale.data[0];
    const table = (langs, weights) => ({ index: new Map(langs.map((l, i) => [l, i])), width: langs.length,
      weights: weights.data, scale, bits: Math.log2(weights.shape[0]) });
    this.tables = { "": table(this.languages, arrays.weights) };
    for (const key of Object.keys(arrays)) {
      const m = /^view_(.+)_languages$/.exec(key);
      if (m) this.tables[m[1]] = table(arrays[key].data, arrays[`view_${m[1]}_weights`]);
    }
  }

  /** The model at ``root``/models/detect (default: the repository root), refused if its sha256 differs. */
  static async load({ root = new URL("../../", import.meta.url) } = {}) {
    const base = new URL("models/detect/", new URL(root, globalThis.location?.href));
    const card = JSON.parse(await fetchText(new URL("detect.json", base)));
    const bytes = await fetchBytes(new URL(card.file, base));
    if ((await sha256Hex(bytes)) !== card.sha256) throw new Error(`${card.file}: sha256 does not match its card`);
    return new Detector(card, await readNpz(bytes));
  }

  /** ``among`` checked against the model's languages (default: all of them). */
  candidates(among) {
    if (among == null) return [...this.languages];
    const chosen = [...new Set((typeof among === "string" ? among.split(",") : [...among]).map((l) => l.trim()))]
      .filter(Boolean);
    const unknown = chosen.filter((l) => !this.tables[""].index.has(l));
    if (unknown.length || !chosen.length) {
      const known = this.languages.join(", ");
      throw new Error(`unknown language(s) ${unknown.join(", ") || "(none given)"}: the detector knows ${known}`);
    }
    return chosen;
  }

  /** ``[[lang, probability], ...]`` best first, as detect.py ``scores``. */
  scores(text, among) {
    let langs = this.candidates(among);
    const found = /^[\x00-\x7f]*$/.test(text) ? new Set() : scriptsOf(text);
    let fits = langs.filter((l) => found.size && [...found].every((s) => (WRITES[l] ?? []).includes(s)));
    let table = this.tables[""];
    if (fits.length) {
      const keep = new RegExp(`[^${[...found].sort().map((s) => SCRIPTS[s]).join("")}]+`, "gu");
      text = text.replace(keep, "");
      const view = found.size === 1 ? this.tables[[...found][0]] : undefined;
      if (view && fits.some((l) => view.index.has(l))) {
        table = view;
        fits = fits.filter((l) => view.index.has(l));
      }
      langs = [...fits, ...langs.filter((l) => !fits.includes(l))];
      if (fits.length === 1) return [[fits[0], 1], ...langs.slice(1).map((l) => [l, 0])];
    }
    const buckets = gramBuckets(letters(text), this.orders, table.bits);
    if (!buckets.length) return langs.map((l) => [l, 1 / langs.length]);
    const scored = fits.length ? fits : langs;
    const totals = scored.map((l) => {
      const col = table.index.get(l);
      let sum = 0;
      for (const b of buckets) sum += table.weights[b * table.width + col];
      return sum * table.scale;
    });
    const best = Math.max(...totals);
    const e = totals.map((t) => Math.exp((t - best) / this.temperature));
    const z = e.reduce((a, b) => a + b, 0);
    const prob = [...e.map((x) => x / z), ...Array(langs.length - scored.length).fill(0)];
    const order = langs.map((_, i) => i).sort((a, b) => prob[b] - prob[a]); // stable: ties keep the given order
    return order.map((i) => [langs[i], prob[i]]);
  }

  /** The most likely language; with ``prefer``, that one unless another is at least ``odds`` times as likely
   * (default: the card's ``prefer_odds``). */
  detect(text, among, { prefer, odds } = {}) {
    const ranked = this.scores(text, among);
    if (prefer == null || ranked[0][0] === prefer) return ranked[0][0];
    const chance = Object.fromEntries(ranked);
    if (!(prefer in chance)) {
      throw new Error(`the preferred language ${prefer} is not among ${Object.keys(chance).join(", ")}`);
    }
    odds ??= this.card.prefer_odds ?? 1;
    return ranked[0][1] > odds * chance[prefer] ? ranked[0][0] : prefer;
  }
}
