/**
 * Symbols that the char model never read in training (charrestore/engines/char_symbols.py and symbols.py): what
 * the pack maps ("!", ";", quotes, brackets) and emoji are left out of what the model reads and put back after.
 * A run of them goes after the grapheme before it: one that maps onto a mark stands for that mark; a closing
 * quote or bracket glued to a word takes the word's space and mark; an emoji glued to a word takes no mark
 * before it when spaces are given; in unspaced text a run of closers or emoji between letters ends a word.
 */

import { endsSentenceOn, startsAlnum } from "./clusters.js";
import { BY_WEIGHT, HAS_SPACE, NO_SPACE, WEIGHT } from "./input.js";
import { SPACE } from "./pack.js";
import { bracketSides, EMOJI, offsets, searchSorted } from "./spans.js";

const escape = (s) => s.replace(/[\\\]\[^\-]/g, "\\$&");

/** Where a word ends in unspaced text beyond the segmenter's cuts: after a run of closing symbols ("!", ";", "…"
 * for en) or emoji between two letters ("great!!!see", "it😀so"). */
export function symbolGaps(pack) {
  const closers = Object.keys(pack.map).filter((ch) => pack.sentenceMarks.includes(pack.map[ch]));
  const run = closers.length ? `[${escape(closers.join(""))}]+|` : "";
  const gap = new RegExp(`(?<=\\p{L})(?:${run}(?:${EMOJI})+)(?=\\p{L})`, "gu");
  return (text) => Array.from(text.matchAll(gap), (m) => m.index + m[0].length);
}

const OPENS = /^[\p{Ps}\p{Pi}]/u;
const CLOSES = /^[\p{Pe}\p{Pf}"']/u;

/** The graphemes the model does not read: what the pack maps (``map_between_words`` only outside a word) and
 * emoji, never one inside another protected span (a URL's ":"). */
function unreadMask(base, given, pack, frozen) {
  const n = base.length;
  const space = pack.bit(SPACE);
  const out = Uint8Array.from(base, (g) => Object.hasOwn(pack.map, g));
  for (let i = 0; i < n; i++) {
    if (!Object.hasOwn(pack.mapBetweenWords, base[i])) continue;
    const inside = i > 0 && i < n - 1 && startsAlnum(base[i - 1]) && startsAlnum(base[i + 1])
      && !(given[i - 1] & space) && !(given[i] & space);
    if (!inside) out[i] = 1;
  }
  if (frozen) {
    for (let i = 0; i < n; i++) if (frozen.inside[i]) out[i] = 0;
    for (const [s, e, kind] of frozen.spans) if (kind === "emoji") out.fill(1, s, e);
  }
  return out;
}

/** One input's unread graphemes: which ones the model reads (``vis``), what it reads there, and how its
 * classes over them become classes of the whole input. ``keep``: the input's spaces are the word boundaries.
 * ``required``: where restored spaces must stay (a span's typed edge): a run after one is not glued ("0% )0"). */
export class Unread {
  constructor(base, given, pack, gaps, frozen, keep, required = null) {
    this.required = required;
    this.n = base.length;
    this.space = pack.bit(SPACE);
    this.markBits = pack.markBits;
    const hidden = unreadMask(base, given, pack, frozen);
    keep = keep && Boolean(this.space); // a pack without spaces (ja) has none to keep
    this.keep = keep;
    this.given = keep ? Int32Array.from(given) : given.map((c) => c & ~this.space);
    this.any = hidden.some(Boolean);
    this.vis = [];
    hidden.forEach((h, i) => h || this.vis.push(i));
    this.force = new Int32Array(this.vis.length).fill(-1); // a mark to read after a visible grapheme (-1: none)
    this.clear = new Uint8Array(this.vis.length); // its mark is shown by the run after it, not rendered
    this.moves = []; // [visible index, run end]: its space and mark go after the run
    this.soft = []; // the same, but a mark the model gives stays before the run
    this.gaps = []; // visible indices followed by a space in unspaced text
    this.stays = []; // visible indices whose run after them takes nothing from them (an opener)
    this.lastRun = null;
    if (!this.any || !this.vis.length) return;
    const endsAt = offsets(base);
    const gapEnds = new Set(keep ? [] : gaps(base.join("")).map((p) => searchSorted(endsAt, p) - 1));
    this.sides = bracketSides(base); // which quote opens and which closes ("„…“", '"…"')
    const g = this.given;
    for (let s = 0; s < this.n; ) { // runs: unread graphemes with no space between them
      if (!hidden[s]) {
        s++;
        continue;
      }
      let e = s + 1;
      // (a closing quote before an opening bracket: two runs, '"Dune" (1965)')
      while (e < this.n && hidden[e] && !(g[e - 1] & this.space)
        && !(this.sides.get(e - 1) === false && this.sides.get(e) === true)) e++;
      this.run(base, pack, hidden, s, e, gapEnds);
      s = e;
    }
  }

  run(base, pack, hidden, s, e, gapEnds) {
    const g = this.given;
    if (s === 0 || hidden[s - 1]) {
      if (e === this.n) this.lastRun = false;
      return; // a leading run, or one after another, keeps what it was given
    }
    const k = searchSorted(this.vis, s - 1);
    let typed = 0;
    for (const m of new Set(pack.map[base[e - 1]] ?? "")) if (pack.marks.includes(m)) typed |= pack.bit(m);
    typed |= g[e - 1] & this.markBits;
    const opens = this.sides.has(s) ? this.sides.get(s) : OPENS.test(base[s]);
    let closes = true;
    for (let i = s; i < e; i++) closes &&= this.sides.has(i) ? !this.sides.get(i) : CLOSES.test(base[i]);
    const glued = !(g[s - 1] & this.space) && !(this.required && this.required[s - 1]);
    if (e === this.n) this.lastRun = glued && closes && !typed;
    if (opens || (!glued && !typed)) { // the word before keeps what the model gives it
      this.stays.push(k);
      return;
    }
    if (g[s - 1] & this.markBits) {
      // a mark typed before the run stays as it is
    } else if (typed) {
      this.force[k] = typed;
      this.clear[k] = 1;
    } else if (!closes && this.keep) {
      this.force[k] = 0; // "fun😀": no mark between a word and what the user glued to it
    }
    if (glued) (typed || closes || this.keep ? this.moves : this.soft).push([k, e - 1]);
    if (gapEnds.has(e - 1)) this.gaps.push(k); // "!!!" or emoji between letters end a word
  }

  /** Whether the input ends in a sentence that needs a final mark: its last read grapheme is one a sentence may
   * end on (a letter, digit, percent or currency sign), and nothing after it but a glued closing quote or bracket. */
  endsSentence(base) {
    if (!this.vis.length) return false;
    return endsSentenceOn(base[this.vis[this.vis.length - 1]]) && (this.lastRun === null || this.lastRun === true);
  }

  /** Space states of the read graphemes: a space after any grapheme up to the next read one counts
   * (the heaviest state of the stretch, input.js BY_WEIGHT) where the run after the grapheme takes its space, up to
   * that run's end; before a run that takes nothing from it (an opener) only the grapheme's own; with ``enforced``,
   * unspaced text gets its gaps. */
  states(states, enforced = false) {
    const out = new Int32Array(this.vis.length);
    this.vis.forEach((v, i) => {
      const end = i + 1 < this.vis.length ? this.vis[i + 1] : states.length;
      let m = WEIGHT[states[v]];
      for (let j = v + 1; j < end; j++) m = Math.max(m, WEIGHT[states[j]]);
      out[i] = BY_WEIGHT[m];
    });
    for (const [k, end] of [...this.moves, ...this.soft]) { // (not the runs after the first: "/)“ 0%")
      let m = WEIGHT[states[this.vis[k]]];
      for (let j = this.vis[k] + 1; j <= end; j++) m = Math.max(m, WEIGHT[states[j]]);
      out[k] = BY_WEIGHT[m];
    }
    for (const k of this.stays) out[k] = states[this.vis[k]];
    if (enforced) for (const k of this.gaps) out[k] = HAS_SPACE;
    if (out.length && out[out.length - 1] === HAS_SPACE) out[out.length - 1] = NO_SPACE;
    return out;
  }

  /** The marks the read graphemes keep (the given ones, plus a run's mark or none before an emoji) and where they
   * are fixed. */
  forced(marks, fixed) {
    marks = Int32Array.from(marks);
    fixed = Uint8Array.from(fixed);
    this.force.forEach((f, i) => {
      if (f >= 0) {
        marks[i] = f;
        fixed[i] = 1;
      }
    });
    return [marks, fixed];
  }

  /** Classes of the whole input from those of the read graphemes: an unread one keeps its given space and marks;
   * a glued run takes the space and mark of the grapheme before it. */
  back(cls) {
    const out = this.given.map((c) => c & (this.space | this.markBits));
    this.vis.forEach((v, i) => (out[v] = cls[i]));
    if (this.vis.length) { // the model read its last grapheme as the end; a given space before a run stays
      const last = this.vis[this.vis.length - 1];
      out[last] |= this.given[last] & this.space;
    }
    const all = [...this.moves.map((m) => [false, ...m]), ...this.soft.map((m) => [true, ...m])];
    for (const [soft, k, end] of all) {
      const v = this.vis[k];
      if (soft && out[v] & this.markBits & ~this.given[v]) {
        out[end] |= out[v] & this.space;
        out[v] |= this.space;
        continue;
      }
      const moved = (this.space | this.markBits) & ~(this.given[v] | (this.clear[k] ? this.markBits : 0));
      out[end] |= out[v] & (moved | this.space);
      out[v] &= ~(moved | this.space);
    }
    this.clear.forEach((c, i) => c && (out[this.vis[i]] &= ~this.markBits));
    return out;
  }
}
