/**
 * onnxruntime-web's WebAssembly binary from a gzip file: a plain static server sends the 14 MB file as it is,
 * the 3.7 MB gzip of it is unpacked here (DecompressionStream) and handed to ort, which then fetches nothing.
 * One thread: threads need SharedArrayBuffer, which needs COOP/COEP headers a plain static server never sends.
 */

import * as ort from "onnxruntime-web";
import { fetchBytes, inflate } from "./fetch.js";

export async function useCompressedWasm(url) {
  const bytes = await fetchBytes(url);
  const gzip = bytes[0] === 0x1f && bytes[1] === 0x8b; // a server that sends it with Content-Encoding has unpacked it
  ort.env.wasm.wasmBinary = gzip ? await inflate(bytes, "gzip") : bytes;
  ort.env.wasm.numThreads = 1;
}
