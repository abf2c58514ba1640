/**
 * Interop: the GeoPackage (`format = "gpkg"`) of real queries on the embedded bundle, built
 * by `buildPackage` as the API and the app build it, opened by GDAL (`ogrinfo`) and R
 * (`sf::st_read`): the geometry type, CRS EPSG:4326, one feature per row, the values.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPackage } from '../../src/core/package';
import { methodPackage } from '../../src/contract/methods';
import { nodeRuntime } from '../../src/node/bundle-runtime';

const DATA = join(__dirname, '..', '..', 'public', 'data');
const rt = nodeRuntime(DATA);
const engine = rt.engine;
let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'indapi-gpkg-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Builds a gpkg package and writes its data file; returns its path, layer name and the table's rows. */
async function gpkg(method: string, args: Record<string, unknown>): Promise<{ path: string; layer: string; rows: Array<Record<string, unknown>> }> {
  const p = await buildPackage(engine, { ...methodPackage(method, args), format: 'gpkg', write: rt.genFile });
  const f = p.files[0];
  const path = join(dir, f.name);
  writeFileSync(path, f.bytes);
  const csv = await buildPackage(engine, { ...methodPackage(method, args), format: 'csv' });
  const text = new TextDecoder().decode(csv.files[0].bytes).trim().split(/\r?\n/);
  const head = text[0].split(',');
  const rows = text.slice(1).map((l) => Object.fromEntries(l.split(',').map((v, i) => [head[i], v])));
  return { path, layer: f.name.replace(/\.gpkg$/, '').replace(/[^A-Za-z0-9_]/g, '_'), rows };
}

/** sf::st_read: geometry type, EPSG code, rows, and the column `col` as numbers. */
function sfRead(path: string, col: string): { type: string; epsg: string; n: number; values: number[]; valid: string } {
  const script = `suppressMessages(library(sf)); d <- st_read(commandArgs(TRUE)[1], quiet = TRUE); g <- st_geometry(d); cat(as.character(unique(st_geometry_type(g[!st_is_empty(g)]))), st_crs(d)$epsg, nrow(d), all(st_is_valid(g[!st_is_empty(g)])), sep = "\\n"); cat(paste(d[["${col}"]], collapse = " "), "\\n")`;
  const out = execFileSync('Rscript', ['-e', script, path], { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'pipe'] }).trim().split('\n');
  return { type: out[0], epsg: out[1], n: Number(out[2]), valid: out[3], values: out[4].trim().split(' ').map(Number) };
}

describe('GeoPackage read by GDAL and R', () => {
  it('Kenya by ADM1_NAME_ALT: MULTIPOLYGON outlines of the provinces, EPSG:4326, the table\'s values', async () => {
    const { path, layer, rows } = await gpkg('indapi', { var: ['ELEVATION', 'ELEV_ZONE'], iso3: ['KEN'], by: ['ADM1_NAME_ALT'] });
    // GDAL 3.6 (Debian 12, QGIS 3.22) opens it without a warning: user_version 10300 (GeoPackage 1.3), not 1.4
    const run = spawnSync('ogrinfo', ['-so', path, layer], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const info = run.stdout;
    expect(info).toMatch(/Geometry: Multi Polygon/);
    expect(info).toMatch(new RegExp(`Feature Count: ${rows.length}\\b`));
    expect(info).toMatch(/ID\["EPSG",4326\]|AUTHORITY\["EPSG","4326"\]/);
    expect(info).toMatch(/ELEVATION: (Integer|Real)/);
    const sf = sfRead(path, 'ELEVATION');
    expect([sf.type, sf.epsg, sf.n, sf.valid]).toEqual(['MULTIPOLYGON', '4326', rows.length, 'TRUE']);
    expect(sf.values).toEqual(rows.map((r) => Number(r.ELEVATION)));
    // every province has its outline: ogr's SQL counts the features with a geometry
    const withGeom = execFileSync('ogrinfo', ['-q', '-sql', `SELECT COUNT(*) AS n FROM "${layer}" WHERE geom IS NOT NULL`, path], { encoding: 'utf8' });
    expect(Number(/n \(Integer\) = (\d+)/.exec(withGeom)![1])).toBe(rows.length);
  });

  it('over WKT shapes: each row carries its shape; per cell (collapse = FALSE): points at the cell centres', async () => {
    const w = await gpkg('indapi', { var: ['ELEVATION'], wkt: 'GEOMETRYCOLLECTION(POLYGON ((33 -2, 35 -2, 35 0.5, 33 0.5, 33 -2)), POLYGON ((36 -2, 38 -2, 38 0, 36 0, 36 -2)))' });
    const sw = sfRead(w.path, 'ELEVATION');
    expect([sw.type, sw.epsg, sw.n]).toEqual(['MULTIPOLYGON', '4326', w.rows.length]);
    expect(sw.values).toEqual(w.rows.map((r) => Number(r.ELEVATION)));
    const c = await gpkg('genFile', { var: ['ELEVATION'], iso3: ['RWA'], collapse: false });
    const sc = sfRead(c.path, 'ELEVATION');
    expect([sc.type, sc.epsg, sc.n]).toEqual(['POINT', '4326', c.rows.length]);
    expect(sc.values).toEqual(c.rows.map((r) => Number(r.ELEVATION)));
    const info = execFileSync('ogrinfo', ['-so', c.path, c.layer], { encoding: 'utf8' });
    expect(info).toMatch(/Geometry: Point/);
  });
});
