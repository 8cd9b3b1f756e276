/** Reading the arrays of a NumPy ``.npz`` file (a zip of ``.npy`` files, as ``np.savez_compressed`` writes it):
 * the language detector's model (models/detect/detect.npz) is one. Only what that file holds is read: int8,
 * int64, float64 and fixed-width Unicode arrays, C order, stored or deflated members (ZIP64 sizes too). */

import { inflate } from "./fetch.js";

const LOCAL_HEADER = 0x04034b50;

/** ``{name: {dtype, shape, data}}`` of every member; ``data``: a typed array, a number array or strings. */
export async function readNpz(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const arrays = {};
  let at = 0;
  while (at + 30 <= bytes.length && view.getUint32(at, true) === LOCAL_HEADER) {
    const flags = view.getUint16(at + 6, true);
    const method = view.getUint16(at + 8, true);
    let size = view.getUint32(at + 18, true);
    const nameLength = view.getUint16(at + 26, true);
    const extraLength = view.getUint16(at + 28, true);
    const name = new TextDecoder().decode(bytes.subarray(at + 30, at + 30 + nameLength));
    if (flags & 8) throw new Error(`${name}: a zip member with a data descriptor is not supported`);
    const extra = at + 30 + nameLength;
    if (size === 0xffffffff) size = zip64Size(view, extra, extraLength, name);
    const start = extra + extraLength;
    const raw = bytes.subarray(start, start + size);
    if (method !== 0 && method !== 8) throw new Error(`${name}: zip method ${method} is not supported`);
    arrays[name.replace(/\.npy$/, "")] = readNpy(method === 8 ? await inflate(raw, "deflate-raw") : raw, name);
    at = start + size;
  }
  return arrays;
}

/** The compressed size in a ZIP64 extra field (id 1: uncompressed size, then compressed size, 8 bytes each). */
function zip64Size(view, at, length, name) {
  for (let end = at + length; at + 4 <= end; at += 4 + view.getUint16(at + 2, true)) {
    if (view.getUint16(at, true) === 1) return Number(view.getBigUint64(at + 12, true));
  }
  throw new Error(`${name}: ZIP64 sizes without their extra field`);
}

/** One ``.npy`` file: its header's dtype and shape, then the data in C order. */
export function readNpy(bytes, name = "array") {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes[0] !== 0x93 || new TextDecoder().decode(bytes.subarray(1, 6)) !== "NUMPY") {
    throw new Error(`${name}: not a .npy file`);
  }
  const major = bytes[6];
  const headerLength = major === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
  const offset = (major === 1 ? 10 : 12) + headerLength;
  const header = new TextDecoder().decode(bytes.subarray(offset - headerLength, offset));
  const dtype = /'descr':\s*'([^']+)'/.exec(header)?.[1];
  if (/'fortran_order':\s*True/.test(header)) throw new Error(`${name}: Fortran order is not supported`);
  const shape = (/'shape':\s*\(([^)]*)\)/.exec(header)?.[1] ?? "").split(",").filter((s) => s.trim()).map(Number);
  const count = shape.reduce((a, b) => a * b, 1);
  const body = bytes.slice(offset); // aligned copy
  let data;
  if (dtype === "|i1") data = new Int8Array(body.buffer, 0, count);
  else if (dtype === "<f8") data = Array.from(new Float64Array(body.buffer, 0, count));
  else if (dtype === "<i8") data = Array.from(new BigInt64Array(body.buffer, 0, count), Number);
  else if (/^<U\d+$/.test(dtype)) {
    const width = Number(dtype.slice(2));
    const codes = new Uint32Array(body.buffer, 0, count * width);
    data = Array.from({ length: count }, (_, i) => String.fromCodePoint(...codes.subarray(i * width, (i + 1) * width))
      .replace(/\0+$/, ""));
  } else throw new Error(`${name}: dtype ${dtype} is not supported`);
  return { dtype, shape, data };
}
