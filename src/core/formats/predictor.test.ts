import { describe, expect, it } from 'vitest';
import { predictRows } from './predictor';

/** Undoes predictor 2 on little-endian samples (the reader's running sum). */
function undo2(b: Uint8Array, rows: number, width: number, bps: number): Uint8Array {
  const out = b.slice();
  const mod = 2 ** (8 * bps);
  for (let y = 0; y < rows; y++) {
    for (let i = 1; i < width; i++) {
      const p = (y * width + i) * bps;
      let a = 0, q = 0;
      for (let k = bps - 1; k >= 0; k--) { a = a * 256 + out[p + k]; q = q * 256 + out[p - bps + k]; }
      let v = (a + q) % mod;
      for (let k = 0; k < bps; k++) { out[p + k] = v % 256; v = Math.floor(v / 256); }
    }
  }
  return out;
}

describe('predictRows', () => {
  const rows = 3, width = 7;
  for (const bps of [1, 2, 4]) {
    it(`predictor 2 on ${8 * bps}-bit samples round-trips through the running sum`, () => {
      const src = Uint8Array.from({ length: rows * width * bps }, (_, i) => (i * 97 + 13) & 0xff);
      const dst = new Uint8Array(src.length);
      predictRows(src, dst, rows, width, bps, 2);
      expect(undo2(dst, rows, width, bps)).toEqual(src);
    });
  }

  it('predictor 3: byte planes most significant first, then differences (Adobe TN 3)', () => {
    const f = Float32Array.of(1.5, -2.25);
    const src = new Uint8Array(f.buffer);
    const dst = new Uint8Array(8);
    predictRows(src, dst, 1, 2, 4, 3);
    const planes = [src[3], src[7], src[2], src[6], src[1], src[5], src[0], src[4]];
    expect(Array.from(dst)).toEqual(planes.map((v, i) => (i ? (v - planes[i - 1]) & 0xff : v)));
  });

  it('predictor 1 copies', () => {
    const src = Uint8Array.of(1, 2, 3, 4);
    const dst = new Uint8Array(4);
    predictRows(src, dst, 1, 4, 1, 1);
    expect(dst).toEqual(src);
  });
});
