/** A short, stable hash of a text for cache and style keys. Pure. */

/**
 * 64-bit hash (two 32-bit lanes, cyrb53's mixing) of a text, as 16 hex digits: the key of a
 * geometry's coverage (engine/bulk.ts) and of a catchment's map layer (src/app/catchment-layer.ts).
 * Not cryptographic; a collision needs two texts of one cache's lifetime to hash alike (about 1
 * in 2^64 per pair).
 */
export function hashText(s: string): string {
  let h1 = 0xdeadbeef, h2 = 0x41c6ce57;
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
}
