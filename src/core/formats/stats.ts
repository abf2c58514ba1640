/**
 * Univariate statistics for the `hist` graphic, as R's `summary()` gives them.
 * Quantiles use R's default `quantile(type = 7)` (Hyndman & Fan 1996, definition 7):
 * for sorted x[0..n-1] and probability p, h = (n - 1) p, Q = x[floor h] + (h - floor h)
 * (x[floor h + 1] - x[floor h]).
 */

/**
 * Quantile of sorted values, R type 7.
 * @param sorted finite values in increasing order (non-empty)
 * @param p probability in [0, 1]
 */
export function quantile7(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

/** N, Min, 1st Qu., Median, Mean, 3rd Qu., Max of the finite values. */
export interface Summary {
  n: number;
  min: number;
  q1: number;
  median: number;
  mean: number;
  q3: number;
  max: number;
}

/**
 * Summary statistics of the non-missing values (NaN ignored).
 * @param values values
 * @returns the summary and the sorted finite values
 */
export function fiveNum(values: ArrayLike<number>): { summary: Summary; sorted: Float64Array } {
  const xs: number[] = [];
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Number.isFinite(v)) {
      xs.push(v);
      sum += v;
    }
  }
  const sorted = Float64Array.from(xs).sort();
  const n = sorted.length;
  return {
    summary: {
      n,
      min: n ? sorted[0] : NaN,
      q1: quantile7(sorted, 0.25),
      median: quantile7(sorted, 0.5),
      mean: n ? sum / n : NaN,
      q3: quantile7(sorted, 0.75),
      max: n ? sorted[n - 1] : NaN,
    },
    sorted,
  };
}

/**
 * Equal-width histogram of sorted values.
 * @param sorted finite values in increasing order
 * @param bins number of bins (30 for `hist`)
 * @returns bins with [x0, x1) edges (the last bin closed) and counts
 */
export function histogram(sorted: Float64Array, bins: number): Array<{ x0: number; x1: number; count: number }> {
  const n = sorted.length;
  if (n === 0) return [];
  let lo = sorted[0];
  let hi = sorted[n - 1];
  if (hi === lo) {
    lo -= 0.5;
    hi += 0.5;
  }
  const w = (hi - lo) / bins;
  const out = Array.from({ length: bins }, (_, i) => ({ x0: lo + i * w, x1: i === bins - 1 ? hi : lo + (i + 1) * w, count: 0 }));
  for (let i = 0; i < n; i++) {
    const k = Math.min(bins - 1, Math.floor((sorted[i] - lo) / w));
    out[k].count++;
  }
  return out;
}
