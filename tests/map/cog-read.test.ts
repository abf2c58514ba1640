/**
 * The map's COG reads (workers/raster/layers.ts: the core reader on every IFD) give the same
 * cells as the engine's reads of IFD 0 (src/core/cog, the one that answers R) and, level by
 * level, overviews included, as geotiff.js (the map's former reader, an independent TIFF
 * parser) reads them: embedded bundle COGs, read over a fetch that answers byte ranges from
 * the files, as a static host does.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fromArrayBuffer } from 'geotiff';
import { sampleDecoder } from '../../src/core/cog/decode';
import { openCog } from '../../workers/raster/layers';
import { CogStore } from '../../src/core/cog/store';
import { FileSource } from '../../src/node/file-source';
import { writeCog } from '../../src/core/formats/cog';

const DATA = join(__dirname, '../../public/data');
const BASE = 'http://fixture.test/data/';
/** COGs written by the test (scaled integers, Float64), served under /made/. */
const MADE = mkdtempSync(join(tmpdir(), 'map-cog-'));
const MADE_BASE = 'http://fixture.test/made/';

/** A fetch over public/data answering `Range: bytes=a-b` with 206 (RFC 9110 14.4), else 200. */
function fileFetch(): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    const made = url.pathname.startsWith('/made/');
    const bytes = readFileSync(join(made ? MADE : DATA, decodeURIComponent(url.pathname.replace(/^\/(data|made)\//, ''))));
    const range = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined)).get('range');
    const m = range && /^bytes=(\d+)-(\d*)$/.exec(range);
    if (!m) return new Response(bytes, { status: 200, headers: { 'Content-Length': String(bytes.length) } });
    const a = Number(m[1]), b = Math.min(m[2] ? Number(m[2]) : bytes.length - 1, bytes.length - 1);
    return new Response(bytes.subarray(a, b + 1), { status: 206, headers: { 'Content-Range': `bytes ${a}-${b}/${bytes.length}` } });
  }) as typeof fetch;
}

beforeAll(() => { vi.stubGlobal('fetch', fileFetch()); });
afterAll(() => { vi.unstubAllGlobals(); rmSync(MADE, { recursive: true, force: true }); });

describe('map COG reads through the core reader', () => {
  // every level as geotiff.js reads it, decoded by the bundle's rule with IFD 0's no-data (as the map did with geotiff.js)
  for (const code of ['ELEVATION', 'ELEV_ZONE', 'POP_MODEL']) {
    it(`${code}: every level, overviews included, equals geotiff.js's read of the same IFD; Float32 arrays`, async () => {
      const b = readFileSync(join(DATA, `cog/${code}.tif`));
      const tiff = await fromArrayBuffer(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer);
      const n = await tiff.getImageCount();
      const full = await tiff.getImage(0);
      const dec = sampleDecoder({ noData: full.getGDALNoData(), float32: full.getSampleFormat() === 3, scale: null, offset: null });
      const layer = await openCog(BASE, code);
      expect(layer.levelCellDeg).toHaveLength(n);
      const bbox = full.getBoundingBox();
      for (let i = 0; i < n; i++) {
        const im = await tiff.getImage(i);
        const want = ((await im.readRasters({ interleave: false, samples: [0] })) as unknown as ArrayLike<number>[])[0];
        const got = await layer.level(i);
        expect([got.width, got.height, got.bbox]).toEqual([im.getWidth(), im.getHeight(), bbox]);
        expect(layer.levelCellDeg[i]).toBe((bbox[2] - bbox[0]) / im.getWidth());
        expect(got.values).toBeInstanceOf(Float32Array);
        let diff = 0;
        for (let k = 0; k < want.length; k++) if (!Object.is(Math.fround(dec(want[k])), got.values[k])) diff++;
        expect(diff, `level ${i}`).toBe(0);
      }
      expect(layer.loaded()).toEqual(Array.from({ length: n }, (_, i) => i));
      expect(layer.bytes()).toBe([...Array(n).keys()].reduce((s, i) => s + layer.peek(i)!.values.byteLength, 0));
    });
  }

  // a continuous Float32 layer (floating-point predictor 3) and a class layer (Byte, no-data 255)
  for (const [code, read] of [['ELEVATION', 'readFloat'], ['ECONOMY', 'readInt']] as const) {
    it(`${code}: every cell of the full-resolution level equals the engine's read (no-data as NaN)`, async () => {
      const layer = await openCog(BASE, code);
      const full = await layer.level(0);
      const store = new CogStore({ source: (p) => new FileSource(join(DATA, p)) });
      const ref = await store[read](`cog/${code}.tif`, [0, 0, full.width, full.height]);
      expect(ref.length).toBe(full.values.length);
      let diff = 0, values = 0;
      // the engine gives no-data as NaN (Float32) or -1 (class values)
      for (let i = 0; i < ref.length; i++) {
        const want = read === 'readInt' && ref[i] === -1 ? NaN : ref[i];
        const got = full.values[i];
        if (!Number.isNaN(want)) values++;
        if (!(Object.is(got, want) || (Number.isNaN(got) && Number.isNaN(want)))) diff++;
      }
      expect(values, 'cells with a value').toBeGreaterThan(10_000);
      expect(diff).toBe(0);
    });
  }

  // the table ingest's exact storage (src/core/ingest/decimals.ts): both readers decode with src/core/cog/decode.ts
  it('scaled Int16 (x 100, GDAL scale 0.01) and Float64 layers: every cell equals the engine\'s read, the decimal doubles themselves', async () => {
    const W = 300, H = 260;
    const vals = new Float64Array(W * H).fill(NaN);
    for (let i = 0; i < vals.length; i++) if (i % 13) vals[i] = ((i * 7919) % 60001 - 30000) / 100; // -300.00 .. 300.00, ties x.x5 among them
    const ints = Int16Array.from(vals, (v) => (v === v ? Math.round(v * 100) : -32768));
    mkdirSync(join(MADE, 'cog'), { recursive: true });
    const geo = { width: W, height: H, xmin: -26, ymax: 28, cellSize: 1 / 12 };
    writeFileSync(join(MADE, 'cog/S16.tif'), writeCog({ ...geo, data: ints, sampleType: 'Int16', noData: -32768, scale: { scale: 0.01, offset: 0 } }));
    writeFileSync(join(MADE, 'cog/F64.tif'), writeCog({ ...geo, data: vals.map((v) => v * 1.1), sampleType: 'Float64', noData: NaN }));
    const store = new CogStore({ source: (p) => new FileSource(join(MADE, p)) });
    for (const code of ['S16', 'F64']) {
      const layer = await openCog(MADE_BASE, code);
      const full = await layer.level(0);
      expect(full.values).toBeInstanceOf(Float64Array);
      const ref = await store.readFloat(`cog/${code}.tif`, [0, 0, W, H]);
      let diff = 0;
      for (let i = 0; i < ref.length; i++) if (!Object.is(ref[i], full.values[i])) diff++;
      expect(diff, code).toBe(0);
      if (code === 'S16') for (let i = 1; i < 2000; i++) expect(full.values[i]).toBe(i % 13 ? Number(vals[i].toFixed(2)) : NaN);
      const ov = await layer.level(1); // overviews: stored integers averaged, scale applied
      expect(ov.values[0]).toBeCloseTo(((vals[1] + vals[W] + vals[W + 1]) / 3) * (code === 'F64' ? 1.1 : 1), 1);
    }
    await store.close();
  });
});
