/**
 * The char model's input ids (charrestore/engines/char_input.py): ``3 * grapheme_id + state``, with state
 * UNKNOWN (spaces to restore), NO_SPACE or HAS_SPACE (spaces given by the input). One model thus serves
 * unspaced text and text whose word boundaries are known.
 */

export const UNK = 1;
export const UNKNOWN = 0;
export const NO_SPACE = 1;
export const HAS_SPACE = 2;
export const N_STATES = 3;
/** Decoding only, never read by the model: where spaces are restored in spaced input, a space the input gives and a
 * gap that it joins (evidence, not constraints: the classes with a space gain the card's ``given_space`` at the one
 * and lose its ``given_join`` at the other). */
export const GIVEN_JOIN = 3;
export const GIVEN_SPACE = 4;
/** Decoding only as well: the NB segmenter's spaces and joins on unspaced input, as evidence the same way (the card's
 * ``nb_space`` and ``nb_join``) where the card tuned them soft, else enforced as HAS_SPACE and NO_SPACE. */
export const NB_JOIN = 5;
export const NB_SPACE = 6;
/** Where several states fall into one (a stretch the model does not read), the one latest here wins: a space
 * anywhere counts, and a constraint outweighs evidence. */
export const BY_WEIGHT = [UNKNOWN, GIVEN_JOIN, NB_JOIN, NO_SPACE, GIVEN_SPACE, NB_SPACE, HAS_SPACE];
export const WEIGHT = BY_WEIGHT.map((_, s) => BY_WEIGHT.indexOf(s));

/** Typographic variants read as the plain grapheme a model's training text wrote, where its vocabulary lacks them
 * ("’" as "'": charrestore/engines/char_input.py READS_AS); rendered as typed. */
export const READS_AS = new Map([["\u2019", "'"], ["\u02bc", "'"], ["\u2010", "-"], ["\u2011", "-"]]);

/** grapheme -> id of a model's vocabulary, each variant of READS_AS it lacks given its plain form's id. */
export function vocabIndex(vocab) {
  const index = new Map(vocab.map((g, i) => [g, i]));
  for (const [variant, plain] of READS_AS) if (!index.has(variant) && index.has(plain)) index.set(variant, index.get(plain));
  return index;
}

/** Vocabulary ids of base graphemes; unknown ones get UNK (they are rendered as themselves). */
export function graphemeIds(base, index) {
  return Int32Array.from(base, (g) => index.get(g) ?? UNK);
}
