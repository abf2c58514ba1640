/**
 * Admin outlines of a bundle (`basemap/admin1.geojson`, `basemap/admin2.geojson`) traced from
 * the cells of a key layer (ADM1_NAME_ALT, ADM2_NAME_ALT): one Polygon or MultiPolygon feature
 * per unit that has cells, the union of its 5-arc-minute cells (outline traced along the cell
 * edges by {@link traceGroups}: exterior rings counterclockwise, holes clockwise, no
 * self-touching ring, collinear vertices dropped), RFC 7946 GeoJSON
 * (https://www.rfc-editor.org/rfc/rfc7946) in EPSG:4326 degrees.
 *
 * Properties, as the embedded bundle's Natural Earth admin1.geojson (public/data/README.md):
 * `value` (the unit's raster value in the key layer, which the app's choropleth and hover
 * join on), `code` (when the class table has one), `name` (the class label), `iso3`, and for
 * second-level units `adm1` (the first-level unit's name). Every vertex lies on the grid's
 * 1/12-degree lattice and is printed rounded to 6 decimals (the shortest text of that
 * rounding, e.g. `-4.916667`), so the file stays small and every coordinate is within
 * 5e-7 degree of an exact multiple of 1/12.
 */
import type { GridDef } from '../grid';
import { IndapiError, throwIfAborted } from '../errors';
import type { ClassEntry } from '../types';
import { traceGroups, type LatticePolygon } from './geojson';

/** Paths of the outline files in a bundle, by administrative level. */
export const OUTLINE_FILES: Record<1 | 2, string> = { 1: 'basemap/admin1.geojson', 2: 'basemap/admin2.geojson' };

/** The key layer whose raster values the outline features of a level carry as `value`. */
export const OUTLINE_KEY: Record<1 | 2, string> = { 1: 'ADM1_NAME_ALT', 2: 'ADM2_NAME_ALT' };

/** One unit to outline: its raster value in the key layer and the properties written after `value`. */
export interface OutlineUnit {
  /** Raster value of the unit in the key layer. */
  value: number;
  /** Further properties in order (code, name, iso3, adm1). */
  properties: Record<string, string | number>;
}

/**
 * Units of a key layer's class table: `value`, then `code` (when non-empty), `name` (the
 * label), `iso3`, and `adm1` for level 2.
 * @param table class table of ADM1_NAME_ALT or ADM2_NAME_ALT (value, label, extras iso3, adm1, code)
 * @param level 1 or 2
 */
export function outlineUnits(table: ClassEntry[], level: 1 | 2): OutlineUnit[] {
  return table.map((e) => {
    const p: Record<string, string | number> = {};
    if (e.code !== undefined && e.code !== '') p.code = String(e.code);
    p.name = String(e.label);
    p.iso3 = e.iso3 === undefined ? '' : String(e.iso3);
    if (level === 2) p.adm1 = e.adm1 === undefined ? '' : String(e.adm1);
    return { value: e.value, properties: p };
  });
}

/** Text of a lattice coordinate k/12 degree rounded to 6 decimals, shortest form. */
function deg(k: number, perDeg: number): string {
  const s = (k / perDeg).toFixed(6);
  const t = s.replace(/\.?0+$/, '');
  return t === '-0' ? '0' : t;
}

/** Options of {@link writeOutlines}. */
export interface OutlineOptions {
  /** Raster no-data value of the key layer (cells with it, NaN or a value of no unit belong to no unit). */
  noData?: number;
  /** The FeatureCollection's `description` (RFC 7946 foreign member); omitted when empty. */
  description?: string;
  /** The FeatureCollection's `attribution` (foreign member; plots credit the outlines with it); omitted when empty. */
  attribution?: string;
  /** Aborts between units. */
  signal?: AbortSignal;
}

/**
 * Traces the units of a key layer and writes them as a GeoJSON FeatureCollection (text).
 * Units without cells get no feature; features are in the order of `units`.
 * @param grid the window the values lie on (its xmin/ymax are multiples of the cell size)
 * @param values key-layer raster values, row-major `grid.width * grid.height`
 * @param units the units (value and properties)
 * @param opts no-data, description, attribution, abort signal
 * @returns the GeoJSON text (ends with a newline)
 * @throws IndapiError ABORTED; INTERNAL when `values` does not fit the grid
 */
export function writeOutlines(grid: GridDef, values: ArrayLike<number>, units: OutlineUnit[], opts: OutlineOptions = {}): string {
  const { width, height } = grid;
  const n = width * height;
  if (values.length !== n) throw new IndapiError('INTERNAL', `writeOutlines: ${values.length} values for a ${width} x ${height} grid.`);
  const perDeg = Math.round(1 / grid.cellSizeDeg);
  const x0 = Math.round(grid.xmin * perDeg);
  const y0 = Math.round(grid.ymax * perDeg);
  const index = new Map<number, number>();
  units.forEach((u, i) => { if (!index.has(u.value)) index.set(u.value, i); });
  const group = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    group[i] = v === opts.noData || v !== v ? -1 : (index.get(v) ?? -1);
  }
  throwIfAborted(opts.signal);
  const polys = traceGroups(group, width, height, units.length);
  const ring = (pts: Array<[number, number]>) => `[${pts.map(([c, r]) => `[${deg(x0 + c, perDeg)},${deg(y0 - r, perDeg)}]`).join(',')}]`;
  const poly = (p: LatticePolygon) => `[${[ring(p.exterior), ...p.holes.map(ring)].join(',')}]`;
  const members = [['description', opts.description], ['attribution', opts.attribution]].filter(([, v]) => v).map(([k, v]) => `"${k}":${JSON.stringify(v)},`).join('');
  const parts: string[] = [`{"type":"FeatureCollection",${members}"features":[`];
  let first = true;
  units.forEach((u, g) => {
    if (g % 64 === 0) throwIfAborted(opts.signal);
    const ps = polys[g];
    if (!ps.length) return;
    const geometry = ps.length === 1 ? `{"type":"Polygon","coordinates":${poly(ps[0])}}` : `{"type":"MultiPolygon","coordinates":[${ps.map(poly).join(',')}]}`;
    parts.push(`${first ? '' : ','}\n{"type":"Feature","properties":${JSON.stringify({ value: u.value, ...u.properties })},"geometry":${geometry}}`);
    first = false;
  });
  parts.push('\n]}\n');
  return parts.join('');
}

/**
 * The `attribution` of a traced outline file (credited on plots drawn with it).
 * @param level 1 or 2
 * @param source where the key layer came from
 */
export function outlineAttribution(level: 1 | 2, source: string): string {
  return `Admin-${level} outlines: traced from the cells of ${source}`;
}

/**
 * The `description` of a traced outline file.
 * @param keyCode the key layer traced (ADM1_NAME_ALT, ADM2_NAME_ALT)
 * @param source where the key layer came from (e.g. the ingested table's file name)
 */
export function outlineDescription(keyCode: string, source: string): string {
  return `One (Multi)Polygon per unit of ${keyCode}: the union of the unit's 5-arc-minute cells in that key layer (${source}), traced along the cell edges (EPSG:4326). value = the unit's raster value in ${keyCode}.`;
}
