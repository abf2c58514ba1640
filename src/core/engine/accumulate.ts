/**
 * One-pass accumulation of summaries per group over typed arrays.
 *
 * Cells carry a group index `sel[i]` (-1 = not selected) in [0, G) and optionally a weight
 * `f` (coverage fraction, 0..1). Groups are laid out as C blocks of S slots (C countries or
 * one pool; S = product of the `by` dimension sizes + 1 slot for cells whose `by` value is
 * missing). After the pass, the slots of each block are folded into C summary entries at
 * indices G..G+C-1, so every statistic is available per group and per summary.
 *
 * Aggregation semantics (R, na.rm = TRUE), except that a group with no non-missing value
 * gets a missing summary for every statistic but `count` (0): sum, mean, weighted mean, min,
 * max, median, dominant, sd, percentiles, majority, minority, hist. This differs on purpose
 * from R `sum(x, na.rm = TRUE)`, which gives 0 (terra `zonal(fun = "sum")` gives NA): a 0
 * would read as a real zero (e.g. 0 people where there is no source data). With weights f: sums are
 * sum(f * v), means sum(f * v) / sum(f), weighted means sum(f * w * v) / sum(f * w) over
 * cells with w > 0; min, max, percentiles, majority, minority and histograms use every cell
 * with f > 0 unweighted. `dominant` is the class with the largest (weighted) count, ties to
 * the smallest class value. Standard deviation: sample (n - 1) with f as frequency weights.
 * Percentiles: R `quantile(type = 7)`.
 */
import type { VarSpec } from './plan';
import { HIST_BINS } from './plan';

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

/** Summaries of one variable for every group and summary of a frame. */
export class VarAgg {
  private readonly T: number;
  private readonly G: number;
  private s?: Float64Array; private n?: Float64Array; private q?: Float64Array;
  private ws?: Float64Array; private sw?: Float64Array;
  private mn?: Float64Array; private mx?: Float64Array;
  private counts?: Float64Array; private K = 0;
  private sorted?: Float32Array; private off?: Int32Array; private summarySorted = new Map<number, Float32Array>();

  constructor(readonly spec: VarSpec, private readonly frame: Frame, values: Float32Array | Int32Array, weightValues?: Float32Array, classLut?: Int32Array) {
    const G = (this.G = groupsOf(frame));
    this.T = G + frame.C;
    const { sel, weight } = frame;
    const st = new Set(spec.stats);
    const fn = spec.formula.fn;
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
    const vals = values as Float32Array;
    const needS = fn === 'sum' || fn === 'mean' || st.has('sum') || st.has('mean') || st.has('sd') || st.has('count');
    const needQ = st.has('sd');
    const needMM = fn === 'min' || fn === 'max' || st.has('min') || st.has('max');
    const needColl = fn === 'median' || spec.stats.some((x) => /^p\d+$/.test(x) || x === 'majority' || x === 'minority' || x === 'hist');
    if (needS || needQ) { this.s = new Float64Array(this.T); this.n = new Float64Array(this.T); }
    if (needQ) this.q = new Float64Array(this.T);
    if (needMM) { this.mn = new Float64Array(this.T).fill(Infinity); this.mx = new Float64Array(this.T).fill(-Infinity); }
    if (needS) accSum(sel, vals, weight, this.s!, this.n!, this.q);
    if (needMM) accMinMax(sel, vals, weight, this.mn!, this.mx!);
    if (fn === 'weighted.mean') {
      this.ws = new Float64Array(this.T);
      this.sw = new Float64Array(this.T);
      accWeighted(sel, vals, weight, weightValues!, this.ws, this.sw);
    }
    if (needColl) {
      const cnt = new Int32Array(this.G + 1);
      for (let i = 0; i < N; i++) {
        const g = sel[i]; if (g < 0) continue;
        const v = vals[i]; if (v !== v) continue;
        if (weight && !(weight[i] > 0)) continue;
        cnt[g + 1]++;
      }
      for (let g = 0; g < this.G; g++) cnt[g + 1] += cnt[g];
      const off = (this.off = Int32Array.from(cnt));
      const pos = Int32Array.from(cnt);
      const sorted = (this.sorted = new Float32Array(cnt[this.G]));
      for (let i = 0; i < N; i++) {
        const g = sel[i]; if (g < 0) continue;
        const v = vals[i]; if (v !== v) continue;
        if (weight && !(weight[i] > 0)) continue;
        sorted[pos[g]++] = v;
      }
      for (let g = 0; g < this.G; g++) if (off[g + 1] - off[g] > 1) sorted.subarray(off[g], off[g + 1]).sort();
    }
    // fold slots into summaries
    const fold = (a: Float64Array | undefined, op: 'add' | 'min' | 'max') => {
      if (!a) return;
      for (let c = 0; c < frame.C; c++) {
        let acc = op === 'add' ? 0 : op === 'min' ? Infinity : -Infinity;
        for (let k = 0; k < frame.S; k++) {
          const v = a[c * frame.S + k];
          acc = op === 'add' ? acc + v : op === 'min' ? Math.min(acc, v) : Math.max(acc, v);
        }
        a[G + c] = acc;
      }
    };
    fold(this.s, 'add'); fold(this.n, 'add'); fold(this.q, 'add'); fold(this.ws, 'add'); fold(this.sw, 'add');
    fold(this.mn, 'min'); fold(this.mx, 'max');
  }

  /** Sorted collected values of a group or summary. */
  private values(t: number): Float32Array {
    if (t < this.G) return this.sorted!.subarray(this.off![t], this.off![t + 1]);
    let v = this.summarySorted.get(t);
    if (!v) {
      const c = t - this.G;
      v = this.sorted!.slice(this.off![c * this.frame.S], this.off![(c + 1) * this.frame.S]).sort();
      this.summarySorted.set(t, v);
    }
    return v;
  }

  /** True when the group or summary has at least one non-missing value (with weight f > 0). */
  private hasValues(t: number): boolean {
    return this.n![t] > 0;
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

  /** Raw numeric value of the catalog formula (class variables: the dominant class value), NaN when missing. */
  numeric(t: number): number {
    const fn = this.spec.formula.fn;
    if (this.spec.rec.type === 'class') {
      const k = this.dominantIndex(t);
      return k < 0 ? NaN : this.spec.classes![k].value;
    }
    switch (fn) {
      case 'sum': return this.hasValues(t) ? this.s![t] : NaN;
      case 'mean': return this.n![t] > 0 ? this.s![t] / this.n![t] : NaN;
      case 'weighted.mean': return this.sw![t] > 0 ? this.ws![t] / this.sw![t] : NaN;
      case 'min': return this.mn![t] === Infinity ? NaN : this.mn![t];
      case 'max': return this.mx![t] === -Infinity ? NaN : this.mx![t];
      case 'median': return quantile(this.values(t), 0.5);
      case 'dominant': return NaN;
    }
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
      case 'sum': return this.hasValues(t) ? this.s![t] : undefined;
      case 'mean': return n > 0 ? this.s![t] / n : undefined;
      case 'min': return this.mn![t] === Infinity ? undefined : this.mn![t];
      case 'max': return this.mx![t] === -Infinity ? undefined : this.mx![t];
      case 'sd': {
        if (!(n > 1)) return undefined;
        const v = (this.q![t] - (this.s![t] * this.s![t]) / n) / (n - 1);
        return Math.sqrt(Math.max(0, v));
      }
      case 'majority': case 'minority': return mode(this.values(t), name === 'minority');
      case 'hist': return hist(this.values(t));
      default: {
        const p = Number(name.slice(1)) / 100;
        const v = quantile(this.values(t), p);
        return Number.isFinite(v) ? v : undefined;
      }
    }
  }
}

// Small monomorphic loops (V8 optimises these better than one large constructor).

function accSum(sel: Int32Array, vals: Float32Array, weight: Float32Array | null, s: Float64Array, n: Float64Array, q?: Float64Array): void {
  const N = sel.length;
  if (weight) {
    for (let i = 0; i < N; i++) {
      const g = sel[i]; if (g < 0) continue;
      const v = vals[i]; if (v !== v) continue;
      const f = weight[i]; s[g] += f * v; n[g] += f; if (q) q[g] += f * v * v;
    }
  } else if (q) {
    for (let i = 0; i < N; i++) {
      const g = sel[i]; if (g < 0) continue;
      const v = vals[i]; if (v !== v) continue;
      s[g] += v; n[g]++; q[g] += v * v;
    }
  } else {
    for (let i = 0; i < N; i++) {
      const g = sel[i]; if (g < 0) continue;
      const v = vals[i]; if (v !== v) continue;
      s[g] += v; n[g]++;
    }
  }
}

function accMinMax(sel: Int32Array, vals: Float32Array, weight: Float32Array | null, mn: Float64Array, mx: Float64Array): void {
  const N = sel.length;
  for (let i = 0; i < N; i++) {
    const g = sel[i]; if (g < 0) continue;
    const v = vals[i]; if (v !== v) continue;
    if (weight !== null && !(weight[i] > 0)) continue;
    if (v < mn[g]) mn[g] = v;
    if (v > mx[g]) mx[g] = v;
  }
}

function accWeighted(sel: Int32Array, vals: Float32Array, weight: Float32Array | null, wv: Float32Array, ws: Float64Array, sw: Float64Array): void {
  const N = sel.length;
  for (let i = 0; i < N; i++) {
    const g = sel[i]; if (g < 0) continue;
    const v = vals[i]; if (v !== v) continue;
    let w = wv[i]; if (!(w > 0)) continue;
    if (weight !== null) w *= weight[i];
    ws[g] += w * v; sw[g] += w;
  }
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
function mode(x: Float32Array, least: boolean): number | undefined {
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
function hist(x: Float32Array): string | undefined {
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
