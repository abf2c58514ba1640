/**
 * Intervals as people read them (issue 23 item 4): the UI writes R `cut()` labels such as
 * `(1.5e+03,6e+03]` as "1,500-6,000 m" (the indicator's unit), the first interval as "up to
 * 1,500 m" and an interval open at the top as "over 6,000 m". Display only: the API, the
 * downloads and the tooltips keep R's labels (src/core/r/labels.ts).
 */
import { cutLabels } from '../../core/r/labels';
import type { ByArg, GetLayerArgs, VarRecord } from '../../core/types';

const NUM = String.raw`(-?Inf|[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)`;
const LABEL = new RegExp(String.raw`^\s*[([]\s*${NUM}\s*,\s*${NUM}\s*[\])]\s*$`, 'i');

/** Bounds [lower, upper] of an interval label "(a,b]" / "[a,b]" ("-Inf"/"Inf" allowed); null when not an interval. */
export function intervalBounds(label: string): [number, number] | null {
  const m = LABEL.exec(label);
  if (!m) return null;
  const num = (t: string) => (/inf/i.test(t) ? (t.startsWith('-') ? -Infinity : Infinity) : Number(t));
  return [num(m[1]), num(m[2])];
}

/** A bound as people write it: digit grouping, up to 6 decimals ("1,500", "0.25"). */
function bound(v: number): string {
  return v.toLocaleString('en', { maximumFractionDigits: 6 });
}

/**
 * The break points behind the interval labels of `by` code `code` in a summary request: the
 * request's own breaks (`by = {CODE: [..]}`), else the catalog's default breaks; null for a
 * class layer or when unknown.
 */
export function requestBreaks(by: ByArg | undefined, code: string, rec: VarRecord | undefined): number[] | null {
  if (!rec || rec.type !== 'continuous') return null;
  const own = by && !Array.isArray(by) ? (by as Record<string, unknown>)[code] : undefined;
  if (Array.isArray(own) && own.length > 1 && own.every((x) => typeof x === 'number')) return own as number[];
  const def = rec.classBreaks.split('|').map(Number);
  return def.length > 1 && def.every(Number.isFinite) ? def : null;
}

/**
 * An interval label as people read it. With the request's `breaks`, the label's place among
 * R's labels of those breaks gives the exact bounds (R's 3 significant digits may round them)
 * and whether it is the first interval; else the bounds are read from the label and `first`
 * says it. The first interval reads "up to 1,500 m", an upper bound of Inf "over 6,000 m",
 * others "1,500-6,000 m" ("-500 to -100 m" below zero). Not an interval: the label unchanged.
 * @param label R `cut()` label, e.g. `(1.5e+03,6e+03]`
 * @param unit the indicator's unit as shown ("m", "km²"), or ''
 */
export function intervalText(label: string, unit = '', breaks?: number[] | null, first = false): string {
  let b = intervalBounds(label);
  if (!b) return label;
  if (breaks) {
    const i = cutLabels(breaks).indexOf(label);
    if (i >= 0) { b = [breaks[i], breaks[i + 1]]; first = i === 0; }
  }
  const u = unit ? ` ${unit}` : '';
  const [lo, hi] = b;
  if (hi === Infinity) return `over ${bound(lo)}${u}`;
  if (first || lo === -Infinity) return `up to ${bound(hi)}${u}`;
  return lo < 0 ? `${bound(lo)} to ${bound(hi)}${u}` : `${bound(lo)}-${bound(hi)}${u}`;
}

/**
 * The bounds of interval `key` (an R cut() label) of continuous layer `code` in a summary
 * (the request's breaks, else the catalog's, else read from the label); null for a class
 * layer or a key that is no interval.
 */
export function sliceBounds(key: string, code: string | undefined, args: GetLayerArgs, byCode: Map<string, VarRecord>): { code: string; lo: number; hi: number } | null {
  const rec = code ? byCode.get(code) : undefined;
  if (!code || rec?.type !== 'continuous') return null;
  const breaks = requestBreaks(args.by, code, rec);
  const i = breaks ? cutLabels(breaks).indexOf(key) : -1;
  const b = breaks && i >= 0 ? [breaks[i], breaks[i + 1]] : intervalBounds(key);
  return b ? { code, lo: b[0], hi: b[1] } : null;
}
