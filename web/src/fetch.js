/** Reading files by URL, and unpacking compressed bytes with the browser's own DecompressionStream. */

export async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

export async function fetchText(url) {
  return new TextDecoder().decode(await fetchBytes(url));
}

/** The whole of ``bytes`` through a DecompressionStream of ``format`` ("deflate": zlib, "gzip"). */
export async function inflate(bytes, format) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream(format));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
