/**
 * Apostrophes typed as quotes or after a plural in unspaced text ("said'hello'and", "analysts'expectations"):
 * charrestore/quote_apostrophes.py. Where frequent words end right before an apostrophe and begin right after it,
 * and no word that the counts know holds it nor a clitic they know begins after it ("'s"), it stands between two
 * words: the space goes before it where it opens a quote that a later apostrophe closes or stands for a year's
 * century ("'90s"), else after it.
 */

export const FREQUENT = -6.0; // log10 P of a word seen once in a million words or more
const CLITIC = 100; // an ending after an apostrophe in this many of the counts' words: a clitic of its own
const COMMON = 10; // ... or one that a counted word may end in
const ALNUM = /[\p{L}\p{N}]/u;

/** What the counts' words with an apostrophe say (quote_apostrophes.py ``apostrophe_words``): how many end in
 * each ending after it, where at least COMMON do, and the parts after it of each part before it. */
export function apostropheWords(words) {
  const counts = new Map();
  const halves = new Map();
  for (const w of words) {
    if (!w.includes("'")) continue;
    const at = w.indexOf("'");
    const ending = w.slice(at + 1);
    if (at === w.lastIndexOf("'") && !w.endsWith("'")) counts.set(ending, (counts.get(ending) ?? 0) + 1);
    for (let p = 0; p < w.length; p++) {
      if (w[p] !== "'") continue;
      if (!halves.has(w.slice(0, p))) halves.set(w.slice(0, p), new Set());
      halves.get(w.slice(0, p)).add(w.slice(p + 1));
    }
  }
  return { endings: new Map([...counts].filter(([, n]) => n >= COMMON)), halves };
}

/** ``spans`` (word runs of ``low``, the text lower-cased one character for one) cut at each apostrophe that stands
 * between two words, and the run starts after such an apostrophe whose space goes before it (an opening quote);
 * ``uncut``: text positions where no space may go (inside a link or an address). */
export function splitRuns(low, spans, logp, known, longest, uncut = new Set()) {
  low = low.replaceAll("\u2019", "'");
  const cuts = [];
  for (const [b, e] of spans) {
    for (let t = b + 1; t < e - 1; t++) {
      if (low[t] !== "'" || !ALNUM.test(String.fromCodePoint(low.codePointAt(t + 1)))) continue;
      if (!uncut.has(t) && !uncut.has(t + 1) && betweenWords(low, t, b, e, logp, longest)
          && !held(low, t, b, e, known, longest)) cuts.push(t);
    }
  }
  const before = new Set();
  if (!cuts.length) return { spans, before };
  const out = [];
  let k = 0;
  for (const [b, e] of spans) {
    let start = b;
    for (; k < cuts.length && cuts[k] < e; k++) {
      out.push([start, cuts[k]]);
      start = cuts[k] + 1;
    }
    out.push([start, e]);
  }
  const marks = [];
  for (let t = 0; t < low.length; t++) if (low[t] === "'") marks.push(t);
  const years = cuts.filter((t) => /\p{Nd}/u.test(low[t + 1])); // a year's elided century opens no quote: "'90s"
  years.forEach((t) => before.add(t + 1));
  const separators = new Set(cuts.filter((t) => !years.includes(t)));
  const lastCloser = Math.max(-1, ...marks.filter((t) => separators.has(t) || edge(low, t) === "closes"));
  let isOpen = false;
  for (const t of marks) {
    if (separators.has(t)) {
      if (!isOpen && lastCloser > t) before.add(t + 1); // a later apostrophe closes the quote that this one opens
      isOpen = !isOpen && lastCloser > t;
    } else if (edge(low, t)) {
      isOpen = edge(low, t) === "opens";
    }
  }
  return { spans: out, before };
}

/** "opens" for an apostrophe before a word only, "closes" for one after a word only, else "". */
function edge(low, t) {
  const wordBefore = t > 0 && ALNUM.test(low[t - 1]);
  const wordAfter = t + 1 < low.length && ALNUM.test(low[t + 1]);
  return wordAfter && !wordBefore ? "opens" : wordBefore && !wordAfter ? "closes" : "";
}

/** Whether frequent words of three letters or more end right before the apostrophe at ``t`` and begin after it. */
function betweenWords(low, t, b, e, logp, longest) {
  let left = false;
  for (let i = Math.max(b, t - longest); i < t - 2 && !left; i++) {
    left = (logp.get(low.slice(i, t)) ?? -Infinity) >= FREQUENT;
  }
  if (!left) return false;
  for (let j = t + 4; j <= Math.min(e, t + 1 + longest); j++) {
    if ((logp.get(low.slice(t + 1, j)) ?? -Infinity) >= FREQUENT) return true;
  }
  return false;
}

/** Whether the apostrophe at ``t`` begins a clitic, stands a letter away from another apostrophe ("rock'n'roll"),
 * or lies in a known word that ends at it ("l'"), in a common ending ("don't") or two letters or more after it. */
function held(low, t, b, e, known, longest) {
  if (low.slice(Math.max(t - 2, 0), t - 1) === "'" || low.slice(t + 2, t + 3) === "'") return true;
  for (const [ending, n] of known.endings) if (n >= CLITIC && low.startsWith(ending, t + 1)) return true;
  for (let i = Math.max(b, t - longest + 1); i <= t; i++) {
    for (const right of known.halves.get(low.slice(i, t)) ?? []) {
      const j = t + 1 + right.length;
      const fits = j <= e && j - i <= longest && low.startsWith(right, t + 1);
      if (fits && (right.length !== 1 || known.endings.has(right))) return true;
    }
  }
  return false;
}
