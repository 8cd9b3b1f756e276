/**
 * The NB segmenter's counts file (charrestore/counts.py): a header, then one zlib stream of the unigram counts
 * (float64), the words (sorted by code point in format 2, most frequent first in format 1; the page reads both), the context words, their raw "word count ..." pairs, and the reach
 * table (last three letters -> length of the longest word ending in them). The browser's
 * DecompressionStream("deflate") reads zlib.
 */

import { inflate } from "./fetch.js";

const MAGICS = ["charrestore-nb-counts 2\n", "charrestore-nb-counts 1\n"];
const MAGIC = MAGICS[0];
const HEADER = 6 * 8;

/** {words, counts, contexts: Map(word -> raw pairs), reach: Map(ending -> length)} of a counts file's bytes. */
export async function readCounts(bytes) {
  const magic = new TextDecoder().decode(bytes.subarray(0, MAGIC.length));
  if (!MAGICS.includes(magic) || bytes.length < MAGIC.length + HEADER) throw new Error("not a charrestore counts file");
  const head = new DataView(bytes.buffer, bytes.byteOffset + MAGIC.length, HEADER);
  const [n, nReach, ...sizes] = Array.from({ length: 6 }, (_, k) => Number(head.getBigUint64(8 * k, true)));
  const payload = await inflate(bytes.subarray(MAGIC.length + HEADER), "deflate");
  if (payload.length !== 8 * n + sizes.reduce((a, b) => a + b, 0) + 2 * nReach) {
    throw new Error("truncated or overlong counts file");
  }
  const view = new DataView(payload.buffer);
  const counts = new Float64Array(n);
  for (let i = 0; i < n; i++) counts[i] = view.getFloat64(8 * i, true);
  const utf8 = new TextDecoder();
  let at = 8 * n;
  const blobs = sizes.map((size) => {
    const text = size ? utf8.decode(payload.subarray(at, at + size)).split("\n") : [];
    at += size;
    return text;
  });
  const [words, keys, values, ends] = blobs;
  if (words.length !== n || keys.length !== values.length || ends.length !== nReach) {
    throw new Error("the counts file's parts do not agree");
  }
  const reach = new Map(ends.map((e, k) => [e, view.getUint16(at + 2 * k, true)]));
  return { words, counts, contexts: new Map(keys.map((k, i) => [k, values[i]])), reach };
}
