/**
 * Years of a query over series (src/core/catalog `seriesYears`): which years it reads (the
 * `year` argument, else the latest year every series in `var` holds), each year run as its own
 * query (national series read at that year, a gridded series through its year's record), then
 * the tables joined in long form (one row per unit and year, a `year` column) or, with `change`,
 * one row per unit with the change between the two years. Values are never interpolated: a unit
 * without a value in a year has none in that year's row (NA), and no change.
 */
import type { Catalog } from '../catalog';
import { IndapiError } from '../errors';
import { roundR } from '../r';
import type { ColumnInfo, GetLayerArgs, Row, TableResult } from '../types';
import type { QueryScope } from './query';

/** The years a query runs at. */
export interface YearPlan {
  /** Years in output order (increasing; with `change`, from then to). */
  years: number[];
  /** The change between the two years, when asked. */
  change?: 'diff' | 'pct';
  /** The series codes of `var` (stems or national series). */
  series: string[];
}

/** Years as short text: runs of consecutive years as `1960-2016`, others listed (`1990, 2000-2002`). */
export function yearsText(ys: number[]): string {
  const out: string[] = [];
  for (let i = 0; i < ys.length; i++) {
    let j = i;
    while (j + 1 < ys.length && ys[j + 1] === ys[j] + 1) j++;
    out.push(j > i ? `${ys[i]}-${ys[j]}` : String(ys[i]));
    i = j;
  }
  return out.join(', ');
}

/**
 * The year plan of a query, or null when no code of `var` is a series and neither `year` nor
 * `change` is given (the query runs as before).
 * @throws IndapiError BAD_ARGUMENT naming `year` (a year a series does not hold, listing the
 *   years it holds; a code that is not a series; no year common to all series) or `change`
 *   (not "diff"/"pct", or not exactly two years: the message names both)
 */
export function planYears(cat: Catalog, args: Pick<GetLayerArgs, 'var' | 'year' | 'change'>): YearPlan | null {
  const vars = Array.isArray(args.var) ? args.var : [args.var];
  const held = new Map<string, number[]>();
  for (const v of vars) {
    const ys = cat.seriesYears(String(v));
    if (ys) held.set(String(v), ys);
  }
  const year = args.year;
  if (!held.size && year === undefined && args.change === undefined) return null;
  if (!held.size) throw new IndapiError('BAD_ARGUMENT', `'year': no code of 'var' is a series (${vars.join(', ')}); query it without 'year' and 'change'.`, { arg: 'year' });
  const plain = vars.filter((v) => !held.has(String(v)));
  if (plain.length) throw new IndapiError('BAD_ARGUMENT', `'year': ${plain.join(', ')} ${plain.length > 1 ? 'are' : 'is'} not a series; query series and other codes in separate calls.`, { arg: 'year' });
  const common = [...held.values()].reduce((acc, ys) => acc.filter((y) => ys.includes(y)));
  let years: number[];
  if (year === undefined || year === null) {
    if (!common.length) throw new IndapiError('BAD_ARGUMENT', `'year': the series ${[...held.keys()].join(', ')} hold no year in common.`, { arg: 'year' });
    years = [common[common.length - 1]];
  } else {
    years = [...new Set(year)];
    for (const y of years) {
      if (!Number.isInteger(y)) throw new IndapiError('BAD_ARGUMENT', `'year' must be whole years (e.g. 2000, c(2000, 2017), 2000:2017), not ${y}.`, { arg: 'year' });
      for (const [code, ys] of held) {
        if (!ys.includes(y)) throw new IndapiError('BAD_ARGUMENT', `'year': ${code} does not hold ${y}; it holds ${yearsText(ys)}.`, { arg: 'year', code, years: ys });
      }
    }
  }
  if (args.change !== undefined) {
    if (args.change !== 'diff' && args.change !== 'pct') throw new IndapiError('BAD_ARGUMENT', `'change' must be "diff" or "pct", not "${String(args.change)}".`, { arg: 'change' });
    if (years.length !== 2) throw new IndapiError('BAD_ARGUMENT', `'change' needs exactly two years in 'year' (from, to), not ${years.length}.`, { arg: 'change' });
    return { years, change: args.change, series: [...held.keys()] };
  }
  return { years: years.sort((a, b) => a - b), series: [...held.keys()] };
}

/** `name` renamed from a member code to its series stem (`PN05_TOT` -> `PN_TOT`, `PN05_TOT_sd` -> `PN_TOT_sd`). */
function renamed(name: string, toStem: Map<string, string>): string {
  for (const [member, stem] of toStem) {
    if (name === member) return stem;
    if (name.startsWith(`${member}_`)) return stem + name.slice(member.length);
  }
  return name;
}

const YEAR_COL: ColumnInfo = { name: 'year', role: 'key', label: 'Year', unit: '', type: 'integer' };

/** A row with `year` after its keys (the fields that are not value columns). */
function withYear(r: Row, year: number, values: Set<string>): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(r)) if (!values.has(k)) out[k] = v;
  out.year = year;
  for (const [k, v] of Object.entries(r)) if (values.has(k)) out[k] = v;
  return out;
}

/** One year's table with member codes renamed to their stems. */
function stemmed(t: TableResult, toStem: Map<string, string>): TableResult {
  if (!toStem.size) return t;
  const rows = t.rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [renamed(k, toStem), v])));
  const columns = t.columns.map((c) => ({ ...c, name: renamed(c.name, toStem), code: c.code && (toStem.get(c.code) ?? c.code) }));
  return { ...t, rows, columns };
}

/** The key of a row: its fields that are not value columns, as text. */
function unitKey(r: Row, values: Set<string>): string {
  return JSON.stringify(Object.entries(r).filter(([k]) => !values.has(k) && k !== 'year'));
}

/**
 * Change rows: per unit of the `from` table, each value column as to - from (rounded to the
 * column's decimals) or 100 * (to - from) / from (2 decimals), of the rounded values the
 * single-year calls give; NA (absent) when either is NA or the percentage divides by 0.
 */
function changeRows(from: TableResult, to: TableResult, plan: YearPlan & { change: 'diff' | 'pct' }): Row[] {
  const values = new Set(from.columns.filter((c) => c.role === 'value').map((c) => c.name));
  const decOf = new Map(from.columns.map((c) => [c.name, c.dec ?? 15]));
  const toBy = new Map(to.rows.map((r) => [unitKey(r, values), r]));
  return from.rows.map((r) => {
    const t = toBy.get(unitKey(r, values));
    const out: Row = {};
    for (const [k, v] of Object.entries(r)) if (!values.has(k)) out[k] = v;
    out.year_from = plan.years[0];
    out.year_to = plan.years[1];
    for (const name of values) {
      const a = r[name];
      const b = t?.[name];
      if (typeof a !== 'number' || typeof b !== 'number') continue;
      const d = plan.change === 'diff' ? roundR(b - a, decOf.get(name)!) : roundR((100 * (b - a)) / a, 2);
      if (Number.isFinite(d)) out[name] = d;
    }
    return out;
  });
}

/**
 * Runs a query at each year of `plan` and joins the tables (see the module comment).
 * @param run the query of one year over a scope whose context reads that year
 * @throws what `run` throws
 */
export async function perYear(cat: Catalog, plan: YearPlan, q: QueryScope, args: GetLayerArgs, run: (q: QueryScope, a: GetLayerArgs) => Promise<TableResult>): Promise<TableResult> {
  const tables: TableResult[] = [];
  for (const year of plan.years) {
    const toStem = new Map<string, string>();
    const vars = args.var.map((v) => {
      const rec = cat.seriesRecord(v, year);
      if (rec.varCode !== v) toStem.set(rec.varCode, v);
      return rec.varCode;
    });
    const qy: QueryScope = { store: q.store, ctx: async (signal) => ({ ...(await q.ctx(signal)), year }) };
    const { year: _y, change: _c, ...rest } = args;
    tables.push(stemmed(await run(qy, { ...rest, var: vars }), toStem));
  }
  const first = tables[0];
  const values = new Set(first.columns.filter((c) => c.role === 'value').map((c) => c.name));
  const keyCols = first.columns.filter((c) => c.role === 'key');
  const valueCols = first.columns.filter((c) => c.role === 'value');
  if (plan.change) {
    // the unit says '%' (writers add it to labels: "...: change 2000-2017 (%)")
    const unit = plan.change === 'diff' ? '' : '%';
    const changeCols = valueCols.map((c) => ({ ...c, label: `${c.label}: change ${plan.years[0]}-${plan.years[1]}`, unit: unit || c.unit, dec: plan.change === 'pct' ? 2 : c.dec }));
    const yearCols: ColumnInfo[] = [{ ...YEAR_COL, name: 'year_from', label: 'From year' }, { ...YEAR_COL, name: 'year_to', label: 'To year' }];
    return { ...first, rows: changeRows(first, tables[1], { ...plan, change: plan.change }), columns: [...keyCols, ...yearCols, ...changeCols] };
  }
  const rows = tables.flatMap((t, i) => t.rows.map((r) => withYear(r, plan.years[i], values)));
  return { ...first, rows, columns: [...keyCols, YEAR_COL, ...valueCols] };
}
