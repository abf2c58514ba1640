import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deflateSync, inflateSync } from 'node:zlib';
import { decodeBlock, decodeSamples, type BlockLayout, type SampleKind } from './block';
import { predictRows } from '../formats/predictor';
import { setPredictor3Simd } from './simd';

const W = 37, H = 5; // odd sizes: rows not a multiple of 4 samples or 16 bytes

/** Deterministic pseudo-random numbers (LCG), so a failure replays. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

function layout(kind: SampleKind, predictor: number, noData: number | null, littleEndian = true, w = W): BlockLayout {
  return { blockWidth: w, blockHeight: H, kind, compression: 8, predictor, littleEndian, noData };
}

/** Stored bytes of `samples` (little-endian host) under a predictor, as a writer would store them. */
function encode(samples: ArrayBufferView, bps: number, predictor: 1 | 2 | 3, w = W): Uint8Array {
  const src = new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength);
  const dst = new Uint8Array(src.length);
  predictRows(src, dst, H, w, bps, predictor);
  return dst;
}

/** Block widths: odd (byte by byte) and a multiple of 4 (the 4 x 4 byte transposes of whole words). */
const WIDTHS = [W, 64];

describe('block decoding (the cold path)', () => {
  // the JavaScript loops (the WebAssembly SIMD kernel has its own tests, simd.test.ts, against them)
  beforeAll(() => { setPredictor3Simd(false); });
  afterAll(() => { setPredictor3Simd(true); });

  it.each(WIDTHS)('predictor 3 Float32, %i wide: every value back bit for bit, the no-data value as NaN', (w) => {
    const r = rng(7);
    const f = Float32Array.from({ length: w * H }, (_, i) => (i % 11 === 3 ? -9999 : i % 13 === 5 ? NaN : (r() - 0.5) * 10 ** Math.floor(r() * 12 - 4)));
    f[1] = -0; f[2] = Infinity; f[4] = 3.4e38; f[5] = -3.4e38; f[6] = 1.4e-45; f[7] = -Infinity;
    const out = decodeSamples(layout('float32', 3, -9999, true, w), encode(f, 4, 3, w)) as Float32Array;
    expect(out).toBeInstanceOf(Float32Array);
    for (let i = 0; i < f.length; i++) {
      if (f[i] === -9999 || Number.isNaN(f[i])) expect(out[i]).toBeNaN();
      else expect(Object.is(out[i], f[i])).toBe(true);
    }
  });

  it.each(WIDTHS)('a no-data value of 0 takes +0 and -0 (equal as numbers), and only those (%i wide)', (w) => {
    const f = Float32Array.from({ length: w * H }, (_, i) => (i % 3 === 0 ? 0 : i % 3 === 1 ? -0 : i));
    const out = decodeSamples(layout('float32', 3, 0, true, w), encode(f, 4, 3, w));
    for (let i = 0; i < f.length; i++) {
      if (i % 3 === 2) expect(out[i]).toBe(i);
      else expect(out[i]).toBeNaN();
    }
  });

  it('predictor 3 Float64 and a byte-planes row whose sums wrap many times', () => {
    const r = rng(11);
    const f = Float64Array.from({ length: W * H }, () => (r() - 0.5) * 1e6);
    expect(Array.from(decodeSamples(layout('float64', 3, null), encode(f, 8, 3)))).toEqual(Array.from(f));
  });

  it.each([
    ['uint8', Uint8Array, 1, 255],
    ['uint16', Uint16Array, 2, 65535],
    ['int16', Int16Array, 2, 32767],
    ['int32', Int32Array, 4, 2 ** 31 - 1],
    ['uint32', Uint32Array, 4, 2 ** 32 - 1],
  ] as const)('predictor 2 %s: differences wrap at the sample width and come back', (kind, Ctor, bps, max) => {
    const r = rng(bps * 31);
    const a = new Ctor(W * H);
    for (let i = 0; i < a.length; i++) a[i] = Math.floor(r() * max) * (kind.startsWith('int') && r() < 0.5 ? -1 : 1);
    const out = decodeSamples(layout(kind, 2, null), encode(a, bps, 2));
    expect(out).toBeInstanceOf(Ctor);
    expect(Array.from(out)).toEqual(Array.from(a));
  });

  it('inflates with the expected size as a hint, and reads uncompressed blocks without changing them', async () => {
    const f = Float32Array.from({ length: W * H }, (_, i) => i / 7);
    const stored = encode(f, 4, 3);
    const hints: Array<number | undefined> = [];
    const out = await decodeBlock(layout('float32', 3, null), deflateSync(stored), (d, n) => { hints.push(n); return inflateSync(d); });
    expect(hints).toEqual([W * H * 4]);
    expect(Array.from(out)).toEqual(Array.from(f));
    const raw = stored.slice();
    const out1 = await decodeBlock({ ...layout('float32', 3, null), compression: 1 }, raw, () => { throw new Error('not compressed'); });
    expect(Array.from(out1)).toEqual(Array.from(f));
    expect(raw).toEqual(stored);
  });

  it('a big-endian Float32 file (planes of the byte-swapped word) decodes to the same values', () => {
    const f = Float32Array.from({ length: W * H }, (_, i) => i * 1.25 - 20);
    // big-endian samples, then the predictor over their bytes as stored: plane 0 = the file's first byte
    const be = new Uint8Array(f.length * 4);
    const dv = new DataView(be.buffer);
    f.forEach((v, i) => dv.setFloat32(4 * i, v, false));
    const stored = new Uint8Array(be.length);
    for (let y = 0; y < H; y++) {
      const o = y * W * 4;
      for (let b = 0; b < 4; b++) for (let i = 0; i < W; i++) stored[o + b * W + i] = be[o + 4 * i + (3 - b)];
      for (let i = W * 4 - 1; i > 0; i--) stored[o + i] = (stored[o + i] - stored[o + i - 1]) & 0xff;
    }
    expect(Array.from(decodeSamples(layout('float32', 3, null, false), stored))).toEqual(Array.from(f));
  });
});
