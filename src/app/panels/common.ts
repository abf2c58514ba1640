/** Shared shapes of the side panels. */
import type { Dispatch, SetStateAction } from 'react';
import type { MethodName } from '../../contract/methods';
import type { IsoEntry, Row, VarRecord } from '../../core/types';
import type { UrlState } from '../url-state';
import type { SeriesInfo } from '../../ui/series-info';
import type { ChipOption, OptionSearch } from '../../ui/ChipSelect';
import { buildCatalogIndex } from '../../core/catalog/search';
import { parseBreaks, type BreakRule } from '../../core/r/breaks';

/** A query the user ran, for downloads and the API panel (arguments as the HTTP contract names them). */
export interface QuerySpec {
  /** Contract method: indapi (getLayer / WKT areas), similar or catchment (the registry's names, src/contract/methods). */
  method: MethodName;
  /** Arguments as JSON (var, iso3, by, wkt, exact, x, ...). */
  args: Record<string, unknown>;
  /**
   * The engine's result shown for this query (summary table, ranking, catchment), when the
   * panel's result is what the method's downloads write: the files worker writes it instead of
   * running the query again (set by `useRun` with its option `result`).
   */
  result?: unknown;
  /** Short description. */
  label: string;
}

/** What every panel gets. */
export interface PanelCtx {
  catalog: VarRecord[];
  byCode: Map<string, VarRecord>;
  iso: IsoEntry[];
  state: UrlState;
  update: (p: Partial<UrlState>) => void;
  /**
   * App's record of the query behind the result on screen (the Download and API tabs describe
   * it). Panels hand it to `useRun` (option `setQuery`), which sets it when a result is shown.
   */
  setQuery: Dispatch<SetStateAction<QuerySpec | null>>;
  /** Zooms the map to bounds [w, s, e, n] in degrees. */
  fitTo: (b: [number, number, number, number]) => void;
  /** The catalog's series by every code belonging to one (src/ui/series-catalog.ts; empty until worked out after the catalog). */
  series?: ReadonlyMap<string, SeriesInfo>;
}

/** Options for indicator pickers (grouped by category; chips show the label with the code apart). */
export function varOptions(catalog: VarRecord[], filter?: (r: VarRecord) => boolean): ChipOption[] {
  return catalog.filter((r) => !filter || filter(r)).map((r) => ({ value: r.varCode, label: `${r.varLabel} (${r.varCode})`, chip: r.varLabel, code: r.varCode, group: r.cat1 }));
}

/**
 * The catalog's search (src/core/catalog/search.ts: synonyms such as "town" for places,
 * BM25 ranking, exact codes first) as an indicator picker's ranked search: codes best first.
 * One index per catalog array (built on the first query).
 */
export function varSearch(catalog: VarRecord[]): OptionSearch {
  let index = SEARCH_INDEX.get(catalog);
  if (!index) { index = buildCatalogIndex(catalog); SEARCH_INDEX.set(catalog, index); }
  const idx = index;
  return (q: string) => idx.search(q).hits.map((h) => h.rec.varCode);
}
const SEARCH_INDEX = new WeakMap<VarRecord[], ReturnType<typeof buildCatalogIndex>>();

/** Options for country/region pickers (regions first). */
export function isoOptions(iso: IsoEntry[]): ChipOption[] {
  return [...iso].sort((a, b) => (a.type === b.type ? a.name.localeCompare(b.name) : a.type === 'region' ? -1 : 1))
    .map((e) => ({ value: e.code, label: `${e.name} (${e.code})`, chip: e.name, code: e.code, group: e.type === 'region' ? 'Regions' : 'Countries' }));
}

/**
 * Indicators to summarise: the chosen list; with none chosen, the mapped one, unless the
 * user removed every indicator (`noVars`).
 */
export function summaryVars(s: UrlState): string[] {
  return s.vars.length ? s.vars : s.v && !s.noVars ? [s.v] : [];
}

/**
 * A unit as people read it: powers as superscripts ("km2" -> "km²", "m3" -> "m³"); display
 * only, the API and files keep the catalog's ASCII ("km2").
 */
export function prettyUnit(unit: string): string {
  return unit.replace(/\b([a-zA-Zµ]+)([23])\b/g, (_, u: string, p: string) => `${u}${p === '2' ? '²' : '³'}`).replace(/\^2\b/g, '²').replace(/\^3\b/g, '³');
}

/**
 * An interval label in plain numbers (for a tooltip next to the API label): R's `cut()` labels keep 3 significant digits in
 * e-notation ("(500,1e+03]"); display shows plain numbers ("(500,1000]"). Display only.
 */
export function prettyInterval(label: string): string {
  return label.replace(/[-+]?\d+(?:\.\d+)?e[-+]?\d+/gi, (m) => String(Number(m)));
}

/** Formats a number with exactly `dec` decimals (catalog `dec`, 0..6) and digit grouping, e.g. "1,234.50". */
export function fmtNum(v: number, dec: number): string {
  const d = Math.max(0, Math.min(6, Math.round(dec)));
  return v.toLocaleString('en', { minimumFractionDigits: d, maximumFractionDigits: d });
}

/**
 * Display label of a result column: "Elevation (ETOPO5) (m)" from its catalog record, else
 * the code. `by` key columns named apart from the value of the same code ("ELEVATION_by")
 * read "Elevation (ETOPO5) interval (m)"; `total` is the overall-row marker.
 */
export function colLabel(byCode: Map<string, VarRecord>, code: string): string {
  if (code === 'ISO3') return 'Country';
  if (code === 'ADM0_NAME') return 'Country name';
  const key = /^(.+)_by$/.exec(code);
  const r = byCode.get(code) ?? (key ? byCode.get(key[1]) : undefined);
  if (!r) return code;
  const kind = key ? ' interval' : '';
  return r.unit ? `${r.varLabel}${kind} (${prettyUnit(r.unit)})` : `${r.varLabel}${kind}`;
}

/**
 * Name of the row column holding the keys of `by` code `b`: the key column the engine
 * derived from `b` (e.g. "ELEVATION_by" when ELEVATION is also summarised), else `b`.
 */
export function byColumn(columns: Array<{ name: string; role: string; code?: string }>, b: string): string {
  return columns.find((c) => c.role === 'key' && c.code === b && c.name !== 'total')?.name ?? b;
}

/** Rank of an interval label "(100,300]" / "[-Inf,0]": its lower bound; NaN when not an interval. */
export function intervalStart(label: string): number {
  const m = /^\s*[([]\s*(-?Inf|[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)\s*,/i.exec(label);
  if (!m) return NaN;
  return /inf/i.test(m[1]) ? (m[1].startsWith('-') ? -Infinity : Infinity) : Number(m[1]);
}

/**
 * Display order of the keys of a `by` column: class layers in the order of their class
 * values (`classLabels`, the class table order), intervals by their lower bound; null when
 * natural text order fits (e.g. unit names).
 */
export function keyOrder(values: string[], classLabels?: string[]): string[] | null {
  const distinct = [...new Set(values)];
  if (classLabels && classLabels.length) {
    const rank = new Map(classLabels.map((l, i) => [l, i]));
    if (distinct.some((v) => rank.has(v))) {
      return distinct.sort((a, b) => (rank.get(a) ?? Infinity) - (rank.get(b) ?? Infinity) || a.localeCompare(b));
    }
  }
  if (distinct.length && distinct.every((v) => !Number.isNaN(intervalStart(v)))) return distinct.sort((a, b) => intervalStart(a) - intervalStart(b));
  return null;
}

/**
 * Columns of a result table to show: the country columns (ISO3, ADM0_NAME) left out when
 * every row is in one country (named in `country`); with several countries the long name
 * is left out (ISO3 stays, the name is its tooltip). Key columns (`keys`) come first.
 */
export function tableColumns(rows: Row[], cols: string[], keys: string[] = []): { cols: string[]; country: string | null } {
  const isos = new Set(rows.map((r) => r.ISO3).filter((v) => v !== undefined && v !== ''));
  let out = cols;
  let country: string | null = null;
  if (isos.size === 1 && rows.every((r) => r.ISO3 !== undefined)) {
    const r0 = rows[0];
    country = r0.ADM0_NAME ? `${r0.ADM0_NAME} (${r0.ISO3})` : String(r0.ISO3);
    out = out.filter((c) => c !== 'ISO3' && c !== 'ADM0_NAME');
  } else if (isos.size > 1 && cols.includes('ISO3')) {
    out = out.filter((c) => c !== 'ADM0_NAME');
  }
  const first = keys.filter((k) => out.includes(k));
  return { cols: [...first, ...out.filter((c) => !first.includes(c))], country };
}

/**
 * Typed breaks read under a rule of src/core/breaks.ts (the API's own rule: `intervalRule(code)`
 * for a `by` code, `minutesRule(...)` for travel-time bands), or the message naming what is wrong.
 */
export function readBreaks(text: string, rule: BreakRule): number[] | string {
  try { return parseBreaks(text, rule); } catch (e) { return (e as Error).message; }
}

/** The first by-column present in rows, else a key column to label bars with. */
export function chartKey(rows: Row[], by: string[]): string {
  for (const b of by) if (rows.some((r) => r[b] !== undefined)) return b;
  for (const k of ['feature', 'ADM0_NAME', 'ISO3', 'ID']) if (rows.some((r) => r[k] !== undefined)) return k;
  return Object.keys(rows[0] ?? {})[0] ?? 'x';
}

/**
 * Message of an error for display, worded for the app: the API's advice for R users on an
 * unknown code ("Use describe() or category() …", as the original service) points to the catalog.
 */
export function errText(e: unknown): string {
  const m = (e as Error)?.message ?? String(e);
  return m.replace(/\s*Use describe\(\) or category\(\) to query indicator metadata\./, ' See the catalog for valid codes.');
}

/**
 * True when every indicator/domain code is in the catalog and every country/region code in the
 * country list (loaded): a link's run waits for the app to drop unknown codes first (one message,
 * the link's banner, instead of an API error about the same code).
 */
export function codesKnown(ctx: Pick<PanelCtx, 'byCode' | 'iso'>, codes: string[], isoCodes: string[]): boolean {
  if (!ctx.byCode.size || codes.some((c) => !ctx.byCode.has(c))) return false;
  return isoCodes.length === 0 || (ctx.iso.length > 0 && isoCodes.every((c) => ctx.iso.some((e) => e.code === c)));
}

/** True when a cell holds a value (a finite number or non-empty text). */
export function hasValue(v: unknown): boolean {
  return typeof v === 'number' ? Number.isFinite(v) : typeof v === 'string' ? v !== '' : v !== undefined && v !== null;
}

/**
 * True for a country's overall row of a summary by domains: marked `total: 1`, or every `by`
 * cell absent. A null key is R's NA group (cells outside the breaks), not a total.
 */
export function isTotalRow(r: Row, by: string[]): boolean {
  if (r.total === 1) return true;
  return by.length > 0 && by.every((b) => r[b] === undefined || r[b] === '');
}

/** True for the NA group's row of a `by` code (cells outside every interval or without a class): a null key. */
export function isNaRow(r: Row, by: string[]): boolean {
  return !isTotalRow(r, by) && by.some((b) => r[b] === null);
}

/** Display text of an empty `by` cell: "Kenya (total)" in the first by column of a total row, else "(all)". */
export function byCellText(r: Row, col: string, by: string[]): string | undefined {
  if (!by.includes(col) || hasValue(r[col])) return undefined;
  if (isTotalRow(r, by)) return col === by[0] ? `${r.ADM0_NAME ?? r.ISO3 ?? 'All'} (total)` : '(all)';
  if (r[col] === null) return 'NA (outside the breaks)';
  return '(all)';
}

/** True when a result has no value of any requested indicator (nothing worth showing). */
export function emptyResult(rows: Row[], vars: string[]): boolean {
  return !rows.some((r) => vars.some((v) => hasValue(r[v])));
}

function unitLabel(r: Row, by: string[]): string {
  if (isTotalRow(r, by)) return `${r.ISO3 ?? 'all'} total`;
  const keys = by.filter((b) => hasValue(r[b])).map((b) => String(r[b]));
  return `${keys.join(' / ')}${r.ISO3 ? ` (${r.ISO3})` : ''}`;
}

/**
 * Messages for indicators with no value in the result: the whole selection, the selected
 * countries with no value at all (e.g. a national statistic missing for a small island
 * state: "No data for PN14_POP in CPV."), else the units (rows) without a value.
 */
export function noData(rows: Row[], vars: string[], iso3: string[], by: string[] = []): string[] {
  const out: string[] = [];
  for (const v of vars) {
    if (!rows.some((r) => hasValue(r[v]))) { out.push(`No data for ${v} in this selection.`); continue; }
    const countries = [...new Set([...iso3, ...rows.map((r) => r.ISO3).filter((c): c is string => typeof c === 'string')])];
    const missing = countries.filter((c) => rows.some((r) => r.ISO3 === c) && !rows.some((r) => r.ISO3 === c && hasValue(r[v])));
    if (missing.length) out.push(`No data for ${v} in ${missing.join(', ')}.`);
    const units = rows.filter((r) => !hasValue(r[v]) && !missing.includes(r.ISO3 as string));
    if (units.length) {
      const names = units.slice(0, 3).map((r) => unitLabel(r, by));
      out.push(`No data for ${v} in ${units.length} row${units.length > 1 ? 's' : ''}: ${names.join(', ')}${units.length > 3 ? ` and ${units.length - 3} more` : ''}.`);
    }
  }
  return out;
}

/** Codes of the catalog's people layers: unit "people", summed (`sum(...)`), such as POP_MODEL and CENSUS_POP. */
export function peopleCodes(byCode: Map<string, VarRecord>): string[] {
  return [...byCode.values()].filter((r) => r.unit === 'people' && r.aggFunR.startsWith('sum(')).map((r) => r.varCode);
}

/**
 * The note of the NA group's rows (cells outside every interval): "123 cells fell outside the
 * breaks" when the rows carry a cell count (`n`, `count` or `cells`), else the number of rows.
 * `people`: codes of the result's people layers (catalog unit "people", summed): the people those
 * cells hold are said too ("117 cells (1,716,532 people of POP_MODEL) fell outside the breaks"), as
 * a handful of cells can hold a city.
 */
export function naNote(rows: Row[], breaks = true, people: string[] = []): string {
  const n = rows.reduce((s, r) => s + (typeof r.n === 'number' ? r.n : typeof r.count === 'number' ? r.count : typeof r.cells === 'number' ? r.cells : NaN), 0);
  const what = breaks ? 'fell outside the breaks' : 'have no class';
  const fix = breaks ? '; widen the breaks to include them' : '';
  const held = people.map((c) => ({ c, p: rows.reduce((s, r) => s + (typeof r[c] === 'number' ? (r[c] as number) : 0), 0) }))
    .map(({ c, p }) => `${Math.round(p).toLocaleString('en')} people of ${c}`);
  const ppl = held.length ? ` (${held.join(', ')})` : '';
  if (Number.isFinite(n)) return `${n.toLocaleString('en')} cell${n === 1 ? '' : 's'}${ppl} ${breaks ? what : what.replace('have', n === 1 ? 'has' : 'have')} (row NA)${fix}.`;
  return `Some cells${ppl} ${what}: ${rows.length === 1 ? 'the NA row holds them' : `${rows.length} NA rows hold them`}${fix}.`;
}

/**
 * The year a result over several years is charted and mapped in: `wanted` (the year the map's
 * year control shows) when the result holds it, else the latest; null when the rows hold one
 * year or none (no `year` column, or a change between two years).
 * @param rows result rows (their numeric `year` column, if any)
 */
export function chartYear(rows: Row[], wanted: number | null): number | null {
  const years = new Set<number>();
  for (const r of rows) if (typeof r.year === 'number') years.add(r.year);
  if (years.size < 2) return null;
  return wanted !== null && years.has(wanted) ? wanted : Math.max(...years);
}
