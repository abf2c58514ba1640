/** Shared shapes of the side panels. */
import type { IsoEntry, Row, VarRecord } from '../../core/types';
import type { UrlState } from '../url-state';
import type { ChipOption } from '../../ui/ChipSelect';

/** A query the user ran, for downloads and the API panel (arguments as the HTTP contract names them). */
export interface QuerySpec {
  /** Contract method: indapi (getLayer / WKT areas) or similar. */
  method: 'indapi' | 'similar';
  /** Arguments as JSON (var, iso3, by, wkt, exact, x, ...). */
  args: Record<string, unknown>;
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
  /** Records the query behind what is on screen. */
  setQuery: (q: QuerySpec) => void;
}

/** Options for indicator pickers (grouped by category). */
export function varOptions(catalog: VarRecord[], filter?: (r: VarRecord) => boolean): ChipOption[] {
  return catalog.filter((r) => !filter || filter(r)).map((r) => ({ value: r.varCode, label: `${r.varLabel} (${r.varCode})`, group: r.cat1 }));
}

/** Options for country/region pickers (regions first). */
export function isoOptions(iso: IsoEntry[]): ChipOption[] {
  return [...iso].sort((a, b) => (a.type === b.type ? a.name.localeCompare(b.name) : a.type === 'region' ? -1 : 1))
    .map((e) => ({ value: e.code, label: `${e.name} (${e.code})`, group: e.type === 'region' ? 'Regions' : 'Countries' }));
}

/** Indicators to summarise: the chosen list, or the mapped one. */
export function summaryVars(s: UrlState): string[] {
  return s.vars.length ? s.vars : s.v ? [s.v] : [];
}

/** Parses a comma/space separated list of numbers; null when not increasing numbers. */
export function parseBreaks(text: string): number[] | null {
  const parts = text.split(/[,\s|;]+/).filter(Boolean);
  if (parts.length < 2) return null;
  const n = parts.map(Number);
  if (!n.every(Number.isFinite)) return null;
  for (let i = 1; i < n.length; i++) if (!(n[i] > n[i - 1])) return null;
  return n;
}

/** The first by-column present in rows, else a key column to label bars with. */
export function chartKey(rows: Row[], by: string[]): string {
  for (const b of by) if (rows.some((r) => r[b] !== undefined)) return b;
  for (const k of ['ADM0_NAME', 'ISO3', 'feature', 'ID']) if (rows.some((r) => r[k] !== undefined)) return k;
  return Object.keys(rows[0] ?? {})[0] ?? 'x';
}

/** Message of an error for display. */
export function errText(e: unknown): string {
  return (e as Error)?.message ?? String(e);
}

/** True when a cell holds a value (a finite number or non-empty text). */
export function hasValue(v: unknown): boolean {
  return typeof v === 'number' ? Number.isFinite(v) : typeof v === 'string' ? v !== '' : v !== undefined && v !== null;
}

/** True for a country's overall row of a summary by domains: every `by` cell is empty. */
export function isTotalRow(r: Row, by: string[]): boolean {
  return by.length > 0 && by.every((b) => !hasValue(r[b]));
}

/** Display text of an empty `by` cell: "Kenya (total)" in the first by column of a total row, else "(all)". */
export function byCellText(r: Row, col: string, by: string[]): string | undefined {
  if (!by.includes(col) || hasValue(r[col])) return undefined;
  if (isTotalRow(r, by) && col === by[0]) return `${r.ADM0_NAME ?? r.ISO3 ?? 'All'} (total)`;
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
