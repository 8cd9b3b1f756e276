/**
 * Text typed without its letters' diacritics ("chucmungnammoi", "que haces manana"): where the pack's
 * ``plain_typing`` asks, the NB segmenter reads it with its counts made plain, the counts of the words that become
 * one summed (charrestore/plain_letters.py).
 */

const MARKED = /(?<=\p{L})\p{Mn}|[đĐøØłŁ]/u; // in NFD: a letter's mark (not an emoji's selector), or a stroke
const STROKES = { "đ": "d", "Đ": "D", "ø": "o", "Ø": "O", "ł": "l", "Ł": "L" };
const ASCII = /^[\x00-\x7f]*$/;

/** Whether no letter of ``text`` carries a mark (plain_letters.py ``is_plain``). */
export const isPlain = (text) => !MARKED.test(text.normalize("NFD"));

/** ``text`` (NFC) without the marks of its letters (plain_letters.py ``plain``). */
export const plain = (text) => text.normalize("NFD").replace(/[đĐøØłŁ]/gu, (c) => STROKES[c])
  .replace(/(?<=\p{L}\p{Mn}*)\p{Mn}/gu, "").normalize("NFC");

/** ``text`` with the marked letters that the language's keyboards type directly (the pack's ``keyboard_letters``, es
 * "ñ") made plain, one for one: a text typed without accents still holds them (plain_letters.py ``keyboard_plain``). */
export function keyboardPlain(text, keyboard) {
  if (!keyboard) return text;
  let out = "";
  for (const c of text) out += keyboard.includes(c.toLowerCase()) ? plain(c) : c;
  return out;
}

/** The characters of ``words`` that change, one letter for one (plain_letters.py ``plain_table``). */
export function plainTable(words) {
  const table = new Map();
  for (const c of new Set(words.join(""))) {
    const to = /\p{Mn}/u.test(c) ? "" : plain(c);
    if (to !== c) table.set(c, to);
  }
  return table;
}

export function translate(text, table) {
  let out = "";
  for (const c of text) out += table.get(c) ?? c;
  return out;
}

/** The marked words of ``words`` by their plain form, in their order (plain_letters.py ``marked_by_plain``). */
export function markedByPlain(words) {
  const marked = words.filter((w) => !ASCII.test(w));
  const table = plainTable(marked);
  const out = new Map();
  for (const word of marked) {
    const form = translate(word, table);
    if (form === word) continue;
    if (!out.has(form)) out.set(form, []);
    out.get(form).push(word);
  }
  return out;
}

/** A segmenter's raw pairs made plain as the decoder meets each context word (plain_letters.py ``PlainContexts``). */
class PlainContexts {
  constructor(raw, table, marked) {
    this.raw = raw;
    this.table = table;
    this.made = new Map();
    this.variants = new Map([...raw.keys()].map((k) => [k, [k]]));
    for (const key of marked) {
      const form = translate(key, table);
      if (form === key) continue;
      if (!this.variants.has(form)) this.variants.set(form, []);
      this.variants.get(form).push(key);
      this.variants.set(key, []);
    }
  }

  get(prev) {
    let made = this.made.get(prev);
    const keys = this.variants.get(prev);
    if (made === undefined && keys?.length) {
      if (keys.length === 1 && ASCII.test(this.raw.get(keys[0]))) {
        made = this.raw.get(keys[0]);
      } else {
        const merged = new Map();
        for (const key of keys) {
          const items = translate(this.raw.get(key), this.table).split(" ");
          for (let k = 0; k + 1 < items.length; k += 2) {
            merged.set(items[k], (merged.get(items[k]) ?? 0) + Number(items[k + 1]));
          }
        }
        made = [...merged].map(([w, c]) => `${w} ${c}`).join(" ");
      }
      this.made.set(prev, made);
    }
    return made;
  }
}

/** A segmenter's counts made plain: log10 P per word (the P of the words that become one summed), the raw pairs
 * and the ``reach`` table (plain_letters.py ``made_plain``); ``marked``: ``markedByPlain`` of ``uni``'s words. */
export function madePlain(uni, contexts, reach, marked = markedByPlain([...uni.keys()])) {
  const keys = [...contexts.keys()].filter((k) => !ASCII.test(k));
  const table = plainTable(keys.concat(...marked.values()));
  const out = new Map(uni);
  for (const [form, group] of marked) {
    for (const word of group) {
      const logp = out.get(word);
      const had = out.get(form);
      out.delete(word);
      out.set(form, had === undefined ? logp : Math.log10(10 ** had + 10 ** logp));
    }
  }
  const madeReach = new Map();
  for (const [key, length] of reach) {
    const form = translate(key, table);
    madeReach.set(form, Math.max(madeReach.get(form) ?? 2, length));
  }
  return [out, new PlainContexts(contexts, table, keys), madeReach];
}
