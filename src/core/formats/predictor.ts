/**
 * The TIFF predictors, one implementation for every TIFF the project writes (the GeoTIFF
 * writer `tiff.ts` and the COG writer `cog.ts`): 2 = horizontal differencing of integer
 * samples (TIFF 6.0 section 14), 3 = floating point (Adobe Photoshop TIFF Technical Note 3:
 * per row, the bytes of the samples as planes, most significant first, then byte differencing).
 */

/**
 * Applies a predictor to `rows` rows of `width` little-endian samples of `bps` bytes, from
 * `src` into `dst` (same length; they may not overlap). Predictor 1 copies.
 * @throws Error for predictor 2 on samples wider than 32 bits
 */
export function predictRows(src: Uint8Array, dst: Uint8Array, rows: number, width: number, bps: number, predictor: 1 | 2 | 3): void {
  const rowBytes = width * bps;
  if (predictor === 1) { dst.set(src.subarray(0, rows * rowBytes)); return; }
  if (predictor === 3) {
    for (let y = 0; y < rows; y++) {
      const o = y * rowBytes;
      for (let b = 0; b < bps; b++) {
        const plane = o + b * width;
        const sb = o + (bps - 1 - b); // little-endian: byte bps-1-b is the b-th most significant
        for (let i = 0; i < width; i++) dst[plane + i] = src[sb + i * bps];
      }
      for (let i = rowBytes - 1; i > 0; i--) dst[o + i] = (dst[o + i] - dst[o + i - 1]) & 0xff;
    }
    return;
  }
  if (bps > 4) throw new Error('predictor 2 supports samples of up to 32 bits');
  if ((bps === 2 || bps === 4) && src.byteOffset % bps === 0 && dst.byteOffset % bps === 0) {
    // aligned 16/32-bit samples: unsigned typed arrays wrap the differences modulo 2^bits
    const n = rows * width;
    const S = bps === 2 ? new Uint16Array(src.buffer, src.byteOffset, n) : new Uint32Array(src.buffer, src.byteOffset, n);
    const D = bps === 2 ? new Uint16Array(dst.buffer, dst.byteOffset, n) : new Uint32Array(dst.buffer, dst.byteOffset, n);
    for (let y = 0; y < rows; y++) {
      const o = y * width;
      D[o] = S[o];
      for (let i = 1; i < width; i++) D[o + i] = S[o + i] - S[o + i - 1];
    }
    return;
  }
  const mask = bps === 4 ? 0xffffffff : (1 << (8 * bps)) - 1;
  const get = (a: Uint8Array, p: number) => { let v = 0; for (let k = bps - 1; k >= 0; k--) v = v * 256 + a[p + k]; return v; };
  for (let y = 0; y < rows; y++) {
    const o = y * rowBytes;
    for (let k = 0; k < bps; k++) dst[o + k] = src[o + k];
    for (let i = 1; i < width; i++) {
      const p = o + i * bps;
      let d = (get(src, p) - get(src, p - bps)) % (mask + 1);
      if (d < 0) d += mask + 1;
      for (let k = 0; k < bps; k++) { dst[p + k] = d % 256; d = Math.floor(d / 256); }
    }
  }
}
