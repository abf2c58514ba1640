/**
 * The storage type of a continuous column of an ingested table, chosen so that every value
 * reads back as exactly the double the table gave (the number R and `parseFloat` read from
 * its text; issue 23 item 2):
 *
 * - every value has at most k decimals (k = 0..9: x = n / 10^k for an integer n, the division
 *   correctly rounded) -> integers n = x * 10^k, Int16 when every n fits -32767..32767, else
 *   Int32 when every n fits -2147483647..2147483647, with the type's minimum as no-data and
 *   the scale 10^-k written as GDAL scale/offset metadata (src/core/cog/decode.ts reads
 *   `n / 10^k` back);
 * - else Float32 when every value is a Float32 exactly (a Stata `float` column) and none is
 *   -9999, its no-data value;
 * - else Float64, no-data NaN.
 *
 * A column without any value is Int16 with k = 0 (every cell no-data).
 */
import { MAX_DECIMALS } from '../cog/decode';

/** How a continuous column is stored. */
export interface ValueStorage {
  /** COG sample type. */
  sampleType: 'Int16' | 'Int32' | 'Float32' | 'Float64';
  /** Decimals k of a scaled integer column (stored n = value * 10^k); 0 for floats. */
  decimals: number;
  /** No-data value of the COG. */
  noData: number;
}

/** No-data values of the scaled integer types (their minimum, outside the values' range). */
export const INT_NO_DATA = { Int16: -32768, Int32: -2147483648 } as const;
const INT16_MAX = 32767, INT32_MAX = 2147483647;

/** Powers of ten 10^0..10^9 (exact doubles). */
const POW10 = Array.from({ length: MAX_DECIMALS + 1 }, (_, k) => 10 ** k);

/**
 * The decimals of one value: the least k (0..9) with `Math.round(x * 10^k) / 10^k === x`,
 * else -1 (more than 9 decimals, or not finite, or too large to scale exactly).
 */
export function decimalsOf(x: number, from = 0): number {
  if (!Number.isFinite(x)) return -1;
  for (let k = from; k <= MAX_DECIMALS; k++) {
    const p = POW10[k];
    const n = Math.round(x * p);
    if (Math.abs(n) > Number.MAX_SAFE_INTEGER) return -1;
    if (n / p === x) return k;
  }
  return -1;
}

/** Counts what {@link ValueStorage} needs over a column's values, one at a time (the ingest's read pass). */
export class DecimalTracker {
  /** Decimals so far (-1: some value has more than 9, or is not finite). */
  private k = 0;
  private f32 = true;
  /** A value equals the Float32 no-data -9999. */
  private hasF32NoData = false;
  private min = Infinity;
  private max = -Infinity;

  /** Counts one value (NaN: missing, ignored). */
  add(x: number): void {
    if (x !== x) return;
    if (x < this.min) this.min = x;
    if (x > this.max) this.max = x;
    if (this.f32 && Math.fround(x) !== x) this.f32 = false;
    if (x === -9999) this.hasF32NoData = true;
    if (this.k < 0) return;
    const p = POW10[this.k];
    if (Math.round(x * p) / p !== x) this.k = decimalsOf(x, this.k + 1);
  }

  /** The storage of the values counted. */
  result(): ValueStorage {
    if (this.min > this.max) return { sampleType: 'Int16', decimals: 0, noData: INT_NO_DATA.Int16 };
    if (this.k >= 0) {
      const p = POW10[this.k];
      const hi = Math.max(Math.abs(Math.round(this.min * p)), Math.abs(Math.round(this.max * p)));
      if (hi <= INT16_MAX) return { sampleType: 'Int16', decimals: this.k, noData: INT_NO_DATA.Int16 };
      if (hi <= INT32_MAX) return { sampleType: 'Int32', decimals: this.k, noData: INT_NO_DATA.Int32 };
    }
    if (this.f32 && !this.hasF32NoData) return { sampleType: 'Float32', decimals: 0, noData: -9999 };
    return { sampleType: 'Float64', decimals: 0, noData: NaN };
  }
}

/**
 * The stored integer of a value of a scaled column (`Math.round(x * 10^k)`), which decodes to
 * `x` again as `n / 10^k`.
 */
export function scaledInt(x: number, decimals: number): number {
  return Math.round(x * POW10[decimals]);
}
