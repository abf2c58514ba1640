/**
 * The `catchment` query over a bundle: travel time from source points on a friction layer,
 * cells by travel-time band, and each band summarised like any area (the engine's own
 * aggregation over a cell-id selection, so every indicator keeps its catalog formula).
 *
 * A friction layer is a catalog record with `type` continuous and `unit` "minutes per metre"
 * (case-insensitive; "minutes per meter" and "min/m" are accepted too): see
 * {@link isFrictionRecord}. The embedded bundle has FRICTION_WALK (walking only); ingested
 * bundles may add others (e.g. a motorised surface), and several may coexist.
 */
import { cogPath } from '../bundle';
import type { CallOptions, ColumnInfo, TableResult } from '../api';
import { cellAreaKm2 } from '../area';
import type { Catalog } from '../catalog';
import type { CogStore } from '../cog/store';
import { roundR } from '../engine/labels';
import { IndapiError, throwIfAborted } from '../errors';
import { cellId, type GridDef } from '../grid';
import type { GetLayerArgs, Row, VarRecord } from '../types';
import { parseWkt } from '../wkt/parse';
import { bandLabels, bandOf, checkBreaks, DEFAULT_BREAKS_MIN } from './bands';
import { gridSteps, MAX_SOURCES, travelTimeMinutes } from './cost';
import type { RowSteps } from './geodesic';
import type { CatchmentArgs, CatchmentBand, CatchmentResult } from './types';

/** What the catchment query needs of the engine (a subset of `IndapiEngine`). */
export interface CatchmentEngine {
  /** The COG window store. */
  readonly store: CogStore;
  /** The bundle grid. */
  grid(opts?: CallOptions): Promise<GridDef>;
  /** The loaded catalog. */
  loadCatalog(opts?: CallOptions): Promise<Catalog>;
  /** The main query as a table (used with `ids`: one pooled row). */
  getLayerTable(args: GetLayerArgs, opts?: CallOptions): Promise<TableResult>;
}

export type { CatchmentArgs, CatchmentBand, CatchmentResult } from './types';

const FRICTION_UNITS = new Set(['minutes per metre', 'minutes per meter', 'min/m', 'minutes/m']);

/** True for a friction layer: continuous with unit "minutes per metre" (see the module docs). */
export function isFrictionRecord(r: VarRecord): boolean {
  return r.type === 'continuous' && FRICTION_UNITS.has(String(r.unit ?? '').trim().toLowerCase());
}

/**
 * Source points of `xy` or `wkt` (POINT, MULTIPOINT; GEOMETRYCOLLECTION of those).
 * @throws IndapiError BAD_ARGUMENT naming the argument, BAD_WKT; BAD_ARGUMENT over {@link MAX_SOURCES}
 */
export function sourcePoints(args: Pick<CatchmentArgs, 'xy' | 'wkt'>): { points: Array<[number, number]>; arg: 'xy' | 'wkt' } {
  if (args.xy !== undefined && args.wkt !== undefined) throw new IndapiError('BAD_ARGUMENT', "Give the source points as 'xy' or as 'wkt', not both.", { arg: 'xy' });
  if (args.wkt !== undefined) {
    const g = parseWkt(String(args.wkt));
    const pts: Array<[number, number]> = [];
    const add = (geom: typeof g): void => {
      if (geom.type === 'Point') pts.push([geom.coordinates[0], geom.coordinates[1]]);
      else if (geom.type === 'MultiPoint') for (const c of geom.coordinates) pts.push([c[0], c[1]]);
      else if (geom.type === 'GeometryCollection') geom.geometries.forEach((x) => add(x as typeof g));
      else throw new IndapiError('BAD_ARGUMENT', `'wkt' must be a POINT or MULTIPOINT (the sources of the catchment), got ${geom.type}.`, { arg: 'wkt' });
    };
    add(g);
    if (pts.length > MAX_SOURCES) throw new IndapiError('BAD_ARGUMENT', `'wkt' gives ${pts.length} source points; at most ${MAX_SOURCES} are allowed.`, { arg: 'wkt' });
    return { points: pts, arg: 'wkt' };
  }
  if (args.xy === undefined) throw new IndapiError('BAD_ARGUMENT', "Give the source points: 'xy' (c(lon, lat) or a list of pairs) or 'wkt' (POINT or MULTIPOINT).", { arg: 'xy' });
  return { points: args.xy, arg: 'xy' };
}

/**
 * Source points of a request's `xy`: `c(lon, lat)` / `[lon, lat]`, or a list of such pairs
 * (`list(c(36.8, -1.3), c(37.0, -0.5))`, `[[36.8, -1.3], [37.0, -0.5]]`), degrees, EPSG:4326.
 * @throws IndapiError BAD_ARGUMENT naming xy
 */
export function parseXy(v: unknown): Array<[number, number]> {
  const bad = (): never => {
    throw new IndapiError('BAD_ARGUMENT', "'xy' must be c(lon, lat) or a list of such pairs (degrees, EPSG:4326), e.g. c(36.82, -1.29) or list(c(36.82, -1.29), c(39.67, -4.05)).", { arg: 'xy' });
  };
  const pair = (p: unknown): [number, number] => {
    if (!Array.isArray(p) || p.length !== 2 || !p.every((x) => typeof x === 'number' && Number.isFinite(x))) return bad();
    return [p[0] as number, p[1] as number];
  };
  if (!Array.isArray(v) || v.length === 0) return bad();
  if (v.every((x) => typeof x === 'number')) return [pair(v)];
  if (v.length > MAX_SOURCES) throw new IndapiError('BAD_ARGUMENT', `'xy' gives ${v.length} source points; at most ${MAX_SOURCES} are allowed.`, { arg: 'xy' });
  return v.map(pair);
}

/**
 * The engine's catchment arguments from a request's (the contract's names: xy, wkt, minutes,
 * friction, var, iso3), `xy` read by {@link parseXy} (a flat pair or a list of pairs).
 * @param a the request's arguments as bound by the contract, or as a panel sends them
 * @throws IndapiError BAD_ARGUMENT naming `xy`
 */
export function catchmentArgs(a: Record<string, unknown>): CatchmentArgs {
  return {
    xy: a.xy === undefined ? undefined : parseXy(a.xy),
    wkt: a.wkt as string | undefined,
    minutes: a.minutes as number[] | undefined,
    friction: a.friction as string | undefined,
    var: a.var as string[] | undefined,
    iso3: a.iso3 as string[] | undefined,
  };
}

/**
 * The friction layer: `code` (must be a friction layer) or the first of the catalog.
 * @throws IndapiError UNKNOWN_CODE, BAD_ARGUMENT naming `friction`
 */
export function frictionRecord(cat: Catalog, code?: string): VarRecord {
  if (code === undefined || code === null) {
    const r = cat.records.find(isFrictionRecord);
    if (!r) throw new IndapiError('BAD_ARGUMENT', "'friction': the bundle has no friction layer (a continuous layer with unit \"minutes per metre\"); ingest one, see the README.", { arg: 'friction' });
    return r;
  }
  const r = cat.get(String(code).trim().toUpperCase()) ?? cat.get(String(code));
  if (!r) throw new IndapiError('UNKNOWN_CODE', `'friction': unknown layer '${code}'. Friction layers of this bundle: ${cat.records.filter(isFrictionRecord).map((x) => x.varCode).join(', ') || 'none'}.`, { arg: 'friction', codes: [code] });
  if (!isFrictionRecord(r)) throw new IndapiError('BAD_ARGUMENT', `'friction': ${r.varCode} is not a friction layer (a continuous layer with unit "minutes per metre"; its unit is "${r.unit}"). Friction layers of this bundle: ${cat.records.filter(isFrictionRecord).map((x) => x.varCode).join(', ') || 'none'}.`, { arg: 'friction' });
  return r;
}

/** Allowed ISO3 raster values of `iso3` (null: all). */
async function isoFilter(cat: Catalog, iso3: string[] | undefined, signal?: AbortSignal): Promise<Set<number> | null> {
  const codes = (iso3 ?? []).map((s) => String(s).toUpperCase());
  if (!codes.length || codes.includes('SSA')) {
    const bad = codes.filter((s) => !cat.isoEntry(s));
    if (bad.length) throw new IndapiError('UNKNOWN_ISO3', `Unknown country or region code ${bad.join(', ')}.`, { codes: bad });
    return null;
  }
  const members = new Set<string>();
  for (const s of codes) {
    const e = cat.isoEntry(s);
    if (!e) throw new IndapiError('UNKNOWN_ISO3', `Unknown country or region code ${s}. Use ISO3 country codes of the bundle or the regions ${cat.iso.filter((x) => x.type === 'region').map((x) => x.code).join(', ')}.`, { codes: [s] });
    for (const m of e.members) members.add(m.toUpperCase());
  }
  const out = new Set<number>();
  for (const c of await cat.classes('ISO3', signal)) if (members.has(String(c.label).toUpperCase())) out.add(Number(c.value));
  return out;
}

const stepsCache = new WeakMap<GridDef, RowSteps>();

/**
 * Runs a catchment: travel time from the sources on the friction layer up to the largest
 * break, the cells of each band (by their own time; within `iso3`), and per band its cells,
 * area (km2, WGS84) and each `var` summarised by its catalog formula (the engine's main query
 * over the band's CELL5M ids). Bands without cells give a row with 0 cells and no summaries.
 * @throws IndapiError BAD_ARGUMENT / OUTSIDE_GRID naming xy or wkt, BAD_BREAKS
 *   naming minutes, UNKNOWN_CODE / BAD_ARGUMENT naming friction, UNKNOWN_CODE for var,
 *   UNKNOWN_ISO3, ABORTED
 */
export async function runCatchment(engine: CatchmentEngine, args: CatchmentArgs, opts: CallOptions = {}): Promise<CatchmentResult> {
  const { signal } = opts;
  const { points, arg } = sourcePoints(args);
  const breaks = checkBreaks(args.minutes ?? DEFAULT_BREAKS_MIN, 'minutes');
  const [cat, grid] = await Promise.all([engine.loadCatalog({ signal }), engine.grid({ signal })]);
  const fr = frictionRecord(cat, args.friction);
  const vars = args.var ?? [];
  cat.validate(vars);
  const allowed = await isoFilter(cat, args.iso3, signal);
  const friction = await engine.store.readFloat(cogPath(fr.varCode), [0, 0, grid.width, grid.height], signal);
  let steps = stepsCache.get(grid);
  if (!steps) { steps = gridSteps(grid); stepsCache.set(grid, steps); }
  const total = 4 + vars.length;
  const tt = travelTimeMinutes({ grid, minutesPerMetre: friction }, points, {
    maxMinutes: breaks[breaks.length - 1], signal, argName: arg, steps,
    onProgress: opts.onProgress && ((d, t) => opts.onProgress!(d / t, total)),
  });
  const [c0, r0, c1, r1] = tt.window;
  const win: GridDef = { ...grid, width: c1 - c0, height: r1 - r0, colOffset: grid.colOffset + c0, rowOffset: grid.rowOffset + r0, xmin: grid.xmin + c0 * grid.cellSizeDeg, xmax: grid.xmin + c1 * grid.cellSizeDeg, ymax: grid.ymax - r0 * grid.cellSizeDeg, ymin: grid.ymax - r1 * grid.cellSizeDeg };
  const iso = allowed ? await engine.store.readInt('cog/ISO3.tif', tt.window, signal) : null;
  const labels = bandLabels(breaks);
  const bands: CatchmentBand[] = labels.map((label, k) => ({ label, fromMinutes: breaks[k], toMinutes: breaks[k + 1], ids: [], areaKm2: 0 }));
  const minutes = new Float32Array(win.width * win.height).fill(NaN);
  const band = new Int8Array(win.width * win.height).fill(-1);
  for (let r = 0; r < win.height; r++) {
    const area = cellAreaKm2(win.rowOffset + r);
    for (let c = 0; c < win.width; c++) {
      const i = r * win.width + c;
      if (iso && !allowed!.has(iso[i])) continue;
      const t = tt.minutes[(r + r0) * grid.width + c + c0];
      const b = bandOf(breaks, t);
      if (Number.isNaN(t)) continue;
      minutes[i] = t;
      band[i] = b;
      if (b < 0) continue;
      bands[b].ids.push(cellId(win, c, r));
      bands[b].areaKm2 += area;
    }
  }
  throwIfAborted(signal);
  opts.onProgress?.(2, total);
  const table = await bandTable(engine, bands, vars, fr, opts, total);
  const sources = points.map(([lon, lat], k) => {
    const s = tt.sourceCells[k];
    return { name: `source ${k + 1}`, lon, lat, cell: cellId(grid, s % grid.width, Math.floor(s / grid.width)) };
  });
  const source = new Int16Array(minutes.length).fill(-1);
  for (let i = 0; i < minutes.length; i++) if (!Number.isNaN(minutes[i])) source[i] = 0;
  const cell = { ewKm: 0, nsKm: 0, areaKm2: 0 };
  return { table, bands, breaks, friction: fr, grid: win, minutes, band, source, sources, marketshed: false, cumulative: false, neighbours: 8, origin: 'cell', cell, notes: [] };
}

/** Columns that lead every catchment table. */
export const CATCHMENT_KEY_COLUMNS: ColumnInfo[] = [
  { name: 'band', role: 'key', label: 'Travel time band (minutes), as R cut(include.lowest = TRUE)', unit: 'minutes', type: 'string' },
  { name: 'minutes_from', role: 'key', label: 'Lower break of the band', unit: 'minutes', type: 'number' },
  { name: 'minutes_to', role: 'key', label: 'Upper break of the band', unit: 'minutes', type: 'number' },
  { name: 'cells', role: 'value', label: 'Cells of the band', unit: 'cells', type: 'integer', dec: 0 },
  { name: 'area_km2', role: 'value', label: 'Area of the band (WGS84 geodesic cell areas)', unit: 'km2', type: 'number', dec: 1 },
];

/** One row per band, summaries from the engine's main query over the band's cell ids. */
async function bandTable(engine: CatchmentEngine, bands: CatchmentBand[], vars: string[], fr: VarRecord, opts: CallOptions, total: number): Promise<TableResult> {
  const rows: Row[] = [];
  let valueCols: ColumnInfo[] = [];
  let meta: VarRecord[] = [];
  for (const [k, b] of bands.entries()) {
    const row: Row = { band: b.label, minutes_from: b.fromMinutes, minutes_to: b.toMinutes, cells: b.ids.length, area_km2: roundR(b.areaKm2, 1) };
    if (vars.length && b.ids.length) {
      const t = await engine.getLayerTable({ var: vars, ids: b.ids }, { signal: opts.signal });
      if (!valueCols.length) {
        valueCols = t.columns.filter((c) => c.role === 'value');
        meta = t.meta;
      }
      const src = t.rows[0] ?? {};
      for (const c of t.columns) if (c.role === 'value' && src[c.name] !== undefined) row[c.name] = src[c.name];
    }
    rows.push(row);
    opts.onProgress?.(3 + (k + 1) / bands.length, total);
  }
  return { rows, columns: [...CATCHMENT_KEY_COLUMNS, ...valueCols], meta: [fr, ...meta.filter((m) => m.varCode !== fr.varCode)] };
}
