import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { CogStore } from './store';
import { FileSource, fileSourceFactory } from '../../node/file-source';
import type { RangeSource } from '../io/source';
import { isIndapiError } from '../errors';

const FIX = join(__dirname, '../../../tests/engine/fixtures');
const W = 60, H = 48;

/** The fixture formula of tests/engine/fixtures/make_fixtures.py, for cross-checking the decoder. */
function expectedElevation(c: number, r: number): number {
  return Math.fround(100 + 37 * c + 23 * r + ((c * r) % 7) * 1.5);
}

function storeOver(dir: string, extra: Partial<ConstructorParameters<typeof CogStore>[0]> = {}) {
  return new CogStore({ source: fileSourceFactory(dir), ...extra });
}

describe('COG reader', () => {
  it('decodes the deflate + floating-point-predictor COG to the fixture values', async () => {
    const s = storeOver(join(FIX, 'bundle'));
    const a = await s.readFloat('cog/ELEVATION.tif', [0, 0, W, H]);
    const iso = await s.readInt('cog/ISO3.tif', [0, 0, W, H]);
    let checked = 0;
    for (let r = 0; r < H; r++) for (let c = 0; c < W; c++) {
      const v = a[r * W + c];
      if (iso[r * W + c] === -1) expect(v).toBeNaN();
      else { expect(v).toBe(expectedElevation(c, r)); checked++; }
    }
    expect(checked).toBeGreaterThan(2000);
  });

  it('readValues: a plain Float32 file as Float32 (the same numbers as readFloat), a class file as readFloat does', async () => {
    const s = storeOver(join(FIX, 'bundle'));
    const win: [number, number, number, number] = [3, 5, 41, 44];
    const f32 = await s.readValues('cog/ELEVATION.tif', win);
    expect(f32).toBeInstanceOf(Float32Array);
    expect(Array.from(f32)).toEqual(Array.from(await s.readFloat('cog/ELEVATION.tif', win)));
    expect(await s.readValues('cog/ELEVATION.tif', win)).toBe(f32); // window cache
    const cls = await s.readValues('cog/ADM1_CODE_ALT.tif', win);
    expect(cls).toBeInstanceOf(Float64Array);
    expect(Array.from(cls)).toEqual(Array.from(await s.readFloat('cog/ADM1_CODE_ALT.tif', win)));
  });

  it('reads uncompressed BigTIFF tiles and big-endian strips the same way', async () => {
    const s = storeOver(FIX);
    const ref = await storeOver(join(FIX, 'bundle')).readFloat('cog/ELEVATION.tif', [3, 5, 41, 44]);
    expect(Array.from(await s.readFloat('tiff/elev-raw-bigtiff.tif', [3, 5, 41, 44]))).toEqual(Array.from(ref));
    expect(Array.from(await s.readFloat('tiff/elev-strips-be.tif', [3, 5, 41, 44]))).toEqual(Array.from(ref));
    const a1 = await storeOver(join(FIX, 'bundle')).readInt('cog/ADM1_CODE_ALT.tif', [0, 0, W, H]);
    const a2 = await s.readInt('tiff/adm1-pred2-be.tif', [0, 0, W, H]);
    expect(Array.from(a2)).toEqual(Array.from(a1));
    expect(new Set(a1)).toEqual(new Set([-1, 101, 102, 201, 202, 203, 301, 302]));
  });

  it('uses an injected inflate (node zlib) with the same result', async () => {
    let calls = 0;
    const s = storeOver(join(FIX, 'bundle'), { inflate: (d) => { calls++; return inflateSync(d); } });
    const ref = await storeOver(join(FIX, 'bundle')).readFloat('cog/TRI.tif', [0, 0, W, H]);
    expect(Array.from(await s.readFloat('cog/TRI.tif', [0, 0, W, H]))).toEqual(Array.from(ref));
    expect(calls).toBe(12); // 4 x 3 tiles of 16 x 16
  });

  it('reads only the tiles a window touches and serves repeats from the cache', async () => {
    const s = storeOver(join(FIX, 'bundle'));
    await s.readFloat('cog/ELEVATION.tif', [17, 17, 30, 31]); // tiles (1,1) (1,1)..: cols 16-31, rows 16-31
    expect(s.stats.blocksDecoded).toBe(1);
    const req = s.stats.requests;
    await s.readFloat('cog/ELEVATION.tif', [16, 16, 32, 32]);
    expect(s.stats.requests).toBe(req);
    expect(s.stats.blocksDecoded).toBe(1);
    expect(s.stats.cacheHits).toBe(1);
  });

  it('coalesces concurrent reads of the same tiles', async () => {
    const s = storeOver(join(FIX, 'bundle'));
    await s.info('cog/SLOPE.tif');
    const [a, b] = await Promise.all([
      s.readFloat('cog/SLOPE.tif', [0, 0, W, H]),
      s.readFloat('cog/SLOPE.tif', [0, 0, W, H]),
    ]);
    expect(Array.from(a)).toEqual(Array.from(b));
    expect(s.stats.blocksDecoded).toBe(12);
  });

  it('keeps the cache within its byte bound (LRU)', async () => {
    const s = storeOver(join(FIX, 'bundle'), { cacheBytes: 16 * 16 * 4 * 3 });
    await s.readFloat('cog/ELEVATION.tif', [0, 0, W, H]);
    expect(s.cachedBytes).toBeLessThanOrEqual(16 * 16 * 4 * 3);
    expect(s.cachedBytes).toBeGreaterThan(0);
  });

  it('an aborted read throws ABORTED and leaves nothing behind', async () => {
    const slow: RangeSource & { calls: number } = {
      key: 'slow', calls: 0,
      async getBytes(o, l, signal) {
        this.calls++;
        await new Promise((r) => setTimeout(r, 30));
        if (signal?.aborted) throw new Error('aborted');
        return new FileSource(join(FIX, 'bundle/cog/ELEVATION.tif')).getBytes(o, l);
      },
    };
    const s = new CogStore({ source: () => slow, headerBytes: 256 }); // tiles past the header: read on their own
    await s.info('x');
    const ac = new AbortController();
    const p = s.readFloat('x', [0, 0, W, H], ac.signal);
    setTimeout(() => ac.abort(), 5);
    await expect(p).rejects.toMatchObject({ code: 'ABORTED' });
    await new Promise((r) => setTimeout(r, 60));
    expect(s.cachedBytes).toBe(0);
    const ok = await s.readFloat('x', [0, 0, W, H]);
    expect(ok[0]).toBe(expectedElevation(0, 0));
  });

  it('a failed read is an IO error and is not cached', async () => {
    let fail = true;
    const real = new FileSource(join(FIX, 'bundle/cog/ELEVATION.tif'));
    const flaky: RangeSource = {
      key: 'flaky',
      async getBytes(o, l) {
        if (fail && o > 1000) throw new Error('connection reset');
        return real.getBytes(o, l);
      },
    };
    const s = new CogStore({ source: () => flaky, headerBytes: 256 }); // tiles past the header: read on their own
    const e = await s.readFloat('x', [0, 0, W, H]).catch((x) => x);
    expect(isIndapiError(e) && e.code).toBe('IO');
    expect(s.cachedBytes).toBe(0);
    fail = false;
    expect((await s.readFloat('x', [0, 0, 2, 2]))[0]).toBe(expectedElevation(0, 0));
  });

  it('rejects files that are not TIFF', async () => {
    const s = storeOver(join(FIX, 'bundle'));
    await expect(s.info('vi.csv')).rejects.toMatchObject({ code: 'IO' });
  });
});

describe('overview IFDs and kept header bytes (the embedded bundle COGs: IFD 0 1080 x 756, overviews 540, 270, 135 wide)', () => {
  const DATA = join(__dirname, '../../../public/data');

  it('levels(): every IFD, the overviews with IFD 0\'s georeferencing, band scale and no-data; no IFD past the last', async () => {
    const s = storeOver(DATA);
    const lv = await s.levels('cog/ELEV_ZONE.tif');
    expect(lv.map((i) => [i.width, i.height])).toEqual([[1080, 756], [540, 378], [270, 189], [135, 94]]);
    expect(lv.map((i) => i.hasNextIfd)).toEqual([true, true, true, false]);
    expect(lv[0].geo).not.toBeNull();
    for (const i of lv) expect([i.geo, i.noData, i.scale, i.offset]).toEqual([lv[0].geo, lv[0].noData, lv[0].scale, lv[0].offset]);
    await expect(s.info('cog/ELEV_ZONE.tif', undefined, 4)).rejects.toMatchObject({ code: 'IO' });
    await s.close();
  });

  it('concurrent opens of every IFD of a file share one header read', async () => {
    const s = storeOver(DATA, { headerBytes: 4096 });
    const infos = await Promise.all([3, 1, 0, 2, 1].map((k) => s.info('cog/POP_MODEL.tif', undefined, k)));
    expect(infos.map((i) => i.width)).toEqual([135, 540, 1080, 270, 540]);
    expect([s.stats.requests, s.stats.bytesRead]).toEqual([1, 4096]);
    await s.close();
  });

  it('the IFDs come from one header read, and blocks inside it or just after it read no byte twice', async () => {
    // ELEV_ZONE's coarsest overview tile (bytes 1332-2779) lies inside a 4 KiB header read;
    // ELEVATION's (1356-19985) starts inside it: only the rest is read
    for (const code of ['ELEV_ZONE', 'ELEVATION']) {
      const s = storeOver(DATA, { headerBytes: 4096 });
      const lv = await s.levels(`cog/${code}.tif`);
      expect(s.stats.requests, code).toBe(1);
      const last = lv[lv.length - 1];
      const { values } = await s.readLevel(`cog/${code}.tif`, lv.length - 1);
      const end = last.offsets[0] + last.byteCounts[0];
      expect(s.stats.bytesRead, code).toBe(Math.max(4096, end));
      expect(s.stats.requests, code).toBe(end > 4096 ? 2 : 1);
      // the same cells as a store that reads the tile on its own
      const other = storeOver(DATA, { headerBytes: 256 });
      const ref = await other.readFloat(`cog/${code}.tif`, [0, 0, last.width, last.height], undefined, lv.length - 1);
      await Promise.all([s.close(), other.close()]);
      let diff = 0, cells = 0;
      for (let k = 0; k < ref.length; k++) { if (!Object.is(ref[k], values[k])) diff++; if (ref[k] === ref[k]) cells++; }
      expect(diff, code).toBe(0);
      expect(cells, code).toBeGreaterThan(1000);
      expect(values).toBeInstanceOf(Float32Array); // a Float32 or Byte band without scale
    }
  });
});
