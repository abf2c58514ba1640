/**
 * The registry of zonal operations (names as exactextract uses them) beside the catalog formula
 * and the older extra `stats` (`accumulate.ts`): class shares, weighted statistics, dispersion,
 * quantiles, validity, covered area and histograms, per zone (a group, a country or pool, a
 * WKT feature, a classify domain). One owner for every method: `getLayer` / `indapi` (by
 * domains), `getLayerWKT` and `classify` all reach {@link ZonalAgg} through `compute.ts`.
 *
 * Every statistic is of the variable's own cell values, each cell weighted by its coverage
 * fraction f (1 for a whole cell; the covered share of its area with `exact = TRUE` or for a
 * sliver), as exactextract weights them. With W a weight layer (`weights = "<CODE>"`):
 * - `frac` (class variables): per class k, sum(f [class = k]) / sum(f [any class]): columns
 *   `<VAR>_frac_<class label>` for every class of the class table, summing to 1 per zone;
 * - `weighted_frac`: sum(f W [class = k]) / sum(f W) over cells with a class and a weight;
 * - `weighted_mean` = sum(f W x) / sum(f W), `weighted_sum` = sum(f W x), over cells where both x
 *   and W have a value (R `weighted.mean(x, f * W)` on those cells);
 * - `variance` = sum(f (x - m)^2) / sum(f), m = sum(f x) / sum(f): the **population** variance,
 *   coverage-weighted, as exactextract (R: `Hmisc::wtd.var(x, f, method = "ML")`; whole cells:
 *   `mean((x - mean(x))^2)`, i.e. `var(x) * (n - 1) / n`); `stdev` = sqrt(variance); `cv` =
 *   stdev / m. (The older `sd` stays the sample standard deviation, R `sd()`.)
 * - `quantile` with `q`: columns `<VAR>_q<100 q>` (`_q10`, `_q2.5`); by default R
 *   `quantile(x, q, type = 7)` over the cells with f > 0, unweighted; with `quantile_type =
 *   "weighted"` the coverage-weighted quantile of `Hmisc::wtd.quantile(x, f, q)` (normwt =
 *   FALSE): the values sorted, C_j the cumulative weight of the j smallest distinct values, W the
 *   total weight, h = 1 + (W - 1) q, lo = max(floor(h), 1), hi = min(lo + 1, W), v(t) = the
 *   smallest value whose C_j >= t (the largest when none), result = (1 - (h mod 1)) v(lo) +
 *   (h mod 1) v(hi): type 7 with each cell counting f times;
 * - `variety`: distinct values (classes) among cells with f > 0;
 * - `nodata`: sum(f) over the zone's cells without a value; `valid_percent` = 100 sum(f [value]) /
 *   sum(f) (cells with a value / cells in the zone);
 * - `area_km2`: sum(f a) over the zone's cells, a the cell's area on the WGS84 ellipsoid
 *   (`../area.ts`, Snyder 1987): the covered area, with or without a value;
 * - `histogram` with `bins` (a count of equal bins over `range`, default the zone's min and max;
 *   or increasing edges) counts sum(f) per bin, bins right-closed, the first also closed on the
 *   left (R `hist(x, breaks, include.lowest = TRUE, right = TRUE)`); values outside the edges are
 *   not counted. The rows are then one per bin (`bin`, `<VAR>_bin_lower`, `<VAR>_bin_upper`,
 *   `<VAR>_histogram`), see {@link explodeHistogram}.
 * A statistic over no cell (or no value) is missing (absent from the row), except `nodata`,
 * `area_km2` (0) and `frac` of a zone with no class (absent).
 */
import type { LayerData } from '../cog/store';
import { IndapiError } from '../errors';
import { groupLists } from './csr';
import type { ColumnInfo } from '../api';
import type { Row, VarRecord } from '../types';
import { roundR } from '../r/labels';
import { deparse, SHORT } from '../r/deparse';
import { ZONAL_OPS, ZONAL_NAMES, DEFAULT_Q, DEFAULT_BINS, MAX_Q, MAX_BINS } from './zonal-ops';

/** What the zonal operations read of a frame (`accumulate.ts` Frame): group per cell, coverage, blocks, slots, per-group cell lists. */
export interface ZoneFrame {
  sel: Int32Array;
  weight: Float32Array | null;
  C: number;
  S: number;
  lists?: { off: Int32Array; idx: Int32Array };
}

export { ZONAL_OPS, ZONAL_NAMES, DEFAULT_Q, DEFAULT_BINS, MAX_Q, MAX_BINS, type ZonalOp } from './zonal-ops';

/** The zonal arguments of a query, parsed once. */
export interface ZonalPlan {
  /** Requested zonal operations (registry names), in request order. */
  ops: string[];
  /** Weight layer record (for weighted operations). */
  weights: VarRecord | null;
  /** Quantile probabilities (0..1). */
  q: number[];
  /** `quantile_type`: R type 7 or coverage-weighted. */
  quantileType: 7 | 'weighted';
  /** Histogram: a bin count (with an optional range) or explicit edges. */
  bins: { count: number; range: [number, number] | null } | { edges: number[] };
}

/** The raw zonal arguments (engine names). */
export interface ZonalArgsRaw {
  stats?: unknown;
  weights?: unknown;
  q?: unknown;
  quantileType?: unknown;
  bins?: unknown;
  range?: unknown;
}

function bad(name: string, msg: string): IndapiError {
  return new IndapiError('BAD_ARGUMENT', `'${name}' ${msg}`, { argument: name });
}

function numbersOf(v: unknown, name: string): number[] {
  const a = Array.isArray(v) ? v : [v];
  return a.map((x) => {
    const n = typeof x === 'string' && x.trim() !== '' ? Number(x) : x;
    if (typeof n !== 'number' || !Number.isFinite(n)) throw bad(name, `must be finite numbers, got ${x === null ? 'NA' : deparse(x, SHORT)}.`);
    return n;
  });
}

/**
 * The zonal plan of a query's arguments: which operations `stats` names, and `weights`, `q`,
 * `quantile_type`, `bins`, `range` checked.
 * @param lookup the catalog record of a code (undefined when unknown)
 * @throws IndapiError BAD_ARGUMENT naming the argument: a weighted operation without `weights`,
 *   a `weights` code that is unknown or a class variable, `q` outside 0..1 or over 100 values,
 *   `quantile_type` other than 7 or "weighted", `bins` not a whole count 1..1000 nor increasing
 *   edges, `range` not two increasing numbers
 */
export function zonalPlanOf(stats: string[], a: ZonalArgsRaw, lookup: (code: string) => VarRecord | undefined): ZonalPlan {
  const ops = stats.filter((s) => ZONAL_NAMES.includes(s));
  let weights: VarRecord | null = null;
  const needW = ops.filter((o) => ZONAL_OPS.find((z) => z.name === o)!.weighted);
  if (a.weights !== undefined && a.weights !== null) {
    const code = Array.isArray(a.weights) && a.weights.length === 1 ? a.weights[0] : a.weights;
    if (typeof code !== 'string' || code === '') throw bad('weights', 'must be one indicator code, e.g. "POP_MODEL".');
    const rec = lookup(code);
    if (!rec) throw bad('weights', `names ${code}, which is not in the catalog.`);
    if (rec.type === 'class') throw bad('weights', `names ${code}, a class variable; weights must be a continuous layer (e.g. POP_MODEL).`);
    weights = rec;
  } else if (needW.length) throw bad('weights', `is needed by ${needW.join(', ')}: a continuous layer code, e.g. weights = "POP_MODEL".`);
  let q = DEFAULT_Q;
  if (a.q !== undefined && a.q !== null) {
    q = numbersOf(a.q, 'q');
    if (!q.length || q.length > MAX_Q) throw bad('q', `must have 1 to ${MAX_Q} probabilities.`);
    if (q.some((x) => x < 0 || x > 1)) throw bad('q', 'must be probabilities from 0 to 1, e.g. c(0.1, 0.5, 0.9).');
    q = [...new Set(q)];
  }
  let quantileType: 7 | 'weighted' = 7;
  if (a.quantileType !== undefined && a.quantileType !== null) {
    const t = String(Array.isArray(a.quantileType) ? a.quantileType[0] : a.quantileType).trim();
    if (t === 'weighted') quantileType = 'weighted';
    else if (t !== '7') throw bad('quantile_type', `must be 7 (R quantile(type = 7), the default) or "weighted", got '${t}'.`);
  }
  return { ops, weights, q, quantileType, bins: binsOf(a.bins, a.range) };
}

/**
 * Checks the zonal arguments that do not need the catalog (`q`, `quantile_type`, `bins`, `range`,
 * `weights` present when a weighted operation asks for it), as a method's typed boundary does
 * before any work; `zonalPlanOf` checks the `weights` code against the catalog later.
 * @throws IndapiError BAD_ARGUMENT naming the argument
 */
export function checkZonalArgs(stats: unknown, a: ZonalArgsRaw): void {
  const list = Array.isArray(stats) ? stats.filter((x): x is string => typeof x === 'string') : typeof stats === 'string' ? [stats] : [];
  zonalPlanOf(list, a, () => ({ type: 'continuous' }) as VarRecord);
}

function binsOf(b: unknown, r: unknown): ZonalPlan['bins'] {
  let range: [number, number] | null = null;
  if (r !== undefined && r !== null) {
    const x = numbersOf(r, 'range');
    if (x.length !== 2 || !(x[1] > x[0])) throw bad('range', 'must be two increasing numbers c(min, max).');
    range = [x[0], x[1]];
  }
  if (b === undefined || b === null) return { count: DEFAULT_BINS, range };
  const x = numbersOf(b, 'bins');
  if (x.length === 1) {
    if (!Number.isInteger(x[0]) || x[0] < 1 || x[0] > MAX_BINS) throw bad('bins', `must be a whole number of bins from 1 to ${MAX_BINS}, or increasing edges.`);
    return { count: x[0], range };
  }
  if (x.length > MAX_BINS + 1) throw bad('bins', `has ${x.length} edges; the limit is ${MAX_BINS + 1}.`);
  for (let i = 1; i < x.length; i++) if (!(x[i] > x[i - 1])) throw bad('bins', 'edges must be increasing numbers.');
  if (range) throw bad('range', 'goes with a count of bins, not with edges.');
  return { edges: x };
}

/** Column suffix of a quantile probability: 0.1 -> `q10`, 0.025 -> `q2.5`. */
export function quantileSuffix(p: number): string {
  return `q${Number((p * 100).toPrecision(12))}`;
}

/** What {@link zonalColumns} and {@link ZonalAgg} need of a variable. */
export interface ZonalVar {
  code: string;
  rec: VarRecord;
  classes?: Array<{ value: number; label: string }>;
}

/** Whether an operation applies to a variable. */
function applies(op: string, v: ZonalVar): boolean {
  const of = ZONAL_OPS.find((z) => z.name === op)?.of;
  return of === 'any' || (of === 'class') === (v.rec.type === 'class');
}

/** Decimals of a column of an operation. */
function decOf(op: string, rec: VarRecord): number {
  const d = rec.dec ?? 2;
  switch (op) {
    case 'frac': case 'weighted_frac': case 'cv': return 6;
    case 'variance': return Math.min(12, 2 * d + 2);
    case 'stdev': return d + 2;
    case 'nodata': case 'valid_percent': case 'area_km2': case 'histogram': return 4;
    case 'variety': return 0;
    default: return d;
  }
}

/**
 * The columns the plan's operations add for a variable, in order (histogram's bin columns
 * included; `bin` itself is a key column added by {@link explodeHistogram}'s caller).
 */
export function zonalColumns(v: ZonalVar, plan: ZonalPlan): ColumnInfo[] {
  const out: ColumnInfo[] = [];
  const col = (name: string, label: string, unit: string, dec: number): void => {
    out.push({ name, role: 'value', code: v.code, label: `${v.rec.varLabel} (${label})`, unit, type: 'number', dec });
  };
  for (const op of plan.ops) {
    if (!applies(op, v)) continue;
    const dec = decOf(op, v.rec);
    if (op === 'frac' || op === 'weighted_frac') for (const c of v.classes ?? []) col(`${v.code}_${op}_${c.label}`, `${op} ${c.label}`, 'share', dec);
    else if (op === 'quantile') for (const p of plan.q) col(`${v.code}_${quantileSuffix(p)}`, `quantile ${p}`, v.rec.unit, dec);
    else if (op === 'histogram') {
      col(`${v.code}_bin_lower`, 'bin lower edge', v.rec.unit, v.rec.dec);
      col(`${v.code}_bin_upper`, 'bin upper edge', v.rec.unit, v.rec.dec);
      col(`${v.code}_histogram`, 'cells in the bin, coverage-weighted', 'cells', dec);
    } else {
      const unit = op === 'area_km2' ? 'km2' : op === 'valid_percent' ? '%' : op === 'nodata' ? 'cells' : op === 'variety' || op === 'cv' ? '' : op === 'variance' ? `(${v.rec.unit})^2` : op === 'weighted_sum' ? `${v.rec.unit} x weight` : v.rec.unit;
      col(`${v.code}_${op}`, op, unit, dec);
    }
  }
  return out;
}

/**
 * Refuses operations that apply to none of the request's variables: `frac` or `weighted_frac`
 * over continuous layers only (a continuous layer has no classes to share the zone between: ask
 * for `by = list(<CODE> = c(breaks))` and the catalog formula per interval, or `histogram`),
 * `stdev`, `quantile`... over class layers only. With a mix, each variable gets the columns of
 * the operations that apply to it (the others add none for it).
 * @throws IndapiError BAD_ARGUMENT naming `stats` and the operations and variables concerned
 */
export function checkZonalApplies(ops: string[], vars: ZonalVar[]): void {
  for (const op of ops) {
    if (vars.some((v) => applies(op, v))) continue;
    const cls = ZONAL_OPS.find((z) => z.name === op)?.of === 'class';
    throw bad('stats', cls
      ? `asks for ${op}, which applies to class layers only, but ${vars.map((v) => v.code).join(', ')} ${vars.length === 1 ? 'is' : 'are'} continuous: there are no classes to share the zone between. Add a class layer to 'var', or for the share of the zone per interval of a continuous layer use by = list(${vars[0]?.code ?? 'CODE'} = c(<breaks>)) with AREA_TOTAL, or the histogram statistic.`
      : `asks for ${op}, which applies to continuous layers only, but ${vars.map((v) => v.code).join(', ')} ${vars.length === 1 ? 'is a class layer' : 'are class layers'}; for class layers use frac, weighted_frac, variety, valid_percent, nodata or area_km2.`);
  }
}

/** Cells of each zone (group or summary) of a frame, as compressed rows over the frame's cells. */
interface ZoneLists { off: Int32Array; idx: Int32Array; G: number; S: number }

function zoneLists(frame: ZoneFrame): ZoneLists {
  if (frame.lists) return { ...frame.lists, G: frame.C * frame.S, S: frame.S };
  const G = frame.C * frame.S;
  return { ...groupLists(frame.sel, G), G, S: frame.S };
}

/** Coverage-weighted quantile as `Hmisc::wtd.quantile(x, w, p)` (normwt = FALSE), of values sorted ascending with their weights. */
export function weightedQuantile(xs: Float64Array, ws: Float64Array, p: number): number {
  const n = xs.length;
  if (!n) return NaN;
  // distinct values with their summed weights (Hmisc wtd.table), cumulated
  const vals: number[] = [], cum: number[] = [];
  let total = 0;
  for (let i = 0; i < n; i++) {
    total += ws[i];
    if (vals.length && vals[vals.length - 1] === xs[i]) cum[cum.length - 1] = total;
    else { vals.push(xs[i]); cum.push(total); }
  }
  const h = 1 + (total - 1) * p;
  const lo = Math.max(Math.floor(h), 1), hi = Math.min(lo + 1, total);
  const at = (t: number): number => {
    for (let j = 0; j < cum.length; j++) if (cum[j] >= t) return vals[j];
    return vals[vals.length - 1];
  };
  const fr = h - Math.floor(h);
  return (1 - fr) * at(lo) + fr * at(hi);
}

/** R quantile(type = 7) of sorted values. */
function type7(x: Float64Array, p: number): number {
  const n = x.length;
  if (!n) return NaN;
  const h = (n - 1) * p, lo = Math.floor(h), hi = Math.min(n - 1, lo + 1);
  return x[lo] + (h - lo) * (x[hi] - x[lo]);
}

/** Bin edges of a zone's histogram (count bins over the range or the zone's min..max), or null when none. */
function edgesOf(plan: ZonalPlan, xs: Float64Array): number[] | null {
  if ('edges' in plan.bins) return plan.bins.edges;
  const { count, range } = plan.bins;
  let lo: number, hi: number;
  if (range) [lo, hi] = range;
  else {
    if (!xs.length) return null;
    lo = xs[0]; hi = xs[xs.length - 1];
    if (hi === lo) { lo -= 0.5; hi += 0.5; }
  }
  return Array.from({ length: count + 1 }, (_, k) => (k === count ? hi : lo + ((hi - lo) * k) / count));
}

/** Coverage-weighted counts per bin (right-closed, the first closed on the left), values sorted. */
function binCounts(xs: Float64Array, fs: Float64Array, e: number[]): number[] {
  const out = new Array<number>(e.length - 1).fill(0);
  let b = 0;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i];
    if (x < e[0] || x > e[e.length - 1]) continue;
    while (b < out.length - 1 && x > e[b + 1]) b++;
    out[b] += fs[i];
  }
  return out;
}

/** Per-zone histogram of a variable: edges and counts. */
export interface ZoneHistogram { edges: number[]; counts: number[] }

/** Rows carry their zones' histograms under this key until {@link explodeHistogram} makes one row per bin (not written to JSON or files). */
export const HISTOGRAMS: unique symbol = Symbol('histograms');

/** A row with its zones' histograms, per variable code. */
type HistRow = Row & { [HISTOGRAMS]?: Map<string, ZoneHistogram> };

/** Scratch arrays of one zone's cells: values, coverage, weights. */
class Scratch {
  x = new Float64Array(64); f = new Float64Array(64); w = new Float64Array(64); n = 0;
  reset(size: number): void {
    if (this.x.length < size) { this.x = new Float64Array(size); this.f = new Float64Array(size); this.w = new Float64Array(size); }
    this.n = 0;
  }
}

/**
 * The zonal operations of one variable over every zone of a frame (groups, then summaries),
 * computed zone by zone when its row is written.
 */
export class ZonalAgg {
  private readonly L: ZoneLists;
  private readonly lut: Int32Array | null = null;
  private readonly s = new Scratch();

  /**
   * @param v the variable
   * @param plan the zonal plan
   * @param frame cells (frame indexes) and zones
   * @param values the variable per frame cell (Float64, NaN none; class records: Int32 class values, -1 none)
   * @param weights the `weights` layer per frame cell (NaN none), when the plan has one
   * @param areaKm2 area in km2 of the cell at frame index i (WGS84 ellipsoid)
   */
  constructor(readonly v: ZonalVar, readonly plan: ZonalPlan, private readonly frame: ZoneFrame, private readonly values: LayerData,
    private readonly weights: Float32Array | Float64Array | null, private readonly areaKm2: (i: number) => number) {
    this.L = zoneLists(frame);
    if (v.rec.type === 'class') {
      const cls = v.classes ?? [];
      const maxV = cls.reduce((m, e) => Math.max(m, e.value), 0);
      this.lut = new Int32Array(maxV + 1).fill(-1);
      cls.forEach((e, k) => { if (e.value >= 0) this.lut![e.value] = k; });
    }
  }

  /** Cells [a, e) of zone t in the lists. */
  private range(t: number): [number, number] {
    const { off, G, S } = this.L;
    return t < G ? [off[t], off[t + 1]] : [off[(t - G) * S], off[(t - G + 1) * S]];
  }

  /** Writes the zonal fields of zone t into `row` (missing values left out). */
  fields(t: number, row: Row): void {
    if (!this.plan.ops.some((op) => applies(op, this.v))) return;
    const [a, e] = this.range(t);
    const { idx } = this.L;
    const wt = this.frame.weight, W = this.weights, isClass = this.lut !== null;
    const s = this.s;
    s.reset(e - a);
    let fAll = 0, area = 0;
    const needArea = this.plan.ops.includes('area_km2');
    for (let j = a; j < e; j++) {
      const i = idx[j];
      const f = wt ? wt[i] : 1;
      if (!(f > 0)) continue;
      fAll += f;
      if (needArea) area += f * this.areaKm2(i);
      let x: number;
      if (isClass) { const cv = (this.values as Int32Array)[i]; x = cv >= 0 && cv < this.lut!.length && this.lut![cv] >= 0 ? this.lut![cv] : NaN; } else x = (this.values as Float64Array)[i];
      if (x !== x) continue;
      s.x[s.n] = x; s.f[s.n] = f; s.w[s.n] = W ? W[i] : NaN; s.n++;
    }
    const put = (name: string, y: number, op: string) => { if (Number.isFinite(y)) row[name] = roundR(y, decOf(op, this.v.rec)); };
    let fValid = 0;
    for (let k = 0; k < s.n; k++) fValid += s.f[k];
    const code = this.v.code;
    for (const op of this.plan.ops) {
      if (!applies(op, this.v)) continue;
      switch (op) {
        case 'nodata': put(`${code}_nodata`, fAll - fValid, op); break;
        case 'valid_percent': if (fAll > 0) put(`${code}_valid_percent`, (100 * fValid) / fAll, op); break;
        case 'area_km2': put(`${code}_area_km2`, area, op); break;
        case 'frac': case 'weighted_frac': this.fracs(op, row, put); break;
        case 'variety': put(`${code}_variety`, this.variety(), op); break;
        default: this.numeric(op, row, put);
      }
    }
  }

  /** Distinct values among the zone's valid cells. */
  private variety(): number {
    const s = this.s;
    const seen = new Set<number>();
    for (let k = 0; k < s.n; k++) seen.add(s.x[k]);
    return seen.size;
  }

  private fracs(op: string, row: Row, put: (name: string, y: number, op: string) => void): void {
    const s = this.s, cls = this.v.classes ?? [];
    const share = new Float64Array(cls.length);
    let tot = 0;
    for (let k = 0; k < s.n; k++) {
      let f = s.f[k];
      if (op === 'weighted_frac') { f *= s.w[k]; if (f !== f) continue; }
      share[s.x[k]] += f; tot += f;
    }
    if (!(tot !== 0)) return;
    cls.forEach((c, k) => put(`${this.v.code}_${op}_${c.label}`, share[k] / tot, op));
  }

  /** The zone's valid values sorted ascending, with their coverage (permuted alike). */
  private sorted(): { xs: Float64Array; fs: Float64Array } {
    const s = this.s, n = s.n;
    const order = new Int32Array(n);
    for (let k = 0; k < n; k++) order[k] = k;
    order.sort((p, r) => s.x[p] - s.x[r] || p - r);
    const xs = new Float64Array(n), fs = new Float64Array(n);
    for (let k = 0; k < n; k++) { xs[k] = s.x[order[k]]; fs[k] = s.f[order[k]]; }
    return { xs, fs };
  }

  private numeric(op: string, row: Row, put: (name: string, y: number, op: string) => void): void {
    const s = this.s, code = this.v.code;
    let sf = 0, sfx = 0;
    for (let k = 0; k < s.n; k++) { sf += s.f[k]; sfx += s.f[k] * s.x[k]; }
    const m = sfx / sf;
    const variance = () => { let q = 0; for (let k = 0; k < s.n; k++) { const d = s.x[k] - m; q += s.f[k] * d * d; } return q / sf; };
    switch (op) {
      case 'variance': put(`${code}_variance`, variance(), op); break;
      case 'stdev': put(`${code}_stdev`, Math.sqrt(variance()), op); break;
      case 'cv': put(`${code}_cv`, Math.sqrt(variance()) / m, op); break;
      case 'weighted_mean': case 'weighted_sum': {
        let num = 0, den = 0, any = false;
        for (let k = 0; k < s.n; k++) { const w = s.w[k]; if (w !== w) continue; num += s.f[k] * w * s.x[k]; den += s.f[k] * w; any = true; }
        if (op === 'weighted_sum') { if (any) put(`${code}_weighted_sum`, num, op); } else put(`${code}_weighted_mean`, num / den, op);
        break;
      }
      case 'quantile': {
        const { xs, fs } = this.sorted();
        for (const p of this.plan.q) put(`${code}_${quantileSuffix(p)}`, this.plan.quantileType === 'weighted' ? weightedQuantile(xs, fs, p) : type7(xs, p), op);
        break;
      }
      case 'histogram': {
        const { xs, fs } = this.sorted();
        const edges = edgesOf(this.plan, xs);
        if (!edges) break;
        const r = row as HistRow;
        (r[HISTOGRAMS] ??= new Map()).set(code, { edges, counts: binCounts(xs, fs, edges) });
        break;
      }
    }
  }
}

/** The key column `bin` of histogram rows. */
export const BIN_COLUMN: ColumnInfo = { name: 'bin', role: 'key', label: 'Histogram bin (1-based)', unit: '', type: 'integer' };

/**
 * Rows with histograms made one row per bin: each zone's row repeated for bins 1..k with `bin`,
 * `<VAR>_bin_lower`, `<VAR>_bin_upper` and `<VAR>_histogram` (coverage-weighted cells); a zone
 * without values keeps its one row. Other rows are kept as they are.
 */
export function explodeHistogram(rows: Row[], decOfVar: (code: string) => number): Row[] {
  if (!rows.some((r) => (r as HistRow)[HISTOGRAMS])) return rows;
  const out: Row[] = [];
  for (const r of rows) {
    const h = (r as HistRow)[HISTOGRAMS];
    if (!h) { out.push(r); continue; }
    const k = Math.max(...[...h.values()].map((x) => x.counts.length));
    const base: Row = { ...r };
    delete (base as HistRow)[HISTOGRAMS];
    for (let b = 0; b < k; b++) {
      const row: Row = { ...base, bin: b + 1 };
      for (const [code, z] of h) {
        if (b >= z.counts.length) continue;
        const d = decOfVar(code);
        row[`${code}_bin_lower`] = roundR(z.edges[b], d);
        row[`${code}_bin_upper`] = roundR(z.edges[b + 1], d);
        row[`${code}_histogram`] = roundR(z.counts[b], 4);
      }
      out.push(row);
    }
  }
  return out;
}
