/**
 * The Summaries' "Years" choice for a series (hash `yrs=`): the latest year (absent, the API's
 * default), one year (`yrs=2005`), a range (`yrs=2000:2017`, R's `from:to`) or every year the
 * series hold (`yrs=all`); turned into the API's `year` argument (whole years, increasing).
 */

/** Which years a Summaries run asks for; null (in the URL state) = the latest year. */
export type YearsChoice = { kind: 'one'; year: number } | { kind: 'range'; from: number; to: number } | { kind: 'all' };

const YEAR = /^\d{4}$/;

/**
 * The choice of a hash value: `all`, `YYYY` or `YYYY:YYYY` (from <= to; years 1000-9999);
 * anything else null (the latest year). Never throws.
 */
export function parseYears(s: string | null): YearsChoice | null {
  if (!s) return null;
  if (s === 'all') return { kind: 'all' };
  if (YEAR.test(s)) return { kind: 'one', year: Number(s) };
  const m = /^(\d{4}):(\d{4})$/.exec(s);
  if (!m || Number(m[1]) > Number(m[2])) return null;
  return m[1] === m[2] ? { kind: 'one', year: Number(m[1]) } : { kind: 'range', from: Number(m[1]), to: Number(m[2]) };
}

/** The hash value of a choice (inverse of {@link parseYears}). */
export function yearsParam(c: YearsChoice): string {
  return c.kind === 'all' ? 'all' : c.kind === 'one' ? String(c.year) : `${c.from}:${c.to}`;
}

/**
 * The API's `year` argument of a choice: one year, every year of the range, or every year held
 * (`held`, the years the chosen series hold in common, increasing); undefined = the latest year
 * (the argument left out). A year the series do not hold is sent as chosen: the API's 400 names
 * `year` and the years held.
 * @param held years held by every chosen series (empty when not known yet)
 */
export function yearArg(c: YearsChoice | null, held: readonly number[]): number[] | undefined {
  if (!c) return undefined;
  if (c.kind === 'one') return [c.year];
  if (c.kind === 'range') return Array.from({ length: c.to - c.from + 1 }, (_, i) => c.from + i);
  return held.length ? [...held] : undefined;
}

/** What the Years choice needs of a series (src/ui/series-info.ts `SeriesInfo`). */
export interface SeriesYears {
  /** Series stem: the `var` of a call with `year`. */
  stem: string;
  /** Years held, increasing. */
  years: number[];
}

/**
 * The series behind chosen indicator codes: their stems (a gridded series' member code, e.g.
 * `PN05_TOT`, stands for its stem) and the years all of them hold; null when a code is not a
 * series (or none is chosen): then no Years choice applies.
 * @param vars chosen indicator codes
 * @param series the catalog's series by every code belonging to one
 */
export function seriesOfVars(vars: readonly string[], series: ReadonlyMap<string, SeriesYears>): { stems: string[]; held: number[] } | null {
  if (!vars.length) return null;
  const stems: string[] = [];
  let held: number[] | null = null;
  for (const v of vars) {
    const s = series.get(v);
    if (!s) return null;
    if (!stems.includes(s.stem)) stems.push(s.stem);
    held = held ? held.filter((y) => s.years.includes(y)) : [...s.years];
  }
  return { stems, held: held ?? [] };
}
