/**
 * Long to wide by year: the main query's long output over series (one row per unit and year,
 * a `year` key column, src/core/engine/years.ts) as one row per unit with one column per value
 * and year (`PWT_POP_2000`, `PWT_POP_2017`), the layout Stata's `reshape wide` gives and Stata
 * users ask for. Pure; the Download panel's "wide" choice (`layout` of a package call) applies it
 * to the table before the writers.
 */
import type { ColumnInfo, Row, TableResult } from '../types';

/** How a table with a `year` column is written: long (the API's output, the default) or wide (one column per year). */
export type TableLayout = 'long' | 'wide';

/** True when the table is long by year (has a `year` key column). */
export const hasYearColumn = (t: Pick<TableResult, 'columns'>): boolean => t.columns.some((c) => c.name === 'year' && c.role === 'key');

/**
 * The table in wide form: key columns other than `year` first (in their order), then for each
 * value column (in its order) one column per year, increasing, named `<column>_<year>` and
 * labelled "<label>, <year>". Units are told apart by their key values (rows of one unit merge,
 * in the order each unit first appears); a unit with no value in a year has none in that column
 * (NA), never a value from another year. A table without a `year` key column is returned as is.
 * @param t the long table (rows and columns as the engine gives them)
 * @returns a new table; `meta` and `selection` kept
 */
export function wideByYear(t: TableResult): TableResult {
  if (!hasYearColumn(t)) return t;
  const keys = t.columns.filter((c) => c.role === 'key' && c.name !== 'year');
  const values = t.columns.filter((c) => c.role === 'value');
  const years = [...new Set(t.rows.map((r) => r.year).filter((y): y is number => typeof y === 'number'))].sort((a, b) => a - b);
  const units = new Map<string, Row>();
  for (const r of t.rows) {
    if (typeof r.year !== 'number') continue;
    const id = JSON.stringify(keys.map((k) => r[k.name] ?? null));
    let u = units.get(id);
    if (!u) {
      u = {};
      for (const k of keys) if (r[k.name] !== undefined) u[k.name] = r[k.name];
      units.set(id, u);
    }
    for (const v of values) if (r[v.name] !== undefined && r[v.name] !== null) u[`${v.name}_${r.year}`] = r[v.name];
  }
  const columns: ColumnInfo[] = [...keys];
  for (const v of values) for (const y of years) columns.push({ ...v, name: `${v.name}_${y}`, label: `${v.label}, ${y}` });
  return { ...t, rows: [...units.values()], columns };
}
