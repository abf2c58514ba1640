/**
 * Admin outlines of an ingested bundle (basemap/admin1.geojson, basemap/admin2.geojson) on the
 * committed fixture (tests/ingest/fixtures: MADE-UP values, 36 cells of Côte d'Ivoire and São
 * Tomé with invented units, "Centre" a district of four ADM1 units): listed in the manifest
 * with size and sha256, read by GDAL's `ogrinfo` (SQLite dialect: ST_IsValid, ST_Area), one
 * feature per unit with the class table's value, name, iso3 and adm1, areas equal to the
 * units' cells, every row's cell centre inside its own unit; no admin2.geojson for a table
 * without ADM2 units.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseClassTable } from '../../src/core/bundle';
import { ingestTable } from '../../src/node/ingest';

const FIX = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');
const TABLE = join(FIX, 'cells.fixture.csv');
const VI = join(FIX, 'vi.fixture.csv');

let dir: string;
let out: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ingest-outlines-'));
  out = join(dir, 'bundle');
  const res = await ingestTable({ table: TABLE, catalog: VI, out });
  expect(res.ok).toBe(true);
}, 60_000);
afterAll(() => { if (dir) rmSync(dir, { recursive: true, force: true }); });

type Ring = number[][];
interface Feature { properties: Record<string, string | number>; geometry: { type: string; coordinates: unknown } }
const polygons = (g: Feature['geometry']): Ring[][] => (g.type === 'Polygon' ? [g.coordinates as Ring[]] : (g.coordinates as Ring[][]));
function inRing(r: Ring, x: number, y: number): boolean {
  let c = false;
  for (let i = 0, j = r.length - 2; i < r.length - 1; j = i++) if (r[i][1] > y !== r[j][1] > y && x < ((r[j][0] - r[i][0]) * (y - r[i][1])) / (r[j][1] - r[i][1]) + r[i][0]) c = !c;
  return c;
}
const inside = (g: Feature['geometry'], x: number, y: number) => polygons(g).some((p) => inRing(p[0], x, y) && !p.slice(1).some((h) => inRing(h, x, y)));

/** Rows of `ogrinfo -dialect SQLite -sql` as objects of text. */
function ogrSql(file: string, sql: string): Array<Record<string, string>> {
  const text = execFileSync('ogrinfo', ['-ro', '-q', '-dialect', 'SQLite', '-sql', sql, file], { encoding: 'utf8' });
  return text.split(/OGRFeature\(SELECT\):\d+/).slice(1).map((b) => Object.fromEntries([...b.matchAll(/^\s+(\w+) \(\w+\) = (.*)$/gm)].map((m) => [m[1], m[2]])));
}

const table = Papa.parse<Record<string, string>>(readFileSync(TABLE, 'utf8'), { header: true, skipEmptyLines: true }).data;

describe.each([
  [1, 'ADM1_NAME_ALT', (r: Record<string, string>) => [r.ISO3, r.ADM1_NAME_ALT].join('|'), (e: Record<string, unknown>) => [e.iso3, e.label].join('|')],
  [2, 'ADM2_NAME_ALT', (r: Record<string, string>) => [r.ISO3, r.ADM1_NAME_ALT, r.ADM2_NAME_ALT].join('|'), (e: Record<string, unknown>) => [e.iso3, e.adm1, e.label].join('|')],
] as const)('basemap/admin%i.geojson of the fixture table', (level, key, rowKey, entryKey) => {
  const path = `basemap/admin${level}.geojson`;

  it('is listed in the manifest with its size and sha256', () => {
    const m = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as { files: Array<{ path: string; bytes: number; sha256: string }> };
    const f = m.files.find((x) => x.path === path);
    const bytes = readFileSync(join(out, path));
    expect(f).toEqual({ path, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
  });

  it('ogrinfo: one valid polygon per unit of the class table, with value, name, iso3 (adm1), area = the unit\'s cells', () => {
    const classes = parseClassTable(readFileSync(join(out, `classes/${key}.csv`), 'utf8'));
    const cellsOf = new Map<string, number>();
    for (const r of table) cellsOf.set(rowKey(r), (cellsOf.get(rowKey(r)) ?? 0) + 1);
    const file = join(out, path);
    const schema = execFileSync('ogrinfo', ['-ro', '-al', '-so', file], { encoding: 'utf8' });
    expect([...schema.matchAll(/^(\w+): (Integer|Real|String)/gm)].map((m) => m[1])).toEqual(level === 1 ? ['value', 'name', 'iso3'] : ['value', 'name', 'iso3', 'adm1']);
    const rows = ogrSql(file, `SELECT value, name, iso3${level === 2 ? ', adm1' : ''}, ST_Area(geometry) AS area, ST_IsValid(geometry) AS valid FROM admin${level}`);
    expect(rows.length).toBe(classes.length);
    expect(rows.length).toBe(level === 1 ? 4 : 6);
    for (const r of rows) {
      const e = classes.find((c) => c.value === Number(r.value))!;
      expect(e, r.value).toBeDefined();
      expect([r.name, r.iso3, level === 2 ? r.adm1 : undefined]).toEqual([e.label, e.iso3, level === 2 ? e.adm1 : undefined]);
      expect(r.valid).toBe('1');
      expect(Number(r.area) * 144).toBeCloseTo(cellsOf.get(entryKey(e))!, 4);
    }
  });

  it('every row\'s cell centre lies in the outline of its own unit and of no other', () => {
    const classes = parseClassTable(readFileSync(join(out, `classes/${key}.csv`), 'utf8'));
    const fc = JSON.parse(readFileSync(join(out, path), 'utf8')) as { features: Feature[] };
    const keyOfValue = new Map(classes.map((e) => [e.value, entryKey(e as Record<string, unknown>)]));
    for (const r of table) {
      const owners = fc.features.filter((f) => inside(f.geometry, Number(r.X), Number(r.Y))).map((f) => keyOfValue.get(Number(f.properties.value)));
      expect(owners).toEqual([rowKey(r)]);
    }
  });
});

describe('a table without ADM2 units', () => {
  it('writes admin1.geojson but no admin2.geojson, and the manifest lists neither missing file', async () => {
    const rows = Papa.parse<string[]>(readFileSync(TABLE, 'utf8'), { skipEmptyLines: true }).data;
    const j = rows[0].indexOf('ADM2_NAME_ALT');
    const t = join(dir, 'no-adm2.csv');
    writeFileSync(t, Papa.unparse(rows.map((r, i) => (i === 0 ? r : r.map((v, k) => (k === j ? '' : v)))), { newline: '\n' }) + '\n');
    const o = join(dir, 'no-adm2');
    const res = await ingestTable({ table: t, catalog: VI, out: o });
    expect(res.ok).toBe(true);
    expect(existsSync(join(o, 'basemap/admin1.geojson'))).toBe(true);
    expect(existsSync(join(o, 'basemap/admin2.geojson'))).toBe(false);
    const m = JSON.parse(readFileSync(join(o, 'manifest.json'), 'utf8')) as { files: Array<{ path: string }> };
    for (const f of m.files) expect(existsSync(join(o, f.path)), f.path).toBe(true);
    expect(m.files.map((f) => f.path)).toContain('basemap/admin1.geojson');
  }, 60_000);
});
