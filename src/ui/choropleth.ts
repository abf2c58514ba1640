/**
 * ADM1 / ADM2 choropleth from summary rows: joins rows on the class table of the outline key
 * layer (ADM1_NAME_ALT / ADM2_NAME_ALT, whose raster value is `value` in
 * basemap/admin1.geojson / admin2.geojson) by the unit's label (a summary by name) or its
 * `code` extra (a summary by ADM1_CODE_ALT / ADM2_CODE_ALT, whose own values may differ in an
 * ingested bundle), with ISO3 and, for second-level units, the first-level name
 * (ADM1_NAME_ALT, which the engine adds to ADM2 rows) when a label is not unique, and
 * colours the units by quantile classes of one value column.
 */
import type { ClassEntry, Row } from '../core/types';
import { FALLBACK_RAMP, rampColors, type LegendEntry } from '../core/map/palette';

const fmtBreak = (x: number, dec: number) => x.toLocaleString('en', { maximumFractionDigits: Math.max(0, Math.min(6, dec)) });

/** Choropleth colours per outline `value` (admin1 or admin2) and its legend. */
export interface Choropleth {
  pairs: Array<[number, string]>;
  legend: LegendEntry[];
  /** Rows that found no unit. */
  unmatched: number;
  /** The value drawn per outline `value` (the key layer's raster value, for reading a unit's value under the pointer). */
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

/** Administrative level of a by code with outlines (ADM1_* 1, ADM2_* 2), else null. */
export function adminLevel(code: string): 1 | 2 | null {
  return /^ADM1_(NAME|CODE)_ALT$/.test(code) ? 1 : /^ADM2_(NAME|CODE)_ALT$/.test(code) ? 2 : null;
}

/**
 * Builds the choropleth.
 * @param rows summary rows with a `byCode` column (unit label) and a numeric `valueCol`
 * @param byCode ADM1_NAME_ALT, ADM1_CODE_ALT, ADM2_NAME_ALT or ADM2_CODE_ALT
 * @param table class table of the outline key layer (value, label, extras iso3, adm1, code);
 *   `byCode`'s own table when `match` is 'label'
 * @param dec decimals for legend labels
 * @param ramp colours of the classes
 * @param match the table field the rows' `byCode` text is matched on: 'label' (a summary by
 *   the key layer itself) or 'code' (a summary by the *_CODE_ALT layer, joined on the key
 *   layer's `code` extra)
 */
export function buildChoropleth(rows: Row[], byCode: string, valueCol: string, table: ClassEntry[], dec = 2, ramp: string[] = FALLBACK_RAMP, match: 'label' | 'code' = 'label'): Choropleth {
  const byLabel = new Map<string, ClassEntry[]>();
  for (const e of table) {
    const l = String(e[match] ?? '');
    if (!byLabel.has(l)) byLabel.set(l, []);
    byLabel.get(l)!.push(e);
  }
  const matched: Array<[number, number]> = [];
  let unmatched = 0;
  for (const r of rows) {
    const lab = r[byCode];
    const v = r[valueCol];
    if (lab === undefined || lab === null || typeof v !== 'number') continue;
    let cands = byLabel.get(String(lab)) ?? [];
    if (cands.length > 1 && r.ISO3) cands = cands.filter((e) => e.iso3 === r.ISO3);
    // second-level units: same-named districts of different first-level units
    if (cands.length > 1 && r.ADM1_NAME_ALT !== undefined) cands = cands.filter((e) => e.adm1 === undefined || String(e.adm1) === String(r.ADM1_NAME_ALT));
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

/**
 * A choropleth of a summary by country (rows keyed by ISO3, or by ADM0_NAME with the name
 * resolved through `names`) on the country outlines (basemap/countries.geojson, joined on
 * `iso3`): the same quantile classes and legend as {@link buildChoropleth}.
 * @param rows summary rows (a row's country: its ISO3, else its ADM0_NAME looked up in `names`)
 * @param valueCol the numeric column to colour by
 * @param names English country name -> ISO 3166-1 alpha-3 code
 * @param dec decimals for legend labels
 */
export function countryChoropleth(rows: Row[], valueCol: string, names: Map<string, string>, dec = 2): Omit<Choropleth, 'pairs' | 'values'> & { pairs: Array<[string, string]>; values: Map<string, number> } {
  const codes: string[] = [];
  const keyed: Row[] = [];
  for (const r of rows) {
    const code = typeof r.ISO3 === 'string' && /^[A-Z]{3}$/.test(r.ISO3) ? r.ISO3 : typeof r.ADM0_NAME === 'string' ? names.get(r.ADM0_NAME) : undefined;
    if (!code) continue;
    let i = codes.indexOf(code);
    if (i < 0) { i = codes.length; codes.push(code); }
    keyed.push({ ...r, __unit: i });
  }
  const table: ClassEntry[] = codes.map((c, i) => ({ value: i, label: String(i) }));
  const c = buildChoropleth(keyed.map((r) => ({ ...r, __unit: String(r.__unit) })), '__unit', valueCol, table, dec);
  return { ...c, pairs: c.pairs.map(([u, col]) => [codes[u], col]), values: new Map([...c.values].map(([u, v]) => [codes[u], v])) };
}

/**
 * Map keys (class values of the unit layer) of the summary's units that are not in `mapped`:
 * on a map of one interval or class, the units without it (drawn grey, with a legend entry).
 * @param units rows of every unit of the summary; `byCode` their unit column, `table` its class table
 * @param mapped the mapped units' values by key ({@link buildChoropleth}'s `values`)
 */
export function unitsWithout(units: Row[], byCode: string, table: ClassEntry[], match: 'label' | 'code', mapped: Map<number | string, number>): number[] {
  const all = buildChoropleth(units.map((u) => ({ ...u, __unit: 1 })), byCode, '__unit', table, 0, undefined, match);
  return [...new Set(all.pairs.map(([u]) => u))].filter((u) => !mapped.has(u));
}
