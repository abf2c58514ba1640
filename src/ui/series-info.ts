/**
 * Which catalog records are series, as the app shows them: national series (records of
 * `series/vi.csv`, `dataType` national, values per country and year) and gridded series (records
 * of vi.csv forming a series by src/core/bundle/series-form.ts: the `series` column, codes
 * `<STEM>_<YYYY>`, CELL5M two-digit-year pairs). Gives the catalog's "Series" badge, the card's
 * series line and the map's year control their years.
 */
import { formSeries } from '../core/bundle';
import type { VarRecord } from '../core/types';

/** A series as the app knows it from the catalog alone. */
export interface SeriesInfo {
  /** Series stem (`var` of an API call with `year`). */
  stem: string;
  /** National series (one value per country and year) or gridded (one COG per year). */
  kind: 'national' | 'gridded';
  /**
   * Years, increasing: a gridded series' member years; a national series' `year`..`yearEnd`
   * range of its record (the values file, read by the map, may hold fewer).
   */
  years: number[];
  /** Gridded series: member code per year (e.g. 2005 -> `PN05_TOT`); empty for a national series. */
  members: Map<number, string>;
}

/** True for a national series' record (`dataType` national: values per ISO3 in series/national.csv). */
export const isNationalRecord = (r: Pick<VarRecord, 'dataType'>): boolean => r.dataType === 'national';

/**
 * Series of a catalog, by every code that belongs to one (a national series' code; each member
 * code and the stem of a gridded series).
 * @param records catalog records (vi.csv's, then series/vi.csv's)
 */
export function catalogSeries(records: readonly VarRecord[]): Map<string, SeriesInfo> {
  const out = new Map<string, SeriesInfo>();
  for (const r of records) {
    if (!isNationalRecord(r)) continue;
    const from = Number(r.year), to = Number(r.yearEnd || r.year);
    if (!Number.isInteger(from) || !Number.isInteger(to) || to < from) continue;
    out.set(r.varCode, { stem: r.varCode, kind: 'national', years: Array.from({ length: to - from + 1 }, (_, i) => from + i), members: new Map() });
  }
  const grid = records.filter((r) => !isNationalRecord(r));
  for (const f of formSeries(grid.map((r) => ({ varCode: r.varCode, year: r.year, series: r.series, cat3: r.cat3, unit: r.unit })))) {
    const info: SeriesInfo = { stem: f.stem, kind: 'gridded', years: f.members.map((m) => m.year), members: new Map(f.members.map((m) => [m.year, m.code])) };
    for (const m of f.members) out.set(m.code, info);
    if (!out.has(f.stem)) out.set(f.stem, info);
  }
  return out;
}

/** The years as a range, "1950–2017" (one year: "2000"; an empty list: ""). */
export function yearRangeText(years: readonly number[]): string {
  if (!years.length) return '';
  const a = years[0], b = years[years.length - 1];
  return a === b ? String(a) : `${a}–${b}`;
}

/** What a national value means on the map and in the card. */
export const NATIONAL_NOTE = 'national value, no variation within the country';
