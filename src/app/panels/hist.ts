/** Bars of the engine's `hist` statistic (pure). */
import { fmtNum } from './common';

/**
 * Bars of a `hist` cell ("n1|n2|...") between `min` and `max`: one row per bin with its
 * label "a – b" (formatted with `dec` decimals) and `cells`. Empty when the text is not counts.
 */
export function histBars(hist: unknown, min: number, max: number, dec: number): Array<{ bin: string; cells: number }> {
  if (typeof hist !== 'string' || !Number.isFinite(min) || !Number.isFinite(max)) return [];
  const n = hist.split('|').map(Number);
  if (!n.length || !n.every(Number.isFinite)) return [];
  const w = (max - min) / n.length;
  return n.map((c, i) => ({ bin: `${fmtNum(min + i * w, dec)} – ${fmtNum(min + (i + 1) * w, dec)}`, cells: c }));
}
