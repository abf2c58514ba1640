/**
 * GeoPackage writer (`format = "gpkg"`): the summary table as one feature table of an OGC
 * GeoPackage (OGC 12-128, https://www.geopackage.org/spec130/), an SQLite file that
 * QGIS, ArcGIS, GDAL (`ogrinfo`) and R (`sf::st_read`) open, written with sql.js (SQLite
 * compiled to WebAssembly), loaded only when a GeoPackage is built. It declares version 1.3
 * (`user_version` 10300): GDAL 3.6 (Debian 12, QGIS 3.22) warns on every open of a 1.4 file,
 * and nothing written here needs 1.4.
 *
 * Geometries, EPSG:4326 (longitude, latitude), one per row:
 * - per-cell tables (`collapse = FALSE`: rows with X and Y) : the cell centre as a POINT;
 * - summaries over `wkt` shapes: the row's shape (`feature`, 1-based), polygons as
 *   MULTIPOLYGON, points as MULTIPOINT;
 * - by ADM2 / ADM1 units (every `by` code an admin code): the unit's outline from the bundle
 *   (`basemap/admin2.geojson`, `basemap/admin1.geojson`, traced from the cells, see
 *   ../outlines.ts), joined on the unit's name or code and ISO3; rows without a unit (a
 *   country's total) and rows by country: the country's outline (`basemap/countries.geojson`);
 * - otherwise (a region's rows, `by` a class or interval layer): no geometry (NULL).
 * The columns are the table's, in order (REAL for numbers, INTEGER for whole numbers, TEXT).
 */
import type { Geometry, Position } from 'geojson';
import type { TableResult } from '../../api';
import { IndapiError, throwIfAborted } from '../../errors';
import type { Row } from '../../types';
import { parseWkt } from '../../wkt/parse';
import type { Basemap } from '../graphics';
import type { FormatWriter, WriterInput } from '../types';
import { fileOf, packageContext, sideFiles } from './common';

/** EPSG:4326 as OGC WKT (the definition GDAL writes into gpkg_spatial_ref_sys). */
const WGS84_WKT = 'GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,AUTHORITY["EPSG","7030"]],AUTHORITY["EPSG","6326"]],PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AXIS["Latitude",NORTH],AXIS["Longitude",EAST],AUTHORITY["EPSG","4326"]]';

/** The sql.js module, loaded once on first use (its wasm from the app's own origin in the browser, next to it in Node). */
let sqlJs: Promise<import('sql.js').SqlJsStatic> | undefined;
/** The sql.js module (SQLite in WebAssembly), loaded once; also read by the app's GeoPackage uploads. @throws when its wasm cannot be loaded */
export function loadSqlJs(): Promise<import('sql.js').SqlJsStatic> {
  sqlJs ??= (async () => {
    const mod = (await import('sql.js')) as unknown as { default?: (o?: object) => Promise<import('sql.js').SqlJsStatic> };
    const init = (mod.default ?? mod) as unknown as (o?: object) => Promise<import('sql.js').SqlJsStatic>;
    // the browser build copies the wasm to the app's assets (precached by the service worker)
    const wasm = new URL('../../../../node_modules/sql.js/dist/sql-wasm-browser.wasm', import.meta.url);
    return init(wasm.protocol === 'file:' ? undefined : { locateFile: () => wasm.href });
  })();
  sqlJs.catch(() => { sqlJs = undefined; });
  return sqlJs;
}

/** ISO WKB (little endian) of a geometry: Point, MultiPoint, MultiPolygon. */
function wkb(g: Geometry): Uint8Array {
  const out: ArrayBuffer[] = [];
  const u32 = (x: number) => { const b = new ArrayBuffer(4); new DataView(b).setUint32(0, x, true); out.push(b); };
  const f64 = (x: number) => { const b = new ArrayBuffer(8); new DataView(b).setFloat64(0, x, true); out.push(b); };
  const head = (type: number) => { out.push(Uint8Array.of(1).buffer); u32(type); };
  const pt = (p: Position) => { f64(p[0]); f64(p[1]); };
  const poly = (rings: Position[][]) => { head(3); u32(rings.length); for (const r of rings) { u32(r.length); r.forEach(pt); } };
  if (g.type === 'Point') { head(1); pt(g.coordinates); }
  else if (g.type === 'MultiPoint') { head(4); u32(g.coordinates.length); for (const p of g.coordinates) { head(1); pt(p); } }
  else if (g.type === 'Polygon') { head(6); u32(1); poly(g.coordinates); }
  else if (g.type === 'MultiPolygon') { head(6); u32(g.coordinates.length); g.coordinates.forEach(poly); }
  else throw new IndapiError('INTERNAL', `gpkg: no WKB for ${g.type}.`);
  const n = out.reduce((s, b) => s + b.byteLength, 0);
  const bytes = new Uint8Array(n);
  let o = 0;
  for (const b of out) { bytes.set(new Uint8Array(b), o); o += b.byteLength; }
  return bytes;
}

/** Envelope [minx, maxx, miny, maxy] of a geometry's positions. */
function envelope(g: Geometry): [number, number, number, number] {
  const e: [number, number, number, number] = [Infinity, -Infinity, Infinity, -Infinity];
  const visit = (c: unknown): void => {
    if (typeof (c as number[])[0] === 'number') {
      const [x, y] = c as number[];
      e[0] = Math.min(e[0], x); e[1] = Math.max(e[1], x); e[2] = Math.min(e[2], y); e[3] = Math.max(e[3], y);
    } else for (const d of c as unknown[]) visit(d);
  };
  visit((g as { coordinates: unknown }).coordinates);
  return e;
}

/** GeoPackage geometry blob (OGC 12-128r18 clause 2.1.3): "GP", version 0, little endian, XY envelope, SRS 4326, then WKB. */
export function gpkgGeometry(g: Geometry): Uint8Array {
  const body = wkb(g);
  const out = new Uint8Array(8 + 32 + body.length);
  const v = new DataView(out.buffer);
  out[0] = 0x47; out[1] = 0x50; out[2] = 0; out[3] = 0b0000_0011; // envelope [minx, maxx, miny, maxy], little endian
  v.setInt32(4, 4326, true);
  envelope(g).forEach((x, i) => v.setFloat64(8 + 8 * i, x, true));
  out.set(body, 40);
  return out;
}

/** Polygons as MultiPolygon, points as MultiPoint (one geometry type per table). */
function multi(g: Geometry): Geometry | null {
  if (g.type === 'Polygon') return { type: 'MultiPolygon', coordinates: [g.coordinates] };
  if (g.type === 'Point') return { type: 'MultiPoint', coordinates: [g.coordinates] };
  if (g.type === 'MultiPolygon' || g.type === 'MultiPoint') return g;
  return null;
}

/** Outlines from the input, else its runtime's loaders (`graphics`); none when they fail. */
async function outlines(given: Basemap | undefined, loader: Basemap | (() => Promise<Basemap | undefined>) | undefined): Promise<Basemap | undefined> {
  if (given) return given;
  if (typeof loader !== 'function') return loader;
  return loader().catch(() => undefined);
}

/** Admin level of a `by` code (ADM0_*, ISO3: 0; ADM1_*: 1; ADM2_*: 2), or undefined. */
function adminLevel(code: string): 0 | 1 | 2 | undefined {
  if (code === 'ISO3' || /^ADM0_/.test(code)) return 0;
  if (/^ADM1_/.test(code)) return 1;
  if (/^ADM2_/.test(code)) return 2;
  return undefined;
}

/** The geometry of each row (or null), and the table's geometry type. */
async function rowGeometries(input: WriterInput, table: TableResult, by: string[]): Promise<{ geoms: Array<Geometry | null>; type: string }> {
  const cols = new Set(table.columns.map((c) => c.name));
  if (cols.has('X') && cols.has('Y')) {
    return { type: 'POINT', geoms: table.rows.map((r) => (typeof r.X === 'number' && typeof r.Y === 'number' ? { type: 'Point', coordinates: [r.X, r.Y] } : null)) };
  }
  if (input.shapes && cols.has('feature')) {
    const shapes = input.shapes.map(multi);
    const kinds = new Set(shapes.map((s) => s?.type));
    const type = kinds.size === 1 && kinds.has('MultiPolygon') ? 'MULTIPOLYGON' : kinds.size === 1 && kinds.has('MultiPoint') ? 'MULTIPOINT' : 'GEOMETRY';
    return { type, geoms: table.rows.map((r) => shapes[Number(r.feature) - 1] ?? null) };
  }
  if (input.query.wkt !== undefined && cols.has('feature')) {
    const g = parseWkt(input.query.wkt);
    const shapes = (g.type === 'GeometryCollection' ? g.geometries : [g]).map(multi);
    const kinds = new Set(shapes.map((s) => s?.type));
    const type = kinds.size === 1 && kinds.has('MultiPolygon') ? 'MULTIPOLYGON' : kinds.size === 1 && kinds.has('MultiPoint') ? 'MULTIPOINT' : 'GEOMETRY';
    return { type, geoms: table.rows.map((r) => shapes[Number(r.feature) - 1] ?? null) };
  }
  const levels = by.map(adminLevel);
  if (levels.some((l) => l === undefined)) return { type: 'MULTIPOLYGON', geoms: table.rows.map(() => null) };
  const level = Math.max(0, ...(levels as number[]));
  const d = input.graphics ?? {};
  const index = (b: Basemap | undefined, key: (p: Record<string, unknown>) => string[]) => {
    const m = new Map<string, Geometry>();
    for (const f of (b?.features ?? []) as Array<{ geometry: Geometry; properties: Record<string, unknown> }>) for (const k of key(f.properties ?? {})) if (!m.has(k)) m.set(k, f.geometry);
    return m;
  };
  const countries = index(await outlines(input.basemap, d.basemap), (p) => [String(p.iso3 ?? p.ISO3 ?? '')]);
  const unitCode = by.find((c) => adminLevel(c) === level);
  const units = level === 0 || !unitCode ? new Map<string, Geometry>()
    : index(await outlines(level === 1 ? input.admin1 : input.admin2, level === 1 ? d.admin1 : d.admin2), (p) => [`${p.iso3}|${p.name}`, `${p.iso3}|${p.code ?? ''}`]);
  const geoms = table.rows.map((r: Row) => {
    const u = unitCode && level > 0 ? r[unitCode] : undefined;
    const g = u !== undefined && u !== null ? units.get(`${r.ISO3}|${u}`) : countries.get(String(r.ISO3));
    return g ? multi(g) : null;
  });
  return { type: 'MULTIPOLYGON', geoms };
}

/** SQL type of a column from its values. */
function sqlType(rows: Row[], name: string): 'INTEGER' | 'REAL' | 'TEXT' {
  let type: 'INTEGER' | 'REAL' | 'TEXT' = 'INTEGER';
  let any = false;
  for (const r of rows) {
    const v = r[name];
    if (v === undefined || v === null) continue;
    any = true;
    if (typeof v !== 'number') return 'TEXT';
    if (!Number.isInteger(v)) type = 'REAL';
  }
  return any ? type : 'TEXT';
}

/** A quoted SQL identifier. */
const q = (s: string) => `"${s.replace(/"/g, '""')}"`;

/**
 * The table's columns as SQLite takes them, with their SQL names. A column repeated by name
 * (`by = "ISO3"` lists ISO3 among the country keys and as the `by` key; rows hold one value per
 * name) is written once, as SQLite refuses two columns of one name; a different name equal to an
 * earlier one but for case (SQLite compares names without case; `fid` and `geom` are taken) gets
 * `_2`, `_3`, ...
 * @returns the columns written, in order, each with its SQL name
 */
function gpkgColumns(table: TableResult): Array<{ col: TableResult['columns'][number]; sql: string }> {
  const names = new Set<string>();
  const taken = new Set(['fid', 'geom']);
  const out: Array<{ col: TableResult['columns'][number]; sql: string }> = [];
  for (const col of table.columns) {
    if (names.has(col.name)) continue;
    names.add(col.name);
    let sql = col.name;
    for (let k = 2; taken.has(sql.toLowerCase()); k++) sql = `${col.name}_${k}`;
    taken.add(sql.toLowerCase());
    out.push({ col, sql });
  }
  return out;
}

/**
 * The GeoPackage bytes of a table: one feature table `layer` with a geometry column `geom`.
 * @param layer table name (also the layer name QGIS and GDAL show)
 * @param description the layer's description (gpkg_contents)
 * @param now the last change time
 */
export async function writeGpkg(layer: string, table: TableResult, geoms: Array<Geometry | null>, geometryType: string, description: string, now: Date): Promise<Uint8Array> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database();
  try {
    db.run('PRAGMA application_id = 1196444487; PRAGMA user_version = 10300;');
    db.run(`CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT NOT NULL, srs_id INTEGER PRIMARY KEY, organization TEXT NOT NULL, organization_coordsys_id INTEGER NOT NULL, definition TEXT NOT NULL, description TEXT);
      CREATE TABLE gpkg_contents (table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL, identifier TEXT UNIQUE, description TEXT DEFAULT '', last_change DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')), min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE, srs_id INTEGER, CONSTRAINT fk_gc_r_srs_id FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys(srs_id));
      CREATE TABLE gpkg_geometry_columns (table_name TEXT NOT NULL, column_name TEXT NOT NULL, geometry_type_name TEXT NOT NULL, srs_id INTEGER NOT NULL, z TINYINT NOT NULL, m TINYINT NOT NULL, CONSTRAINT pk_geom_cols PRIMARY KEY (table_name, column_name), CONSTRAINT fk_gc_tn FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name), CONSTRAINT fk_gc_srs FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys (srs_id));`);
    db.run('INSERT INTO gpkg_spatial_ref_sys VALUES (?, ?, ?, ?, ?, ?)', ['Undefined cartesian SRS', -1, 'NONE', -1, 'undefined', 'undefined cartesian coordinate reference system']);
    db.run('INSERT INTO gpkg_spatial_ref_sys VALUES (?, ?, ?, ?, ?, ?)', ['Undefined geographic SRS', 0, 'NONE', 0, 'undefined', 'undefined geographic coordinate reference system']);
    db.run('INSERT INTO gpkg_spatial_ref_sys VALUES (?, ?, ?, ?, ?, ?)', ['WGS 84 geodetic', 4326, 'EPSG', 4326, WGS84_WKT, 'longitude/latitude coordinates in decimal degrees on the WGS 84 spheroid']);
    const cols = gpkgColumns(table);
    const names = cols.map((c) => c.col.name);
    const types = names.map((n) => sqlType(table.rows, n));
    db.run(`CREATE TABLE ${q(layer)} (fid INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, geom ${geometryType}${cols.map((c, i) => `, ${q(c.sql)} ${types[i]}`).join('')})`);
    const env = [Infinity, -Infinity, Infinity, -Infinity];
    const ins = db.prepare(`INSERT INTO ${q(layer)} (geom${cols.map((c) => `, ${q(c.sql)}`).join('')}) VALUES (?${names.map(() => ', ?').join('')})`);
    db.run('BEGIN');
    for (const [k, r] of table.rows.entries()) {
      const g = geoms[k];
      if (g) { const e = envelope(g); env[0] = Math.min(env[0], e[0]); env[1] = Math.max(env[1], e[1]); env[2] = Math.min(env[2], e[2]); env[3] = Math.max(env[3], e[3]); }
      ins.run([g ? gpkgGeometry(g) : null, ...names.map((n) => { const v = r[n]; return v === undefined || v === null || (typeof v === 'number' && !Number.isFinite(v)) ? null : (v as string | number); })]);
    }
    ins.free();
    db.run('COMMIT');
    const has = Number.isFinite(env[0]);
    db.run('INSERT INTO gpkg_contents (table_name, data_type, identifier, description, last_change, min_x, min_y, max_x, max_y, srs_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [layer, 'features', layer, description, now.toISOString().replace(/\.\d+Z$/, '.000Z'), has ? env[0] : null, has ? env[2] : null, has ? env[1] : null, has ? env[3] : null, 4326]);
    db.run('INSERT INTO gpkg_geometry_columns VALUES (?, ?, ?, ?, ?, ?)', [layer, 'geom', geometryType, 4326, 0, 0]);
    return db.export();
  } finally {
    db.close();
  }
}

/** The gpkg writer: `<base>.gpkg`, then meta.csv, README.md, datapackage.json, DESCRIPTION and terms.html. */
export function write(): FormatWriter {
  return async (input, { signal, onProgress }) => {
    const table = input.table as TableResult;
    const p = packageContext(input, 'gpkg');
    const { geoms, type } = await rowGeometries(input, table, p.codes.by);
    throwIfAborted(signal);
    const description = `${p.base}: one feature per row of the summary table, EPSG:4326; ${type === 'POINT' ? 'cell centres as points' : geoms.some((g) => g) ? 'unit outlines (cells traced) or the request\'s shapes' : 'no geometry (the rows are not units with outlines)'}.`;
    const data = fileOf(`${p.base}.gpkg`, await writeGpkg(p.base.replace(/[^A-Za-z0-9_]/g, '_'), table, geoms, type, description, p.now));
    onProgress?.(1, 6);
    p.info.dataFiles.push({ name: data.name, mediaType: data.mediaType, format: 'gpkg', columns: gpkgColumns(table).map((c) => ({ ...c.col, name: c.sql })), description: `OGC GeoPackage 1.3 (SQLite) with one feature table: ${description}` });
    const files = [data, ...sideFiles(p, [data], true)];
    onProgress?.(6, 6);
    return { files };
  };
}
