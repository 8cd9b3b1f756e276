/**
 * Overlapped windows (charrestore/chunking.py, after B. Nguyen et al.'s chunk merging): consecutive windows
 * overlap by ``overlap`` positions and the seam between them sits ``cut`` positions before the end of the
 * earlier one, so that every kept prediction has context on both sides. All windows have one length, so they
 * batch without padding (padding would disturb a BiLSTM's backward pass).
 */

/** [{start, end, keepStart, keepEnd}] covering ``n`` positions (one shorter window if ``n <= size``). */
export function plan(n, size, overlap, cut) {
  if (!(0 <= cut && cut <= overlap && overlap < size)) {
    throw new RangeError(`need 0 <= cut <= overlap < size, got cut=${cut} overlap=${overlap} size=${size}`);
  }
  if (n <= size) return [{ start: 0, end: n, keepStart: 0, keepEnd: n }];
  const starts = [];
  for (let s = 0; s < n - size; s += size - overlap) starts.push(s);
  starts.push(n - size);
  const seams = [0];
  for (let k = 1; k < starts.length; k++) {
    const prevEnd = starts[k - 1] + size;
    seams.push(prevEnd - starts[k] >= cut ? Math.max(starts[k], prevEnd - cut) : prevEnd);
  }
  seams.push(n);
  return starts.map((s, k) => ({ start: s, end: s + size, keepStart: seams[k], keepEnd: seams[k + 1] }));
}
