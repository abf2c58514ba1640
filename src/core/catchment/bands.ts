/**
 * Travel-time bands: cells assigned to the intervals of `minutes` breaks by their own time,
 * labelled as R `cut(minutes, breaks, right = TRUE, include.lowest = TRUE, dig.lab = 3)`:
 * `[0,60]`, `(60,120]`, `(120,240]`, ... The first interval is closed on the left
 * (include.lowest) so that the source cells, whose time is 0, fall in the first band.
 * Labels come from the engine's own `cut()` formatter ({@link cutLabels}), so 1000 prints
 * as `1e+03` with the default dig.lab 3, as R prints it.
 */
import { IndapiError } from '../errors';
import { checkBreaks as checkRule, minutesRule } from '../r/breaks';
import { cutLabels } from '../r/labels';

/** Default breaks, minutes: 1, 2, 4 and 8 hours. */
export const DEFAULT_BREAKS_MIN: readonly number[] = [0, 60, 120, 240, 480];

export { MAX_BREAKS } from '../r/breaks';

/**
 * Checks band breaks: 2 to `MAX_BREAKS` finite numbers >= 0, strictly increasing (the rule
 * of src/core/breaks.ts that the Catchment panel applies to its typed bands too).
 * @param breaks minutes
 * @param argName argument named in errors
 * @throws IndapiError BAD_BREAKS naming the argument
 */
export function checkBreaks(breaks: readonly number[], argName = 'minutes'): number[] {
  return checkRule(breaks, minutesRule(`'${argName}'`));
}

/**
 * Band labels: R `cut(x, breaks, right = TRUE, include.lowest = TRUE, dig.lab = digLab)`.
 * @param breaks increasing minutes
 * @param digLab significant digits (R's dig.lab, default 3)
 */
export function bandLabels(breaks: readonly number[], digLab = 3): string[] {
  const labels = cutLabels([...breaks], digLab);
  if (labels.length && labels[0].startsWith('(')) labels[0] = '[' + labels[0].slice(1);
  return labels;
}

/**
 * Band of a time: 0-based index of the interval holding `minutes`, or -1 (NaN, below the first
 * break or above the last). The first interval is closed: [b0, b1]; the others (b_k, b_k+1].
 */
export function bandOf(breaks: ArrayLike<number>, minutes: number): number {
  const n = breaks.length;
  if (!(minutes >= breaks[0]) || !(minutes <= breaks[n - 1])) return -1;
  let lo = 0, hi = n - 1; // breaks[lo] < v <= breaks[hi], or v = breaks[0]
  if (minutes <= breaks[1]) return 0;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (minutes <= breaks[mid]) hi = mid;
    else lo = mid;
  }
  return lo;
}

/**
 * Band index of every cell.
 * @param minutes travel time per cell (NaN unreachable)
 * @param breaks increasing minutes
 * @returns Int8Array (-1 = in no band); at most 127 bands
 * @throws IndapiError BAD_BREAKS with more than 127 bands
 */
export function assignBands(minutes: Float32Array, breaks: readonly number[]): Int8Array {
  if (breaks.length - 1 > 127) throw new IndapiError('BAD_BREAKS', `'minutes' gives ${breaks.length - 1} bands; at most 127 are allowed.`, { arg: 'minutes' });
  const out = new Int8Array(minutes.length);
  for (let i = 0; i < minutes.length; i++) out[i] = bandOf(breaks, minutes[i]);
  return out;
}
