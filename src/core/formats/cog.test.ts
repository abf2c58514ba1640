/**
 * The pure COG writer, read back by the project's own TIFF reader (src/core/cog/tiff.ts) and
 * geotiff.js (as the map reads it, overviews included). GDAL's reading: cog.interop.test.ts.
 */
import { fromArrayBuffer } from 'geotiff';
import { describe, expect, it } from 'vitest';
import { decodeBlock, readTiffInfo } from '../cog/tiff';
import { inflateZlib } from '../cog/inflate';
import { CogStore } from '../cog/store';
import { downsample, writeCog, writeCogAsync } from './cog';

// A 600 x 300 raster (3 x 2 tiles at full resolution, then 300 x 150, then 150 x 75).
const W = 600;
const H = 300;
const f32 = new Float32Array(W * H).fill(-9999);
for (let y = 20; y < H; y++) for (let x = 0; x < W - 30; x++) f32[y * W + x] = Math.round((x * 0.37 + y * 1.3) * 100) / 100;
const u16 = new Uint16Array(W * H).fill(65535);
for (let i = 0; i < W * H; i++) if (f32[i] !== -9999) u16[i] = (i % 7) * 300;

const geo = { xmin: -26, ymax: 28, cellSize: 1 / 12 };

function view(b: Uint8Array): ArrayBuffer {
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
}

describe('writeCog', () => {
  const fbytes = writeCog({ width: W, height: H, data: f32, sampleType: 'Float32', noData: -9999, ...geo });
  const ubytes = writeCog({ width: W, height: H, data: u16, sampleType: 'UInt16', noData: 65535, ...geo });

  it('reads back exactly with the project reader (Float32 no-data as NaN)', async () => {
    for (const [bytes, data] of [[fbytes, f32], [ubytes, u16]] as const) {
      const read = async (o: number, l: number) => view(bytes.subarray(o, o + l));
      const info = await readTiffInfo(read);
      expect([info.width, info.height, info.blockWidth, info.blockHeight]).toEqual([W, H, 256, 256]);
      expect(info.compression).toBe(8);
      expect(info.predictor).toBe(data instanceof Float32Array ? 3 : 2);
      expect(info.noData).toBe(data instanceof Float32Array ? -9999 : 65535);
      expect(info.geo).toEqual({ xmin: -26, ymax: 28, resX: 1 / 12, resY: 1 / 12 });
      for (let by = 0; by < info.blocksDown; by++) {
        for (let bx = 0; bx < info.blocksAcross; bx++) {
          const k = by * info.blocksAcross + bx;
          const raw = bytes.subarray(info.offsets[k], info.offsets[k] + info.byteCounts[k]);
          const blk = await decodeBlock(info, raw, inflateZlib);
          for (let y = 0; y < 256 && by * 256 + y < H; y++) {
            for (let x = 0; x < 256 && bx * 256 + x < W; x++) {
              const d = data[(by * 256 + y) * W + bx * 256 + x];
              const want = d === info.noData && blk instanceof Float32Array ? NaN : d; // Float32 no-data reads as NaN
              if (!Object.is(blk[y * 256 + x], want)) throw new Error(`block ${k} (${x},${y}): ${blk[y * 256 + x]} != ${want}`);
            }
          }
        }
      }
    }
  });

  it('reads back with geotiff.js, overviews included (average for Float32, mode for integers)', async () => {
    const tiff = await fromArrayBuffer(view(fbytes));
    expect(await tiff.getImageCount()).toBe(3);
    const img = await tiff.getImage(0);
    expect(img.getGDALNoData()).toBe(-9999);
    expect(img.getBoundingBox()).toEqual([-26, 28 - H / 12, -26 + W / 12, 28]);
    const [full] = (await img.readRasters()) as unknown as Float32Array[];
    expect(Array.from(full)).toEqual(Array.from(f32));
    const ov = await tiff.getImage(1);
    expect([ov.getWidth(), ov.getHeight()]).toEqual([300, 150]);
    const [ovd] = (await ov.readRasters()) as unknown as Float32Array[];
    expect(Array.from(ovd)).toEqual(Array.from(downsample(f32, W, H, -9999, 'average')[0]));
    expect(ovd[10 * 300 + 285]).toBe(-9999); // columns 570..571 are no-data
    expect(ovd[10 * 300 + 284]).toBeCloseTo((f32[20 * W + 568] + f32[20 * W + 569] + f32[21 * W + 568] + f32[21 * W + 569]) / 4, 4);
    const u = await fromArrayBuffer(view(ubytes));
    const [uov] = (await (await u.getImage(1)).readRasters()) as unknown as Uint16Array[];
    expect(Array.from(uov)).toEqual(Array.from(downsample(u16, W, H, 65535, 'mode')[0]));
  });

  it('downsample: mean of valid cells; mode with ties to the smaller value', () => {
    const a = new Float32Array([1, 2, -9999, 4, 10, -9999, -9999, -9999]);
    expect(Array.from(downsample(a, 4, 2, -9999, 'average')[0])).toEqual([Math.fround((1 + 2 + 10) / 3), 4]);
    const c = new Uint8Array([3, 5, 5, 255, 3, 2, 255, 255]);
    expect(Array.from(downsample(c, 4, 2, 255, 'mode')[0])).toEqual([3, 5]);
  });
});

describe('writeCogAsync', () => {
  it('writes the same bytes as writeCog with the same compressor', async () => {
    const { zlibSync } = await import('fflate');
    const input = { width: W, height: H, data: u16, sampleType: 'UInt16' as const, noData: 65535, ...geo };
    const a = writeCog({ ...input, deflate: (b) => zlibSync(b, { level: 6 }) });
    const b = await writeCogAsync(input, async (x) => zlibSync(x, { level: 6 }));
    expect(Buffer.from(b).equals(Buffer.from(a))).toBe(true);
  });
});

describe('writeCog: exact values (scaled integers, Float64)', () => {
  // decimal values with 2 decimals, negatives and ties among them; a no-data band across
  const vals = new Float64Array(W * H).fill(NaN);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if (y % 50 !== 7) vals[y * W + x] = ((x * 37 + y * 11) % 20001 - 10000) / 100;
  const store = (bytes: Uint8Array) => new CogStore({ source: () => ({ key: 'x', getBytes: async (o: number, l: number) => view(bytes.subarray(o, o + l)) }), inflate: inflateZlib });
  const same = (a: ArrayLike<number>, b: ArrayLike<number>) => {
    let diff = 0;
    for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) diff++;
    return diff;
  };

  for (const t of ['Int16', 'Int32'] as const) {
    it(`${t} x 100 with GDAL scale 0.01 reads back as the very doubles (n / 100), overviews averaged and rounded`, async () => {
      const nd = t === 'Int16' ? -32768 : -2147483648;
      const data = t === 'Int16' ? new Int16Array(W * H) : new Int32Array(W * H);
      for (let i = 0; i < data.length; i++) data[i] = vals[i] === vals[i] ? Math.round(vals[i] * 100) : nd;
      const bytes = writeCog({ width: W, height: H, data, sampleType: t, noData: nd, scale: { scale: 0.01, offset: 0 }, ...geo });
      const s = store(bytes);
      const info = await s.info('x');
      expect(info).toMatchObject({ kind: t.toLowerCase(), predictor: 2, noData: nd, scale: 0.01, offset: 0 });
      expect(same(await s.readFloat('x', [0, 0, W, H]), vals)).toBe(0);
      const tiff = await fromArrayBuffer(view(bytes));
      expect(await (await tiff.getImage(0)).getGDALMetadata(0)).toEqual({ OFFSET: '0', SCALE: '0.01' });
      const ov = (await (await tiff.getImage(1)).readRasters({ samples: [0] }))[0] as Int16Array;
      expect(ov[0]).toBe(Math.round((data[0] + data[1] + data[W] + data[W + 1]) / 4));
    });
  }

  it('Float64 with NaN no-data reads back exactly', async () => {
    const bytes = writeCog({ width: W, height: H, data: vals, sampleType: 'Float64', noData: NaN, ...geo });
    const s = store(bytes);
    expect(await s.info('x')).toMatchObject({ kind: 'float64', predictor: 3, scale: null });
    expect(Number.isNaN((await s.info('x')).noData)).toBe(true);
    expect(same(await s.readFloat('x', [0, 0, W, H]), vals)).toBe(0);
  });
});
