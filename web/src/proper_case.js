/**
 * Capitals that a word always has ("путин" -> "Путин", "сша" -> "США"): a pack's list of proper forms, added after
 * the char engine decodes (charrestore/proper_case.py). The list is UTF-8 text in gzip, one cased form per line,
 * maybe a tab and its role: "name" (a given name or patronymic), "after-name" (a capital only straight after a name:
 * "Дмитрий Песков", not "песков" the sand) or "small" (no capital inside a sentence: small_words.js). A word the
 * list lacks that the model wrote in mixed case ("миниСтр", "AEVal") becomes all capitals where most of its letters
 * are, else keeps only its first letter's case.
 */

import { graphemes, upperOf } from "./clusters.js";
import { wordSpans } from "./codec.js";
import { inflate } from "./fetch.js";

const LETTER = /^\p{L}/u;
// an elision or a possessive, a hyphen between the parts of a compound: each part is looked up alone
const JOINERS = ["'", "\u2019", "-", "\u2010", "\u2011"];

export class ProperCase {
  constructor(lines) {
    this.forms = new Map();
    this.afterName = new Map();
    this.names = new Set();
    this.small = new Set(); // words the training text writes small inside a sentence (small_words.js)
    for (const line of lines) {
      const [form, role] = line.split("\t");
      const low = form.toLowerCase();
      if (role === "small") this.small.add(form);
      if (low === form) continue;
      (role === "after-name" ? this.afterName : this.forms).set(low, form);
      if (role === "name") this.names.add(low);
    }
  }

  static async fromBytes(bytes) {
    const text = new TextDecoder().decode(await inflate(bytes, "gzip"));
    return new ProperCase(text.split("\n").filter((line) => line));
  }

  /** The positions (graphemes) of ``word``'s capitals in its cased form; null when the list lacks it.
   * ``afterName``: the word follows a name. */
  capitals(word, afterName = false) {
    const low = word.toLowerCase();
    const form = this.forms.get(low) ?? (afterName ? this.afterName.get(low) : undefined);
    if (form === undefined) return null;
    const shown = graphemes(form);
    const small = graphemes(low);
    if (shown.length !== small.length) return null;
    return shown.flatMap((g, k) => (g !== small[k] ? [k] : []));
  }

  /** ``cls`` with the CAPS bit added to the capitals of every listed word: the letters between the spaces that
   * ``cls`` gives, without the graphemes other than letters at the word's two ends. A listed word also gives up
   * the capitals its form lacks ("DortMund", "YOuTube", "Iphone"; proper_case.py) where ``typed`` has none.
   * Without ``words`` (unspaced input kept unspaced) the model's mixed case stays in words the list lacks.
   * ``between``: the marks (a comma) that a given name and the word after it never take between them (namesGoOn). */
  apply(base, cls, caps, space, typed = null, words = true, between = 0) {
    if (!this.forms.size || !caps || !base.length) return cls;
    let named = false; // the word before was a name, nothing after it but the space
    wordSpans(cls, space).forEach(([start, end]) => {
      let [s, e] = [start, end];
      const afterName = named && s < e && LETTER.test(base[s]);
      named = false;
      while (s < e && !LETTER.test(base[s])) s++;
      while (e > s && !LETTER.test(base[e - 1])) e--;
      const word = base.slice(s, e).join("");
      if (this.names.size && e === end && this.names.has(word.toLowerCase())) {
        named = !(cls[e - 1] & ~(caps | space)); // no mark after it
      }
      const whole = e - s > 1 ? this.capitals(word, afterName) : null;
      const parts = whole ? [[s, e, whole]] : this.parts(base, s, e);
      for (const [a, b, positions] of parts.length ? parts : [[s, e, null]]) {
        if (positions === null) {
          if (words) unlistedCase(base, cls, a, b, caps, typed);
        }
        else if (positions.length && positions[positions.length - 1] < b - a) {
          positions.forEach((k) => (cls[a + k] |= caps));
          // the form's small letters after the first ("Dortmund", not "DortMund"; "YouTube"), and a small first
          // letter before a capital ("iPhone")
          for (let k = positions[0] === 1 ? 0 : 1; k < b - a; k++) {
            if (!positions.includes(k) && !(typed && typed[a + k] & caps)) cls[a + k] &= ~caps;
          }
        }
      }
    });
    return between && this.names.size ? this.namesGoOn(base, cls, caps, space, between, typed) : cls;
  }

  /** ``cls`` without the ``between`` marks (a comma, alone) after a given name of the list whose next word starts
   * with a capital and is no name: "Emmanuel Macron", not "Emmanuel, Macron"; a list of names keeps its commas, and
   * so does a mark the input typed (proper_case.py names_go_on). */
  namesGoOn(base, cls, caps, space, between, typed = null) {
    const spans = wordSpans(cls, space);
    const word = ([s, e]) => base.slice(s, e).join("").toLowerCase();
    for (let w = 0; w + 1 < spans.length; w++) {
      const [[, e], [t]] = [spans[w], spans[w + 1]];
      const mark = cls[e - 1] & ~(caps | space);
      if (!mark || mark & ~between || (typed && typed[e - 1] & mark)) continue;
      if (!(cls[t] & caps) || !LETTER.test(base[t]) || !this.names.has(word(spans[w]))) continue;
      if (!this.names.has(word(spans[w + 1]))) cls[e - 1] &= ~between;
    }
    return cls;
  }

  /** A word the list lacks, by its parts between apostrophes and hyphens ("l'onu": "onu"; "жан-поль": "жан",
   * "поль"), each with its capitals. */
  parts(base, s, e) {
    const cuts = [];
    for (let k = s; k < e; k++) if (JOINERS.includes(base[k])) cuts.push(k);
    if (!cuts.length) return [];
    const starts = [s, ...cuts.map((k) => k + 1)];
    return starts.map((a, i) => {
      const b = i < cuts.length ? cuts[i] : e;
      return [a, b, b - a > 1 ? this.capitals(base.slice(a, b).join("")) : null];
    });
  }
}

/** Each run of letters in ``a:b`` (a word the list lacks; "USD/thùng" holds two), in mixed case by the model (not
 * by the input): all capitals where most of its letters are, else only its first letter's case kept ("ЛаВрецкий" ->
 * "Лаврецкий"; proper_case.py). */
function unlistedCase(base, cls, a, b, caps, typed) {
  let start = a;
  for (let k = a + 1; k <= b; k++) {
    if (k < b && LETTER.test(base[k]) === LETTER.test(base[k - 1])) continue;
    const cased = [];
    for (let i = start; i < k; i++) if (upperOf(base[i]) !== null) cased.push(i);
    start = k;
    const up = cased.filter((i) => cls[i] & caps);
    if (up.length === cased.length || !up.some((i) => i !== cased[0])) continue;
    if (typed && cased.some((i) => typed[i] & caps)) continue;
    if (2 * up.length > cased.length) cased.forEach((i) => (cls[i] |= caps));
    else cased.slice(1).forEach((i) => (cls[i] &= ~caps));
  }
}
