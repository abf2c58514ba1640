/**
 * National series of a bundle (`series/national.csv`, src/core/bundle/layout.ts): yearly
 * values per country (admin-0, ISO3) held as a table joined to ISO3, not as COGs (6 series x
 * up to 68 years would be ~400 grid files of one value per country). On the grid every cell of
 * a country carries its country's value of the year (national value, no variation within the
 * country); a country without a row for a year has no value (NaN), never an interpolated one.
 */
import { parseCsvRecords } from '../csv';
import { IndapiError } from '../errors';

/** The national series of a bundle: per series code, per year, per ISO3 the value. */
export interface NationalSeries {
  /** Series code -> year -> ISO3 -> value (units of the series' catalog record). */
  values: Map<string, Map<number, Map<string, number>>>;
  /** Series code -> years held (a year with at least one country's value), increasing. */
  years: Map<string, number[]>;
  /** Series code -> year -> ISO3 -> the `source` key of the value (series/sources.csv). */
  sources: Map<string, Map<number, Map<string, string>>>;
}

/**
 * Parses `series/national.csv` (`series,ISO3,year,value,source`).
 * @throws IndapiError IO when a column is missing, a year is not a whole number or a value not a finite number
 */
export function parseNationalSeries(text: string): NationalSeries {
  const { fields, records } = parseCsvRecords(text, 'series/national.csv');
  for (const f of ['series', 'ISO3', 'year', 'value']) if (!fields.includes(f)) throw new IndapiError('IO', `series/national.csv lacks the ${f} column.`);
  const values = new Map<string, Map<number, Map<string, number>>>();
  const sources = new Map<string, Map<number, Map<string, string>>>();
  for (const [i, r] of records.entries()) {
    const year = Number(r.year);
    const v = Number(r.value);
    if (!Number.isInteger(year) || r.value === '' || !Number.isFinite(v)) throw new IndapiError('IO', `series/national.csv row ${i + 2}: year or value is not a number.`);
    const code = r.series.trim();
    const byYear = values.get(code) ?? new Map<number, Map<string, number>>();
    values.set(code, byYear);
    const srcYear = sources.get(code) ?? new Map<number, Map<string, string>>();
    sources.set(code, srcYear);
    if (!byYear.has(year)) { byYear.set(year, new Map()); srcYear.set(year, new Map()); }
    byYear.get(year)!.set(r.ISO3.trim(), v);
    srcYear.get(year)!.set(r.ISO3.trim(), (r.source ?? '').trim());
  }
  const years = new Map([...values].map(([code, m]) => [code, [...m.keys()].sort((a, b) => a - b)]));
  return { values, years, sources };
}
