/**
 * Uploaded shapes for the Areas panel: GeoJSON (RFC 7946), zipped ESRI shapefiles (shpjs,
 * which reprojects to EPSG:4326 with proj4 from the `.prj`), KML and KMZ (@tmcw/togeojson
 * with the page's DOMParser). Polygons and points become WKT (EPSG:4326) for the engine,
 * summarised like drawn shapes; lines are left out. Readers are loaded on first use.
 */
import type { Feature, FeatureCollection, Geometry, Position } from 'geojson';
import { geometryToWkt } from '../ui/wkt';

/** Largest file read, in bytes (10 MB, the service's request body limit). */
export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
/** Largest WKT kept (characters): the shapes live in the page URL; bigger shapes are simplified to fit. */
export const WKT_MAX_CHARS = 150_000;
/** Most shapes taken from one file. */
export const UPLOAD_MAX_SHAPES = 500;

/** A readable upload failure (shown as is). */
export class UploadError extends Error {
  /** Machine code: TOO_LARGE, UNSUPPORTED, NO_SHAPES, BAD_CRS, BAD_FILE. */
  readonly code: 'TOO_LARGE' | 'UNSUPPORTED' | 'NO_SHAPES' | 'BAD_CRS' | 'BAD_FILE';
  /** @param code machine code @param message sentence for display */
  constructor(code: UploadError['code'], message: string) { super(message); this.code = code; this.name = 'UploadError'; }
}

/** Shapes read from a file. */
export interface UploadShapes {
  /** Polygon and point geometries in EPSG:4326 degrees. */
  geometries: Geometry[];
  /** Names of the shapes (the first name-like property, see {@link shapeNames}, else the 1-based number). */
  names: string[];
  /** Properties of each kept shape's feature (same order as `geometries`). */
  props: Array<Record<string, unknown>>;
  /** Property names with a text or number value in some kept feature, in first-seen order (for a "name by" choice). */
  keys: string[];
  /** Features left out (lines, empty geometries) and why. */
  notes: string[];
}

/** Name-like properties in order of preference, case-insensitive: name, ADM*_NAME (ADM1_NAME, ADM2_NAME…), NAME_1…, title, label, id. */
const NAME_PATTERNS = [/^name$/i, /^adm\d*_name/i, /^name_?\d+$/i, /^(title|label)$/i, /^id$/i];

const present = (v: unknown): boolean => (typeof v === 'string' ? v.trim() !== '' : typeof v === 'number' && Number.isFinite(v));

/** The first name-like property of a feature's properties with a value (see NAME_PATTERNS); undefined when none. */
export function nameKey(p: Record<string, unknown>): string | undefined {
  const keys = Object.keys(p).filter((k) => present(p[k]));
  for (const re of NAME_PATTERNS) { const k = keys.find((x) => re.test(x)); if (k) return k; }
  return undefined;
}

/**
 * Shape names from feature properties: property `key`'s value per feature, or with `key` null
 * each feature's first name-like property ({@link nameKey}); a feature without one is named by
 * its 1-based number.
 */
export function shapeNames(props: Array<Record<string, unknown>>, key: string | null = null): string[] {
  return props.map((p, i) => {
    const k = key ?? nameKey(p);
    return k !== undefined && present(p[k]) ? String(p[k]).trim() : String(i + 1);
  });
}

function inDegrees(g: Geometry): boolean {
  let ok = true;
  const walk = (c: unknown): void => {
    if (!ok) return;
    if (Array.isArray(c) && typeof c[0] === 'number') { const p = c as Position; if (!(Math.abs(p[0]) <= 180 && Math.abs(p[1]) <= 90)) ok = false; }
    else if (Array.isArray(c)) c.forEach(walk);
  };
  if (g.type === 'GeometryCollection') return g.geometries.every(inDegrees);
  walk(g.coordinates);
  return ok;
}

/** Polygon/point parts of a geometry (2D), collections flattened; lines give none. */
function parts(g: Geometry | null): Geometry[] {
  if (!g) return [];
  const two = (p: Position): Position => [p[0], p[1]];
  switch (g.type) {
    case 'Point': return [{ type: 'Point', coordinates: two(g.coordinates) }];
    case 'MultiPoint': return g.coordinates.length ? [{ type: 'MultiPoint', coordinates: g.coordinates.map(two) }] : [];
    case 'Polygon': return g.coordinates.length ? [{ type: 'Polygon', coordinates: g.coordinates.map((r) => r.map(two)) }] : [];
    case 'MultiPolygon': return g.coordinates.length ? [{ type: 'MultiPolygon', coordinates: g.coordinates.map((pl) => pl.map((r) => r.map(two))) }] : [];
    case 'GeometryCollection': return g.geometries.flatMap(parts);
    default: return [];
  }
}

/**
 * Polygons and points of any GeoJSON object (FeatureCollection, Feature, geometry, or an
 * array of collections as shpjs gives for a ZIP with several layers); at most `max` shapes
 * (default {@link UPLOAD_MAX_SHAPES}), the rest left out with a note.
 * @throws UploadError NO_SHAPES when there is none, BAD_CRS when coordinates are not
 * longitude/latitude degrees or a legacy `crs` member names another system
 */
export function shapesOf(gj: unknown, max = UPLOAD_MAX_SHAPES): UploadShapes {
  const feats: Feature[] = [];
  const collect = (o: any): void => {
    if (!o || typeof o !== 'object') return;
    if (Array.isArray(o)) { o.forEach(collect); return; }
    const crs = o.crs?.properties?.name;
    if (typeof crs === 'string' && !/(4326|CRS84|WGS ?84)\b/i.test(crs)) throw new UploadError('BAD_CRS', `The file's coordinates are in ${crs}; only longitude/latitude (EPSG:4326) GeoJSON can be read. Reproject it (e.g. ogr2ogr -t_srs EPSG:4326) and upload again.`);
    if (o.type === 'FeatureCollection') (o.features ?? []).forEach(collect);
    else if (o.type === 'Feature') feats.push(o as Feature);
    else if (typeof o.type === 'string') feats.push({ type: 'Feature', properties: {}, geometry: o as Geometry });
  };
  collect(gj);
  const geometries: Geometry[] = [], props: Array<Record<string, unknown>> = [];
  let lines = 0, empty = 0;
  for (const f of feats) {
    const ps = parts(f.geometry);
    if (!ps.length) { if (f.geometry && /Line/.test(f.geometry.type)) lines++; else empty++; continue; }
    const g: Geometry = ps.length === 1 ? ps[0] : { type: 'GeometryCollection', geometries: ps };
    if (!inDegrees(g)) throw new UploadError('BAD_CRS', 'Coordinates are outside longitude -180..180 / latitude -90..90: the file is not in EPSG:4326 (for a shapefile, include its .prj in the ZIP).');
    geometries.push(g);
    props.push((f.properties ?? {}) as Record<string, unknown>);
  }
  const notes: string[] = [];
  if (lines) notes.push(`${lines} line feature${lines > 1 ? 's' : ''} left out (only polygons and points are summarised).`);
  if (empty) notes.push(`${empty} feature${empty > 1 ? 's' : ''} without a geometry left out.`);
  if (!geometries.length) throw new UploadError('NO_SHAPES', `No polygons or points in the file${notes.length ? ` (${notes.join(' ')})` : ''}.`);
  if (geometries.length > max) {
    notes.push(`Only the first ${max.toLocaleString('en')} of ${geometries.length.toLocaleString('en')} shapes are kept.`);
    geometries.length = max; props.length = max;
  }
  const keys = [...new Set(props.flatMap((p) => Object.keys(p).filter((k) => present(p[k]))))];
  return { geometries, names: shapeNames(props), props, keys, notes };
}

/** WKT of geometries: one shape as is, several as a GEOMETRYCOLLECTION (the engine numbers them 1..n). */
export function shapesWkt(geometries: Geometry[]): string {
  const flat = geometries.flatMap((g) => (g.type === 'GeometryCollection' ? [mergeParts(g.geometries)] : [g]));
  return flat.length === 1 ? geometryToWkt(flat[0]) : geometryToWkt({ type: 'GeometryCollection', geometries: flat });
}

/** One shape of several parts: polygons as one MULTIPOLYGON (points as MULTIPOINT) so the shape keeps one number. */
function mergeParts(gs: Geometry[]): Geometry {
  const polys = gs.flatMap((g) => (g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : []));
  if (polys.length) return { type: 'MultiPolygon', coordinates: polys };
  return { type: 'MultiPoint', coordinates: gs.flatMap((g) => (g.type === 'Point' ? [g.coordinates] : g.type === 'MultiPoint' ? g.coordinates : [])) };
}

/** The kind of a file by its name (and first bytes): geojson, zip (shapefile or KMZ), kml; null when unsupported. */
export function uploadKind(name: string, head: Uint8Array): 'geojson' | 'zip' | 'kml' | 'kmz' | null {
  const n = name.toLowerCase();
  if (n.endsWith('.kmz')) return 'kmz';
  if (head[0] === 0x50 && head[1] === 0x4b) return 'zip';
  if (n.endsWith('.kml')) return 'kml';
  if (/\.(geo)?json$/.test(n)) return 'geojson';
  const t = new TextDecoder().decode(head).trimStart();
  if (t.startsWith('{')) return 'geojson';
  if (t.startsWith('<')) return 'kml';
  return null;
}

/** Read result: WKT for the engine and what was read. */
export interface UploadResult extends UploadShapes {
  /** WKT (EPSG:4326) of the shapes. */
  wkt: string;
  /** Simplification tolerance used to fit {@link WKT_MAX_CHARS} (degrees), 0 when none. */
  simplified: number;
}

function kmlShapes(text: string, kml: (d: Document) => FeatureCollection, max: number): UploadShapes {
  const doc = new DOMParser().parseFromString(text, 'text/xml');
  if (doc.getElementsByTagName('parsererror').length) throw new UploadError('BAD_FILE', 'The KML file is not well-formed XML.');
  return shapesOf(kml(doc), max);
}

/**
 * Shapes of a file's bytes by its kind ({@link uploadKind}): GeoJSON, a zipped shapefile,
 * KML or KMZ; at most `max` shapes.
 * @throws UploadError UNSUPPORTED for other formats (a ZIP without a .shp or .kml), BAD_FILE
 * for unreadable content, NO_SHAPES, BAD_CRS
 */
export async function shapesOfFile(name: string, buf: Uint8Array, max: number, signal?: AbortSignal): Promise<UploadShapes> {
  const kind = uploadKind(name, buf.subarray(0, 64));
  let shapes: UploadShapes;
  let prjNote: string | null = null;
  try {
    if (kind === 'geojson') {
      let gj: unknown;
      try { gj = JSON.parse(new TextDecoder().decode(buf)); } catch (e) { throw new UploadError('BAD_FILE', `${name} is not valid JSON: ${(e as Error).message}`); }
      shapes = shapesOf(gj, max);
    } else if (kind === 'kml') {
      const { kml } = await import('@tmcw/togeojson');
      shapes = kmlShapes(new TextDecoder().decode(buf), kml as (d: Document) => FeatureCollection, max);
    } else if (kind === 'zip' || kind === 'kmz') {
      const JSZip = (await import('jszip')).default; // the project's one ZIP library (it also writes the download packages)
      let zip: InstanceType<typeof JSZip>;
      try { zip = await JSZip.loadAsync(buf); } catch { throw new UploadError('BAD_FILE', `${name} is not a readable ZIP file.`); }
      const names = Object.keys(zip.files).filter((n) => !zip.files[n].dir);
      const kmlName = names.find((n) => /\.kml$/i.test(n));
      if (names.some((n) => /\.shp$/i.test(n))) {
        if (!names.some((n) => /\.prj$/i.test(n))) prjNote = 'No .prj in the ZIP: coordinates taken as longitude/latitude (EPSG:4326).';
        const shp = (await import('shpjs')).default;
        let gj: unknown;
        try { gj = await shp(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer); } catch (e) { throw new UploadError(/proj|projection|prj/i.test(String(e)) ? 'BAD_CRS' : 'BAD_FILE', `Cannot read the shapefile in ${name}: ${(e as Error).message}`); }
        shapes = shapesOf(gj, max);
      } else if (kmlName) {
        const { kml } = await import('@tmcw/togeojson');
        shapes = kmlShapes(await zip.file(kmlName)!.async('string'), kml as (d: Document) => FeatureCollection, max);
      } else throw new UploadError('UNSUPPORTED', `${name} holds no shapefile (.shp with .dbf/.prj) and no .kml.`);
    } else throw new UploadError('UNSUPPORTED', `${name}: unsupported format. Upload GeoJSON (.geojson, .json), a zipped shapefile (.zip) or KML/KMZ.`);
  } finally { signal?.throwIfAborted(); }
  if (prjNote) shapes.notes.unshift(prjNote);
  return shapes;
}

/**
 * Reads an uploaded file into shapes and WKT.
 * @throws UploadError TOO_LARGE over {@link UPLOAD_MAX_BYTES}, UNSUPPORTED for other formats
 * (a ZIP without a .shp or .kml), BAD_FILE for unreadable content, NO_SHAPES, BAD_CRS
 */
export async function readUpload(file: File, signal?: AbortSignal): Promise<UploadResult> {
  if (file.size > UPLOAD_MAX_BYTES) throw new UploadError('TOO_LARGE', `${file.name} is ${(file.size / 1048576).toFixed(1)} MB; files up to ${UPLOAD_MAX_BYTES / 1048576} MB can be read. Simplify or split it first.`);
  const buf = new Uint8Array(await file.arrayBuffer());
  signal?.throwIfAborted();
  const shapes = await shapesOfFile(file.name, buf, UPLOAD_MAX_SHAPES, signal);
  let wkt = shapesWkt(shapes.geometries), simplified = 0;
  if (wkt.length > WKT_MAX_CHARS) {
    const { simplify } = await import('@turf/simplify');
    for (const tol of [0.002, 0.005, 0.01, 0.02, 0.05, 0.1]) {
      const gs = shapes.geometries.map((g) => simplify(g as any, { tolerance: tol, highQuality: false }) as Geometry);
      wkt = shapesWkt(gs); simplified = tol;
      if (wkt.length <= WKT_MAX_CHARS) { shapes.geometries = gs; break; }
    }
    if (wkt.length > WKT_MAX_CHARS) throw new UploadError('TOO_LARGE', `The shapes are too detailed to keep (${wkt.length.toLocaleString('en')} characters of WKT after simplifying at 0.1°); upload fewer or simpler shapes.`);
    shapes.notes.push(`Outlines simplified (tolerance ${simplified}°, the grid cell is 1/12°) to fit the page link.`);
  }
  return { ...shapes, wkt, simplified };
}
