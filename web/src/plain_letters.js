/**
 * Text typed without its letters' diacritics ("chucmungnammoi"): the NB segmenter reads it with the pack's plain
 * counts, its words' marks taken off (charrestore/plain_letters.py).
 */

const MARKED = /(?<=\p{L})\p{Mn}|[đĐøØłŁ]/u; // in NFD: a letter's mark (not an emoji's selector), or a stroke

/** Whether no letter of ``text`` carries a mark (plain_letters.py ``is_plain``). */
export const isPlain = (text) => !MARKED.test(text.normalize("NFD"));
