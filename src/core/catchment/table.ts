/**
 * The catchment's summary table: per band (or per source x band with `marketshed`) the cells,
 * their area and each indicator summarised with its catalog formula, every group of a pass
 * summarised in one pass over the cells (the engine's `summariseGroups`): the work grows
 * with cells x indicators, not with the number of bands (issue 25). Cumulative bands
 * (`[0,60]`, `[0,120]`, ...) overlap, so they take one pass per band, each over the window
 * of the cells within that band.
 */
import type { CallOptions, ColumnInfo, TableResult } from '../api';
import type { PixelWindow } from '../cog/store';
import { roundR } from '../r/labels';
import { throwIfAborted } from '../errors';
import type { Row, VarRecord } from '../types';
import type { CatchmentBand, CatchmentCoverage } from '../api/catchment';

/** What the table needs of the engine (see `IndapiEngine.summariseGroups`). */
export interface GroupSummariser {
  summariseGroups(args: { var: string[]; win: PixelWindow; group: Int32Array; groups: number }, opts?: CallOptions): Promise<{ rows: Row[]; columns: ColumnInfo[]; meta: VarRecord[] }>;
}

/** Columns that lead every catchment table (after `source`, `source_id` with marketsheds). */
export const CATCHMENT_KEY_COLUMNS: ColumnInfo[] = [
  { name: 'band', role: 'key', label: 'Travel time band (minutes), as R cut(include.lowest = TRUE)', unit: 'minutes', type: 'string' },
  { name: 'minutes_from', role: 'key', label: 'Lower break of the band', unit: 'minutes', type: 'number' },
  { name: 'minutes_to', role: 'key', label: 'Upper break of the band', unit: 'minutes', type: 'number' },
  { name: 'cells', role: 'value', label: 'Cells of the band', unit: 'cells', type: 'integer', dec: 0 },
  { name: 'area_km2', role: 'value', label: 'Area of the band (WGS84 geodesic cell areas)', unit: 'km2', type: 'number', dec: 1 },
];

/** The source columns of a marketshed table. */
export const SOURCE_COLUMNS: ColumnInfo[] = [
  { name: 'source', role: 'key', label: 'Source (nearest by travel time); absent on the all-sources rows', unit: '', type: 'string' },
  { name: 'source_id', role: 'key', label: 'Source number (1-based, the value of the nearest-source raster)', unit: '', type: 'integer' },
];

/** Coverage columns (with `capacity`). */
export const COVERAGE_COLUMNS: ColumnInfo[] = [
  { name: 'capacity', role: 'value', label: 'People the source can serve', unit: 'people', type: 'number', dec: 0 },
  { name: 'population_covered', role: 'value', label: 'People covered (cells taken in travel-time order until the capacity or the last break)', unit: 'people', type: 'number', dec: 0 },
  { name: 'population_in_reach', role: 'value', label: 'People within the last break (of the source\'s marketshed, or of all)', unit: 'people', type: 'number', dec: 0 },
  { name: 'minutes_covered', role: 'value', label: 'Travel time of the last cell covered', unit: 'minutes', type: 'number', dec: 1 },
  { name: 'population_uncovered', role: 'value', label: 'People within the last break not covered (all-sources rows)', unit: 'people', type: 'number', dec: 0 },
];

/** The cells of a catchment's window, assigned to bands and sources. */
export interface Assigned {
  /** The window on the bundle grid, [col0, row0, col1, row1). */
  win: PixelWindow;
  /** Band index per window cell (-1: in no band, or outside `iso3`). */
  band: Int8Array;
  /** Nearest source per window cell (-1: none). */
  source: Int16Array;
  /** Area of a cell of each window row, km2. */
  rowAreaKm2: Float64Array;
}

/** What {@link catchmentTable} writes. */
export interface TableSpec {
  vars: string[];
  bands: CatchmentBand[];
  names: string[];
  marketshed: boolean;
  cumulative: boolean;
  friction: VarRecord;
  coverage?: Omit<CatchmentCoverage, 'coveredCells'>;
}

/** Cells and area per group (group = source x band, or band), with cumulative sums over bands. */
function counts(a: Assigned, K: number, S: number, cumulative: boolean): { cells: Float64Array; area: Float64Array } {
  const w = a.win[2] - a.win[0];
  const cells = new Float64Array(S * K), area = new Float64Array(S * K);
  for (let i = 0; i < a.band.length; i++) {
    const b = a.band[i];
    if (b < 0) continue;
    const g = (S > 1 ? a.source[i] : 0) * K + b;
    cells[g]++;
    area[g] += a.rowAreaKm2[(i / w) | 0];
  }
  if (cumulative) for (let s = 0; s < S; s++) for (let k = 1; k < K; k++) { cells[s * K + k] += cells[s * K + k - 1]; area[s * K + k] += area[s * K + k - 1]; }
  return { cells, area };
}

/** The summaries of one pass: group of each cell by `groupOf` (-1 none) over a sub-window. */
async function pass(engine: GroupSummariser, vars: string[], a: Assigned, sub: PixelWindow, groups: number, groupOf: (i: number) => number, o: CallOptions) {
  const w = a.win[2] - a.win[0];
  const sw = sub[2] - sub[0], sh = sub[3] - sub[1];
  const group = new Int32Array(sw * sh);
  for (let r = 0; r < sh; r++) for (let c = 0; c < sw; c++) group[r * sw + c] = groupOf((r + sub[1]) * w + c + sub[0]);
  const win: PixelWindow = [a.win[0] + sub[0], a.win[1] + sub[1], a.win[0] + sub[2], a.win[1] + sub[3]];
  return engine.summariseGroups({ var: vars, win, group, groups }, { signal: o.signal });
}

/** Window of the cells within band k, for each k (window coordinates; cumulative unions). */
function bandWindows(a: Assigned, K: number): PixelWindow[] {
  const w = a.win[2] - a.win[0];
  const box = Array.from({ length: K }, (): PixelWindow => [Infinity, Infinity, -Infinity, -Infinity]);
  for (let i = 0; i < a.band.length; i++) {
    const b = a.band[i];
    if (b < 0) continue;
    const r = (i / w) | 0, c = i - r * w, x = box[b];
    if (c < x[0]) x[0] = c; if (r < x[1]) x[1] = r; if (c + 1 > x[2]) x[2] = c + 1; if (r + 1 > x[3]) x[3] = r + 1;
  }
  for (let k = 1; k < K; k++) box[k] = [Math.min(box[k][0], box[k - 1][0]), Math.min(box[k][1], box[k - 1][1]), Math.max(box[k][2], box[k - 1][2]), Math.max(box[k][3], box[k - 1][3])];
  return box.map((x) => (x[0] === Infinity ? [0, 0, 0, 0] : x));
}

/**
 * Values per group: index source * K + band (marketshed) or band; and the all-sources values
 * per band (marketshed only). Empty rows without `vars`.
 */
async function summaries(engine: GroupSummariser, a: Assigned, spec: TableSpec, S: number, o: CallOptions) {
  const K = spec.bands.length;
  const none = { rows: [] as Row[], totals: [] as Row[], columns: [] as ColumnInfo[], meta: [] as VarRecord[] };
  if (!spec.vars.length) return none;
  const full: PixelWindow = [0, 0, a.win[2] - a.win[0], a.win[3] - a.win[1]];
  const out = { ...none, rows: new Array<Row>(S * K).fill({}), totals: new Array<Row>(K).fill({}) };
  const keep = (t: { columns: ColumnInfo[]; meta: VarRecord[] }) => { if (!out.columns.length) { out.columns = t.columns; out.meta = t.meta; } };
  if (!spec.cumulative) {
    const t = await pass(engine, spec.vars, a, full, S * K, (i) => (a.band[i] < 0 ? -1 : (S > 1 ? a.source[i] : 0) * K + a.band[i]), o);
    keep(t);
    out.rows = t.rows;
    if (spec.marketshed) out.totals = (await pass(engine, spec.vars, a, full, K, (i) => a.band[i], o)).rows;
    return out;
  }
  const wins = bandWindows(a, K);
  for (let k = 0; k < K; k++) {
    throwIfAborted(o.signal);
    const within = (i: number) => a.band[i] >= 0 && a.band[i] <= k;
    const t = await pass(engine, spec.vars, a, wins[k], S, (i) => (within(i) ? (S > 1 ? a.source[i] : 0) : -1), o);
    keep(t);
    for (let s = 0; s < S; s++) out.rows[s * K + k] = t.rows[s];
    if (spec.marketshed) out.totals[k] = (await pass(engine, spec.vars, a, wins[k], 1, (i) => (within(i) ? 0 : -1), o)).rows[0];
    o.onProgress?.(k + 1, K);
  }
  return out;
}

/** Coverage fields of a source's rows, or of the all-sources rows (source -1). */
function coverageFields(cov: TableSpec['coverage'], s: number): Row {
  if (!cov) return {};
  if (s < 0) return { population_covered: roundR(cov.covered, 0), population_in_reach: roundR(cov.inReach, 0), population_uncovered: roundR(cov.uncovered, 0) };
  const x = cov.sources[s];
  const row: Row = { capacity: roundR(x.capacity, 0), population_covered: roundR(x.covered, 0), population_in_reach: roundR(x.inReach, 0) };
  if (Number.isFinite(x.minutes)) row.minutes_covered = roundR(x.minutes, 1);
  return row;
}

/**
 * "Within N" figures beside the band figures: running sums over the bands of one source (rows in
 * band order) for additive columns (cells, area, indicators whose formula is a plain sum); a
 * missing value adds 0.
 * @returns per row, column -> cumulative value
 */
export function cumulativeRows(rows: Array<Record<string, unknown>>, cols: string[]): Array<Record<string, number | null>> {
  const acc: Record<string, number> = {};
  return rows.map((r) => {
    const o: Record<string, number | null> = {};
    for (const c of cols) {
      const v = r[c];
      acc[c] = (acc[c] ?? 0) + (typeof v === 'number' && Number.isFinite(v) ? v : 0);
      o[c] = acc[c];
    }
    return o;
  });
}

/** True when an indicator's catalog formula is a plain sum (`sum(CODE, na.rm=TRUE)`), so band figures add up. */
export function isAdditive(aggFunR: string | undefined, code: string): boolean {
  return new RegExp(`^\\s*sum\\(\\s*${code}\\s*(,\\s*na\\.rm\\s*=\\s*(TRUE|T))?\\s*\\)\\s*$`).test(aggFunR ?? '');
}

/** A band without cells holds 0 people (0 of any indicator summed by `sum()`), not no data; other summaries stay missing. */
function zeroEmptySums(rows: Row[], meta: VarRecord[]): void {
  const sums = meta.filter((m) => isAdditive(m.aggFunR, m.varCode)).map((m) => m.varCode);
  for (const r of rows) if (r.cells === 0) for (const c of sums) if (r[c] === undefined || r[c] === null) r[c] = 0;
}

/** Suffix of a "within" column: `POP_MODEL_within` = people within the band's upper limit. */
export const WITHIN_SUFFIX = '_within';

/**
 * Adds the "within" columns (see {@link cumulativeRows}) after each additive column of a
 * table of disjoint bands: per source (and for the all-sources rows) the running sum over the
 * bands, rounded to the column's decimals. Cumulative tables already hold "within" figures.
 */
function addWithin(rows: Row[], columns: ColumnInfo[], meta: VarRecord[], K: number): ColumnInfo[] {
  const byCode = new Map(meta.map((m) => [m.varCode, m]));
  const additive = columns.filter((c) => c.name === 'cells' || c.name === 'area_km2' || isAdditive(byCode.get(c.name)?.aggFunR, c.name));
  if (!additive.length) return columns;
  const names = additive.map((c) => c.name);
  for (let g = 0; g < rows.length; g += K) {
    const group = rows.slice(g, g + K);
    cumulativeRows(group, names).forEach((cum, i) => {
      for (const c of additive) group[i][c.name + WITHIN_SUFFIX] = roundR(cum[c.name] ?? 0, c.dec ?? (c.type === 'integer' ? 0 : 6));
    });
  }
  return columns.flatMap((c) => (names.includes(c.name) ? [c, { ...c, name: c.name + WITHIN_SUFFIX, label: `${c.label}: within the band's upper limit (running sum over the bands${rows.length > K ? ' of the row\'s source' : ''})` }] : [c]));
}

/**
 * The summary table of a catchment (see the module docs): one row per band; with
 * `marketshed`, the rows of each source (source, source_id, then each band) and then the
 * all-sources rows per band (no source). Disjoint bands also carry "within" columns
 * (`cells_within`, `area_km2_within`, `<var>_within` for indicators summed by `sum()`).
 */
export async function catchmentTable(engine: GroupSummariser, a: Assigned, spec: TableSpec, o: CallOptions = {}): Promise<TableResult> {
  const K = spec.bands.length;
  const S = spec.marketshed ? spec.names.length : 1;
  const { cells, area } = counts(a, K, S, spec.cumulative);
  const sum = await summaries(engine, a, spec, S, o);
  const bandRow = (k: number, g: number, values: Row): Row => ({
    band: spec.bands[k].label, minutes_from: spec.bands[k].fromMinutes, minutes_to: spec.bands[k].toMinutes,
    cells: cells[g], area_km2: roundR(area[g], 1), ...values,
  });
  const rows: Row[] = [];
  if (!spec.marketshed) {
    for (let k = 0; k < K; k++) rows.push(bandRow(k, k, sum.rows[k] ?? {}));
  } else {
    for (let s = 0; s < S; s++) for (let k = 0; k < K; k++) rows.push({ source: spec.names[s], source_id: s + 1, ...bandRow(k, s * K + k, sum.rows[s * K + k] ?? {}), ...coverageFields(spec.coverage, s) });
    const all = counts(a, K, 1, spec.cumulative);
    for (let k = 0; k < K; k++) rows.push({ band: spec.bands[k].label, minutes_from: spec.bands[k].fromMinutes, minutes_to: spec.bands[k].toMinutes, cells: all.cells[k], area_km2: roundR(all.area[k], 1), ...(sum.totals[k] ?? {}), ...coverageFields(spec.coverage, -1) });
  }
  const cov = spec.coverage ? COVERAGE_COLUMNS : [];
  zeroEmptySums(rows, sum.meta);
  const meta = [spec.friction, ...sum.meta.filter((m) => m.varCode !== spec.friction.varCode)];
  const body = [...CATCHMENT_KEY_COLUMNS, ...sum.columns];
  const columns = [...(spec.marketshed ? SOURCE_COLUMNS : []), ...(spec.cumulative ? body : addWithin(rows, body, sum.meta, K)), ...cov];
  if (spec.coverage && !meta.some((m) => m.varCode === spec.coverage!.population.varCode)) meta.push(spec.coverage.population);
  return { rows, columns, meta };
}
