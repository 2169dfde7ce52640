// Makes a screenshot small enough for the repository and a README: each picture at most 200 KB.
// Screenshots of text, tables and flat-coloured charts lose nothing visible in a 256-colour
// palette (UPNG.js's quantizer, pure JavaScript, the same output for the same input), which is a
// third to a half of Chromium's lossless PNG; fewer colours are tried only when that is not enough.
import { createRequire } from 'node:module';

const UPNG = createRequire(import.meta.url)('upng-js') as typeof import('upng-js');

export const MAX_BYTES = 200 * 1024;

/** `png` as a palette PNG of at most MAX_BYTES; throws, with the size reached, when even 64 colours are too many. */
export function fitPng(png: Buffer): Buffer {
  const image = UPNG.decode(toArrayBuffer(png));
  const rgba = UPNG.toRGBA8(image)[0]!;
  let smallest = png;
  for (const colours of [256, 128, 64]) {
    const out = Buffer.from(UPNG.encode([rgba], image.width, image.height, colours));
    if (out.length < smallest.length) smallest = out;
    if (smallest.length <= MAX_BYTES) return smallest;
  }
  throw new Error(
    `a ${image.width}×${image.height} picture is still ${(smallest.length / 1024).toFixed(0)} KB at 64 colours; capture less of the page`,
  );
}

/** Width and height from a PNG's header. */
export function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

function toArrayBuffer(buffer: Buffer): ArrayBuffer {
  return buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength) as ArrayBuffer;
}
