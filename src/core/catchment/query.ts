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
import { layerPath } from '../bundle';
import type { CallOptions, TableResult } from '../api';
import { cellAreaKm2 } from '../area';
import type { Catalog } from '../catalog';
import type { CogStore, PixelWindow } from '../cog/store';
import { IndapiError, throwIfAborted } from '../errors';
import { cellId, type GridDef } from '../grid';
import type { GetLayerArgs, VarRecord } from '../types';
import { parseWkt } from '../wkt/parse';
import { bandLabels, bandOf, checkBreaks, DEFAULT_BREAKS_MIN } from './bands';
import { gridSteps, MAX_SOURCES, travelTimeMinutes, type TravelTime } from './cost';
import { coverageOf } from './coverage';
import { geodesicDistanceM, type RowSteps } from './geodesic';
import { checkOptions } from './options';
import { fmtPoint } from './sources';
import { catchmentTable, type GroupSummariser } from './table';
import type { CatchmentArgs, CatchmentBand, CatchmentCoverage, CatchmentResult, CatchmentSource } from '../api/catchment';

/** What the catchment query needs of the engine (a subset of `IndapiEngine`). */
export interface CatchmentEngine extends GroupSummariser {
  /** The COG window store. */
  readonly store: CogStore;
  /** The bundle grid. */
  grid(opts?: CallOptions): Promise<GridDef>;
  /** The loaded catalog. */
  loadCatalog(opts?: CallOptions): Promise<Catalog>;
  /** The main query as a table (used with `ids`: one pooled row). */
  getLayerTable(args: GetLayerArgs, opts?: CallOptions): Promise<TableResult>;
}

export type { CatchmentArgs, CatchmentBand, CatchmentResult } from '../api/catchment';

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
    names: a.names as string[] | undefined,
    marketshed: a.marketshed as boolean | undefined,
    cumulative: a.cumulative as boolean | undefined,
    neighbours: a.neighbours as 8 | 16 | undefined,
    snapKm: a.snap_km as number | undefined,
    origin: a.origin as 'cell' | 'point' | undefined,
    capacity: a.capacity === undefined || a.capacity === null ? undefined : ((Array.isArray(a.capacity) ? a.capacity : [a.capacity]) as number[]),
    population: a.population as string | undefined,
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

/** Units of a layer of people: people, persons, inhabitants (any case). */
const PEOPLE_UNIT = /^(people|persons?|inhabitants|population)$/i;

/**
 * The population layer counted by `capacity`: `code`, else POP_MODEL, else PN14_POP (the
 * first the catalog has); a continuous layer whose unit is people (or persons).
 * @throws IndapiError BAD_ARGUMENT naming `population` (unknown, not continuous, not in people)
 */
export function populationRecord(cat: Catalog, code?: string): VarRecord {
  const want = code ? [String(code).trim().toUpperCase()] : ['POP_MODEL', 'PN14_POP'];
  const r = want.map((c) => cat.get(c)).find(Boolean);
  if (!r) throw new IndapiError('BAD_ARGUMENT', code ? `'population': unknown layer '${code}'.` : "'population': the bundle has no population layer (POP_MODEL or PN14_POP); name one.", { arg: 'population' });
  if (r.type !== 'continuous') throw new IndapiError('BAD_ARGUMENT', `'population': ${r.varCode} is not a layer of people per cell (its type is ${r.type}).`, { arg: 'population' });
  // capacity counts people: a layer in other units (metres of ELEVATION) would give nonsense coverage
  if (!PEOPLE_UNIT.test(r.unit.trim())) {
    throw new IndapiError('BAD_ARGUMENT', `'population': ${r.varCode} is not a layer of people per cell (its unit is ${r.unit ? `'${r.unit}'` : 'not given'}; use a layer in people, e.g. POP_MODEL).`, { arg: 'population' });
  }
  return r;
}

/** A pixel window of a grid as a grid of its own (same lattice). */
function windowGrid(grid: GridDef, [c0, r0, c1, r1]: PixelWindow): GridDef {
  const cs = grid.cellSizeDeg;
  return { ...grid, width: c1 - c0, height: r1 - r0, colOffset: grid.colOffset + c0, rowOffset: grid.rowOffset + r0, xmin: grid.xmin + c0 * cs, xmax: grid.xmin + c1 * cs, ymax: grid.ymax - r0 * cs, ymin: grid.ymax - r1 * cs };
}

/** The window's cells: time, band and nearest source (within `iso3`), and each band's ids and area. */
function assign(tt: TravelTime, grid: GridDef, win: GridDef, breaks: number[], cumulative: boolean, iso: Int32Array | null, allowed: Set<number> | null) {
  const [c0, r0] = tt.window;
  const labels = cumulative ? breaks.slice(1).map((b) => bandLabels([0, b])[0]) : bandLabels(breaks);
  const bands: CatchmentBand[] = labels.map((label, k) => ({ label, fromMinutes: cumulative ? breaks[0] : breaks[k], toMinutes: breaks[k + 1], ids: [], areaKm2: 0 }));
  const n = win.width * win.height;
  const minutes = new Float32Array(n).fill(NaN);
  const band = new Int8Array(n).fill(-1);
  const source = new Int16Array(n).fill(-1);
  const rowAreaKm2 = new Float64Array(win.height);
  for (let r = 0; r < win.height; r++) {
    const area = (rowAreaKm2[r] = cellAreaKm2(win.rowOffset + r));
    for (let c = 0; c < win.width; c++) {
      const i = r * win.width + c;
      if (iso && !allowed!.has(iso[i])) continue;
      const j = (r + r0) * grid.width + c + c0;
      const t = tt.minutes[j];
      if (Number.isNaN(t)) continue;
      minutes[i] = t;
      source[i] = tt.source[j];
      const b = bandOf(breaks, t);
      band[i] = b;
      if (b < 0) continue;
      const id = cellId(win, c, r);
      for (let k = b; k < (cumulative ? bands.length : b + 1); k++) { bands[k].ids.push(id); bands[k].areaKm2 += area; }
    }
  }
  return { minutes, band, source, bands, rowAreaKm2 };
}

/** Cell size near the sources and what it implies, in words; then each moved source. */
function notesOf(grid: GridDef, friction: Float32Array | Float64Array, sources: CatchmentSource[], tt: TravelTime, neighbours: 8 | 16, origin: 'cell' | 'point'): { cell: CatchmentResult['cell']; notes: string[] } {
  const lat = sources.reduce((m, x) => m + (x.snapped?.lat ?? x.lat), 0) / sources.length;
  const cs = grid.cellSizeDeg;
  const ewKm = geodesicDistanceM(0, lat, cs, lat) / 1000, nsKm = geodesicDistanceM(0, lat - cs / 2, 0, lat + cs / 2) / 1000;
  const fr = tt.sourceCells.map((i) => friction[i]).sort((a, b) => a - b);
  const crossMin = fr[fr.length >> 1] * nsKm * 1000;
  const cell = { ewKm, nsKm, areaKm2: ewKm * nsKm };
  const start = origin === 'cell' ? 'the whole source cell counts as 0 minutes' : 'times are counted from the source points';
  const metric = neighbours === 8 ? 'oblique paths may come out up to 8 % long with 8 neighbours (16 neighbours: up to 3 %)' : 'oblique paths may come out up to 3 % long with 16 neighbours';
  const notes = [
    `Cells are ${ewKm.toFixed(1)} x ${nsKm.toFixed(1)} km (${cell.areaKm2.toFixed(0)} km2) near the sources; crossing one takes about ${Math.round(crossMin)} minutes at the sources' friction, so bands narrower than that hold few cells and each time is uncertain by about half of it (${start}; ${metric}).`,
    ...sources.filter((x) => x.note).map((x) => x.note!),
  ];
  return { cell, notes };
}

/** The sources as used: names, cells, moves. */
function sourcesOf(grid: GridDef, points: Array<[number, number]>, names: string[], tt: TravelTime): CatchmentSource[] {
  return points.map(([lon, lat], k) => {
    const s = tt.located[k];
    const out: CatchmentSource = { name: names[k], lon, lat, cell: cellId(grid, s.cell % grid.width, Math.floor(s.cell / grid.width)) };
    if (s.snapped) {
      out.snapped = s.snapped;
      out.note = `${names[k]} moved ${s.snapped.km.toFixed(1)} km to the nearest land cell, centred at ${fmtPoint(s.snapped.lon, s.snapped.lat)} (the point ${fmtPoint(lon, lat)} lies on a no-data cell of the friction surface: sea or a lake).`;
    }
    return out;
  });
}

/**
 * Runs a catchment: travel time from the sources on the friction layer up to the largest
 * break (8 or 16 neighbours, from the source cells or points; sources on no-data cells moved
 * within `snapKm`), each cell's nearest source, the cells of each band (by their own time;
 * within `iso3`), and the table (see `catchmentTable`): per band, or per source x band, its
 * cells, area (km2, WGS84) and each `var` by its catalog formula; with `capacity` the
 * coverage. Every argument is checked before any data is read.
 * @throws IndapiError BAD_ARGUMENT / OUTSIDE_GRID naming xy or wkt (and the row), BAD_BREAKS
 *   naming minutes, BAD_ARGUMENT naming names, neighbours, snap_km, origin, capacity or
 *   population, UNKNOWN_CODE / BAD_ARGUMENT naming friction, UNKNOWN_CODE for var,
 *   UNKNOWN_ISO3, ABORTED
 */
export async function runCatchment(engine: CatchmentEngine, args: CatchmentArgs, opts: CallOptions = {}): Promise<CatchmentResult> {
  const { signal } = opts;
  const { points, arg } = sourcePoints(args);
  if (points.length > MAX_SOURCES) throw new IndapiError('BAD_ARGUMENT', `'${arg}' gives ${points.length} source points; at most ${MAX_SOURCES} are allowed.`, { arg });
  const o = checkOptions(args, points.length);
  const breaks = checkBreaks(args.minutes ?? DEFAULT_BREAKS_MIN, 'minutes');
  const [cat, grid] = await Promise.all([engine.loadCatalog({ signal }), engine.grid({ signal })]);
  const fr = frictionRecord(cat, args.friction);
  const vars = args.var ?? [];
  cat.validate(vars);
  const popRec = o.capacity ? populationRecord(cat, args.population) : null;
  const allowed = await isoFilter(cat, args.iso3, signal);
  const friction = await engine.store.readFloat(layerPath(fr.varCode), [0, 0, grid.width, grid.height], signal);
  let steps = stepsCache.get(grid);
  if (!steps) { steps = gridSteps(grid); stepsCache.set(grid, steps); }
  const total = 4 + vars.length;
  const tt = travelTimeMinutes({ grid, minutesPerMetre: friction }, points, {
    maxMinutes: breaks[breaks.length - 1], signal, argName: arg, steps, names: args.names ? o.names : undefined,
    neighbours: o.neighbours, origin: o.origin, snapKm: o.snapKm,
    onProgress: opts.onProgress && ((d, t) => opts.onProgress!(d / t, total)),
  });
  const win = windowGrid(grid, tt.window);
  const iso = allowed ? await engine.store.readInt('cog/ISO3.tif', tt.window, signal) : null;
  const a = assign(tt, grid, win, breaks, o.cumulative, iso, allowed);
  throwIfAborted(signal);
  opts.onProgress?.(2, total);
  let coverage: CatchmentCoverage | undefined;
  if (popRec && o.capacity) {
    const people = await engine.store.readFloat(layerPath(popRec.varCode), tt.window, signal);
    coverage = { population: popRec, ...coverageOf(a.minutes, a.band, a.source, people, o.capacity) };
  }
  const assigned = { win: tt.window, band: a.band, source: a.source, rowAreaKm2: a.rowAreaKm2 };
  const spec = { vars, bands: a.bands, names: o.names, marketshed: o.marketshed, cumulative: o.cumulative, friction: fr, coverage };
  const table = await catchmentTable(engine, assigned, spec, { signal, onProgress: opts.onProgress && ((d, t) => opts.onProgress!(3 + d / t, total)) });
  opts.onProgress?.(total, total);
  const sources = sourcesOf(grid, points, o.names, tt);
  const { cell, notes } = notesOf(grid, friction, sources, tt, o.neighbours, o.origin);
  return {
    table, bands: a.bands, breaks, friction: fr, grid: win, minutes: a.minutes, band: a.band, source: a.source, sources,
    marketshed: o.marketshed, cumulative: o.cumulative, neighbours: o.neighbours, origin: o.origin, cell, notes, coverage,
  };
}

export { CATCHMENT_KEY_COLUMNS } from './table';
