/**
 * Issue 15 item 1: the bundle window from the data. The generated island table
 * (tests/ingest/fixtures/islands.fixture.ts: MADE-UP values) has cells of British Indian Ocean
 * Territory (Chagos), Saint Helena's Tristan da Cunha and Gough, and South Africa's Prince
 * Edward Islands, all outside the embedded bundle's window [-26, -35, 64, 28]. It ingests
 * without --drop-invalid into a bundle whose grid holds every cell; the engine answers by ISO3
 * for IOT, the SSA total counts the island cells, a WKT point on Tristan da Cunha selects its
 * cell, a WKT outside the grid names the bundle's window; GDAL reads the COG and tif, asc and
 * grd exports at the right place; the admin outlines lie on the islands' cells; `--window ssa`
 * gives the documented fixed window.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cellToColRow, GLOBAL_WIDTH, gridText, SSA_ALL_GRID, SSA_GRID, type GridDef } from '../../src/core/grid';
import { createNodeEngine } from '../../src/node/engine';
import { ingestTable } from '../../src/node/ingest';
import { main } from '../../src/node/ingest/cli';
import { startServer, type RunningServer } from '../../src/node/server';
import { fixtureCatalog, islandTable } from './fixtures/islands.fixture';

const FIX = join(__dirname, 'fixtures');
let dir = '';
let rows: Array<Record<string, string>> = [];
let grid: GridDef;
let server: RunningServer | undefined;
const bundle = () => join(dir, 'bundle');
const popOf = (f: (r: Record<string, string>) => boolean) => rows.filter(f).reduce((s, r) => s + Number(r.POP_FIX), 0);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'islands-'));
  writeFileSync(join(dir, 'islands.csv'), islandTable());
  writeFileSync(join(dir, 'vi.csv'), fixtureCatalog(FIX));
  rows = Papa.parse<Record<string, string>>(readFileSync(join(dir, 'islands.csv'), 'utf8'), { header: true, skipEmptyLines: true }).data;
  const res = await ingestTable({ table: join(dir, 'islands.csv'), catalog: join(dir, 'vi.csv'), out: bundle() });
  expect(res.ok, JSON.stringify(res.findings)).toBe(true);
  expect(res.findings.filter((f) => f.severity !== 'info')).toEqual([]);
  grid = JSON.parse(readFileSync(join(bundle(), 'manifest.json'), 'utf8')).grid;
}, 120_000);
afterAll(async () => {
  await server?.close(100);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('ingest of a table with outer islands: the window from the data', () => {
  it('the table has island cells outside the embedded window, and the bundle grid holds every cell', () => {
    const outside = rows.filter((r) => !cellToColRow(SSA_GRID, Number(r.CELL5M)));
    expect(new Set(outside.map((r) => r.ISO3))).toEqual(new Set(['IOT', 'SHN', 'ZAF']));
    for (const r of rows) expect(cellToColRow(grid, Number(r.CELL5M)), r.CELL5M).not.toBeNull();
    // the bounding box of the cells, cell-registered on the 1/12-degree lattice
    const gc = rows.map((r) => Number(r.CELL5M) % GLOBAL_WIDTH), gr = rows.map((r) => Math.floor(Number(r.CELL5M) / GLOBAL_WIDTH));
    expect(grid).toMatchObject({ colOffset: Math.min(...gc), rowOffset: Math.min(...gr), width: Math.max(...gc) - Math.min(...gc) + 1, height: Math.max(...gr) - Math.min(...gr) + 1 });
    expect(grid.xmin).toBeCloseTo((grid.colOffset - 2160) / 12, 12);
    expect(grid.ymax).toBeCloseTo((1080 - grid.rowOffset) / 12, 12);
    expect(grid.xmax).toBeGreaterThan(72.4);
    expect(grid.ymin).toBeLessThan(-46.9);
    expect(readFileSync(join(bundle(), 'README.md'), 'utf8')).toContain(`${grid.width} x ${grid.height} cells`);
  });

  it('iso.csv gives each country the bounding box of its cells, islands included', () => {
    const iso = Papa.parse<Record<string, string>>(readFileSync(join(bundle(), 'iso.csv'), 'utf8'), { header: true, skipEmptyLines: true }).data;
    const iot = iso.find((r) => r.code === 'IOT')!;
    expect(Number(iot.xmin)).toBeCloseTo(71 + 10 / 12, 6); // Peros Banhos cell 71.833..71.917
    expect(Number(iot.xmax)).toBeCloseTo(72.5 + 1 / 12, 6);
    expect(Number(iso.find((r) => r.code === 'ZAF')!.ymin)).toBeLessThan(-46.9);
    expect(iso.find((r) => r.code === 'SSA')!.members.split('|')).toEqual(expect.arrayContaining(['IOT', 'SHN', 'ZAF', 'KEN']));
  });

  it('engine: POP by ISO3 for IOT, SSA totals with the island cells, a WKT point on Tristan da Cunha', async () => {
    const e = createNodeEngine(bundle());
    const iot = (await e.getLayer({ var: ['POP_FIX'], iso3: ['IOT'] })) as Array<Record<string, number>>;
    expect(iot[0].POP_FIX).toBe(popOf((r) => r.ISO3 === 'IOT'));
    const byIso = (await e.getLayer({ var: ['POP_FIX'], iso3: ['SSA'], by: ['ISO3'] })) as Array<Record<string, number | string>>;
    for (const c of ['IOT', 'SHN', 'ZAF', 'KEN']) expect(byIso.find((r) => r.ISO3 === c)!.POP_FIX).toBe(popOf((r) => r.ISO3 === c));
    const ssa = (await e.getLayer({ var: ['POP_FIX'], iso3: ['SSA'] })) as Array<Record<string, number>>;
    expect(ssa[0].POP_FIX).toBe(popOf(() => true));
    // Tristan da Cunha: the first cell of the place at -12.3 E, -37.1 S
    const tdc = rows.find((r) => r.ADM2_NAME_ALT === 'Tristan da Cunha')!;
    const w = await e.getLayerWKT({ var: ['POP_FIX'], wkt: `POINT (${Number(tdc.X) + 0.01} ${Number(tdc.Y) - 0.01})` });
    expect(w.rows).toEqual([expect.objectContaining({ ISO3: 'SHN', POP_FIX: Number(tdc.POP_FIX) })]);
    // a shape outside the bundle's window: the message names that window
    await expect(e.getLayerWKT({ var: ['POP_FIX'], wkt: 'POINT (100 50)' })).rejects.toThrow(`outside the grid of the bundle ${gridText(grid)}`);
    expect(gridText(grid)).not.toBe(gridText(SSA_GRID));
  });

  it('GDAL reads the COG georeferenced on the bundle window, the IOT cell at its place', () => {
    const info = JSON.parse(execFileSync('gdalinfo', ['-json', join(bundle(), 'cog', 'POP_FIX.tif')], { encoding: 'utf8', env: { ...process.env, GDAL_PAM_ENABLED: 'NO' } }));
    expect(info.size).toEqual([grid.width, grid.height]);
    const gt = info.geoTransform as number[];
    expect(gt[0]).toBeCloseTo(grid.xmin, 9);
    expect(gt[3]).toBeCloseTo(grid.ymax, 9);
    expect(gt[1]).toBeCloseTo(1 / 12, 12);
    expect(gt[5]).toBeCloseTo(-1 / 12, 12);
    const dg = rows.find((r) => r.ADM2_NAME_ALT === 'Diego Garcia')!;
    const v = execFileSync('gdallocationinfo', ['-valonly', '-wgs84', join(bundle(), 'cog', 'POP_FIX.tif'), dg.X, dg.Y], { encoding: 'utf8' }).trim();
    expect(Number(v)).toBe(Number(dg.POP_FIX));
  });

  it('tif, asc and grd exports of IOT (OpenCPU contract) are georeferenced where the islands are', async () => {
    server = await startServer({ port: 0, host: '127.0.0.1', dataDir: bundle(), distDir: join(dir, 'dist'), sessionDir: join(dir, 'sessions'), log: false });
    const iotRows = rows.filter((r) => r.ISO3 === 'IOT');
    const dg = iotRows.find((r) => r.ADM2_NAME_ALT === 'Diego Garcia')!;
    for (const format of ['tif', 'asc', 'grd']) {
      const r = await fetch(`${server.url}ocpu/library/indapi3/R/indapi`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: `var=%22POP_FIX%22&iso3=%22IOT%22&format=%22${format}%22` });
      const listing = await r.text();
      expect(r.status, listing).toBe(201);
      const files = listing.split('\n').filter((l) => /\/files\//.test(l));
      for (const f of files) writeFileSync(join(dir, `iot-${format}-${f.split('/').pop()}`), Buffer.from(await (await fetch(new URL(f, server.url))).arrayBuffer()));
      const main = files.find((l) => l.endsWith(`.${format}`))!;
      const path = join(dir, `iot-${format}-${main.split('/').pop()}`);
      const info = JSON.parse(execFileSync('gdalinfo', ['-json', path], { encoding: 'utf8', env: { ...process.env, GDAL_PAM_ENABLED: 'NO' } }));
      const [x0, , , y0] = info.geoTransform as number[];
      expect(x0, format).toBeCloseTo(Math.min(...iotRows.map((q) => Number(q.X))) - 1 / 24, 4);
      expect(y0, format).toBeCloseTo(Math.max(...iotRows.map((q) => Number(q.Y))) + 1 / 24, 4);
      expect(Number(execFileSync('gdallocationinfo', ['-valonly', '-wgs84', path, dg.X, dg.Y], { encoding: 'utf8' }).trim()), format).toBe(Number(dg.POP_FIX));
    }
  });

  it('admin outlines are traced on the bundle window: Diego Garcia where its cells are', () => {
    const gj = JSON.parse(readFileSync(join(bundle(), 'basemap', 'admin2.geojson'), 'utf8'));
    const f = gj.features.find((x: { properties: { name: string } }) => x.properties.name === 'Diego Garcia');
    const xs = JSON.stringify(f.geometry.coordinates).match(/-?\d+(\.\d+)?/g)!.map(Number);
    const lons = xs.filter((_, k) => k % 2 === 0), lats = xs.filter((_, k) => k % 2 === 1);
    const cells = rows.filter((r) => r.ADM2_NAME_ALT === 'Diego Garcia');
    expect(Math.min(...lons)).toBeCloseTo(Math.min(...cells.map((r) => Number(r.X))) - 1 / 24, 4);
    expect(Math.max(...lons)).toBeCloseTo(Math.max(...cells.map((r) => Number(r.X))) + 1 / 24, 4);
    expect(Math.min(...lats)).toBeCloseTo(Math.min(...cells.map((r) => Number(r.Y))) - 1 / 24, 4);
  });

  it('--window ssa: the documented fixed window [-26, -48, 73, 28] holds every territory; a bad --window is a usage error', async () => {
    const out = join(dir, 'fixed');
    expect(await main(['--table', join(dir, 'islands.csv'), '--catalog', join(dir, 'vi.csv'), '--out', out, '--window', 'ssa', '--quiet'])).toBe(0);
    const g = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')).grid;
    expect(g).toEqual({ ...SSA_ALL_GRID });
    expect([g.xmin, g.ymin, g.xmax, g.ymax, g.width, g.height]).toEqual([-26, -48, 73, 28, 1188, 912]);
    expect(await main(['--table', join(dir, 'islands.csv'), '--catalog', join(dir, 'vi.csv'), '--out', join(dir, 'bad'), '--window', '10,0,5,1', '--quiet'])).toBe(2);
  });
});
