/**
 * Big uploads for the Areas panel's "Many polygons" section: a GeoPackage (read with sql.js,
 * SQLite in WebAssembly), a zipped shapefile or GeoJSON of up to {@link BULK_MAX_BYTES}
 * and {@link BULK_MAX_FEATURES} features, summarised as one job in the engine worker
 * (`classify`) and never put in the page link. GeoPackage geometries are OGC GeoPackage
 * binary (OGC 12-128r18 clause 2.1.3: "GP" header, optional envelope) around ISO WKB
 * (OGC 06-103r4; also the EWKB Z/M flags) and must be in EPSG:4326 (or OGC CRS84).
 */
import type { Geometry, Position } from 'geojson';
import { loadSqlJs } from '../core/formats/writers/gpkg';
import { nameKey, shapeNames, shapesOf, shapesOfFile, UploadError, type UploadShapes } from './upload';

/** Largest file read for the bulk flow: 50 MB. */
export const BULK_MAX_BYTES = 50 * 1024 * 1024;
/** Most features summarised in one job. */
export const BULK_MAX_FEATURES = 10_000;

/** True when the bytes begin with SQLite's header ("SQLite format 3\0"): a GeoPackage. */
export function isSqlite(head: Uint8Array): boolean {
  return new TextDecoder().decode(head.subarray(0, 15)) === 'SQLite format 3';
}

/** Reads WKB geometries (ISO and EWKB type codes, either byte order). */
class WkbReader {
  private v: DataView;
  private o: number;
  private le = true;
  constructor(bytes: Uint8Array, offset: number) {
    this.v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.o = offset;
  }
  private u32(): number { const x = this.v.getUint32(this.o, this.le); this.o += 4; return x; }
  private f64(): number { const x = this.v.getFloat64(this.o, this.le); this.o += 8; return x; }
  private point(dims: number): Position { const p: Position = [this.f64(), this.f64()]; this.o += 8 * (dims - 2); return p; }
  private ring(dims: number): Position[] { return Array.from({ length: this.u32() }, () => this.point(dims)); }
  /** One geometry. @throws UploadError BAD_FILE for an unknown type */
  read(): Geometry {
    this.le = this.v.getUint8(this.o) === 1;
    this.o += 1;
    const raw = this.u32();
    let dims = 2;
    if (raw & 0x80000000) dims++; // EWKB Z
    if (raw & 0x40000000) dims++; // EWKB M
    if (raw & 0x20000000) this.o += 4; // EWKB SRID
    let t = raw & 0x0fffffff;
    if (t >= 1000) { dims += t >= 3000 ? 2 : 1; t %= 1000; } // ISO Z (1000), M (2000), ZM (3000)
    const many = <T>(f: () => T): T[] => Array.from({ length: this.u32() }, f);
    switch (t) {
      case 1: return { type: 'Point', coordinates: this.point(dims) };
      case 2: return { type: 'LineString', coordinates: this.ring(dims) };
      case 3: return { type: 'Polygon', coordinates: many(() => this.ring(dims)) };
      case 4: return { type: 'MultiPoint', coordinates: many(() => (this.read() as { coordinates: Position }).coordinates) };
      case 5: return { type: 'MultiLineString', coordinates: many(() => (this.read() as { coordinates: Position[] }).coordinates) };
      case 6: return { type: 'MultiPolygon', coordinates: many(() => (this.read() as { coordinates: Position[][] }).coordinates) };
      case 7: return { type: 'GeometryCollection', geometries: many(() => this.read()) };
      default: throw new UploadError('BAD_FILE', `Unsupported WKB geometry type ${raw} in the GeoPackage.`);
    }
  }
}

/**
 * A GeoPackage geometry blob as GeoJSON; null for an empty geometry.
 * @throws UploadError BAD_FILE when it is not a GeoPackage geometry
 */
export function gpkgBlobGeometry(b: Uint8Array): Geometry | null {
  if (b.length < 8 || b[0] !== 0x47 || b[1] !== 0x50) throw new UploadError('BAD_FILE', 'A geometry of the GeoPackage is not a GeoPackage binary geometry ("GP" header).');
  const flags = b[3];
  if (flags & 0b1_0000) return null; // empty
  const env = (flags >> 1) & 0b111;
  const envBytes = env === 0 ? 0 : env === 1 ? 32 : env <= 3 ? 48 : 64;
  return new WkbReader(b, 8 + envBytes).read();
}

/** The CRS of a GeoPackage table is longitude/latitude WGS 84 (EPSG:4326 or OGC CRS84). */
function isLonLat(org: unknown, code: unknown, srsId: unknown): boolean {
  const o = String(org ?? '').toUpperCase();
  return (o === 'EPSG' && Number(code) === 4326) || (o === 'OGC' && /^CRS ?84$/i.test(String(code))) || Number(srsId) === 4326;
}

/**
 * The features of a GeoPackage's first feature table as GeoJSON (the geometry column's values
 * and every other column as properties; `fid` left out), at most `max` + 1 read.
 * @throws UploadError BAD_FILE (not a GeoPackage, no feature table), BAD_CRS (not EPSG:4326)
 */
export async function gpkgFeatures(bytes: Uint8Array, max: number): Promise<GeoJSON.FeatureCollection> {
  const SQL = await loadSqlJs();
  let db: import('sql.js').Database;
  try { db = new SQL.Database(bytes); } catch { throw new UploadError('BAD_FILE', 'The file is not a readable SQLite database.'); }
  try {
    let cols: import('sql.js').QueryExecResult[];
    try {
      cols = db.exec(`SELECT g.table_name, g.column_name, s.organization, s.organization_coordsys_id, g.srs_id
        FROM gpkg_geometry_columns g JOIN gpkg_contents c ON c.table_name = g.table_name LEFT JOIN gpkg_spatial_ref_sys s ON s.srs_id = g.srs_id
        WHERE c.data_type = 'features' ORDER BY g.table_name LIMIT 1`);
    } catch { throw new UploadError('BAD_FILE', 'The SQLite file is not a GeoPackage (no gpkg_geometry_columns table).'); }
    const row = cols[0]?.values[0];
    if (!row) throw new UploadError('NO_SHAPES', 'The GeoPackage has no feature table.');
    const [table, geomCol, org, code, srsId] = row;
    if (!isLonLat(org, code, srsId)) throw new UploadError('BAD_CRS', `The GeoPackage's features are in ${org ?? 'SRS'}:${code ?? srsId}; only longitude/latitude (EPSG:4326) can be read. Reproject it (ogr2ogr -t_srs EPSG:4326) and upload again.`);
    const q = (s: unknown) => `"${String(s).replace(/"/g, '""')}"`;
    const stmt = db.prepare(`SELECT * FROM ${q(table)} LIMIT ${max + 1}`);
    const features: GeoJSON.Feature[] = [];
    try {
      while (stmt.step()) {
        const r = stmt.getAsObject();
        const blob = r[String(geomCol)];
        const properties: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(r)) if (k !== geomCol && k !== 'fid' && !(v instanceof Uint8Array)) properties[k] = v;
        features.push({ type: 'Feature', properties, geometry: blob instanceof Uint8Array ? (gpkgBlobGeometry(blob) as Geometry) : (null as unknown as Geometry) });
      }
    } finally { stmt.free(); }
    return { type: 'FeatureCollection', features };
  } finally { db.close(); }
}

/** An upload's shapes for a job: polygons and points, their names and properties. */
export interface BulkShapes extends UploadShapes {
  /** The file's name. */
  fileName: string;
}

/**
 * Reads a big upload: GeoPackage, zipped shapefile, GeoJSON (KML too); at most
 * {@link BULK_MAX_FEATURES} shapes, the rest left out with a note.
 * @throws UploadError TOO_LARGE over {@link BULK_MAX_BYTES}, and as {@link shapesOfFile} and {@link gpkgFeatures}
 */
export async function readBulkUpload(file: File, signal?: AbortSignal): Promise<BulkShapes> {
  if (file.size > BULK_MAX_BYTES) throw new UploadError('TOO_LARGE', `${file.name} is ${(file.size / 1048576).toFixed(1)} MB; files up to ${BULK_MAX_BYTES / 1048576} MB can be read. Split it first.`);
  const buf = new Uint8Array(await file.arrayBuffer());
  signal?.throwIfAborted();
  const shapes = isSqlite(buf) || /\.gpkg$/i.test(file.name) ? shapesOf(await gpkgFeatures(buf, BULK_MAX_FEATURES), BULK_MAX_FEATURES) : await shapesOfFile(file.name, buf, BULK_MAX_FEATURES, signal);
  signal?.throwIfAborted();
  return { ...shapes, fileName: file.name };
}

/** The domains of a job: one feature per shape, keyed by its 1-based number (`feature`), as `classify` takes them. */
export function bulkDomains(geometries: Geometry[]): GeoJSON.FeatureCollection {
  return { type: 'FeatureCollection', features: geometries.map((geometry, i) => ({ type: 'Feature', properties: { feature: i + 1 }, geometry })) };
}

/** Bounds [w, s, e, n] (degrees) of shapes; null when they have no position. */
export function shapesBounds(geometries: Geometry[]): [number, number, number, number] | null {
  const b: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  const walk = (c: unknown): void => {
    if (Array.isArray(c) && typeof c[0] === 'number') {
      b[0] = Math.min(b[0], c[0] as number); b[1] = Math.min(b[1], c[1] as number); b[2] = Math.max(b[2], c[0] as number); b[3] = Math.max(b[3], c[1] as number);
    } else if (Array.isArray(c)) c.forEach(walk);
  };
  for (const g of geometries) {
    if (g.type === 'GeometryCollection') g.geometries.forEach((x) => walk((x as { coordinates?: unknown }).coordinates));
    else walk(g.coordinates);
  }
  return Number.isFinite(b[0]) ? b : null;
}

export { nameKey, shapeNames };
