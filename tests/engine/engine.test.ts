/** Behaviour of the engine on the fixture bundle: selection, reading, cells, aborts. */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { createNodeEngine } from '../../src/node/engine';
import { createEngine } from '../../src/core/engine';
import { fileSourceFactory, fileTextLoader } from '../../src/node/file-source';
import type { RangeSource } from '../../src/core/io/source';
import type { Row } from '../../src/core/types';

const BUNDLE = join(__dirname, 'fixtures/bundle');

describe('engine', () => {
  it('a country query reads only the tiles of its bounding box', async () => {
    const e = createNodeEngine(BUNDLE);
    await e.getLayer({ var: ['ELEVATION'], iso3: ['UGA'] });
    // UGA spans columns 0-19, rows 0-23 of 16x16 tiles: 2 x 2 tiles per layer (ISO3 + ELEVATION)
    expect(e.store.stats.blocksDecoded).toBe(8);
    const before = e.store.stats.requests;
    await e.getLayer({ var: ['ELEVATION'], iso3: ['UGA'], by: ['ISO3'] });
    expect(e.store.stats.requests).toBe(before); // warm: served from the block cache
  });

  it('de-duplicates var, defaults to SSA, keeps absent fields absent', async () => {
    const e = createNodeEngine(BUNDLE);
    const a = (await e.getLayer({ var: ['ELEVATION', 'ELEVATION'] })) as Row[];
    expect(a).toHaveLength(1);
    expect(Object.keys(a[0])).toEqual(['ELEVATION']);
    const rows = (await e.getLayer({ var: ['TRI'], iso3: ['UGA', 'KEN'], by: ['ELEV_ZONE'] })) as Row[];
    for (const r of rows) for (const v of Object.values(r)) expect(v === null || (typeof v === 'number' && !Number.isFinite(v))).toBe(false);
    expect(rows.map((r) => `${r.ISO3}/${r.ELEV_ZONE ?? ''}`)).toEqual(['KEN/', 'KEN/highland', 'KEN/lowland', 'KEN/midland', 'KEN/mountain', 'UGA/', 'UGA/lowland', 'UGA/midland']); // class keys sort by label
  });

  it('getLayerCells gives the selected window with per-cell and zonal values', async () => {
    const e = createNodeEngine(BUNDLE);
    const cells = await e.getLayerCells({ var: ['ELEVATION', 'ELEV_ZONE'], iso3: ['UGA'] });
    expect(cells.grid.width).toBe(20);
    expect(cells.grid.height).toBe(24);
    expect(cells.grid.xmin).toBe(30);
    expect(cells.grid.ymax).toBe(2);
    const n = cells.mask.reduce((s, v) => s + v, 0);
    expect(n).toBe(456);
    expect(cells.layers[0].values[0]).toBeCloseTo(100, 5);
    expect(cells.layers[1].values[0]).toBe(1);
    const zonal = await e.getLayerCells({ var: ['ELEVATION'], iso3: ['UGA'], by: ['ADM1_NAME_ALT'] });
    expect(new Set(Array.from(zonal.layers[0].values).filter(Number.isFinite))).toEqual(new Set([582, 835]));
    const wkt = await e.getLayerCells({ var: ['ELEVATION'], wkt: 'POINT (31.51 0.52)' } as never);
    expect([wkt.grid.width, wkt.grid.height]).toEqual([1, 1]);
  });

  it('getLayerCells gives key layers: ISO3, class by values, continuous by interval index', async () => {
    const e = createNodeEngine(BUNDLE);
    const r = await e.getLayerCells({ var: ['TRI'], iso3: ['UGA'], by: { ADM1_NAME_ALT: null, ELEVATION: [0, 500, 1000] } as never });
    expect(r.keys!.map((k) => [k.code, k.type])).toEqual([['ISO3', 'class'], ['ADM1_NAME_ALT', 'class'], ['ELEVATION', 'class']]);
    const [iso, adm, elev] = r.keys!;
    const uga = iso.classes!.find((c) => c.label === 'UGA')!;
    expect(uga.name).toBe('Uganda');
    expect(elev.classes).toEqual([{ value: 1, label: '(0,500]' }, { value: 2, label: '(500,1e+03]' }]); // R cut() labels, dig.lab = 3
    const admValues = new Set(adm.classes!.map((c) => c.value));
    const cells = await e.getLayerCells({ var: ['ELEVATION'], iso3: ['UGA'] });
    for (let i = 0; i < r.mask.length; i++) {
      if (!r.mask[i]) {
        for (const k of r.keys!) expect(k.values[i]).toBeNaN();
        continue;
      }
      expect(iso.values[i]).toBe(uga.value);
      expect(Number.isNaN(adm.values[i]) || admValues.has(adm.values[i])).toBe(true);
      const x = cells.layers[0].values[i];
      expect(elev.values[i]).toBe(x > 0 && x <= 500 ? 1 : x > 500 && x <= 1000 ? 2 : NaN);
    }
    expect(Array.from(adm.values).some((v) => admValues.has(v))).toBe(true);
  });

  it('an aborted query rejects with ABORTED and does not poison the cache', async () => {
    const files = fileSourceFactory(BUNDLE);
    let delay = 40;
    const ac = new AbortController();
    // aborted 5 ms into the first read, which takes 40 ms: the query is under way, whatever the
    // machine's load (the fixture files are small: a header read may hold a whole file)
    const slow = (p: string): RangeSource => {
      const f = files(p);
      return { key: f.key, getBytes: async (o, l, s) => { if (delay && !ac.signal.aborted) setTimeout(() => ac.abort(), 5); await new Promise((r) => setTimeout(r, delay)); return f.getBytes(o, l, s); } };
    };
    const e = createEngine({ source: slow, text: fileTextLoader(BUNDLE) });
    const p = e.getLayer({ var: ['ELEVATION', 'TRI'], by: ['ADM1_NAME_ALT'] }, { signal: ac.signal });
    await expect(p).rejects.toMatchObject({ code: 'ABORTED' });
    delay = 0;
    const ok = await e.getLayer({ var: ['ELEVATION', 'TRI'], by: ['ADM1_NAME_ALT'] });
    const ref = await createNodeEngine(BUNDLE).getLayer({ var: ['ELEVATION', 'TRI'], by: ['ADM1_NAME_ALT'] });
    expect(ok).toEqual(ref);
  });

  it('reports progress and answers the catalog methods', async () => {
    const e = createNodeEngine(BUNDLE);
    const seen: number[] = [];
    await e.getLayer({ var: ['ELEVATION'], by: ['ELEV_ZONE'] }, { onProgress: (d, t) => seen.push(d / t) });
    expect(seen.at(-1)).toBe(1);
    expect((await e.catalog()).map((r) => r.varCode)).toContain('ELEV_ZONE');
    expect((await e.catalogCsv()).startsWith('varCode,varLabel,')).toBe(true);
    const d = await e.describe({ var: ['ELEVATION'] });
    expect(d[0].Code).toBe('ELEVATION');
    expect(d[0].AggFormula).toBe('mean(ELEVATION, na.rm=TRUE)');
    expect(d[0].AggFormulaText).toBe('The mean of ELEVATION over the cells where ELEVATION is not missing, computed per unit as R does.');
    const all = (await e.category({})) as unknown[];
    expect(all).toHaveLength(10);
  });
});
