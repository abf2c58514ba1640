/**
 * ADM1 choropleth from summary rows: joins rows on the ADM1 class table (label, with
 * ISO3 when rows carry it) to the raster value used as `value` in basemap/admin1.geojson,
 * and colours the units by quantile classes of one value column.
 */
import type { ClassEntry, Row } from '../core/types';
import { FALLBACK_RAMP, rampColors, type LegendEntry } from './raster/palette';

const fmtBreak = (x: number, dec: number) => x.toLocaleString('en', { maximumFractionDigits: Math.max(0, Math.min(6, dec)) });

/** Choropleth colours per admin1 value and its legend. */
export interface Choropleth {
  pairs: Array<[number, string]>;
  legend: LegendEntry[];
  /** Rows that found no unit. */
  unmatched: number;
  /** The value drawn per admin1 raster value (for reading a unit's value under the pointer). */
  values: Map<number, number>;
}

/** Quantile breaks (n classes) of finite values: n+1 increasing numbers, duplicates removed. */
export function quantileBreaks(values: number[], n: number): number[] {
  const v = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (v.length === 0) return [];
  const distinct = [...new Set(v)];
  if (distinct.length <= n) return [distinct[0], ...distinct];
  const out: number[] = [];
  for (let k = 0; k <= n; k++) {
    const q = v[Math.min(v.length - 1, Math.round((k / n) * (v.length - 1)))];
    if (out.length === 0 || q > out[out.length - 1]) out.push(q);
  }
  if (out.length === 1) out.push(out[0]);
  return out;
}

/**
 * Builds the choropleth.
 * @param rows summary rows with a `byCode` column (unit label) and a numeric `valueCol`
 * @param byCode ADM1_NAME_ALT or ADM1_CODE_ALT
 * @param table class table of `byCode` (value, label, extras iso3)
 * @param dec decimals for legend labels
 */
export function buildChoropleth(rows: Row[], byCode: string, valueCol: string, table: ClassEntry[], dec = 2, ramp: string[] = FALLBACK_RAMP): Choropleth {
  const byLabel = new Map<string, ClassEntry[]>();
  for (const e of table) {
    const l = String(e.label);
    if (!byLabel.has(l)) byLabel.set(l, []);
    byLabel.get(l)!.push(e);
  }
  const matched: Array<[number, number]> = [];
  let unmatched = 0;
  for (const r of rows) {
    const lab = r[byCode];
    const v = r[valueCol];
    if (lab === undefined || typeof v !== 'number') continue;
    let cands = byLabel.get(String(lab)) ?? [];
    if (cands.length > 1 && r.ISO3) cands = cands.filter((e) => e.iso3 === r.ISO3);
    if (cands.length !== 1) { unmatched++; continue; }
    matched.push([cands[0].value, v]);
  }
  const breaks = quantileBreaks(matched.map((m) => m[1]), 6);
  const n = Math.max(1, breaks.length - 1);
  const colors = rampColors(n, ramp);
  const idx = (v: number) => {
    for (let i = 0; i < n; i++) if (v <= breaks[i + 1]) return i;
    return n - 1;
  };
  return {
    pairs: matched.map(([u, v]) => [u, colors[idx(v)]]),
    legend: colors.map((c, i) => ({ color: c, label: breaks[i] === breaks[i + 1] ? fmtBreak(breaks[i], dec) : `${i === 0 ? '[' : '('}${fmtBreak(breaks[i], dec)}, ${fmtBreak(breaks[i + 1], dec)}]` })),
    unmatched,
    values: new Map(matched),
  };
}
