/**
 * Long numbers get the pack's thousands separator: "170000" -> "170.000" (es, vi), "170 000" (de, fr, ru), in
 * place of the spaces the segmenter may have cut them with; a number typed in groups with spaces ("555 123 4567",
 * "1 200 000") takes no mark between them (charrestore/digit_groups.py).
 */

const MIN_DIGITS = 5; // the shortest run that is grouped: four digits are most often a year ("2023")
const MAX_DIGITS = 9; // the longest: ten digits or more are a phone number or an ID as often as an amount
const LETTER = /^\p{L}/u;
const CODE_SIGNS = "+-/:#@_&=\u2010\u2011"; // a run beside one is a phone number, a date, a code ("+4917012345")
const joins = (g) => LETTER.test(g) || CODE_SIGNS.includes(g);
const digit = (g) => g.length === 1 && g >= "0" && g <= "9";

/** ``cls`` with ``bit`` (the separator's: a mark's, or the space's) inside every long run of digits that is a word
 * of its own; ``given``: the input's classes, whose spaces and marks end or keep a run; ``spaceSep``: the separator
 * is the space (nothing changes where spaces are kept); ``inside``: graphemes inside protected spans, or null. */
export function digitGroups(base, cls, bit, spaceSep, space, markBits, given, keep, inside = null) {
  cls = typedGroups(base, cls, space, markBits, given, inside);
  if (!bit || (spaceSep && keep)) return cls;
  const n = base.length;
  let k = 0;
  while (k < n) {
    if (!digit(base[k])) {
      k++;
      continue;
    }
    let e = k + 1;
    while (e < n && digit(base[e]) && !(given[e - 1] & space)) e++;
    for (const [a, b] of runs(cls, k, e, space)) {
      const alone = (a === 0 || !joins(base[a - 1]) || cls[a - 1] & space)
        && (b === n || !joins(base[b]) || cls[b - 1] & space);
      let typed = false;
      for (let i = a; i < b - 1; i++) typed ||= Boolean(given[i] & markBits);
      let guarded = false;
      if (inside) for (let i = a; i < b; i++) guarded ||= Boolean(inside[i]);
      if (b - a >= MIN_DIGITS && b - a <= MAX_DIGITS && alone && base[a] !== "0" && !typed && !guarded) {
        for (let i = a; i < b - 1; i++) cls[i] &= ~(markBits | space);
        for (let i = b - 4; i >= a; i -= 3) cls[i] |= bit; // the digit before each group of three from the end
      }
    }
    k = e;
  }
  return cls;
}

/** The numbers in the digits ``k:e``: one, where the engines' spaces cut it only into whole groups of three after
 * the first ("2500 000", "1 200000"); else each piece between those spaces ("1945 1946"). */
function runs(cls, k, e, space) {
  const starts = [k];
  for (let i = k; i < e - 1; i++) if (cls[i] & space) starts.push(i + 1);
  const pieces = starts.map((a, j) => [a, j + 1 < starts.length ? starts[j + 1] : e]);
  return pieces.slice(1).every(([a, b]) => (b - a) % 3 === 0) ? [[k, e]] : pieces;
}

/** ``cls`` without the marks the engines put between the groups of a number typed with spaces in it, its typed
 * spaces kept (typed_groups in digit_groups.py). */
export function typedGroups(base, cls, space, markBits, given, inside = null) {
  if (!space || !given.some((c) => c & space)) return cls;
  const n = base.length;
  let k = 0;
  while (k < n) {
    if (!digit(base[k]) || (k > 0 && (digit(base[k - 1])
        || (joins(base[k - 1]) && base[k - 1] !== "+" && !(given[k - 1] & space))))) {
      k++;
      continue;
    }
    const plus = k > 0 && base[k - 1] === "+" && !(given[k - 1] & space)
      && (k === 1 || Boolean(given[k - 2] & space) || !joins(base[k - 2]));
    const groups = [];
    let e = k;
    for (;;) {
      const a = e;
      while (e < n && digit(base[e]) && (e === a || !(given[e - 1] & (space | markBits)))) e++;
      groups.push([a, e]);
      if (!(e < n && digit(base[e]) && given[e - 1] & space && !(given[e - 1] & markBits))) break;
    }
    const closed = e === n || Boolean(given[e - 1] & (space | markBits)) || !joins(base[e]);
    let forms = groups.map(([a, b]) => base.slice(a, b).join(""));
    let signed = plus;
    if (!oneNumber(forms, plus) && oneNumber(forms.slice(1), false, false)) { // "2019 20 000": a year, an amount
      groups.shift();
      forms = forms.slice(1);
      signed = false;
    }
    let guarded = false;
    if (inside) for (let i = groups[0][0]; i < e; i++) guarded ||= Boolean(inside[i]);
    if (closed && !guarded && oneNumber(forms, signed)) {
      groups.forEach(([a, b], j) => {
        const last = j === groups.length - 1;
        for (let i = a; i < (last ? b - 1 : b); i++) cls[i] = (cls[i] & ~(markBits | space)) | (last ? 0 : given[i] & space);
      });
      if (signed) cls[k - 1] = (cls[k - 1] & ~(markBits | space)) | given[k - 1]; // "+49": no mark after the sign
    }
    k = e;
  }
  return cls;
}

/** Whether digit groups typed with spaces between them are one number rather than a list (_one_number). */
function oneNumber(groups, plus, phone = true) {
  const lengths = groups.map((g) => g.length);
  if (groups.length < 2 || lengths.reduce((x, y) => x + y, 0) > 15) return false;
  const later = groups.slice(1);
  const amount = lengths[0] <= 3 && groups[0][0] !== "0" && lengths.slice(1).every((n) => n === 3)
    && later.some((g) => g.startsWith("0") || Number(g) % 100 !== 0)
    && (groups.length >= 3 || later[0].startsWith("0"));
  return amount || (phone && groups.length >= 3 && (
    ((plus || groups[0].startsWith("0")) && lengths.slice(1).every((n) => n >= 2 && n <= 8))
    || (lengths.length === 3 && lengths[0] === 3 && lengths[1] === 3 && lengths[2] === 4
      && groups.some((g) => Number(g) % 10 !== 0)))); // not round: "100 500 1000" is a list
}
