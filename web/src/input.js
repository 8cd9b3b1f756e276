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

/** Vocabulary ids of base graphemes; unknown ones get UNK (they are rendered as themselves). */
export function graphemeIds(base, index) {
  return Int32Array.from(base, (g) => index.get(g) ?? UNK);
}
