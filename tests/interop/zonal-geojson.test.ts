/**
 * Interop on the bundle's real data: the GeoJSON packages of the Node server (real engine
 * and writers on public/data), read back with GDAL (ogr2ogr into one GeoPackage, SpatiaLite
 * SQL through `ogrinfo -dialect SQLite`). Kenya's AREA_TOTAL (`sum`) by admin-1 unit as
 * zonal polygons, against the same request with `collapse = FALSE` as per-cell points:
 * one valid polygon per unit, each unit's total equals the sum of the cell values of the
 * points inside its polygon, polygon areas equal their cells' areas, and every point falls
 * in exactly one polygon.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/node/server';

let tmp: string;
let srv: RunningServer;
beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'indapi3-zonal-'));
  mkdirSync(path.join(tmp, 'dist'), { recursive: true });
  writeFileSync(path.join(tmp, 'dist', 'index.html'), '<!doctype html><h1>fixture shell</h1>');
  srv = await startServer({ port: 0, host: '127.0.0.1', distDir: path.join(tmp, 'dist'), dataDir: path.resolve('public/data'), sessionDir: path.join(tmp, 'sessions'), log: false });
});
afterAll(async () => {
  await srv?.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** The GeoJSON text of a json package made by the server. */
async function geojson(body: Record<string, unknown>): Promise<string> {
  const base = `http://127.0.0.1:${srv.port}/ocpu`;
  const r = await fetch(`${base}/library/indapi3/R/indapi`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ ...body, format: 'json' }) });
  expect(r.status, await r.clone().text()).toBe(201);
  const zip = await JSZip.loadAsync(new Uint8Array(await (await fetch(`${base}/tmp/${r.headers.get('x-ocpu-session')}/zip`)).arrayBuffer()));
  const name = Object.keys(zip.files).find((n) => n.endsWith('.geojson'))!;
  return zip.file(name)!.async('string');
}

it('Kenya by admin-1: unit polygons whose totals are the sums of their cells, valid, with the cells\' area', async () => {
  const req = { var: ['AREA_TOTAL'], iso3: ['KEN'], by: ['ADM1_NAME_ALT'] };
  const zonal = await geojson(req);
  const cells = await geojson({ ...req, collapse: false });
  const z = JSON.parse(zonal), c = JSON.parse(cells);
  expect(z.description).toMatch(/group's summary/);
  expect(c.description).toMatch(/own values/);
  expect(c.features[0].geometry.type).toBe('Point');
  expect(c.features[0].properties).not.toHaveProperty('ADM1_NAME_ALT'); // no group keys or summaries on cells
  const dir = path.join(tmp, 'gis');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'zonal.geojson'), zonal);
  writeFileSync(path.join(dir, 'cells.geojson'), cells);
  const gpkg = path.join(dir, 'both.gpkg');
  execFileSync('ogr2ogr', ['-f', 'GPKG', gpkg, path.join(dir, 'zonal.geojson'), '-nln', 'zonal']);
  execFileSync('ogr2ogr', ['-f', 'GPKG', '-update', gpkg, path.join(dir, 'cells.geojson'), '-nln', 'cells']);
  const sql =
    'SELECT z.ADM1_NAME_ALT AS unit, z.AREA_TOTAL AS total, z.CELLS AS ncells, ST_Area(z.geom) AS area, ST_IsValid(z.geom) AS valid, ' +
    '(SELECT SUM(c.AREA_TOTAL) FROM cells c WHERE ST_Within(c.geom, z.geom)) AS cellsum, (SELECT COUNT(*) FROM cells c WHERE ST_Within(c.geom, z.geom)) AS inside FROM zonal z';
  const out = execFileSync('ogrinfo', ['-ro', '-q', '-dialect', 'SQLite', '-sql', sql, gpkg], { encoding: 'utf8' });
  const rows = out.split(/OGRFeature\(SELECT\):\d+/).slice(1).map((b) => Object.fromEntries([...b.matchAll(/^\s+(\w+) \(\w+\) = (.*)$/gm)].map((m) => [m[1], m[2]])));
  const units = rows.filter((r) => r.unit !== '(null)');
  expect(units.length).toBeGreaterThan(5);
  expect(new Set(units.map((r) => r.unit)).size).toBe(units.length);
  let inside = 0;
  for (const r of rows) {
    expect(r.valid, r.unit).toBe('1');
    expect(Number(r.inside), r.unit).toBe(Number(r.ncells));
    // totals are rounded to the catalog's 2 decimals
    expect(Math.abs(Number(r.cellsum) - Number(r.total)), r.unit).toBeLessThan(0.01);
    expect(Number(r.area) * 144, r.unit).toBeCloseTo(Number(r.ncells), 6);
    inside += Number(r.inside);
  }
  expect(inside).toBe(c.features.length);
}, 120_000);
