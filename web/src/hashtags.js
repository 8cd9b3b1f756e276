/**
 * Hashtags in their CamelCase form (charrestore/hashtags.py, ``--hashtags camel``): only the case of a tag
 * changes (#throwbackthursday -> #ThrowbackThursday), which screen readers read word by word. A tag with inner
 * capitals keeps the user's boundaries; digits are a segment of their own.
 */

const RUN = /\p{L}[\p{L}\p{M}]*|\p{N}[\p{N}\p{M}]*|./gsu;
const USER_CUT = /(?<=\p{Ll}\p{M}*)(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u;
const UPPER = /\p{Uppercase}/u;
const ALPHA = /^\p{L}/u;

/** Whether a tag body has a capital after its first letter: the user has marked its words. */
function hasInnerCapitals(body) {
  return UPPER.test([...body].slice(1).join(""));
}

/** The segments of a tag body: letter runs cut at the user's case boundaries, else by the segmenter. */
function segments(body, segmenter) {
  const out = [];
  const user = hasInnerCapitals(body);
  for (const [run] of body.matchAll(RUN)) {
    if (!ALPHA.test(run)) out.push(run);
    else if (user) out.push(...run.split(USER_CUT));
    else if (segmenter) {
      const cuts = segmenter.cuts(run);
      [0, ...cuts].forEach((a, k) => out.push(run.slice(a, k < cuts.length ? cuts[k] : run.length)));
    } else out.push(run);
  }
  return out;
}

/** The CamelCase body of a tag: each word capitalized, unless ``cased`` (the words as the model restores them
 * in context) gives it inner capitals (NASA, iPhone). */
function camel(parts, cased) {
  return parts.map((word, k) => {
    const known = cased[k];
    if (ALPHA.test(word) && known.toLowerCase() === word.toLowerCase() && hasInnerCapitals(known)) return known;
    if (ALPHA.test(word)) {
      const first = String.fromCodePoint(word.codePointAt(0));
      return first.toUpperCase() + word.slice(first.length);
    }
    return word;
  }).join("");
}

/** The CamelCase form of each tag (given with its "#"), its words cased in one call of ``caseWords``. */
export async function camelForms(tags, segmenter, caseWords) {
  const bodies = tags.map((t) => (t.startsWith("#") ? t.slice(1) : t));
  const parts = bodies.map((b) => segments(b, segmenter));
  const words = [];
  parts.forEach((p, k) => hasInnerCapitals(bodies[k]) || words.push(...p.filter((w) => ALPHA.test(w))));
  const cased = words.length ? await caseWords(words) : words;
  let at = 0;
  return parts.map((p, k) => {
    if (hasInnerCapitals(bodies[k])) return "#" + bodies[k];
    return "#" + camel(p, p.map((w) => (ALPHA.test(w) ? cased[at++] : w)));
  });
}
