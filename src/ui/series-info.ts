/**
 * Which catalog records are series, as the app shows them: national series (records of
 * `series/vi.csv`, `dataType` national, values per country and year) and gridded series (records
 * of vi.csv forming a series by src/core/bundle/series-form.ts: the `series` column, codes
 * `<STEM>_<YYYY>`, CELL5M two-digit-year pairs): the shapes and words the catalog's "Series"
 * badge, the card's series line and the map's year control share. Which records form series is
 * ./series-catalog.ts (loaded after the catalog: the series rules stay out of the first load).
 */
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

/** The years as a range, "1950–2017" (one year: "2000"; an empty list: ""). */
export function yearRangeText(years: readonly number[]): string {
  if (!years.length) return '';
  const a = years[0], b = years[years.length - 1];
  return a === b ? String(a) : `${a}–${b}`;
}

/** What a national value means on the map and in the card. */
export const NATIONAL_NOTE = 'national value, no variation within the country';
