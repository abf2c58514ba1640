/**
 * The classes of a change map (src/core/map/change.ts): six classes of ColorBrewer RdBu (Cynthia
 * Brewer, colorbrewer2.org, Apache License 2.0, via d3-scale-chromatic) on breaks symmetric
 * about 0 (-m, -2m/3, -m/3, 0, m/3, 2m/3, m; m the largest absolute change rounded up to 1, 2,
 * 2.5 or 5 x 10^k), so 0 is the boundary between the red (decrease) and blue (increase)
 * halves. One owner for the national choropleth and the gridded change map. Pure: no DOM.
 */
import { schemeRdBu } from 'd3-scale-chromatic';
import { fmtBreak, type Palette } from './palette';

/** The six RdBu colours of the change classes, red (largest decrease) to blue (largest increase). */
export const DIVERGING_COLORS: readonly string[] = [...schemeRdBu[6]];

/** The smallest of 1, 2, 2.5, 5 x 10^k at or above `x` (> 0); 1 for 0 or no value. */
export function niceCeil(x: number): number {
  if (!(x > 0) || !Number.isFinite(x)) return 1;
  const p = 10 ** Math.floor(Math.log10(x));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= x * (1 - 1e-12)) return m * p;
  return 10 * p;
}

/**
 * Breaks symmetric about 0 for changes: -m, -2m/3, -m/3, 0, m/3, 2m/3, m (m = {@link niceCeil}
 * of the largest |value|; NaN values are skipped).
 * @param values changes (any iterable or array-like of numbers)
 */
export function divergingBreaks(values: Iterable<number> | ArrayLike<number>): number[] {
  let m = 0;
  const it: Iterable<number> = Symbol.iterator in Object(values) ? (values as Iterable<number>) : Array.from(values as ArrayLike<number>);
  for (const v of it) if (Number.isFinite(v)) m = Math.max(m, Math.abs(v));
  const n = niceCeil(m);
  return [-n, (-2 * n) / 3, -n / 3, 0, n / 3, (2 * n) / 3, n];
}

/**
 * The palette of a change map: {@link DIVERGING_COLORS} on {@link divergingBreaks} of `values`,
 * labelled as signed right-closed intervals ("(0, +3.33]"; the first closed: "[-10, -6.67]").
 * @param values the changes the breaks are taken from
 * @param dec decimals of the change's values ({@link changeDec}); labels show at least 2
 */
export function changePalette(values: Iterable<number> | ArrayLike<number>, dec: number): Palette & { kind: 'intervals' } {
  const breaks = divergingBreaks(values);
  const f = (x: number) => `${x > 0 ? '+' : ''}${fmtBreak(x, Math.max(dec, 2))}`;
  const labels = DIVERGING_COLORS.map((_, i) => `${i === 0 ? '[' : '('}${f(breaks[i])}, ${f(breaks[i + 1])}]`);
  return { kind: 'intervals', breaks, colors: [...DIVERGING_COLORS], labels };
}
