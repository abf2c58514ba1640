/**
 * Pivot of summary rows into a rows x columns table (the TABLR table builder): one block per
 * country, cells from a summary `by = [rowDomain, colDomain]`, row totals from `by =
 * [rowDomain]`, column totals from `by = [colDomain]` and the block total from the country's
 * total row. Every figure is the engine's own aggregate (the indicator's formula over the
 * cells of the group), never a sum or mean of the cells shown, so a mean indicator has true
 * totals. Pure: no DOM.
 */
import type { Row } from '../core/types';

/** Key text of the NA group (cells without a class or outside every interval). */
export const NA_KEY = 'NA';

/** Inputs of {@link pivotRows}. */
export interface PivotInput {
  /** Rows of the summary by [row, col] (with the countries' total rows, which are ignored here). */
  cells: Row[];
  /** Rows of the summary by [row] (row totals). */
  rowTotals: Row[];
  /** Rows of the summary by [col] (column totals). */
  colTotals: Row[];
  /** Field of the row domain's key in `cells` and `rowTotals` (e.g. "ADM1_NAME_ALT", "ELEVATION_by"). */
  rowKey: string;
  /** Field of the column domain's key in `cells` and `colTotals`. */
  colKey: string;
  /** Indicator code whose values fill the table. */
  value: string;
  /** Display order of row keys (classes, intervals); keys not listed follow in text order. */
  rowOrder?: string[] | null;
  /** Display order of column keys. */
  colOrder?: string[] | null;
  /**
   * One block for every row, named `single`: when a domain is the country itself (ISO3,
   * ADM0_NAME), or the selection is a region (rows carry no ISO3).
   */
  single?: string;
}

/** One row of a block: its key, one value per column (null = no value) and its total. */
export interface PivotRow { key: string; values: Array<number | null>; total: number | null }

/** One country's block. */
export interface PivotBlock {
  /** ISO 3166-1 alpha-3 code ("" when rows carry none). */
  iso3: string;
  /** Country name (ADM0_NAME) or the code. */
  name: string;
  rows: PivotRow[];
  /** Column totals, one per column key. */
  colTotals: Array<number | null>;
  /** The block total (the country's total row). */
  total: number | null;
}

/** A pivot table. */
export interface Pivot {
  /** Column keys in display order (NA last when present). */
  colKeys: string[];
  blocks: PivotBlock[];
}

const keyText = (v: unknown): string | undefined => (v === null ? NA_KEY : v === undefined || v === '' ? undefined : String(v));
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const isTotal = (r: Row, keys: string[]) => r.total === 1 || keys.every((k) => r[k] === undefined);

function ordered(keys: Set<string>, order?: string[] | null): string[] {
  const rank = new Map((order ?? []).map((k, i) => [k, i]));
  return [...keys].sort((a, b) => {
    if (a === NA_KEY || b === NA_KEY) return a === b ? 0 : a === NA_KEY ? 1 : -1;
    const x = rank.get(a) ?? Infinity, y = rank.get(b) ?? Infinity;
    return x !== y ? x - y : a.localeCompare(b, undefined, { numeric: true });
  });
}

/**
 * Builds the pivot. Countries in the order they first appear in `cells`; row keys of a block
 * are the keys with a cell or a row total in that country; columns are the union over
 * countries. @throws nothing: missing figures are null.
 */
export function pivotRows(p: PivotInput): Pivot {
  const countries = new Map<string, string>();
  const seen = (r: Row) => {
    const c = p.single !== undefined ? '' : String(r.ISO3 ?? '');
    if (!countries.has(c)) countries.set(c, p.single ?? String(r.ADM0_NAME ?? r.ISO3 ?? 'All'));
    return c;
  };
  const cell = new Map<string, number | null>();
  const rowKeys = new Map<string, Set<string>>();
  const colKeys = new Set<string>();
  const grand = new Map<string, number | null>();
  for (const r of p.cells) {
    const c = seen(r);
    if (isTotal(r, [p.rowKey, p.colKey])) { grand.set(c, num(r[p.value])); continue; }
    const rk = keyText(r[p.rowKey]), ck = keyText(r[p.colKey]);
    if (rk === undefined || ck === undefined) continue;
    cell.set(JSON.stringify([c, rk, ck]), num(r[p.value]));
    if (!rowKeys.has(c)) rowKeys.set(c, new Set());
    rowKeys.get(c)!.add(rk);
    colKeys.add(ck);
  }
  const rowTot = new Map<string, number | null>();
  for (const r of p.rowTotals) {
    const c = seen(r);
    if (isTotal(r, [p.rowKey])) { if (!grand.has(c)) grand.set(c, num(r[p.value])); continue; }
    const rk = keyText(r[p.rowKey]);
    if (rk === undefined) continue;
    rowTot.set(JSON.stringify([c, rk]), num(r[p.value]));
    if (!rowKeys.has(c)) rowKeys.set(c, new Set());
    rowKeys.get(c)!.add(rk);
  }
  const colTot = new Map<string, number | null>();
  for (const r of p.colTotals) {
    const c = seen(r);
    if (isTotal(r, [p.colKey])) { if (!grand.has(c)) grand.set(c, num(r[p.value])); continue; }
    const ck = keyText(r[p.colKey]);
    if (ck === undefined) continue;
    colTot.set(JSON.stringify([c, ck]), num(r[p.value]));
    colKeys.add(ck);
  }
  const cols = ordered(colKeys, p.colOrder);
  const blocks: PivotBlock[] = [...countries].map(([iso3, name]) => ({
    iso3, name,
    rows: ordered(rowKeys.get(iso3) ?? new Set(), p.rowOrder).map((key) => ({
      key,
      values: cols.map((ck) => cell.get(JSON.stringify([iso3, key, ck])) ?? null),
      total: rowTot.get(JSON.stringify([iso3, key])) ?? null,
    })),
    colTotals: cols.map((ck) => colTot.get(JSON.stringify([iso3, ck])) ?? null),
    total: grand.get(iso3) ?? null,
  }));
  return { colKeys: cols, blocks };
}

/** Labels of a pivot's flat table. */
export interface PivotLabels { row: string; total?: string; country?: string }

/**
 * The pivot as a flat table for CSV/XLSX: a header row `[Country, <row label>, ...column
 * keys, Total]` (the country column only with several countries), each block's rows, then
 * its total row (`"<name> total"`). Missing values are null (empty cells).
 */
export function pivotGrid(p: Pivot, l: PivotLabels): Array<Array<string | number | null>> {
  const multi = p.blocks.length > 1;
  const total = l.total ?? 'Total';
  const out: Array<Array<string | number | null>> = [[...(multi ? [l.country ?? 'Country'] : []), l.row, ...p.colKeys, total]];
  for (const b of p.blocks) {
    for (const r of b.rows) out.push([...(multi ? [b.iso3] : []), r.key, ...r.values, r.total]);
    out.push([...(multi ? [b.iso3] : []), multi ? `${b.name} total` : total, ...b.colTotals, b.total]);
  }
  return out;
}
