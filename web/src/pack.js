/** A language pack (languages/<code>/pack.toml): the features a language restores, as charrestore/packs.py reads them. */

import { parseForms } from "./abbreviation_forms.js";
import { plain } from "./plain_letters.js";
import { parseToml } from "./toml.js";

export const CAPS = "CAPS";
export const SPACE = "SPACE";

export class LanguagePack {
  constructor(data) {
    this.code = data.code;
    this.name = data.name ?? data.code;
    this.features = data.features;
    this.cased = Boolean(data.cased);
    this.normalization = data.normalization ?? "NFC";
    this.map = data.map ?? {};
    this.mapBetweenWords = data.map_between_words ?? {};
    this.models = data.models ?? {};
    this.marks = this.features.filter((f) => f !== CAPS && f !== SPACE);
    this.sentenceMarks = (data.sentence_marks ?? []).filter((m) => this.marks.includes(m));
    // the sentence marks whose next word always takes a capital (default: all; ru and fr leave "?" to the model)
    this.capitalAfter = (data.capital_after ?? data.sentence_marks ?? []).filter((m) => this.marks.includes(m));
    // marks that open a span and stand before their grapheme (es "¿"), and the space a mark's typography puts
    // before it (fr "?"), as packs.py reads them
    this.opening = this.marks.filter((m) => (data.opening_marks ?? []).includes(m));
    this.spaceBefore = data.space_before ?? {};
    // an opening mark -> the sentence-final mark that closes its span (es "¿" -> "?"), decided together
    this.pairs = Object.fromEntries(Object.entries(data.pairs ?? {}).filter(([, c]) => this.marks.includes(c)));
    // typed with their marks, they keep the input's case (packs.py base_form: lower case, the pack's marks dropped)
    this.abbreviations = new Set((data.abbreviations ?? []).map((w) => [...w.toLowerCase()]
      .filter((c) => !this.marks.includes(c)).join("")));
    // abbreviations as written ("z. B."), and names in mixed case ("ChatGPT"): their bare letters take them
    // (abbreviation_forms.js); the spellings are words of the NB segmenter too (segmenter.js know)
    this.spellings = data.spellings ?? [];
    this.abbreviationForms = parseForms([...(data.abbreviation_forms ?? []), ...this.spellings], this.features);
    this.scripts = data.scripts ?? []; // the Unicode scripts the language writes (spans.js: foreignWords)
    // unit symbols and number words after a number: small letters without marks -> spelling (units.js)
    const bare = (u) => [...u.toLowerCase()].filter((c) => !this.marks.includes(c)).join("");
    this.units = new Map([...(data.units ?? []), ...(data.joining_units ?? [])].map((u) => [bare(u), u]));
    // units that join two numbers of one quantity ("10 h 30"): no mark after them before a number (units.js)
    this.joiningUnits = new Set((data.joining_units ?? []).map(bare));
    this.thousands = data.thousands ?? ""; // the separator of a long number's groups of three (digit_groups.js)
    // clitics elided before a word with an apostrophe ("l'", "qu'"), as the segmenter reads them (segmenter.js)
    this.elisions = (data.elisions ?? []).map((c) => c.toLowerCase());
    // the letters a number takes as an ordinal ("1st", "2e"): no boundary evidence after its digit (segmenter.js)
    this.ordinalSuffixes = (data.ordinal_suffixes ?? []).map((x) => x.toLowerCase());
    // a longer word of spaced input ran words together: ``auto`` restores its spaces (long_text.js runsTogether)
    this.longestWord = Number(data.longest_word ?? 0);
    this.plainTyping = Boolean(data.plain_typing); // often typed without diacritics: plain counts (plain_letters.js)
    // words written small inside a sentence ("mardi"), and, typed plain, without accents (small_words.js)
    const typed = (words) => new Set((words ?? []).flatMap((w) => (this.plainTyping ? [w, plain(w)] : [w])));
    this.smallWords = typed(data.small_words);
    // words of a people or country, small but as nouns after nounsAfter and, with demonymsInNames, in a name
    this.demonyms = typed(data.demonyms?.words);
    this.demonymsInNames = Boolean(data.demonyms?.in_names);
    this.nounsAfter = typed(data.nouns_after); // after these a demonym or a small word may be a noun (small_words.js)
    this.keyboardLetters = data.keyboard_letters ?? ""; // marked letters typed directly, plain text or not (es "ñ")
    this.nClasses = 1 << this.features.length;
    this.markBits = this.marks.reduce((s, m) => s | this.bit(m), 0);
    this.openingBits = this.opening.reduce((s, m) => s | this.bit(m), 0);
    this.hasSpace = this.features.includes(SPACE);
    for (const [table, entries] of [["map", this.map], ["map_between_words", this.mapBetweenWords]]) {
      for (const [src, target] of Object.entries(entries)) {
        if (![...target].every((t) => this.marks.includes(t) || (t === " " && this.hasSpace))) {
          throw new Error(`pack ${this.code}: [${table}] maps ${src} onto ${target}, not a mark of the pack`);
        }
      }
    }
  }

  /** The class bit of a feature ("CAPS", "SPACE" or a mark), 0 if the pack lacks it. */
  bit(feature) {
    const i = this.features.indexOf(feature);
    return i < 0 ? 0 : 1 << i;
  }

  static fromToml(text) {
    const data = parseToml(text);
    if (!Array.isArray(data.features) || !data.features.length || !data.code) {
      throw new Error("pack.toml needs a code and a non-empty features list");
    }
    return new LanguagePack(data);
  }
}
