/**
 * The char model's input ids (charrestore/engines/char_input.py): ``3 * grapheme_id + state``, with state
 * UNKNOWN (spaces to restore), NO_SPACE or HAS_SPACE (spaces given by the input). One model thus serves
 * unspaced text and text whose word boundaries are known.
 */

const UNK = 1;
export const UNKNOWN = 0;
export const NO_SPACE = 1;
export const HAS_SPACE = 2;
export const N_STATES = 3;
/** Decoding only, never read by the model: where spaces are restored in spaced input, a space the input gives and a
 * gap that it joins (evidence, not constraints: the classes with a space gain the card's ``given_space`` at the one
 * and lose its ``given_join`` at the other). */
export const GIVEN_JOIN = 3;
export const GIVEN_SPACE = 4;

/** Vocabulary ids of base graphemes; unknown ones get UNK (they are rendered as themselves). */
export function graphemeIds(base, index) {
  return Int32Array.from(base, (g) => index.get(g) ?? UNK);
}
