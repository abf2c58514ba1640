/**
 * `similar`: the units (cells, first- or second-level administrative units) of a selection
 * ranked by their distance to a reference unit `x` over the indicators `var`: the sum over
 * continuous indicators of |value - reference| / sd (R `scale()`: sd over the units with
 * every indicator), plus 0 / 1 per class indicator (same class or not). Ties share a rank; the
 * reference comes first among its ties.
 */
import type { CallOptions, ColumnInfo, TableResult } from '../api';
import { IndapiError } from '../errors';
import { cellToColRow } from '../grid';
import type { GetLayerArgs, Row } from '../types';
import type { Computed } from './compute';
import type { Ctx } from './context';
import { roundR } from '../r/labels';
import { asList } from '../args';
import { fmtValue } from './rows';

/** Arguments of `similar`. */
export interface SimilarArgs {
  /** The reference unit: a CELL5M id (by 0), a unit code, class value or name. */
  x: string | number;
  /** Indicator codes. */
  var: string[];
  /** 0 cells, 1 first-level units, 2 second-level units. */
  by?: number;
  /** Countries or regions of the selection (their union). */
  iso3?: string[];
}

/** Runs the main query as a table with what it computed (the `union` of the iso3 codes' cells). */
export type RunTable = (args: GetLayerArgs, o: CallOptions, union: boolean) => Promise<TableResult & { computed: Computed; ctx: Ctx }>;

/** A candidate unit: key fields, unrounded values (class values for class variables), shown values. */
interface Unit { keys: Row; vals: number[]; labels: Array<string | number | null | undefined> }

/** Level name of `by` for messages. */
const levelOf = (by: number) => (by === 0 ? 'cells' : by === 1 ? 'first-level units' : 'second-level units');

/**
 * The class layer whose units `by` names ('' for cells).
 * @throws IndapiError BAD_ARGUMENT for another `by`, or by = 2 without a second-level layer
 */
function unitCodeOf(c: Ctx, by: number): string {
  if (by === 1) return 'ADM1_CODE_ALT';
  if (by === 2) {
    const code = c.cat.get('ADM2_CODE_ALT') ? 'ADM2_CODE_ALT' : c.cat.get('ADM2_NAME_ALT') ? 'ADM2_NAME_ALT' : '';
    if (!code) throw new IndapiError('BAD_ARGUMENT', 'Second-level administrative units (by = 2) are not in this bundle (no ADM2_CODE_ALT or ADM2_NAME_ALT layer); use by = 1 (first-level units) or 0 (cells).');
    return code;
  }
  return '';
}

/** Administrative units of the selection as candidates; `refs` gets those `xs` names (code, value or name). */
async function adminUnits(c: Ctx, cp: Computed, unitCode: string, by: number, xs: string, refs: number[]): Promise<Unit[]> {
  const units: Unit[] = [];
  const d = cp.bys[0];
  const entry = new Map((await c.cat.classes(unitCode)).map((e) => [e.value, e]));
  const S = cp.frame.S;
  const nameCol = unitCode.endsWith('_CODE_ALT') ? unitCode.replace('_CODE_ALT', '_NAME_ALT') : '';
  for (let b = 0; b < cp.frame.C; b++) {
    for (let s = 0; s < d.n; s++) { // index d.n is the NA group (cells outside every unit)
      const g = b * S + s;
      if (!(cp.frame.groupN[g] > 0)) continue;
      const e = entry.get(d.values![s])!;
      const keys: Row = { [unitCode]: e.label };
      if (nameCol && typeof e.name === 'string' && e.name) keys[nameCol] = e.name;
      if (by === 2 && e.adm1 !== undefined && e.adm1 !== '') keys.ADM1_NAME_ALT = String(e.adm1);
      if (typeof e.iso3 === 'string' && e.iso3) keys.ISO3 = e.iso3;
      if (e.label === xs || String(e.value) === xs || (typeof e.name === 'string' && e.name.toLowerCase() === xs.toLowerCase())) refs.push(units.length);
      // count: a unit none of whose cells has a value of an indicator misses it, whatever its
      // formula gives there (R's sum(x, na.rm = TRUE) is 0 over no value)
      units.push({ keys, vals: cp.aggs!.map((a) => (Number(a.stat('count', g)) > 0 ? a.numeric(g) : NaN)), labels: cp.aggs!.map((a) => fmtValue(a.spec, a.value(g))) });
    }
  }
  return units;
}

/** Cells of the selection as candidates (the per-cell rows of `base`); `refs` gets the cell `xs`. */
function cellUnits(c: Ctx, cp: Computed, rows: Row[], xs: string, refs: number[]): Unit[] {
  const units: Unit[] = [];
  const id = Number(xs);
  const [wx0, wy0, wx1] = cp.sel.win;
  const ww = wx1 - wx0;
  for (const r of rows) {
    const keys: Row = { CELL5M: r.CELL5M, X: r.X, Y: r.Y };
    if (r.ISO3 !== undefined) keys.ISO3 = r.ISO3;
    if (r.CELL5M === id) refs.push(units.length);
    const [col, row] = cellToColRow(c.grid, Number(r.CELL5M))!;
    const i = (row - wy0) * ww + (col - wx0);
    units.push({
      keys,
      vals: cp.vars.map((v, k) => {
        const x = cp.varData[k][i];
        if (v.rec.type === 'class') return x >= 0 && v.classes!.some((e) => e.value === x) ? x : NaN;
        return x;
      }),
      labels: cp.vars.map((v) => r[v.code]),
    });
  }
  return units;
}

/**
 * The reference among the units `x` names.
 * @throws IndapiError BAD_ARGUMENT when none, when a name is ambiguous among second-level
 *   units, or when the reference lacks an indicator
 */
function referenceOf(cp: Computed, units: Unit[], refs: number[], x: unknown, xs: string, by: number, unitCode: string): number {
  if (refs.length === 0) {
    throw new IndapiError('BAD_ARGUMENT', `Unit '${xs}' was not found among the ${levelOf(by)} of the selection.`, { x });
  }
  if (by === 2 && refs.length > 1 && !refs.some((u) => units[u].keys[unitCode] === xs || String(units[u].keys[unitCode]) === xs)) {
    const which = refs.map((u) => `${units[u].keys[unitCode]} (${[units[u].keys.ADM1_NAME_ALT, units[u].keys.ISO3].filter(Boolean).join(', ')})`);
    throw new IndapiError('BAD_ARGUMENT', `Unit '${xs}' names ${refs.length} second-level units: ${which.join('; ')}. Give its code.`, { x });
  }
  const ref = refs.find((u) => units[u].keys[unitCode] === xs) ?? refs[0];
  // the reference must have every indicator; units missing any are left out of the ranking
  const refMissing = cp.vars.filter((_, k) => !Number.isFinite(units[ref].vals[k])).map((v) => v.code);
  if (refMissing.length) {
    const them = refMissing.length > 1 ? 'them' : 'it';
    throw new IndapiError('BAD_ARGUMENT', `Unit '${xs}' has no value of ${refMissing.join(', ')}, so it cannot be compared on ${them}; leave ${them} out of 'var'.`, { x });
  }
  return ref;
}

/** Scores on unrounded values: |x - ref| / sd over the complete units (R scale()), 0/1 for classes. */
function scores(cp: Computed, complete: Unit[], refUnit: Unit): Float64Array {
  const score = new Float64Array(complete.length);
  cp.vars.forEach((v, k) => {
    const r = refUnit.vals[k];
    if (v.rec.type === 'class') {
      complete.forEach((u, j) => { score[j] += u.vals[k] === r ? 0 : 1; });
      return;
    }
    const n = complete.length;
    if (n < 2) return;
    let s = 0, q = 0;
    for (const u of complete) s += u.vals[k];
    const mean = s / n;
    for (const u of complete) q += (u.vals[k] - mean) ** 2;
    const sd = Math.sqrt(q / (n - 1));
    if (!(sd > 0)) return;
    complete.forEach((u, j) => { score[j] += Math.abs(u.vals[k] - r) / sd; });
  });
  return score;
}

/** Ranked rows: keys, shown values, score (4 decimals) and rank (ties share it; the reference first among its ties). */
function rankedRows(cp: Computed, complete: Unit[], refUnit: Unit, score: Float64Array): Row[] {
  const refPos = complete.indexOf(refUnit);
  const order = complete.map((_, i) => i).sort((a, b) => score[a] - score[b] || (a === refPos ? -1 : b === refPos ? 1 : a - b));
  const rows: Row[] = [];
  let rank = 0;
  order.forEach((u, i) => {
    if (i === 0 || score[u] !== score[order[i - 1]]) rank = i + 1;
    const row: Row = { ...complete[u].keys };
    cp.vars.forEach((v, k) => { const x = complete[u].labels[k]; if (x !== undefined && x !== null) row[v.code] = x; });
    row.score = roundR(score[u], 4);
    row.rank = rank;
    rows.push(row);
  });
  return rows;
}

/** Key columns of administrative units: code, name, first-level name (by 2), ISO3. */
function unitColumns(c: Ctx, unitCode: string, by: number): ColumnInfo[] {
  const key = (name: string, label: string): ColumnInfo => ({ name, role: 'key', code: c.cat.get(name) ? name : undefined, label: c.cat.get(name)?.varLabel ?? label, unit: '', type: 'string' });
  const cols = [key(unitCode, 'Unit code')];
  if (unitCode === 'ADM1_CODE_ALT') cols.push(key('ADM1_NAME_ALT', 'Unit name'));
  if (unitCode === 'ADM2_CODE_ALT') cols.push(key('ADM2_NAME_ALT', 'Unit name'));
  if (by === 2) cols.push(key('ADM1_NAME_ALT', 'First-level unit name'));
  cols.push({ ...key('ISO3', 'ISO3 country code'), code: 'ISO3', label: 'ISO3 country code' });
  return cols;
}

/**
 * Ranks the units of a selection by similarity to unit `x`.
 * @throws IndapiError BAD_ARGUMENT (by not 0/1/2, x missing, unknown or ambiguous, or without
 *   an indicator), and what the main query throws
 */
export async function similar(c: Ctx, args: SimilarArgs, runTable: RunTable, o: CallOptions): Promise<TableResult> {
  const by = args?.by === undefined ? 0 : Number(args.by);
  if (by !== 0 && by !== 1 && by !== 2) throw new IndapiError('BAD_ARGUMENT', "'by' must be 0 (cells), 1 (first-level units) or 2 (second-level units).");
  const unitCode = unitCodeOf(c, by);
  if (args.x === undefined || args.x === null || args.x === '') throw new IndapiError('BAD_ARGUMENT', "'x' (the reference unit) is required.");
  const vars = [...new Set(asList(args.var, 'var'))];
  const base = await runTable({ var: vars, iso3: args.iso3, by: by ? [unitCode] : undefined, collapse: by !== 0, stats: by ? ['count'] : undefined }, o, true);
  const cp = base.computed;
  const refs: number[] = [];
  const xs = String(args.x).trim();
  const units = by ? await adminUnits(c, cp, unitCode, by, xs, refs) : cellUnits(c, cp, base.rows, xs, refs);
  const refUnit = units[referenceOf(cp, units, refs, args.x, xs, by, unitCode)];
  const complete = units.filter((u) => u.vals.every((x) => Number.isFinite(x)));
  const leftOut = units.length - complete.length;
  const rows = rankedRows(cp, complete, refUnit, scores(cp, complete, refUnit));
  const keyCols: ColumnInfo[] = by ? unitColumns(c, unitCode, by) : base.columns.filter((col) => ['CELL5M', 'X', 'Y', 'ISO3'].includes(col.name));
  const valCols = base.columns.filter((col) => col.role === 'value' && cp.vars.some((v) => v.code === col.name));
  const missingBy = cp.vars.map((v, k) => [v.code, units.filter((u) => !Number.isFinite(u.vals[k])).length] as const).filter(([, n]) => n > 0);
  return {
    rows,
    columns: [
      ...keyCols, ...valCols,
      { name: 'score', role: 'value', label: 'Distance score (sum of absolute standardised differences; lower is more similar)', unit: '', type: 'number', dec: 4 },
      { name: 'rank', role: 'value', label: 'Rank by similarity (1 = most similar)', unit: '', type: 'integer' },
    ],
    meta: base.meta,
    leftOut: leftOut
      ? { count: leftOut, of: units.length, reason: `${leftOut} of ${units.length} ${levelOf(by)} left out: no value of ${missingBy.map(([code, n]) => `${code} (${n})`).join(', ')}.` }
      : undefined,
  };
}
