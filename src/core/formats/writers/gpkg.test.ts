import { describe, expect, it } from 'vitest';
import initSqlJs from 'sql.js';
import { FIXED_NOW, FIXTURE_META, TABLE_KEN_ADM1 } from '../../../../tests/formats/formats.fixture';
import { genFile } from '../index';
import { normalizeFormat } from '../registry';
import type { Row } from '../../types';

/** Two made-up square "units" of the fixture's provinces (tests only). */
const square = (x: number, y: number) => ({ type: 'Polygon' as const, coordinates: [[[x, y], [x + 1, y], [x + 1, y + 1], [x, y + 1], [x, y]]] });
const TABLE_UNITS = TABLE_KEN_ADM1.rows.filter((r) => r.ADM1_NAME_ALT).map((r) => String(r.ADM1_NAME_ALT));
const admin1 = { type: 'FeatureCollection', features: TABLE_UNITS.map((name, k) => ({ type: 'Feature', properties: { name, iso3: 'KEN' }, geometry: square(34 + k, -1) })) };
const basemap = { type: 'FeatureCollection', features: [{ type: 'Feature', properties: { iso3: 'KEN', name: 'Kenya' }, geometry: square(33, -5) }] };
const args = { var: ['ELEVATION', 'ELEV_ZONE'], iso3: ['KEN'], by: ['ADM1_NAME_ALT'] };

describe('gpkg (GeoPackage) through the registry', () => {
  it('is a format of the registry, with its alias', () => {
    expect(normalizeFormat(' GeoPackage')).toBe('gpkg');
  });

  it('writes one feature table: the table\'s rows and columns, unit outlines by ADM1, the country for its total, EPSG:4326', async () => {
    const r = await genFile({ format: 'gpkg', method: 'getLayer', args, table: TABLE_KEN_ADM1, meta: FIXTURE_META, now: FIXED_NOW, basemap: basemap as never, admin1: admin1 as never });
    const base = 'getLayer-ELEVATION-ELEV_ZONE-ADM1_NAME_ALT-KEN';
    expect(r.files.map((f) => f.name)).toEqual([`${base}.gpkg`, 'meta.csv', 'README.md', 'datapackage.json', 'DESCRIPTION', 'terms.html']);
    expect(r.files[0].mediaType).toBe('application/geopackage+sqlite3');
    const bytes = r.files[0].bytes;
    expect(new TextDecoder().decode(bytes.subarray(0, 15))).toBe('SQLite format 3');
    const SQL = await initSqlJs();
    const db = new SQL.Database(bytes);
    const one = (sql: string) => db.exec(sql)[0].values;
    expect(one('PRAGMA application_id')[0][0]).toBe(0x47504b47);
    const layer = base.replace(/-/g, '_');
    expect(one('SELECT table_name, data_type, srs_id FROM gpkg_contents')).toEqual([[layer, 'features', 4326]]);
    expect(one('SELECT geometry_type_name, srs_id FROM gpkg_geometry_columns')).toEqual([['MULTIPOLYGON', 4326]]);
    const rows = db.exec(`SELECT * FROM "${layer}" ORDER BY fid`)[0];
    expect(rows.columns).toEqual(['fid', 'geom', ...TABLE_KEN_ADM1.columns.map((c) => c.name)]);
    expect(rows.values.length).toBe(TABLE_KEN_ADM1.rows.length);
    for (const [k, row] of TABLE_KEN_ADM1.rows.entries()) {
      for (const [j, c] of TABLE_KEN_ADM1.columns.entries()) expect(rows.values[k][2 + j]).toEqual(row[c.name] ?? null);
      const g = rows.values[k][1] as Uint8Array;
      // GeoPackageBinary: "GP", version 0, flags (little endian, XY envelope), srs_id 4326, envelope, then WKB MultiPolygon
      expect([g[0], g[1], g[2], g[3]]).toEqual([0x47, 0x50, 0, 3]);
      const v = new DataView(g.buffer, g.byteOffset);
      expect(v.getInt32(4, true)).toBe(4326);
      expect([g[40], v.getUint32(41, true)]).toEqual([1, 6]);
      const minx = v.getFloat64(8, true);
      // the unit's own square, or the country's for the total row
      expect(minx).toBe(row.ADM1_NAME_ALT ? 34 + TABLE_UNITS.indexOf(String(row.ADM1_NAME_ALT)) : 33);
    }
    db.close();
  });

  it('a column repeated by name (by = "ISO3") is written once, a name equal but for case gets _2 (SQLite refused the table: a 500)', async () => {
    const cols = [
      { name: 'ISO3', role: 'key' as const, label: 'Country code', unit: '', type: 'string' as const },
      { name: 'total', role: 'key' as const, label: 'Overall row', unit: '', type: 'integer' as const },
      { name: 'ISO3', role: 'key' as const, label: 'Country code', unit: '', type: 'string' as const },
      { name: 'elevation', role: 'value' as const, label: 'Elevation (lower case)', unit: 'm', type: 'number' as const },
      { name: 'ELEVATION', role: 'value' as const, label: 'Elevation', unit: 'm', type: 'number' as const },
    ];
    const table = { columns: cols, rows: [{ ISO3: 'KEN', total: 1, elevation: 5, ELEVATION: 779 }, { ISO3: 'KEN', ELEVATION: 779 }] as Row[], meta: FIXTURE_META };
    const r = await genFile({ format: 'gpkg', method: 'getLayer', args: { var: ['ELEVATION'], iso3: ['KEN'], by: ['ISO3'] }, table, meta: FIXTURE_META, now: FIXED_NOW, basemap: basemap as never });
    const db = new (await initSqlJs()).Database(r.files[0].bytes);
    const layer = db.exec('SELECT table_name FROM gpkg_contents')[0].values[0][0] as string;
    const rows = db.exec(`SELECT ISO3, total, elevation, ELEVATION_2 FROM "${layer}" ORDER BY fid`)[0];
    expect(db.exec(`SELECT * FROM "${layer}"`)[0].columns).toEqual(['fid', 'geom', 'ISO3', 'total', 'elevation', 'ELEVATION_2']);
    expect(rows.values).toEqual([['KEN', 1, 5, 779], ['KEN', null, null, 779]]);
    const dp = JSON.parse(new TextDecoder().decode(r.files.find((f) => f.name === 'datapackage.json')!.bytes));
    expect(dp.resources[0].schema.fields.map((f: { name: string }) => f.name)).toEqual(['ISO3', 'total', 'elevation', 'ELEVATION_2']);
    db.close();
  });

  it('per-cell rows as points; rows of a region (no outline) without geometry', async () => {
    const cells = { ...TABLE_KEN_ADM1, columns: [{ name: 'CELL5M', role: 'key' as const, label: 'CELL5M', unit: '', type: 'integer' as const }, { name: 'X', role: 'key' as const, label: 'X', unit: '', type: 'number' as const }, { name: 'Y', role: 'key' as const, label: 'Y', unit: '', type: 'number' as const }, { name: 'ELEVATION', role: 'value' as const, label: 'Elevation', unit: 'm', type: 'number' as const }], rows: [{ CELL5M: 1, X: 36.04, Y: -1.04, ELEVATION: 1500.5 }] };
    const p = await genFile({ format: 'gpkg', method: 'getLayer', args: { var: ['ELEVATION'], iso3: ['KEN'], collapse: false }, table: cells as never, meta: FIXTURE_META, now: FIXED_NOW });
    const SQL = await initSqlJs();
    const db = new SQL.Database(p.files[0].bytes);
    expect(db.exec('SELECT geometry_type_name FROM gpkg_geometry_columns')[0].values).toEqual([['POINT']]);
    const [[geom, x, e]] = db.exec('SELECT geom, X, ELEVATION FROM "getLayer_ELEVATION_KEN"')[0].values as [Uint8Array, number, number][];
    expect([x, e]).toEqual([36.04, 1500.5]);
    expect(new DataView(geom.buffer, geom.byteOffset).getFloat64(45, true)).toBe(36.04);
    db.close();
    const q = await genFile({ format: 'gpkg', method: 'getLayer', args: { var: ['ELEVATION'], iso3: ['EAF'], by: ['ELEV_ZONE'] }, table: TABLE_KEN_ADM1, meta: FIXTURE_META, now: FIXED_NOW });
    const db2 = new SQL.Database(q.files[0].bytes);
    expect(db2.exec('SELECT count(*) FROM "getLayer_ELEVATION_ELEV_ZONE_EAF" WHERE geom IS NULL')[0].values[0][0]).toBe(TABLE_KEN_ADM1.rows.length);
    db2.close();
  });
});
