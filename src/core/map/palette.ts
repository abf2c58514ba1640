/**
 * Colour schemes for mapping an indicator: intervals of a continuous layer (the catalog's
 * `classBreaks`/`classColors`, R `cut()` right-closed intervals) or the classes of a class
 * layer (catalog lists or the class table). Pure: no DOM.
 */
import type { ClassEntry, VarRecord } from '../types';
import { cutLabels } from '../r/labels';

/** One legend entry. */
export interface LegendEntry {
  /** Label shown, e.g. "(500,1000]" or "Kenya". */
  label: string;
  /** Colour #rrggbb. */
  color: string;
}

/**
 * A colour scheme: continuous intervals or a class lookup; `labels[i]` names `colors[i]`. An
 * empty label keeps its colour for the map (the value-to-colour order) but leaves it out of
 * the legend (a colour no cell takes, e.g. the covered shades of a source without capacity).
 */
export type Palette =
  | { kind: 'intervals'; breaks: number[]; colors: string[]; labels: string[] }
  | { kind: 'classes'; values: number[]; colors: string[]; labels: string[] };

/** Parses a pipe-separated catalog list ("" gives []). */
export function splitPipe(s: string | undefined): string[] {
  if (!s) return [];
  return s.split('|').map((x) => x.trim()).filter((x) => x.length > 0);
}

/** A neutral sequential ramp (viridis-like, 8 stops) used when the catalog gives no colours. */
export const FALLBACK_RAMP = ['#440154', '#46327e', '#365c8d', '#277f8e', '#1fa187', '#4ac16d', '#a0da39', '#fde725'];

/** Picks `n` colours evenly from a ramp. */
export function rampColors(n: number, ramp: string[] = FALLBACK_RAMP): string[] {
  if (n <= 0) return [];
  if (n === 1) return [ramp[Math.floor(ramp.length / 2)]];
  return Array.from({ length: n }, (_, i) => ramp[Math.round((i * (ramp.length - 1)) / (n - 1))]);
}

/**
 * A stable, readable colour for a class value without a catalog colour (golden-angle hue
 * walk in HSL, mid lightness), for layers with hundreds of classes such as ADM1.
 */
export function hashColor(value: number): string {
  const h = ((value * 137.508) % 360 + 360) % 360;
  return hslToHex(h, 0.55, 0.62);
}

function hslToHex(h: number, s: number, l: number): string {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    const c = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(c * 255).toString(16).padStart(2, '0');
  };
  return `#${f(0)}${f(8)}${f(4)}`;
}

/** Formats a number with `dec` decimals, as R's cut() labels print them (no trailing zeros). */
export function fmtBreak(x: number, dec: number): string {
  if (!Number.isFinite(x)) return String(x);
  return String(Number(x.toFixed(Math.max(0, Math.min(10, dec)))));
}

/** The API's default `dig.lab` (DEFAULT_DIG_LAB of src/core/engine/plan.ts, as the R service). */
const API_DIG_LAB = 3;

/**
 * Labels of right-closed intervals exactly as the API writes them in `by` key columns: R
 * `cut()` with the API's default `dig.lab` (3), e.g. "(100,1e+03]" (core `cutLabels`), so the
 * legend, tables and charts name an interval as the downloaded data does.
 */
export function intervalLabels(breaks: number[]): string[] {
  return breaks.length < 2 ? [] : cutLabels(breaks, API_DIG_LAB);
}

/**
 * The palette of a catalog record.
 * @param rec catalog record
 * @param classes class table of a class layer (value, label, color), used when the record's lists are empty
 * @param breaksOverride custom increasing breaks for a continuous layer
 */
export function paletteFor(rec: VarRecord, classes?: ClassEntry[], breaksOverride?: number[]): Palette {
  if (rec.type === 'class') {
    const vals = splitPipe(rec.classBreaks).map(Number);
    const cols = splitPipe(rec.classColors);
    const labs = splitPipe(rec.classLabels);
    if (vals.length > 0 && vals.every(Number.isFinite)) {
      const byVal = new Map((classes ?? []).map((c) => [c.value, c]));
      return {
        kind: 'classes',
        values: vals,
        colors: vals.map((v, i) => cols[i] ?? byVal.get(v)?.color ?? hashColor(v)),
        labels: vals.map((v, i) => labs[i] ?? byVal.get(v)?.label ?? String(v)),
      };
    }
    const cl = classes ?? [];
    return {
      kind: 'classes',
      values: cl.map((c) => c.value),
      colors: cl.map((c) => (c.color && /^#[0-9a-f]{6}$/i.test(c.color) ? c.color : hashColor(c.value))),
      labels: cl.map((c) => String(c.label)),
    };
  }
  const breaks = breaksOverride ?? splitPipe(rec.classBreaks).map(Number).filter(Number.isFinite);
  const n = Math.max(0, breaks.length - 1);
  let colors = breaksOverride ? [] : splitPipe(rec.classColors);
  if (colors.length !== n) colors = rampColors(n);
  const catLabels = splitPipe(rec.classLabels);
  const labels = !breaksOverride && catLabels.length === n ? catLabels : intervalLabels(breaks);
  return { kind: 'intervals', breaks, colors, labels };
}

/**
 * Breaks for a continuous layer whose catalog record gives none (an ingested catalog may leave
 * `classBreaks` empty): the minimum, the `n - 1` inner quantiles (R `quantile` type 7) and the
 * maximum of the non-missing values, rounded to `dec` decimals, duplicates dropped.
 * @param values cell values, NaN = no data
 * @param n number of classes wanted (>= 1)
 * @param dec decimals to round the breaks to (the record's `dec`)
 * @returns increasing breaks (none when the layer has no value; one class for a constant layer)
 */
export function quantileBreaks(values: ArrayLike<number>, n: number, dec = 6): number[] {
  const v: number[] = [];
  for (let i = 0; i < values.length; i++) if (Number.isFinite(values[i])) v.push(values[i]);
  if (!v.length) return [];
  v.sort((a, b) => a - b);
  const q = (p: number) => { const h = (v.length - 1) * p; const lo = Math.floor(h); const hi = Math.min(v.length - 1, lo + 1); return v[lo] + (h - lo) * (v[hi] - v[lo]); };
  const f = 10 ** Math.max(0, Math.min(12, dec));
  const out: number[] = [];
  for (let k = 0; k <= n; k++) {
    // the outer breaks widen outwards so rounding never leaves the extremes outside
    const x = k === 0 ? Math.floor(v[0] * f) / f : k === n ? Math.ceil(v[v.length - 1] * f) / f : Math.round(q(k / n) * f) / f;
    if (!out.length || x > out[out.length - 1]) out.push(x);
  }
  // cut() intervals are right-closed: the lowest value must lie above the first break
  if (out.length === 1) out.unshift(out[0] - 1 / f);
  else if (out[0] >= v[0]) out[0] -= 1 / f;
  return out;
}

/** Legend entries of a palette, in order; entries with an empty label are left out (see {@link Palette}). */
export function legendOf(p: Palette): LegendEntry[] {
  return p.labels.flatMap((label, i) => (label ? [{ label, color: p.colors[i] }] : []));
}

/** Parses "#rrggbb" into [r, g, b]; unknown gives mid grey. */
export function hexToRgb(hex: string): [number, number, number] {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})/i.exec(hex);
  if (!m) return [128, 128, 128];
  return [parseInt(m[1], 16), parseInt(m[2], 16), parseInt(m[3], 16)];
}

/**
 * Index of the interval of `v` among `breaks` (right-closed, as R cut()), clamped to the
 * first / last interval for values outside the breaks; -1 for NaN or no intervals.
 */
export function intervalIndex(breaks: number[], v: number): number {
  const n = breaks.length - 1;
  if (n < 1 || Number.isNaN(v)) return -1;
  if (v <= breaks[1]) return 0;
  if (v > breaks[n - 1]) return n - 1;
  let lo = 1, hi = n - 1; // find i with breaks[i] < v <= breaks[i+1]
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (v <= breaks[mid + 1]) hi = mid; else lo = mid + 1;
  }
  return lo;
}

/** The colour name that draws nothing: a palette entry in it leaves its values transparent (e.g. outside a one-interval mask). */
export const TRANSPARENT = 'transparent';

/**
 * A packed RGBA lookup (one uint32 per value, little-endian ABGR as ImageData wants) for a
 * palette: `colorOf(v)` gives 0 (transparent) for no data and for values whose colour is
 * {@link TRANSPARENT}.
 */
export function makeColorizer(p: Palette): (v: number) => number {
  const pack = (hex: string) => {
    if (hex === TRANSPARENT) return 0;
    const [r, g, b] = hexToRgb(hex);
    return ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0;
  };
  const packed = p.colors.map(pack);
  if (p.kind === 'intervals') {
    return (v) => {
      const i = intervalIndex(p.breaks, v);
      return i < 0 ? 0 : packed[i];
    };
  }
  const map = new Map<number, number>();
  p.values.forEach((v, i) => map.set(v, packed[i]));
  return (v) => (Number.isNaN(v) ? 0 : map.get(v) ?? 0);
}
