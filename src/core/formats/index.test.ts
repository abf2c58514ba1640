import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { CELLS_KEN, FIXED_NOW, FIXTURE_META, TABLE_KEN_ADM1 } from '../../../tests/formats/formats.fixture';
import { isIndapiError } from '../errors';
import { cellQueryArgs, genFile, normalizeFormat, zipFiles } from './index';

const args = { var: ['ELEVATION', 'ELEV_ZONE'], iso3: ['KEN'], by: ['ADM1_NAME_ALT'] };
const base = { method: 'getLayer', args, table: TABLE_KEN_ADM1, cells: CELLS_KEN, meta: FIXTURE_META, now: FIXED_NOW };

async function errorOf(p: Promise<unknown> | (() => unknown)): Promise<{ code: string; message: string }> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    if (isIndapiError(e)) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('did not throw');
}

describe('normalizeFormat', () => {
  it('maps the original aliases', () => {
    const cases: Record<string, string> = { tif: 'tif', TIFF: 'tif', geotiff: 'tif', geotif: 'tif', geojson: 'json', json: 'json', grid: 'grd', rda: 'rda', RData: 'rda', rds: 'rds', stata: 'dta', ascii: 'asc', xls: 'csv', xlsx: 'csv', plot: 'plot', hist: 'hist' };
    for (const [k, v] of Object.entries(cases)) expect(normalizeFormat(k)).toBe(v);
  });
  it("rejects unknown formats with the original's message", async () => {
    expect(await errorOf(() => normalizeFormat('xyz'))).toEqual({ code: 'BAD_FORMAT', message: "'xyz' is not a recognized format." });
    expect((await errorOf(() => normalizeFormat('netcdf'))).message).toMatch(/not supported in this version/);
  });
});

describe('genFile', () => {
  it('writes a tabular data package: data file, meta.csv, README.md, datapackage.json, DESCRIPTION, terms.html', async () => {
    const r = await genFile({ ...base, format: 'rda' });
    expect(r.files.map((f) => f.name)).toEqual(['getLayer-ELEVATION-ELEV_ZONE-ADM1_NAME_ALT-KEN.rda', 'meta.csv', 'README.md', 'datapackage.json', 'DESCRIPTION', 'terms.html']);
    expect(r.zipName).toBe('ELEVATION-ELEV_ZONE-ADM1_NAME_ALT-KEN.rda.zip');
    expect((await genFile({ ...base, format: 'GeoTIFF' })).zipName).toBe('ELEVATION-ELEV_ZONE-ADM1_NAME_ALT-KEN.geotiff.zip');
    const readme = new TextDecoder().decode(r.files[2].bytes);
    expect(readme).toContain('2026-03-04T05:06:07.000Z');
    expect(readme).toContain(`-d '${JSON.stringify({ ...args, format: 'rda' })}'`);
    const meta = new TextDecoder().decode(r.files[1].bytes).split('\r\n');
    expect(meta[0]).toBe('code,label,description,type,unit,version,aggFormula,period,category,subcategory,item,source,contact,downloadedOn,citation');
    expect(meta[1]).toContain('ELEVATION,Elevation (fixture)');
    const terms = new TextDecoder().decode(r.files[5].bytes);
    expect(terms).toContain('NOAA (fixture citation).');
    expect(terms).toContain('ODC-BY-1.0');
  });

  it('writes one GeoTIFF + world file + PAM per var, then meta.csv, README.md, datapackage.json and DESCRIPTION', async () => {
    const r = await genFile({ ...base, format: 'geotiff' });
    expect(r.files.map((f) => f.name)).toEqual([
      'getLayer-ELEVATION-ADM1_NAME_ALT-KEN.tif', 'getLayer-ELEVATION-ADM1_NAME_ALT-KEN.tfw', 'getLayer-ELEVATION-ADM1_NAME_ALT-KEN.tif.aux.xml',
      'getLayer-ELEV_ZONE-ADM1_NAME_ALT-KEN.tif', 'getLayer-ELEV_ZONE-ADM1_NAME_ALT-KEN.tfw', 'getLayer-ELEV_ZONE-ADM1_NAME_ALT-KEN.tif.aux.xml',
      'meta.csv', 'README.md', 'datapackage.json', 'DESCRIPTION',
    ]);
    expect(r.files[0].mediaType).toBe('image/tiff');
    expect(new TextDecoder().decode(r.files[5].bytes)).toContain('<Category>Highland (&gt; 1500 m)</Category>');
  });

  it('documents class coding: RAT in the .aux.xml, index -> class value -> label table in README.md', async () => {
    const dec = (b: Uint8Array) => new TextDecoder().decode(b);
    for (const format of ['tif', 'asc', 'grd']) {
      const r = await genFile({ ...base, format });
      const readme = dec(r.files.find((f) => f.name === 'README.md')!.bytes);
      expect(readme).toContain('### Class coding of ELEV_ZONE');
      expect(readme).toContain('| 2 | 3 | Highland (> 1500 m) |');
      expect(readme.includes('multi-band grd'), format).toBe(format === 'grd');
      const aux = r.files.find((f) => f.name.includes('ELEV_ZONE') && f.name.endsWith('.aux.xml'));
      if (format !== 'grd') expect(dec(aux!.bytes)).toContain('<Row index="2"><F>2</F><F>3</F><F>Highland (&gt; 1500 m)</F></Row>');
    }
  });

  it('grd: producer indapi3; a single class band keeps its code as layer name and its levels', async () => {
    const dec = (b: Uint8Array) => new TextDecoder().decode(b);
    const one = { ...CELLS_KEN, layers: [CELLS_KEN.layers[1]] };
    const grd = dec((await genFile({ ...base, args: { ...args, var: ['ELEV_ZONE'] }, cells: one, format: 'grd' })).files[0].bytes);
    expect(grd).toContain('creator=indapi3\n');
    expect(grd).toContain('ratnames=ID:ELEV_ZONE\n');
    expect(grd).toContain('layername=ELEV_ZONE\n');
    const multi = dec((await genFile({ ...base, format: 'grd' })).files[0].bytes);
    expect(multi).not.toContain('ratnames');
  });

  it('refuses per-cell formats without selected cells', async () => {
    const empty = { ...CELLS_KEN, mask: new Uint8Array(CELLS_KEN.mask.length) };
    for (const format of ['tif', 'asc', 'grd', 'json']) {
      expect((await errorOf(genFile({ ...base, cells: empty, format }))).code).toBe('EMPTY_SELECTION');
    }
  });

  it('refuses up front a request above the size limit, stating the size', async () => {
    const e = await errorOf(genFile({ ...base, format: 'tif', maxBytes: 1000 }));
    expect(e.code).toBe('TOO_LARGE');
    expect(e.message).toMatch(/would need about 1 MB of memory, more than the limit of 1 MB/);
  });

  it('rejects an unknown palette', async () => {
    const e = await errorOf(genFile({ ...base, format: 'plot', args: { ...args, pal: 'Rainbow' }, rasterize: async () => new Uint8Array(0) }));
    expect(e.code).toBe('BAD_ARGUMENT');
  });

  it('aborts', async () => {
    const ac = new AbortController();
    ac.abort();
    expect((await errorOf(genFile({ ...base, format: 'csv' }, { signal: ac.signal }))).code).toBe('ABORTED');
  });
});

describe('zipFiles', () => {
  it('zips exactly the files, in order, with progress up to 100', async () => {
    const r = await genFile({ ...base, format: 'asc' });
    const seen: number[] = [];
    const z = await zipFiles(r.files, { onProgress: (d) => seen.push(d) });
    const zip = await JSZip.loadAsync(z);
    expect(Object.keys(zip.files)).toEqual(r.files.map((f) => f.name));
    expect(seen.at(-1)).toBe(100);
    const asc = await zip.file(r.files[0].name)?.async('uint8array');
    expect(asc).toEqual(r.files[0].bytes);
  });
});

describe('cellQueryArgs', () => {
  it('drops the by domains for hist, so the histogram shows cell values, not group summaries', () => {
    const args = { var: ['ELEVATION'], iso3: ['KEN'], by: ['ADM1_NAME_ALT'] };
    expect(cellQueryArgs('hist', args)).toEqual({ var: ['ELEVATION'], iso3: ['KEN'] });
    expect(args.by).toEqual(['ADM1_NAME_ALT']);
  });
  it('keeps them for zonal maps (rasters, GeoJSON, plot)', () => {
    const args = { var: ['ELEVATION'], by: ['ADM1_NAME_ALT'] };
    for (const f of ['tif', 'asc', 'grd', 'json', 'plot'] as const) expect(cellQueryArgs(f, args)).toBe(args);
  });
});

describe('json packages', () => {
  it('with by: zonal polygons (one per unit); collapse = FALSE: the per-cell query drops by, points carry cell values', async () => {
    const { CELLS_KEN_ZONAL, CELLS_KEN_NOBY } = await import('../../../tests/formats/formats.fixture');
    const z = await genFile({ ...base, format: 'geojson', cells: CELLS_KEN_ZONAL });
    const gz = JSON.parse(new TextDecoder().decode(z.files[0].bytes));
    expect(gz.features.map((f: any) => f.geometry.type)).toEqual(['Polygon', 'Polygon', 'Polygon', 'Polygon']);
    expect(new TextDecoder().decode(z.files[2].bytes)).toMatch(/One \(Multi\)Polygon feature per group/);
    expect(cellQueryArgs('json', { ...args, collapse: false })).toEqual({ var: args.var, iso3: args.iso3, collapse: false });
    expect(cellQueryArgs('json', args)).toEqual(args);
    const c = await genFile({ ...base, args: { ...args, collapse: false }, format: 'json', cells: CELLS_KEN_NOBY });
    const gc = JSON.parse(new TextDecoder().decode(c.files[0].bytes));
    expect(gc.features).toHaveLength(18);
    expect(gc.features[0].geometry.type).toBe('Point');
  });
});
