/**
 * Raster and boundary ingest with GDAL (issue 9 item 5), on fixtures made here: a copy of the
 * embedded bundle, FIXTURE GeoTIFFs made with gdal_translate from ASCII grids at 1/48 degree
 * (4 x 4 pixels per 5-arc-minute cell, in Kenya), and a FIXTURE GeoJSON of made-up units.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeEngine } from '../../src/node/engine';
import { ingestRaster } from '../../src/node/ingest/gdal-raster';
import { ingestBoundaries } from '../../src/node/ingest/gdal-boundaries';
import { resetGdalChecks } from '../../src/node/ingest/gdal-tools';
import { main as ingestCli } from '../../src/node/ingest/cli';

const X0 = 36, Y1 = 0; // fixture window: 36E..38E, 2S..0 (Kenya, all land)
const N = 96; // 2 degrees at 1/48 degree
let dir: string, bundle: string;

function asc(path: string, values: (i: number, j: number) => number): void {
  const lines = [`ncols ${N}`, `nrows ${N}`, `xllcorner ${X0}`, `yllcorner ${Y1 - 2}`, `cellsize ${1 / 48}`, 'NODATA_value -1'];
  for (let i = 0; i < N; i++) lines.push(Array.from({ length: N }, (_, j) => values(i, j)).join(' '));
  writeFileSync(path, lines.join('\n') + '\n');
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gdal-ingest-'));
  bundle = join(dir, 'bundle');
  cpSync('public/data', bundle, { recursive: true });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Window column/row of the bundle cell holding fixture pixel (i, j). */
function cellOf(i: number, j: number): number {
  const col = Math.floor((X0 + (j + 0.5) / 48 + 26) * 12), row = Math.floor((28 - (Y1 - (i + 0.5) / 48)) * 12);
  return row * 1080 + col;
}

describe('--raster', () => {
  it('resamples counts with -r sum, preserving the total, cell by cell', async () => {
    const v = (i: number, j: number) => (i * 7 + j * 3) % 11 + (i === 5 && j === 9 ? -1 - ((i * 7 + j * 3) % 11) : 0);
    asc(join(dir, 'count.asc'), v);
    execFileSync('gdal_translate', ['-q', '-a_srs', 'EPSG:4326', join(dir, 'count.asc'), join(dir, 'count.tif')]);
    writeFileSync(join(dir, 'count.yaml'), 'varCode: FX_COUNT\nvarLabel: Fixture count\ntype: continuous\nunit: items\naggFunR: sum(FX_COUNT, na.rm=TRUE)\ndec: 0\n');
    const res = await ingestRaster({ raster: join(dir, 'count.tif'), record: join(dir, 'count.yaml'), out: bundle });
    expect(res.method).toBe('sum');
    const expected = new Map<number, number>();
    let total = 0;
    for (let i = 0; i < N; i++) for (let j = 0; j < N; j++) {
      const x = v(i, j);
      if (x < 0) continue;
      total += x;
      expected.set(cellOf(i, j), (expected.get(cellOf(i, j)) ?? 0) + x);
    }
    expect(res.sum).toBeCloseTo(total, 3);
    expect(res.cells).toBe(24 * 24);
    const e = createNodeEngine(bundle);
    const got = await e.store.readFloat('cog/FX_COUNT.tif', [0, 0, 1080, 756]);
    for (const [i, x] of expected) expect(got[i]).toBeCloseTo(x, 3);
    const desc = (await e.describe({ var: ['FX_COUNT'] }))[0];
    expect(desc.Description).toMatch(/gdalwarp -r sum/);
    const rows = (await e.getLayer({ var: ['FX_COUNT'], iso3: ['KEN'] })) as Array<Record<string, unknown>>;
    expect(rows[0].FX_COUNT).toBe(total);
    await e.store.close();
    const manifest = JSON.parse(await readFile(join(bundle, 'manifest.json'), 'utf8')) as { files: Array<{ path: string }> };
    expect(manifest.files.some((f) => f.path === 'cog/FX_COUNT.tif')).toBe(true);
  });

  it('resamples classes with -r mode', async () => {
    // in each 4 x 4 block: 9 pixels of class a and 7 of class b; a depends on the block
    const a = (bi: number, bj: number) => ((bi + 2 * bj) % 3) + 1;
    const v = (i: number, j: number) => {
      const bi = Math.floor(i / 4), bj = Math.floor(j / 4), k = (i % 4) * 4 + (j % 4);
      const A = a(bi, bj), B = (A % 3) + 1;
      return [0, 3, 5, 6, 9, 10, 12, 13, 15].includes(k) ? A : B;
    };
    asc(join(dir, 'cls.asc'), v);
    execFileSync('gdal_translate', ['-q', '-a_srs', 'EPSG:4326', join(dir, 'cls.asc'), join(dir, 'cls.tif')]);
    writeFileSync(join(dir, 'cls.csv'), 'varCode,varLabel,type,classBreaks,classLabels\nFX_ZONE,Fixture zone,class,1|2|3,Zone one|Zone two|Zone three\n');
    const res = await ingestRaster({ raster: join(dir, 'cls.tif'), record: join(dir, 'cls.csv'), out: bundle });
    expect(res.method).toBe('mode');
    const e = createNodeEngine(bundle);
    const got = await e.store.readInt('cog/FX_ZONE.tif', [0, 0, 1080, 756]);
    for (let bi = 0; bi < 24; bi++) for (let bj = 0; bj < 24; bj++) expect(got[cellOf(bi * 4, bj * 4)]).toBe(a(bi, bj));
    const rows = (await e.getLayer({ var: ['FX_ZONE'], iso3: ['KEN'], by: ['FX_ZONE'] })) as Array<Record<string, unknown>>;
    expect(rows.map((r) => r.FX_ZONE_by ?? r.FX_ZONE).filter(Boolean)).toEqual(expect.arrayContaining(['Zone one', 'Zone two', 'Zone three']));
    await e.store.close();
  });

  it('npm run ingest -- --raster averages a continuous raster (exit 0), usage errors exit 2', async () => {
    writeFileSync(join(dir, 'mean.yaml'), 'varCode: FX_MEAN\nvarLabel: Fixture mean\ntype: continuous\nunit: items\ndec: 3\n');
    expect(await ingestCli(['--raster', join(dir, 'count.tif'), '--record', join(dir, 'mean.yaml'), '--out', bundle])).toBe(0);
    const e = createNodeEngine(bundle);
    const got = await e.store.readFloat('cog/FX_MEAN.tif', [0, 0, 1080, 756]);
    const cnt = await e.store.readFloat('cog/FX_COUNT.tif', [0, 0, 1080, 756]);
    const i = cellOf(40, 40);
    expect(got[i]).toBeCloseTo(cnt[i] / 16, 4); // 16 fixture pixels per cell, none missing there
    expect((await e.describe({ var: ['FX_MEAN'] }))[0].Description).toMatch(/gdalwarp -r average/);
    await e.store.close();
    expect(await ingestCli(['--raster', join(dir, 'count.tif'), '--out', bundle])).toBe(2);
    expect(await ingestCli(['--boundaries', join(dir, 'x.geojson'), '--level', '3', '--out', bundle])).toBe(2);
  });

  it('says how to install GDAL when gdalwarp is missing', async () => {
    const path = process.env.PATH;
    process.env.PATH = join(dir, 'no-such-bin');
    resetGdalChecks();
    try {
      await expect(ingestRaster({ raster: join(dir, 'count.tif'), record: join(dir, 'count.yaml'), out: bundle })).rejects.toThrow(/--raster needs GDAL's gdalwarp.*apt-get install gdal-bin/);
    } finally {
      process.env.PATH = path;
      resetGdalChecks();
    }
  });
});

describe('--boundaries', () => {
  it('rasterises level-2 units by sub-cell majority and keeps same-named units apart', async () => {
    // two made-up first-level units split at 37.03E (a third of a cell east of 37E), each with a
    // second-level unit named "Central (fixture)"
    const rect = (x0: number, x1: number) => ({ type: 'Polygon', coordinates: [[[x0, -2], [x1, -2], [x1, 0], [x0, 0], [x0, -2]]] });
    const fc = {
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', properties: { NAME_2: 'Central (fixture)', NAME_1: 'West (fixture)', ISO: 'KEN' }, geometry: rect(36, 37.03) },
        { type: 'Feature', properties: { NAME_2: 'Central (fixture)', NAME_1: 'East (fixture)', ISO: 'KEN' }, geometry: rect(37.03, 38) },
      ],
    };
    writeFileSync(join(dir, 'units.geojson'), JSON.stringify(fc));
    const res = await ingestBoundaries({ boundaries: join(dir, 'units.geojson'), level: 2, out: bundle });
    expect(res.codes).toEqual(['ADM2_NAME_ALT']);
    expect(res.units).toBe(2);
    expect(res.cells).toBe(24 * 24);
    const e = createNodeEngine(bundle);
    const got = await e.store.readInt('cog/ADM2_NAME_ALT.tif', [0, 0, 1080, 756]);
    const classes = await (await e.loadCatalog()).classes('ADM2_NAME_ALT');
    const adm1Of = (v: number) => classes.find((c) => c.value === v)?.adm1;
    // the cell 37E..37.0833E is 36 % west, 64 % east: it goes east; 36.9167..37E is all west
    const rowOf = Math.floor((28 + 1) * 12);
    expect(adm1Of(got[rowOf * 1080 + (37 + 26) * 12])).toBe('East (fixture)');
    expect(adm1Of(got[rowOf * 1080 + (37 + 26) * 12 - 1])).toBe('West (fixture)');
    const rows = (await e.getLayer({ var: ['AREA_TOTAL'], iso3: ['KEN'], by: ['ADM2_NAME_ALT'] })) as Array<Record<string, unknown>>;
    const units = rows.filter((r) => r.ADM2_NAME_ALT);
    expect(units.map((r) => [r.ADM1_NAME_ALT, r.ADM2_NAME_ALT])).toEqual([['East (fixture)', 'Central (fixture)'], ['West (fixture)', 'Central (fixture)']]);
    await e.store.close();
    // the units' outlines as the layer has them: one valid polygon per unit, traced on the cells (the east unit starts at 37E)
    const outline = join(bundle, 'basemap/admin2.geojson');
    const traced = JSON.parse(await readFile(outline, 'utf8')) as { features: Array<{ properties: Record<string, unknown>; geometry: { type: string; coordinates: number[][][] } }> };
    expect(traced.features.map((f) => [f.properties.value, f.properties.name, f.properties.iso3, f.properties.adm1])).toEqual(
      classes.map((c) => [c.value, 'Central (fixture)', 'KEN', c.adm1]));
    const east = traced.features.find((f) => f.properties.adm1 === 'East (fixture)')!;
    expect(east.geometry.type).toBe('Polygon');
    expect(Math.min(...east.geometry.coordinates[0].map((p) => p[0]))).toBe(37);
    const sql = execFileSync('ogrinfo', ['-ro', '-q', '-dialect', 'SQLite', '-sql', 'SELECT adm1, ST_Area(geometry) AS area, ST_IsValid(geometry) AS valid FROM admin2', outline], { encoding: 'utf8' });
    const areas = [...sql.matchAll(/area \(Real\) = (.*)$/gm)].map((m) => Number(m[1]) * 144);
    expect(areas.reduce((a, b) => a + b, 0)).toBeCloseTo(24 * 24, 3);
    expect([...sql.matchAll(/valid \(Integer\) = (.*)$/gm)].map((m) => m[1])).toEqual(['1', '1']);
    const manifest = JSON.parse(await readFile(join(bundle, 'manifest.json'), 'utf8')) as { files: Array<{ path: string; bytes: number }> };
    expect(manifest.files.find((f) => f.path === 'basemap/admin2.geojson')?.bytes).toBe((await readFile(outline)).length);
  });
});
