/**
 * Yearly rasters ingested as one series (`--raster <folder> --record <one record>`): three
 * FIXTURE GeoTIFFs written by gdal_translate (constant 10, 20, 30 over 36E..38E, 2S..0 in
 * Kenya, 1/48 degree), ingested into a copy of the embedded bundle, then read back year by year
 * through the bundle reader and the engine's `year` and `change`.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createNodeEngine } from '../../src/node/engine';
import { main as ingestCli } from '../../src/node/ingest/cli';
import { planRasterRuns } from '../../src/node/ingest/gdal-cli';
import { nodeBundle } from '../../src/node/bundle-runtime';
import type { Row } from '../../src/core/types';

const N = 96;
const YEARS = [2000, 2005, 2010];
let dir: string, bundle: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'raster-series-'));
  bundle = join(dir, 'bundle');
  cpSync('public/data', bundle, { recursive: true });
  mkdirSync(join(dir, 'years'));
  for (const [k, y] of YEARS.entries()) {
    const lines = [`ncols ${N}`, `nrows ${N}`, 'xllcorner 36', 'yllcorner -2', `cellsize ${1 / 48}`, 'NODATA_value -1'];
    for (let i = 0; i < N; i++) lines.push(Array.from({ length: N }, () => 10 * (k + 1)).join(' '));
    writeFileSync(join(dir, `fx_${y}.asc`), lines.join('\n') + '\n');
    execFileSync('gdal_translate', ['-q', '-a_srs', 'EPSG:4326', join(dir, `fx_${y}.asc`), join(dir, 'years', `FX_POP_${y}.tif`)]);
  }
  writeFileSync(join(dir, 'years', 'notes.txt'), 'not a raster of the series\n');
  writeFileSync(join(dir, 'pop.yaml'), 'varCode: FX_POP\nvarLabel: Fixture people\ntype: continuous\nunit: people\naggFunR: mean(FX_POP, na.rm=TRUE)\ndec: 1\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('yearly rasters as one series', () => {
  it('pairs rasters and records: one per raster, or one record for a folder or <NAME>_<YYYY>.tif files', () => {
    const isDir = (p: string) => p === '/f';
    const list = () => ['B_2010.tif', 'A_2000.tif', 'x.txt'];
    expect(planRasterRuns(['/a.tif', '/b.tif'], ['/a.yaml', '/b.yaml'], isDir, list)).toEqual([{ raster: '/a.tif', record: '/a.yaml' }, { raster: '/b.tif', record: '/b.yaml' }]);
    expect(planRasterRuns(['/f'], ['/r.yaml'], isDir, list)).toEqual([{ raster: '/f/A_2000.tif', record: '/r.yaml', year: 2000 }, { raster: '/f/B_2010.tif', record: '/r.yaml', year: 2010 }]);
    expect(planRasterRuns(['/W_2005.tif', '/W_2000.tif'], ['/r.yaml'], isDir, list).map((r) => r.year)).toEqual([2000, 2005]);
    expect(() => planRasterRuns(['/a.tif', '/b.tif'], ['/r.yaml'], isDir, list)).toThrow(/named <NAME>_<YYYY>.tif/);
    expect(() => planRasterRuns(['/W_2000.tif', '/V_2000.tif'], ['/r.yaml'], isDir, list)).toThrow(/two rasters of 2000/);
    expect(() => planRasterRuns(['/f'], ['/r.yaml'], isDir, () => ['x.txt'])).toThrow(/no raster named/);
  });

  it('a folder of three yearly rasters and one record: three layers, one series, each year read back', async () => {
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    let said: string;
    try {
      expect(await ingestCli(['--raster', join(dir, 'years'), '--record', join(dir, 'pop.yaml'), '--out', bundle])).toBe(0);
      said = err.mock.calls.map((c) => String(c[0])).join('');
    } finally { err.mockRestore(); }
    expect(said).toContain('series: FX_POP (column): FX_POP_2000 2000, FX_POP_2005 2005, FX_POP_2010 2010');
    const vi_ = readFileSync(join(bundle, 'vi.csv'), 'utf8');
    expect(vi_).toMatch(/FX_POP_2005/);
    const b = nodeBundle(bundle);
    const e = createNodeEngine(bundle);
    for (const [k, y] of YEARS.entries()) {
      const ref = b.layer('FX_POP', { year: y });
      expect(ref.path).toBe(`cog/FX_POP_${y}.tif`);
      const v = await e.store.readFloat(ref.path, [0, 0, 1080, 756]);
      const cells: number[] = [];
      for (let row = 336; row < 360; row++) for (let col = 744; col < 768; col++) cells.push(v[row * 1080 + col]); // the fixture's 24 x 24 cells
      expect(new Set(cells)).toEqual(new Set([10 * (k + 1)])); // gdalwarp -r average of a constant is the constant
    }
    const rows = (await e.getLayer({ var: ['FX_POP'], iso3: ['KEN'], year: YEARS })) as Row[];
    expect(rows.map((r) => [r.year, r.FX_POP])).toEqual([[2000, 10], [2005, 20], [2010, 30]]);
    const ch = (await e.getLayer({ var: ['FX_POP'], iso3: ['KEN'], year: [2000, 2010], change: 'pct' })) as Row[];
    expect(ch[0].FX_POP).toBe(200); // 100 * (30 - 10) / 10
  });
});
