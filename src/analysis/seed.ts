// Every bootstrap gets its own reproducible random stream: the run's plan seed mixed with the
// names of what is being resampled, so adding a gate does not change another gate's interval.
import { seededRandom, type Random } from '../util/random.ts';

/** FNV-1a over the parts, mixed with the base seed; a 32-bit unsigned integer. */
export function deriveSeed(base: number, ...parts: (string | number)[]): number {
  let hash = (0x811c9dc5 ^ (base >>> 0)) >>> 0;
  for (const part of parts) {
    const text = `${String(part)}\u0000`;
    for (let i = 0; i < text.length; i++) {
      hash ^= text.charCodeAt(i);
      hash = Math.imul(hash, 0x01000193) >>> 0;
    }
  }
  return hash >>> 0;
}

export function randomFor(base: number, ...parts: (string | number)[]): Random {
  return seededRandom(deriveSeed(base, ...parts));
}
