import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IndapiError } from '../errors';
import type { RangeSource } from '../io/source';
import { offlineFiles, openBundle, parseManifest } from '.';

const DIR = join(__dirname, '../../../tests/engine/fixtures/bundle');

/** A loader over the fixture bundle that counts reads per path; `files` replaces some files' text (null: missing). */
function loader(files: Record<string, string | null> = {}) {
  const reads: string[] = [];
  const text = async (rel: string, signal?: AbortSignal) => {
    reads.push(rel);
    await new Promise((r) => setTimeout(r, 1));
    if (signal?.aborted) throw new IndapiError('ABORTED', 'aborted');
    if (rel in files) {
      const t = files[rel];
      if (t === null) throw new IndapiError('IO', `Cannot read ${rel}: ENOENT`);
      return t;
    }
    return readFileSync(join(DIR, rel), 'utf8');
  };
  return { text, reads };
}

describe('openBundle', () => {
  it('reads each file once, shared by concurrent calls, and parses it with the bundle parsers', async () => {
    const l = loader();
    const b = openBundle({ text: l.text });
    const [cat, again, iso, grid, version] = await Promise.all([b.catalog(), b.catalog(), b.iso(), b.grid(), b.version()]);
    expect(again).toBe(cat);
    expect(cat.some((r) => r.varCode === 'ISO3')).toBe(true);
    expect(iso.length).toBeGreaterThan(0);
    expect(grid).toMatchObject({ width: 60, height: 48 });
    expect(version).toBe(parseManifest(readFileSync(join(DIR, 'manifest.json'), 'utf8')).version);
    expect(await b.classTable('ISO3')).toBe(await b.classTableAt('classes/ISO3.csv'));
    expect(l.reads.sort()).toEqual(['classes/ISO3.csv', 'iso.csv', 'manifest.json', 'vi.csv']);
  });

  it('a failed read is not kept; a caller abort ends only its own wait', async () => {
    const files: Record<string, string | null> = { 'iso.csv': null };
    const l = loader(files);
    const b = openBundle({ text: l.text });
    await expect(b.iso()).rejects.toMatchObject({ code: 'IO' });
    delete files['iso.csv'];
    expect((await b.iso()).length).toBeGreaterThan(0);
    const ac = new AbortController();
    const aborted = b.catalog(ac.signal);
    const other = b.catalog();
    ac.abort();
    await expect(aborted).rejects.toMatchObject({ code: 'ABORTED' });
    expect((await other).length).toBeGreaterThan(0);
    expect(l.reads.filter((p) => p === 'vi.csv')).toHaveLength(1);
  });

  it('without a manifest: optionalManifest is null, manifest fails with the loader error, files is null', async () => {
    const b = openBundle({ text: loader({ 'manifest.json': null }).text });
    expect(await b.optionalManifest()).toBeNull();
    await expect(b.manifest()).rejects.toMatchObject({ code: 'IO' });
    await expect(b.grid()).rejects.toMatchObject({ code: 'IO' });
    expect(await b.files()).toBeNull();
    const bad = openBundle({ text: loader({ 'manifest.json': '{not json' }).text });
    await expect(bad.optionalManifest()).rejects.toMatchObject({ code: 'IO', message: /not valid JSON/ });
  });

  it('outlines: read when listed (or no list), skipped without a request when the manifest lists other files', async () => {
    const fc = '{"type":"FeatureCollection","features":[]}';
    const listed = JSON.stringify({ name: 'b', version: '1', files: [{ path: 'basemap/admin1.geojson', bytes: 1, sha256: 'a' }] });
    const l = loader({ 'manifest.json': listed, 'basemap/admin1.geojson': fc, 'basemap/admin2.geojson': fc });
    const b = openBundle({ text: l.text });
    expect(await b.outlines('admin1')).toEqual({ type: 'FeatureCollection', features: [] });
    expect(await b.outlines('admin2')).toBeUndefined();
    expect(l.reads).not.toContain('basemap/admin2.geojson');
    const none = openBundle({ text: loader({ 'manifest.json': null, 'basemap/countries.geojson': 'not json' }).text });
    expect(await none.outlines('countries')).toBeUndefined();
  });

  it('cog opens the layer file through the source; without one it is an INTERNAL error', () => {
    const opened: string[] = [];
    const source = (rel: string): RangeSource => { opened.push(rel); return { key: rel, getBytes: async () => new ArrayBuffer(0) }; };
    expect(openBundle({ text: loader().text, source }).cog('ELEVATION').key).toBe('cog/ELEVATION.tif');
    expect(() => openBundle({ text: loader().text }).cog('ELEVATION')).toThrow(expect.objectContaining({ code: 'INTERNAL' }));
  });

  it('the bundle signal aborts every read', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(openBundle({ text: loader().text }, { signal: ac.signal }).iso()).rejects.toMatchObject({ code: 'ABORTED' });
  });

  it('offlineFiles: every listed file but the COGs', () => {
    const files = [{ path: 'vi.csv', bytes: 1, sha256: 'a' }, { path: 'cog/A.tif', bytes: 9, sha256: 'b' }, { path: 'basemap/countries.geojson', bytes: 2, sha256: 'c' }];
    expect(offlineFiles({ files }).map((f) => f.path)).toEqual(['vi.csv', 'basemap/countries.geojson']);
  });
});

describe('series through the bundle reader', () => {
  it('a bundle made before series (its manifest lists no series/ files) has none, and layer paths stay cog/<code>.tif', async () => {
    const files = new Map([['manifest.json', JSON.stringify({ name: 'old', version: '1', files: [{ path: 'vi.csv', bytes: 1, sha256: '' }] })]]);
    const b = openBundle({ text: async (p) => { const t = files.get(p); if (t === undefined) throw new Error(`read of ${p}`); return t; } });
    expect(await b.series()).toBeNull();
    expect(await b.seriesCatalog()).toEqual([]); // and no read of series/vi.csv (the loader would throw)
    expect(b.layer('ELEVATION').path).toBe('cog/ELEVATION.tif');
    expect(b.layer('WPOP', { year: 2010 }).path).toBe('cog/WPOP_2010.tif');
  });

  it('the committed bundle holds the national series with their records', async () => {
    const root = join(__dirname, '../../../public/data');
    const b = openBundle({ text: async (p) => readFileSync(join(root, p), 'utf8') });
    const s = (await b.series())!;
    expect(s.records.map((r) => r.varCode).sort()).toEqual(['GM_INFANT_MORT', 'GM_LIFE_EXP', 'PWT_HC', 'PWT_POP', 'PWT_RGDPE_PC', 'WDI_TFR']);
    expect(s.table.years.get('PWT_POP')).toEqual(Array.from({ length: 68 }, (_, i) => 1950 + i));
    // Penn World Table 9.1 has no Eritrea, Somalia or South Sudan
    for (const iso of ['ERI', 'SOM', 'SSD']) expect(s.table.values.get('PWT_POP')!.get(2017)!.has(iso)).toBe(false);
    expect(s.table.sources.get('WDI_TFR')!.get(1960)!.get('KEN')).toBe('WDI');
    expect(await b.seriesCatalog()).toBe(s.records); // one read of series/vi.csv, shared
  });

  it('seriesCatalog() reads series/vi.csv alone (for the app catalog), not the values', async () => {
    const root = join(__dirname, '../../../public/data');
    const read: string[] = [];
    const b = openBundle({ text: async (p) => { read.push(p); return readFileSync(join(root, p), 'utf8'); } });
    const recs = await b.seriesCatalog();
    expect(recs.find((r) => r.varCode === 'PWT_POP')).toMatchObject({ year: '1950', yearEnd: '2017', dataType: 'national', series: 'PWT_POP', license: 'CC-BY-4.0' });
    expect(read.sort()).toEqual(['manifest.json', 'series/vi.csv']);
  });
});
