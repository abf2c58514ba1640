/**
 * Query planning: validating and resolving `var`, `by` and `stats` against the catalog
 * into variable and grouping specifications the accumulator runs on.
 */
import type { Catalog } from '../catalog';
import { unknownCodeMessage } from '../catalog';
import { asList, byCodesOf } from '../args';
import { IndapiError } from '../errors';
import { breaksMessage, breaksProblem, intervalRule } from '../r/breaks';
import type { ByArg, ClassEntry, VarRecord } from '../types';
import { parseAggFun, renameColumns, type AggFormula } from '../r/expr';
import { cutLabels } from '../r/labels';
import { ZONAL_NAMES, type ZonalPlan } from './zonal';
import { deparse, SHORT } from '../r/deparse';

/** A summarised variable. */
export interface VarSpec {
  code: string;
  rec: VarRecord;
  /** The parsed catalog formula (class records: `dominant` of their own code). */
  formula: AggFormula;
  /**
   * Records of the other columns the formula names (weights, areas, helper columns that may
   * be unpublished), whose COGs `cog/<code>.tif` are read with the record's own.
   */
  columnRecs: VarRecord[];
  /** Class table (class variables), sorted by value. */
  classes?: ClassEntry[];
  /** Extra statistics requested (the older ones and the zonal operations' names). */
  stats: string[];
  /** The zonal operations of the query (`zonal.ts`), when `stats` names any. */
  zonal?: ZonalPlan;
}

/** A grouping dimension. */
export interface BySpec {
  code: string;
  /** Name of the key field in rows: the code, or `<code>_by` when the code is also a summarised `var`. */
  key: string;
  rec: VarRecord;
  kind: 'class' | 'cut';
  /** Number of groups of this dimension. */
  n: number;
  /** Label of each group index. */
  labels: string[];
  /** Sort rank of each group index (labels of classes in C-locale order; intervals in order). */
  rank: Int32Array;
  /** class: lookup raster value -> group index (-1 none); sized max value + 1. */
  lut?: Int32Array;
  /** class: raster value per group index. */
  values?: number[];
  /** class filter given: cells of other classes (and no-data) are dropped from the selection. */
  filtered?: boolean;
  /** cut: increasing breaks. */
  breaks?: Float64Array;
  /**
   * class: ISO3 code of the country of each group index, when the class table has an `iso3`
   * column (units such as ADM1_NAME_ALT); rows by this dimension then carry ISO3 and ADM0_NAME.
   */
  iso3?: string[];
  /**
   * class: name of the first-level unit of each group index, when the class table has an
   * `adm1` column (second-level units such as ADM2_NAME_ALT); rows then carry ADM1_NAME_ALT.
   */
  adm1?: string[];
}

/** R's default `dig.lab` of `cut()`. */
export const DEFAULT_DIG_LAB = 3;

/**
 * Validates `dig.lab` (digits of interval labels, R `cut(dig.lab =)`): a whole number from 1
 * to 12; undefined gives R's default 3.
 * @throws IndapiError BAD_ARGUMENT naming `dig.lab` for anything else
 */
export function digLabOf(v: unknown): number {
  if (v === undefined || v === null) return DEFAULT_DIG_LAB;
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 12) {
    throw new IndapiError('BAD_ARGUMENT', `'dig.lab' must be a whole number from 1 to 12 (digits of interval labels, as R cut()), got ${deparse(v, SHORT)}.`);
  }
  return n;
}

/** The older extra statistics a request may ask for (besides pNN percentiles, 0 <= NN <= 100). */
export const LEGACY_STATS = ['count', 'sum', 'mean', 'min', 'max', 'sd', 'majority', 'minority', 'hist'] as const;

/** Every statistic `stats` may name (besides pNN): the older ones, then the zonal operations of `zonal.ts`. */
export const STAT_NAMES: readonly string[] = [...LEGACY_STATS, ...ZONAL_NAMES];

/** Whether a statistic is one of the older ones (`accumulate.ts`) rather than a zonal operation. */
export function isLegacyStat(s: string): boolean {
  return !ZONAL_NAMES.includes(s);
}

/** Bins of the `hist` statistic. */
export const HIST_BINS = 10;

/**
 * Validates requested statistics.
 * @throws IndapiError BAD_ARGUMENT naming unknown statistics
 */
export function checkStats(stats: unknown): string[] {
  const s = [...new Set(asList(stats, 'stats'))];
  const bad = s.filter((x) => !STAT_NAMES.includes(x) && !/^p(100|[1-9]?[0-9])$/.test(x));
  if (bad.length) {
    throw new IndapiError('BAD_ARGUMENT', `Unknown statistic ${bad.join(', ')}; use ${STAT_NAMES.join(', ')} or pNN (percentile, e.g. p25).`);
  }
  return s;
}

/** Class table sorted by value, checked for integer values. */
async function sortedClasses(cat: Catalog, code: string, signal?: AbortSignal): Promise<ClassEntry[]> {
  const t = await cat.classes(code, signal);
  return [...t].sort((a, b) => a.value - b.value);
}

function cmpC(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The parsed catalog formula of a record, its columns resolved against the catalog. Class
 * records are always the dominant class of their own cells. A record without a formula is
 * `mean(<code>, na.rm=TRUE)`. The formula's first column stands for the record's own values
 * when it has no record of its own (the catalog may summarise a record under another name);
 * every other column it names must have a record (published or not) with a COG.
 * @throws IndapiError BAD_ARGUMENT when the formula does not parse (naming it and the
 *   position), INTERNAL when it names a code that has no catalog record
 */
export function formulaOf(cat: Catalog, rec: VarRecord): AggFormula {
  const code = rec.varCode;
  if (rec.type === 'class') return { kind: 'dominant', text: rec.aggFunR || `dominant(${code})`, code, columns: [code] };
  let f = parseAggFun(rec.aggFunR || `mean(${code}, na.rm=TRUE)`);
  const first = f.columns[0];
  if (first !== undefined && first !== code && !cat.get(first)) f = renameColumns(f, new Map([[first, code]]));
  const unknown = f.columns.filter((c) => c !== code && !cat.get(c));
  if (unknown.length) {
    throw new IndapiError('INTERNAL', `The catalog formula of ${code} '${f.text}' names ${unknown.join(', ')}, which ${unknown.length > 1 ? 'have' : 'has'} no catalog record.`, { code, formula: f.text, codes: unknown });
  }
  return f;
}

/**
 * Resolves `var` codes (de-duplicated) into specs.
 * @throws IndapiError UNKNOWN_CODE (all unknown codes, with `by` ones, in one message)
 */
export async function planVars(cat: Catalog, vars: string[], byCodes: string[], stats: string[], signal?: AbortSignal): Promise<VarSpec[]> {
  if (!vars.length) throw new IndapiError('BAD_ARGUMENT', "'var' needs at least one indicator code.");
  const uniq = [...new Set(vars)];
  const bad = [...new Set([...uniq, ...byCodes].filter((c) => !cat.get(c)))];
  if (bad.length) throw new IndapiError('UNKNOWN_CODE', unknownCodeMessage(bad), { codes: bad });
  const out: VarSpec[] = [];
  for (const code of uniq) {
    const rec = cat.need(code);
    const spec: VarSpec = { code, rec, formula: formulaOf(cat, rec), columnRecs: [], stats };
    if (rec.type !== 'class') spec.columnRecs = spec.formula.columns.filter((c) => c !== code).map((c) => cat.get(c)!);
    if (rec.type === 'class') spec.classes = await sortedClasses(cat, code, signal);
    out.push(spec);
  }
  return out;
}

/**
 * Resolves `by` into grouping dimensions: class layers group as they are (optionally
 * filtered), continuous layers are cut at the catalog's default breaks or at custom ones,
 * labelled as R `cut(x, breaks, dig.lab = digLab)` labels them.
 * @throws IndapiError BAD_BREAKS for breaks that are not increasing numbers,
 *   UNKNOWN_CLASS for a filter naming classes that do not exist
 */
export async function planBy(cat: Catalog, by: ByArg | string | undefined | null, signal?: AbortSignal, digLab = DEFAULT_DIG_LAB): Promise<BySpec[]> {
  const codes = [...new Set(byCodesOf(by))];
  const custom = by && typeof by === 'object' && !Array.isArray(by) ? (by as Record<string, unknown>) : null;
  const out: BySpec[] = [];
  for (const code of codes) {
    const rec = cat.need(code);
    const arg = custom ? custom[code] : undefined;
    if (rec.type === 'class') {
      const classes = await sortedClasses(cat, code, signal);
      let keep = classes;
      let filtered = false;
      if (arg !== undefined && arg !== null) {
        const list = Array.isArray(arg) ? arg : [arg];
        if (!list.length) throw new IndapiError('BAD_ARGUMENT', `The class filter of ${code} is empty.`);
        const unknown: string[] = [];
        const chosen = new Set<number>();
        for (const x of list) {
          const hit = classes.find((c) => c.label === String(x)) ?? classes.find((c) => String(c.value) === String(x));
          if (hit) chosen.add(hit.value);
          else unknown.push(String(x));
        }
        if (unknown.length) {
          throw new IndapiError('UNKNOWN_CLASS', `Class ${unknown.join(', ')} of ${code} does not exist. Use describe() for its classes.`, { code, classes: unknown });
        }
        keep = classes.filter((c) => chosen.has(c.value));
        filtered = true;
      }
      const maxV = classes.reduce((m, c) => Math.max(m, c.value), 0);
      const lut = new Int32Array(maxV + 1).fill(-1);
      keep.forEach((c, i) => { if (c.value >= 0) lut[c.value] = i; });
      const labels = keep.map((c) => c.label);
      const order = labels.map((_, i) => i).sort((a, b) => cmpC(labels[a], labels[b]) || keep[a].value - keep[b].value);
      const rank = new Int32Array(labels.length);
      order.forEach((gi, r) => { rank[gi] = r; });
      const spec: BySpec = { code, key: code, rec, kind: 'class', n: keep.length, labels, rank, lut, values: keep.map((c) => c.value), filtered };
      if (classes.some((c) => typeof c.iso3 === 'string' && c.iso3 !== '')) spec.iso3 = keep.map((c) => (typeof c.iso3 === 'string' ? c.iso3.toUpperCase() : ''));
      if (classes.some((c) => c.adm1 !== undefined && c.adm1 !== '')) spec.adm1 = keep.map((c) => (c.adm1 === undefined ? '' : String(c.adm1)));
      out.push(spec);
    } else {
      let breaks: number[];
      if (arg !== undefined && arg !== null) {
        const list = Array.isArray(arg) ? arg : [arg];
        breaks = list.map((x) => (typeof x === 'number' ? x : typeof x === 'string' && x.trim() !== '' ? Number(x) : NaN));
        // the rule of src/core/breaks.ts (the Summaries panel checks typed breaks with it); the API's message stays as it was
        const rule = intervalRule(code);
        const p = breaksProblem(breaks, rule);
        if (p) throw new IndapiError('BAD_BREAKS', p.kind === 'count' ? breaksMessage(p, rule) : `Breaks for ${code} must be at least two increasing numbers, got [${list.map(String).join(', ')}].`, { code });
      } else {
        breaks = rec.classBreaks.split('|').filter((s) => s.trim() !== '').map(Number);
        if (breaks.length < 2 || breaks.some((b, i) => !Number.isFinite(b) || (i > 0 && b <= breaks[i - 1]))) {
          throw new IndapiError('BAD_BREAKS', `${code} has no usable default breaks in the catalog; give breaks as {"${code}": [..]}.`, { code });
        }
      }
      const labels = cutLabels(breaks, digLab);
      const rank = Int32Array.from(labels.map((_, i) => i));
      out.push({ code, key: code, rec, kind: 'cut', n: labels.length, labels, rank, breaks: Float64Array.from(breaks) });
    }
  }
  return out;
}
