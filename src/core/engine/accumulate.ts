/**
 * One-pass accumulation of summaries per group over typed arrays.
 *
 * Cells carry a group index `sel[i]` (-1 = not selected) in [0, G) and optionally a weight
 * `f` (coverage fraction, 0..1). Groups are laid out as C blocks of S slots (C countries or
 * one pool; S = product of the `by` dimension sizes + 1 slot for cells whose `by` value is
 * missing). After the pass, the slots of each block are folded into C summary entries at
 * indices G..G+C-1, so every statistic is available per group and per summary.
 *
 * The catalog formula (`aggFunR`, parsed by `expr.ts`) is evaluated as R evaluates it per
 * group: each distinct aggregate of the formula (e.g. `sum(A*W, na.rm=TRUE)` and
 * `sum(W, na.rm=TRUE)`) is one accumulator over groups and summaries, filled in one pass
 * over the per-cell values of its argument; the arithmetic combines them per group at the
 * end with IEEE (= R double) arithmetic. R's rules, with `na.rm = TRUE`:
 * - `sum(E)` adds E over the cells where E is not NA (a product A*W is NA where either
 *   is); no such cell gives 0, as R does (so a group whose cells are all NA sums to 0);
 * - `mean(E)`, `median(E)`: NaN / NA (missing) over no value; median of an even count is
 *   the mean of the two middle values; `min` / `max` of nothing are Inf / -Inf (R);
 * - `weighted.mean(X, W)` drops the cells where X is NA; a missing W where X is not makes
 *   the result NA (R's `sum((x*w)[w != 0]) / sum(w)`); cells with W = 0 add only to the
 *   divisor;
 * - without `na.rm = TRUE` (R's default FALSE) any NA cell makes the aggregate NA;
 * - x/0 is Inf for x != 0 and 0/0 NaN; a non-finite result (NaN, NA, ±Inf) is missing
 *   (JSON has no Inf): the field is left out of the row, NaN in cell layers.
 * A group with no selected cell produces no row at all.
 *
 * With coverage weights f (exact WKT): each cell's term of a sum is f * E, means are
 * sum(f * E) / sum(f), weighted means use the weight f * W; medians, min, max,
 * percentiles, majority, minority and histograms use every cell with f > 0 unweighted.
 * `dominant` (class records, written `dominant(A)` or `names(sort(table(A),
 * decreasing=T)[1])`) is the class with the largest (weighted) count, ties to the smallest
 * class value, always of the record's own cells.
 *
 * Extra `stats` are of the record's own values: count (0 when none), sum (0 when none, as
 * R), mean, sd (sample, n - 1, f as frequency weights), min, max, pNN (R `quantile(type =
 * 7)`), majority, minority, hist; missing when there is no value (but count and sum).
 */
import type { LayerData } from '../cog/store';
import type { VarSpec } from './plan';
import { groupLists } from './csr';
import { HIST_BINS } from './plan';
import { evalExpr, leafKey, leavesOf, type AggLeaf, type CellExpr } from '../r/expr';
import { addTo, foldSum, settle } from './ksum';

/** The cells and groups of one accumulation. */
export interface Frame {
  /** Group index per window cell, -1 when the cell is not selected. */
  sel: Int32Array;
  /** Per window cell weight (null: 1 for every selected cell). */
  weight: Float32Array | null;
  /** Number of summary blocks (countries, or 1). */
  C: number;
  /** Slots per block. */
  S: number;
  /** Sum of weights of selected cells per group and summary (length G + C). */
  groupN: Float64Array;
  /**
   * The selected cells as per-group lists (CSR), when built ({@link withCellLists}): the
   * accumulations then visit only selected cells, group by group, with the running sums in
   * registers instead of one memory slot per cell.
   */
  lists?: CellLists;
}

/**
 * Compressed sparse rows of a frame: the cells of group g are `idx[off[g] .. off[g + 1])`,
 * ascending (the order a pass over the window visits them, so sums are bitwise the same).
 */
export interface CellLists {
  /** Start of each group's cells in `idx` (length G + 1). */
  off: Int32Array;
  /** Window cell indexes, grouped, ascending within each group. */
  idx: Int32Array;
}

/**
 * Adds the per-group cell lists to a frame (built once: a counting pass and a scatter pass;
 * worth it when the frame is reused by later queries). Frames with coverage weights keep the
 * per-cell passes.
 * @returns the same frame
 */
export function withCellLists(frame: Frame): Frame {
  if (frame.lists || frame.weight) return frame;
  frame.lists = groupLists(frame.sel, groupsOf(frame));
  return frame;
}

/** Number of groups of a frame. */
export const groupsOf = (f: Frame): number => f.C * f.S;

/**
 * Builds the group pass result: groupN per group and folded per summary.
 */
export function countGroups(sel: Int32Array, weight: Float32Array | null, C: number, S: number): Frame {
  const G = C * S;
  const groupN = new Float64Array(G + C);
  const n = sel.length;
  if (weight) {
    for (let i = 0; i < n; i++) { const g = sel[i]; if (g >= 0) groupN[g] += weight[i]; }
  } else {
    for (let i = 0; i < n; i++) { const g = sel[i]; if (g >= 0) groupN[g]++; }
  }
  for (let c = 0; c < C; c++) { let s = 0; for (let k = 0; k < S; k++) s += groupN[c * S + k]; groupN[G + c] = s; }
  return { sel, weight, C, S, groupN };
}

type Out = number | string | undefined;
/** Per-cell values of a column or cell expression over the window (NaN = missing). */
type Col = Float32Array | Float64Array;
/** Per-cell data of the columns a formula names: Float64 values (src/core/cog/decode.ts), or Int32 class values (-1 none). */
export type Columns = ReadonlyMap<string, LayerData>;

/** Folds the slots of each block into its summary entry (indices G..G+C-1). */
function fold(a: Float64Array | undefined, frame: Frame, op: 'add' | 'min' | 'max'): void {
  if (!a) return;
  const G = groupsOf(frame);
  for (let c = 0; c < frame.C; c++) {
    let acc = op === 'add' ? 0 : op === 'min' ? Infinity : -Infinity;
    for (let k = 0; k < frame.S; k++) {
      const v = a[c * frame.S + k];
      acc = op === 'add' ? acc + v : op === 'min' ? Math.min(acc, v) : Math.max(acc, v);
    }
    a[G + c] = acc;
  }
}

/** Per-cell values of a cell expression (columns as they are; arithmetic in float64, as R's doubles). */
export function cellValues(e: CellExpr, cols: Columns, N: number): Col {
  switch (e.t) {
    case 'col': {
      const a = cols.get(e.code);
      if (!a) throw new Error(`column ${e.code} was not loaded`);
      if (!(a instanceof Int32Array)) return a;
      const out = new Float64Array(N);
      for (let i = 0; i < N; i++) out[i] = a[i] < 0 ? NaN : a[i];
      return out;
    }
    case 'num': return new Float64Array(N).fill(e.v);
    case 'neg': {
      const a = cellValues(e.a, cols, N), out = new Float64Array(N);
      for (let i = 0; i < N; i++) out[i] = -a[i];
      return out;
    }
    case 'bin': {
      // a number on either side: one loop over the other operand, no array of the constant
      if (e.b.t === 'num' || e.a.t === 'num') {
        const k = e.b.t === 'num' ? e.b.v : (e.a as { v: number }).v;
        const x = cellValues(e.b.t === 'num' ? e.a : e.b, cols, N), out = new Float64Array(N);
        const left = e.a.t === 'num'; // k op x rather than x op k
        if (e.op === '+') for (let i = 0; i < N; i++) out[i] = x[i] + k;
        else if (e.op === '*') for (let i = 0; i < N; i++) out[i] = x[i] * k;
        else if (e.op === '-') { if (left) for (let i = 0; i < N; i++) out[i] = k - x[i]; else for (let i = 0; i < N; i++) out[i] = x[i] - k; }
        else if (left) for (let i = 0; i < N; i++) out[i] = k / x[i];
        else for (let i = 0; i < N; i++) out[i] = x[i] / k;
        return out;
      }
      const a = cellValues(e.a, cols, N), b = cellValues(e.b, cols, N), out = new Float64Array(N);
      if (e.op === '+') for (let i = 0; i < N; i++) out[i] = a[i] + b[i];
      else if (e.op === '-') for (let i = 0; i < N; i++) out[i] = a[i] - b[i];
      else if (e.op === '*') for (let i = 0; i < N; i++) out[i] = a[i] * b[i];
      else for (let i = 0; i < N; i++) out[i] = a[i] / b[i];
      return out;
    }
  }
}

/** Non-missing values per group, sorted, with per-summary pools built on demand. */
class Collected {
  private readonly sorted: Float64Array;
  private readonly off: Int32Array;
  private readonly pooled = new Map<number, Float64Array>();

  constructor(private readonly frame: Frame, vals: Col) {
    const { sel, weight } = frame;
    const G = groupsOf(frame), N = sel.length;
    const cnt = new Int32Array(G + 1);
    for (let i = 0; i < N; i++) {
      const g = sel[i]; if (g < 0) continue;
      const v = vals[i]; if (v !== v) continue;
      if (weight && !(weight[i] > 0)) continue;
      cnt[g + 1]++;
    }
    for (let g = 0; g < G; g++) cnt[g + 1] += cnt[g];
    const off = (this.off = Int32Array.from(cnt));
    const pos = Int32Array.from(cnt);
    const sorted = (this.sorted = new Float64Array(cnt[G]));
    for (let i = 0; i < N; i++) {
      const g = sel[i]; if (g < 0) continue;
      const v = vals[i]; if (v !== v) continue;
      if (weight && !(weight[i] > 0)) continue;
      sorted[pos[g]++] = v;
    }
    for (let g = 0; g < G; g++) if (off[g + 1] - off[g] > 1) sorted.subarray(off[g], off[g + 1]).sort();
  }

  /** Sorted values of a group or summary. */
  values(t: number): Float64Array {
    const G = groupsOf(this.frame);
    if (t < G) return this.sorted.subarray(this.off[t], this.off[t + 1]);
    let v = this.pooled.get(t);
    if (!v) {
      const c = t - G;
      v = this.sorted.slice(this.off[c * this.frame.S], this.off[(c + 1) * this.frame.S]).sort();
      this.pooled.set(t, v);
    }
    return v;
  }
}

/** Count per group of selected cells whose value is NA (for aggregates without na.rm). */
function naCounts(frame: Frame, vals: Col): Float64Array {
  const { sel } = frame;
  const nas = new Float64Array(groupsOf(frame) + frame.C);
  for (let i = 0; i < sel.length; i++) { const g = sel[i]; if (g >= 0 && vals[i] !== vals[i]) nas[g]++; }
  fold(nas, frame, 'add');
  return nas;
}

/** One aggregate of a formula over every group and summary. */
interface LeafAcc {
  /** R's value of the aggregate for a group or summary. */
  value(t: number): number;
}

function leafAcc(l: AggLeaf, frame: Frame, cols: Columns): LeafAcc {
  const { sel, weight } = frame;
  const N = sel.length;
  const T = groupsOf(frame) + frame.C;
  // sum / mean of a product of two columns (the catalog's weighted means): one fused pass
  if ((l.fn === 'sum' || l.fn === 'mean') && l.naRm && l.x.t === 'bin' && l.x.op === '*' && l.x.a.t === 'col' && l.x.b.t === 'col') {
    const a = cellValues(l.x.a, cols, N), b = cellValues(l.x.b, cols, N);
    const s = new Float64Array(T), n = new Float64Array(T);
    sums(frame, [s, n], (sc, nc) => (frame.lists ? listSumProd(frame.lists, a, b, s, n, sc, nc) : accSumProd(sel, a, b, weight, s, n, sc, nc)));
    return l.fn === 'sum' ? { value: (t) => s[t] } : { value: (t) => s[t] / n[t] };
  }
  // sum / mean of A + k*B (e.g. W + 0*X, W where X is not NA): one fused pass
  const lx = l.x;
  if ((l.fn === 'sum' || l.fn === 'mean') && l.naRm && lx.t === 'bin' && lx.op === '+' && lx.a.t === 'col' && lx.b.t === 'bin' &&
      lx.b.op === '*' && lx.b.a.t === 'num' && lx.b.b.t === 'col') {
    const a = cellValues(lx.a, cols, N), b = cellValues(lx.b.b, cols, N), k = lx.b.a.v;
    const s = new Float64Array(T), n = new Float64Array(T);
    sums(frame, [s, n], (sc, nc) => accSumPlusScaled(sel, a, k, b, weight, s, n, sc, nc));
    return l.fn === 'sum' ? { value: (t) => s[t] } : { value: (t) => s[t] / n[t] };
  }
  const x = cellValues(l.x, cols, N);
  const nas = l.naRm ? null : naCounts(frame, x);
  const na = (t: number) => nas !== null && nas[t] > 0;
  switch (l.fn) {
    case 'sum':
    case 'mean': {
      const s = new Float64Array(T), n = new Float64Array(T);
      sums(frame, [s, n], (sc, nc) => (frame.lists ? listSum(frame.lists, x, s, n, sc, nc) : accSum(sel, x, weight, s, n, sc, nc)));
      return l.fn === 'sum'
        ? { value: (t) => (na(t) ? NaN : s[t]) }
        : { value: (t) => (na(t) ? NaN : s[t] / n[t]) };
    }
    case 'min':
    case 'max': {
      const mn = new Float64Array(T).fill(Infinity), mx = new Float64Array(T).fill(-Infinity);
      accMinMax(sel, x, weight, mn, mx);
      fold(mn, frame, 'min'); fold(mx, frame, 'max');
      const a = l.fn === 'min' ? mn : mx;
      return { value: (t) => (na(t) ? NaN : a[t]) };
    }
    case 'median': {
      const coll = new Collected(frame, x);
      return { value: (t) => (na(t) ? NaN : median(coll.values(t))) };
    }
    case 'weighted.mean': {
      const w = cellValues(l.w!, cols, N);
      const num = new Float64Array(T), den = new Float64Array(T);
      sums(frame, [num, den], (nc, dc) => (frame.lists ? listWeighted(frame.lists, x, w, l.naRm, num, den, nc, dc) : accWeighted(sel, x, weight, w, l.naRm, num, den, nc, dc)));
      return { value: (t) => num[t] / den[t] };
    }
  }
}

/** Summaries of one variable for every group and summary of a frame. */
export class VarAgg {
  private readonly T: number;
  private readonly G: number;
  private s?: Float64Array; private n?: Float64Array; private q?: Float64Array;
  private mn?: Float64Array; private mx?: Float64Array;
  private counts?: Float64Array; private K = 0;
  private coll?: Collected;
  /** Accumulator of each aggregate of the formula (equal aggregates share one). */
  private readonly leaves = new Map<AggLeaf, LeafAcc>();
  /** Values of the column of a `dominant` formula over a continuous record. */
  private domColl?: Collected;

  /**
   * @param spec the variable
   * @param frame cells and groups
   * @param values the record's own values (Float64; class records: Int32 class values, -1 none)
   * @param cols values of every column the formula names (the record's own code included)
   * @param classLut class records: class value -> index in `spec.classes` (-1 none)
   */
  constructor(readonly spec: VarSpec, private readonly frame: Frame, values: LayerData, cols?: Columns, classLut?: Int32Array) {
    const G = (this.G = groupsOf(frame));
    this.T = G + frame.C;
    const { sel, weight } = frame;
    const st = new Set(spec.stats);
    const N = sel.length;
    if (spec.rec.type === 'class') {
      const lut = classLut!;
      const K = (this.K = spec.classes!.length);
      const counts = (this.counts = new Float64Array(this.T * K));
      const vals = values as Int32Array;
      const n = (this.n = new Float64Array(this.T));
      for (let i = 0; i < N; i++) {
        const g = sel[i];
        if (g < 0) continue;
        const v = vals[i];
        if (v < 0 || v >= lut.length) continue;
        const k = lut[v];
        if (k < 0) continue;
        const f = weight ? weight[i] : 1;
        counts[g * K + k] += f;
        n[g] += f;
      }
      for (let c = 0; c < frame.C; c++) {
        const dst = (G + c) * K;
        for (let s = 0; s < frame.S; s++) {
          const src = (c * frame.S + s) * K;
          for (let k = 0; k < K; k++) counts[dst + k] += counts[src + k];
          n[G + c] += n[c * frame.S + s];
        }
      }
      return;
    }
    // the formula
    const allCols: Columns = cols ?? new Map([[spec.code, values]]);
    const f = spec.formula;
    if (f.kind === 'dominant') {
      this.domColl = new Collected(frame, cellValues({ t: 'col', code: f.code }, allCols, N));
    } else {
      const byKey = new Map<string, LeafAcc>();
      for (const l of leavesOf(f.root)) {
        const k = leafKey(l);
        let acc = byKey.get(k);
        if (!acc) { acc = leafAcc(l, frame, allCols); byKey.set(k, acc); }
        this.leaves.set(l, acc);
      }
    }
    // extra stats of the record's own values
    const vals = values as Float64Array;
    const needS = st.has('sum') || st.has('mean') || st.has('sd') || st.has('count');
    const needQ = st.has('sd');
    const needMM = st.has('min') || st.has('max');
    const needColl = spec.stats.some((x) => /^p\d+$/.test(x) || x === 'majority' || x === 'minority' || x === 'hist');
    if (needS) { this.s = new Float64Array(this.T); this.n = new Float64Array(this.T); }
    if (needQ) this.q = new Float64Array(this.T);
    if (needMM) { this.mn = new Float64Array(this.T).fill(Infinity); this.mx = new Float64Array(this.T).fill(-Infinity); }
    if (needS) sums(frame, [this.s!, this.n!], (sc, nc) => (frame.lists ? listSum(frame.lists, vals, this.s!, this.n!, sc, nc, this.q) : accSum(sel, vals, weight, this.s!, this.n!, sc, nc, this.q)));
    if (needMM) accMinMax(sel, vals, weight, this.mn!, this.mx!);
    if (needColl) this.coll = new Collected(frame, vals);
    fold(this.q, frame, 'add');
    fold(this.mn, frame, 'min'); fold(this.mx, frame, 'max');
  }

  /** Index of the dominant class of a group (largest count, ties to the smallest value), or -1. */
  dominantIndex(t: number, least = false): number {
    const K = this.K, c = this.counts!;
    let best = -1, bv = least ? Infinity : 0;
    for (let k = 0; k < K; k++) {
      const v = c[t * K + k];
      if (least ? v > 0 && v < bv : v > bv) { bv = v; best = k; }
    }
    return best;
  }

  /**
   * Raw numeric value of the catalog formula (class variables: the dominant class value);
   * NaN when missing, including R's NA, NaN and ±Inf.
   */
  numeric(t: number): number {
    if (this.spec.rec.type === 'class') {
      const k = this.dominantIndex(t);
      return k < 0 ? NaN : this.spec.classes![k].value;
    }
    const f = this.spec.formula;
    if (f.kind === 'dominant') return mode(this.domColl!.values(t), false) ?? NaN;
    const v = evalExpr(f.root, (l) => this.leaves.get(l)!.value(t));
    return Number.isFinite(v) ? v : NaN;
  }

  /** Value of the catalog formula for a group or summary: number, class label, or undefined when missing. */
  value(t: number): Out {
    if (this.spec.rec.type === 'class') {
      const k = this.dominantIndex(t);
      return k < 0 ? undefined : this.spec.classes![k].label;
    }
    const v = this.numeric(t);
    return Number.isFinite(v) ? v : undefined;
  }

  /** An extra statistic for a group or summary; undefined when missing or not defined for the type. */
  stat(name: string, t: number): Out {
    if (this.spec.rec.type === 'class') {
      if (name === 'count') return this.n![t];
      if (name === 'majority' || name === 'minority') {
        const k = this.dominantIndex(t, name === 'minority');
        return k < 0 ? undefined : this.spec.classes![k].label;
      }
      return undefined;
    }
    const n = this.n?.[t] ?? 0;
    switch (name) {
      case 'count': return n;
      case 'sum': return this.s![t]; // 0 over no value, as R's sum(x, na.rm = TRUE)
      case 'mean': return n > 0 ? this.s![t] / n : undefined;
      case 'min': return this.mn![t] === Infinity ? undefined : this.mn![t];
      case 'max': return this.mx![t] === -Infinity ? undefined : this.mx![t];
      case 'sd': {
        if (!(n > 1)) return undefined;
        const v = (this.q![t] - (this.s![t] * this.s![t]) / n) / (n - 1);
        return Math.sqrt(Math.max(0, v));
      }
      case 'majority': case 'minority': return mode(this.coll!.values(t), name === 'minority');
      case 'hist': return hist(this.coll!.values(t));
      default: {
        const p = Number(name.slice(1)) / 100;
        const v = quantile(this.coll!.values(t), p);
        return Number.isFinite(v) ? v : undefined;
      }
    }
  }
}

// Small monomorphic loops (V8 optimises these better than one large constructor).

/**
 * Compensated sums over a frame ({@link addTo}): `fill` accumulates into the arrays given with
 * one compensation array each (in order); then the slots are folded into the summaries and
 * the compensations added in.
 */
function sums(frame: Frame, arrays: Float64Array[], fill: (...comp: Float64Array[]) => void): void {
  const comp = arrays.map((a) => new Float64Array(a.length));
  fill(...comp);
  arrays.forEach((a, k) => { foldSum(a, comp[k], frame.C, frame.S); settle(a, comp[k]); });
}

/** Sum of values (sc: compensation of s), count or weight (nc: of n) and, with q, of squares, per group. */
function accSum(sel: Int32Array, vals: Col, weight: Float32Array | null, s: Float64Array, n: Float64Array, sc: Float64Array, nc: Float64Array, q?: Float64Array): void {
  const N = sel.length;
  if (weight) {
    for (let i = 0; i < N; i++) {
      const g = sel[i]; if (g < 0) continue;
      const v = vals[i]; if (v !== v) continue;
      const f = weight[i]; addTo(s, sc, g, f * v); addTo(n, nc, g, f); if (q) q[g] += f * v * v;
    }
  } else if (q) {
    for (let i = 0; i < N; i++) {
      const g = sel[i]; if (g < 0) continue;
      const v = vals[i]; if (v !== v) continue;
      addTo(s, sc, g, v); n[g]++; q[g] += v * v;
    }
  } else {
    for (let i = 0; i < N; i++) {
      const g = sel[i]; if (g < 0) continue;
      const v = vals[i]; if (v !== v) continue;
      addTo(s, sc, g, v); n[g]++;
    }
  }
}

/** accSum of the per-cell product a * b (NA where either is), without materialising it. */
function accSumProd(sel: Int32Array, a: Col, b: Col, weight: Float32Array | null, s: Float64Array, n: Float64Array, sc: Float64Array, nc: Float64Array): void {
  const N = sel.length;
  for (let i = 0; i < N; i++) {
    const g = sel[i]; if (g < 0) continue;
    const v = a[i] * b[i]; if (v !== v) continue;
    const f = weight !== null ? weight[i] : 1;
    addTo(s, sc, g, f * v); addTo(n, nc, g, f);
  }
}

/** accSum of the per-cell a + k * b (NA where either is), without materialising it. */
function accSumPlusScaled(sel: Int32Array, a: Col, k: number, b: Col, weight: Float32Array | null, s: Float64Array, n: Float64Array, sc: Float64Array, nc: Float64Array): void {
  const N = sel.length;
  for (let i = 0; i < N; i++) {
    const g = sel[i]; if (g < 0) continue;
    const v = a[i] + k * b[i]; if (v !== v) continue;
    const f = weight !== null ? weight[i] : 1;
    addTo(s, sc, g, f * v); addTo(n, nc, g, f);
  }
}

function accMinMax(sel: Int32Array, vals: Col, weight: Float32Array | null, mn: Float64Array, mx: Float64Array): void {
  const N = sel.length;
  for (let i = 0; i < N; i++) {
    const g = sel[i]; if (g < 0) continue;
    const v = vals[i]; if (v !== v) continue;
    if (weight !== null && !(weight[i] > 0)) continue;
    if (v < mn[g]) mn[g] = v;
    if (v > mx[g]) mx[g] = v;
  }
}

/**
 * R's weighted.mean per group: cells with x NA dropped when na.rm; num += x * w where w != 0,
 * den += w; NaN (an NA weight where x is not NA) propagates to the result.
 */
function accWeighted(sel: Int32Array, x: Col, weight: Float32Array | null, wv: Col, naRm: boolean, num: Float64Array, den: Float64Array, numC: Float64Array, denC: Float64Array): void {
  const N = sel.length;
  for (let i = 0; i < N; i++) {
    const g = sel[i]; if (g < 0) continue;
    const v = x[i]; if (naRm && v !== v) continue;
    let w = wv[i];
    if (weight !== null) w *= weight[i];
    if (w !== 0) addTo(num, numC, g, v * w);
    addTo(den, denC, g, w);
  }
}

// The same sums over per-group cell lists (frames without coverage weights): each group's
// running sum and its compensation stay in locals, with Neumaier's step as in addTo, term by
// term in the same order, so the results are bitwise those of the per-cell passes.

/** {@link accSum} over cell lists (no coverage weights). */
function listSum(L: CellLists, vals: Col, s: Float64Array, n: Float64Array, sc: Float64Array, nc: Float64Array, q?: Float64Array): void {
  const { off, idx } = L;
  const G = off.length - 1;
  for (let g = 0; g < G; g++) {
    const e = off[g + 1];
    let j = off[g];
    if (j === e) continue;
    let a = 0, c = 0, m = 0, qq = 0;
    for (; j < e; j++) {
      const v = vals[idx[j]]; if (v !== v) continue;
      const t = a + v;
      c += Math.abs(a) >= Math.abs(v) ? a - t + v : v - t + a;
      a = t; m++; qq += v * v;
    }
    s[g] = a; sc[g] = c; n[g] = m; nc[g] = 0;
    if (q) q[g] = qq;
  }
}

/** {@link accSumProd} over cell lists (no coverage weights). */
function listSumProd(L: CellLists, x: Col, y: Col, s: Float64Array, n: Float64Array, sc: Float64Array, nc: Float64Array): void {
  const { off, idx } = L;
  const G = off.length - 1;
  for (let g = 0; g < G; g++) {
    const e = off[g + 1];
    let j = off[g];
    if (j === e) continue;
    let a = 0, c = 0, m = 0;
    for (; j < e; j++) {
      const i = idx[j];
      const v = x[i] * y[i]; if (v !== v) continue;
      const t = a + v;
      c += Math.abs(a) >= Math.abs(v) ? a - t + v : v - t + a;
      a = t; m++;
    }
    s[g] = a; sc[g] = c; n[g] = m; nc[g] = 0;
  }
}

/** {@link accWeighted} over cell lists (no coverage weights). */
function listWeighted(L: CellLists, x: Col, wv: Col, naRm: boolean, num: Float64Array, den: Float64Array, numC: Float64Array, denC: Float64Array): void {
  const { off, idx } = L;
  const G = off.length - 1;
  for (let g = 0; g < G; g++) {
    const e = off[g + 1];
    let j = off[g];
    if (j === e) continue;
    let a = 0, ac = 0, b = 0, bc = 0;
    for (; j < e; j++) {
      const i = idx[j];
      const v = x[i]; if (naRm && v !== v) continue;
      const w = wv[i];
      if (w !== 0) {
        const p = v * w, t = a + p;
        ac += Math.abs(a) >= Math.abs(p) ? a - t + p : p - t + a;
        a = t;
      }
      const t = b + w;
      bc += Math.abs(b) >= Math.abs(w) ? b - t + w : w - t + b;
      b = t;
    }
    num[g] = a; numC[g] = ac; den[g] = b; denC[g] = bc;
  }
}

/** R median() of sorted values: the middle value, or the mean of the two middle values; NaN for none. */
function median(x: Float64Array): number {
  const n = x.length;
  if (!n) return NaN;
  const h = n >> 1;
  return n % 2 ? x[h] : (x[h - 1] + x[h]) / 2;
}

/** R quantile type 7 of sorted values; NaN for none. */
export function quantile(x: ArrayLike<number>, p: number): number {
  const n = x.length;
  if (!n) return NaN;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  return x[lo] + (h - lo) * (x[hi] - x[lo]);
}

/** Most (or least) frequent value of sorted values, ties to the smallest. */
function mode(x: Float64Array, least: boolean): number | undefined {
  if (!x.length) return undefined;
  let best = x[0], bc = least ? Infinity : 0;
  let i = 0;
  while (i < x.length) {
    let j = i + 1;
    while (j < x.length && x[j] === x[i]) j++;
    const c = j - i;
    if (least ? c < bc : c > bc) { bc = c; best = x[i]; }
    i = j;
  }
  return best;
}

/** Histogram of sorted values: `HIST_BINS` equal bins from min to max, counts joined by '|'. */
function hist(x: Float64Array): string | undefined {
  if (!x.length) return undefined;
  const lo = x[0], hi = x[x.length - 1];
  const bins = new Array<number>(HIST_BINS).fill(0);
  const w = (hi - lo) / HIST_BINS;
  for (let i = 0; i < x.length; i++) {
    const b = w > 0 ? Math.min(HIST_BINS - 1, Math.floor((x[i] - lo) / w)) : 0;
    bins[b]++;
  }
  return bins.join('|');
}
