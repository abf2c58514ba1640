/**
 * Interop of the app's big uploads (src/app/bulk-upload.ts): GeoPackages written by GDAL
 * (`ogr2ogr`, from Debian) are read back feature by feature (coordinates, multipolygons, Z
 * dropped, properties), one in another CRS is refused; and the job's table saved as a
 * GeoPackage through the package builder (a given table, the upload's shapes) opens in GDAL
 * with one polygon per shape and the values of the table.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Geometry } from 'geojson';
import { bulkDomains, gpkgFeatures, readBulkUpload } from '../../src/app/bulk-upload';
import { buildPackage } from '../../src/core/package';
import { methodPackage } from '../../src/contract/methods';
import { createNodeEngine } from '../../src/node/engine';

const DATA = join(__dirname, '..', '..', 'public', 'data');
let dir = '';
beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'indapi-bulk-')); });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Fixture polygons in Kenya (made up for the test): a square, a square with a hole, a two-part multipolygon. */
const FIXTURE = {
  type: 'FeatureCollection',
  features: [
    { type: 'Feature', properties: { name: 'square', code: 1 }, geometry: { type: 'Polygon', coordinates: [[[36, -1.5], [37, -1.5], [37, -0.5], [36, -0.5], [36, -1.5]]] } },
    { type: 'Feature', properties: { name: 'holed', code: 2 }, geometry: { type: 'Polygon', coordinates: [[[34, 0.2], [35, 0.2], [35, 1], [34, 1], [34, 0.2]], [[34.4, 0.4], [34.6, 0.4], [34.6, 0.6], [34.4, 0.6], [34.4, 0.4]]] } },
    { type: 'Feature', properties: { name: 'two parts', code: 3 }, geometry: { type: 'MultiPolygon', coordinates: [[[[38, 1], [38.5, 1], [38.5, 1.5], [38, 1.5], [38, 1]]], [[[39, 2], [39.5, 2], [39.5, 2.5], [39, 2.5], [39, 2]]]] } },
  ],
};

function ogr(args: string[]): void {
  execFileSync('ogr2ogr', args, { stdio: 'pipe' });
}

it('reads a GeoPackage written by ogr2ogr: every feature, its rings and properties; XYZ drops Z', async () => {
  const src = join(dir, 'fixture.geojson');
  writeFileSync(src, JSON.stringify(FIXTURE));
  const gpkg = join(dir, 'fixture.gpkg');
  ogr(['-f', 'GPKG', gpkg, src, '-nln', 'districts', '-nlt', 'PROMOTE_TO_MULTI']);
  const fc = await gpkgFeatures(new Uint8Array(readFileSync(gpkg)), 10);
  expect(fc.features.map((f) => f.properties?.name)).toEqual(['square', 'holed', 'two parts']);
  expect(fc.features.map((f) => f.properties?.code)).toEqual([1, 2, 3]);
  const geoms = fc.features.map((f) => f.geometry as Geometry & { coordinates: unknown });
  expect(geoms.every((g) => g.type === 'MultiPolygon')).toBe(true);
  expect(geoms[0].coordinates).toEqual([FIXTURE.features[0].geometry.coordinates]);
  expect(geoms[1].coordinates).toEqual([FIXTURE.features[1].geometry.coordinates]);
  expect(geoms[2].coordinates).toEqual(FIXTURE.features[2].geometry.coordinates);
  // with Z (ISO WKB 1006), read as 2-D
  const gz = join(dir, 'z.gpkg');
  ogr(['-f', 'GPKG', gz, src, '-dim', 'XYZ']);
  const z = await gpkgFeatures(new Uint8Array(readFileSync(gz)), 10);
  expect((z.features[0].geometry as { coordinates: unknown }).coordinates).toEqual(FIXTURE.features[0].geometry.coordinates);
  // the File entry point, capped
  const r = await readBulkUpload(new File([readFileSync(gpkg)], 'fixture.gpkg'));
  expect(r.geometries.length).toBe(3);
  expect(r.names).toEqual(['square', 'holed', 'two parts']);
});

it('refuses a GeoPackage in another CRS, naming it', async () => {
  const src = join(dir, 'fixture.geojson');
  writeFileSync(src, JSON.stringify(FIXTURE));
  const merc = join(dir, 'merc.gpkg');
  ogr(['-f', 'GPKG', merc, src, '-t_srs', 'EPSG:3857']);
  await expect(gpkgFeatures(new Uint8Array(readFileSync(merc)), 10)).rejects.toMatchObject({ code: 'BAD_CRS', message: expect.stringMatching(/EPSG:3857/) });
});

it("an upload's job table saved as GeoPackage opens in GDAL with each row's own polygon and value", async () => {
  const engine = createNodeEngine(DATA);
  const shapes = FIXTURE.features.map((f) => f.geometry as Geometry);
  const table = await engine.classify({ var: ['ELEVATION'], domains: bulkDomains(shapes), key: 'feature' });
  expect(table.rows.map((r) => Number(r.feature))).toEqual([1, 2, 3]);
  const p = await buildPackage(engine, { ...methodPackage('classify', { var: ['ELEVATION'], domains: '<3 shapes>' }), format: 'gpkg', result: table, extra: { shapes } });
  const f = p.files.find((x) => x.name.endsWith('.gpkg'))!;
  const path = join(dir, f.name);
  writeFileSync(path, f.bytes);
  const gj = JSON.parse(execFileSync('ogr2ogr', ['-f', 'GeoJSON', '/vsistdout/', path], { encoding: 'utf8' }));
  expect(gj.features.length).toBe(3);
  for (let i = 0; i < 3; i++) {
    const g = gj.features[i];
    expect(Number(g.properties.feature)).toBe(i + 1);
    expect(g.properties.ELEVATION).toBeCloseTo(Number(table.rows[i].ELEVATION), 6);
    expect(g.geometry.type).toBe('MultiPolygon');
    const want = shapes[i].type === 'Polygon' ? [(shapes[i] as { coordinates: unknown }).coordinates] : (shapes[i] as { coordinates: unknown }).coordinates;
    expect(g.geometry.coordinates).toEqual(want);
  }
  // a cell format is refused for a given table, before any work
  await expect(buildPackage(engine, { ...methodPackage('classify', { var: ['ELEVATION'] }), format: 'tif', result: table })).rejects.toMatchObject({ code: 'BAD_FORMAT' });
});
