import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import wabtInit from 'wabt';
import { decodeSamples, type BlockLayout } from './block';
import { hasPredictor3Simd, setPredictor3Simd } from './simd';
import { PREDICTOR3_WASM } from './predictor3-wasm';
import { predictRows } from '../formats/predictor';

/** Deterministic pseudo-random numbers (LCG), so a failure replays. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** Float32 samples as a predictor 3 writer stores them (rows of `w`). */
function stored(f: Float32Array, w: number, rows: number): Uint8Array {
  const out = new Uint8Array(f.length * 4);
  predictRows(new Uint8Array(f.buffer), out, rows, w, 4, 3);
  return out;
}

/** The decoded bits, with the kernel on or off. */
function bits(info: BlockLayout, data: Uint8Array, simd: boolean): Int32Array {
  const was = setPredictor3Simd(simd);
  try {
    const a = decodeSamples(info, data.slice());
    return new Int32Array(a.buffer, a.byteOffset, a.length);
  } finally {
    setPredictor3Simd(was);
  }
}

describe('predictor 3 by WebAssembly SIMD (src/core/cog/simd.ts)', () => {
  it('runs here (Node has WebAssembly SIMD), so the cases below test the kernel', () => {
    expect(hasPredictor3Simd()).toBe(true);
  });

  it('the embedded module is the build of predictor3.wat (node scripts/build-wasm.mjs)', async () => {
    const wabt = await wabtInit();
    const mod = wabt.parseWat('predictor3.wat', readFileSync(new URL('./predictor3.wat', import.meta.url), 'utf8'), { simd: true });
    const bytes = Buffer.from(mod.toBinary({}).buffer);
    mod.destroy();
    expect(bytes.toString('base64')).toBe(PREDICTOR3_WASM);
  });

  it.each([
    [16, 3, -9999],
    [48, 5, 0],
    [256, 4, -9999],
    [64, 2, null],
  ] as const)('%i x %i samples, no-data %s: the same bits as the JavaScript loops, values back exactly', (w, h, noData) => {
    const r = rng(w * 7 + h);
    const f = Float32Array.from({ length: w * h }, (_, i) =>
      i % 11 === 3 ? -9999 : i % 13 === 5 ? NaN : i % 17 === 1 ? -0 : i % 19 === 2 ? 0 : (r() - 0.5) * 10 ** Math.floor(r() * 40 - 20));
    f[1] = Infinity; f[2] = -Infinity; f[4] = 3.4e38; f[6] = 1.4e-45;
    const info: BlockLayout = { blockWidth: w, blockHeight: h, kind: 'float32', compression: 8, predictor: 3, littleEndian: true, noData };
    const data = stored(f, w, h);
    const simd = bits(info, data, true), js = bits(info, data, false);
    expect(Array.from(simd)).toEqual(Array.from(js));
    const out = new Float32Array(simd.buffer, simd.byteOffset, simd.length);
    for (let i = 0; i < f.length; i++) {
      if (Number.isNaN(f[i]) || (noData !== null && f[i] === noData)) expect(out[i]).toBeNaN();
      else expect(Object.is(out[i], f[i])).toBe(true);
    }
  });

  it('a short last strip (fewer bytes than the block): its rows, the rest NaN, as in JavaScript', () => {
    const w = 32, h = 6, rows = 4;
    const f = Float32Array.from({ length: w * rows }, (_, i) => i * 0.5 - 7);
    const info: BlockLayout = { blockWidth: w, blockHeight: h, kind: 'float32', compression: 8, predictor: 3, littleEndian: true, noData: null };
    const data = stored(f, w, rows);
    const simd = bits(info, data, true);
    expect(Array.from(simd)).toEqual(Array.from(bits(info, data, false)));
    expect(Array.from(new Float32Array(simd.buffer, simd.byteOffset, w * rows))).toEqual(Array.from(f));
  });
});
