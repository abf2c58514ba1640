/**
 * Pivot of summary rows into a rows x columns table (the TABLR table builder): one block per
 * country, cells from a summary `by = [rowDomain, colDomain]`, row totals from `by =
 * [rowDomain]`, column totals from `by = [colDomain]` and the block total from the country's
 * total row. With several countries or regions selected, the totals over all of them (the
 * "All selected" block, or the "All selected" row/column when a domain is the country) come
 * from the same three summaries over the union of the selected cells (`pooled: true`: the
 * engine pools them, as it pools a region). Every figure is the engine's own aggregate (the indicator's
 * formula over the cells of the group), never a sum or mean of the cells shown, so a mean or a
 * weighted mean has true totals. Pure: no DOM; engine calls through an injected engine.
 */
import type { CallOptions, Engine, TableResult } from '../core/api';
import type { GetLayerArgs, Row } from '../core/types';
import { FORMULA_TEXT } from '../core/formats/csv';
import Papa from 'papaparse';
import { YEAR_DOMAIN } from './year-domain';

/** Key text of the NA group (cells without a class or outside every interval). */
export const NA_KEY = 'NA';

/** Name of the totals over every selected country or region (block, row or column). */
export const ALL_SELECTED = 'All selected';

/** Domain codes that are the country itself: the table is then one block over the union of the selection. */
export const COUNTRY_CODES: readonly string[] = ['ISO3', 'ADM0_NAME'];

/**
 * The years of a series as a domain (rows or columns; `TableArgs.years` gives them): the cells
 * are one long summary (`year` and the other domain), each year's total is that year's overall
 * row; no total over years is made (a sum of yearly populations means nothing), so those are
 * empty.
 */
export { YEAR_DOMAIN };

/** The three summaries of one table part: by [row, col], by [row], by [col] (rows as getLayer gives them). */
export interface PivotPart {
  /** Rows of the summary by [row, col] (with the overall rows, `total: 1`: the block totals). */
  cells: Row[];
  /** Rows of the summary by [row] (row totals). */
  rowTotals: Row[];
  /** Rows of the summary by [col] (column totals). */
  colTotals: Row[];
}

/** Inputs of {@link pivotRows}. */
export interface PivotInput extends PivotPart {
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
   * ADM0_NAME), or the selection is one region (rows carry no ISO3).
   */
  single?: string;
  /**
   * The same summaries over the union of every selected country or region (several codes):
   * a last block named `all.name` (default "All selected"). Its rows are left out when the
   * row domain is a unit layer (rows carrying ISO3: each unit is in one country, so they
   * repeat the countries' rows); its column totals and total are always kept.
   */
  all?: PivotPart & { name?: string };
  /** Header of the totals column (default "Total"). */
  totalCol?: string;
  /** Label of a block's totals row (default "Total" for one block, "<name> total" for several). */
  totalRow?: string;
}

/** One row of a block: its key, one value per column (null = no value) and its total. */
export interface PivotRow { key: string; values: Array<number | null>; total: number | null }

/** One country's block (or the "All selected" block). */
export interface PivotBlock {
  /** ISO 3166-1 alpha-3 code ("" when rows carry none, and for the "All selected" block). */
  iso3: string;
  /** Country name (ADM0_NAME) or the code; "All selected" for the union block. */
  name: string;
  /** True for the block over the union of every selected code. */
  all?: boolean;
  rows: PivotRow[];
  /** Column totals, one per column key. */
  colTotals: Array<number | null>;
  /** The block total (the country's, or the union's, overall row). */
  total: number | null;
  /** Label of the block's totals row ("Total", "Kenya total", "All selected total"). */
  totalLabel: string;
}

/** A pivot table. */
export interface Pivot {
  /** Column keys in display order (NA last when present). */
  colKeys: string[];
  blocks: PivotBlock[];
  /** Header of the totals column ("Total", or "All selected" when the columns are the selected countries). */
  totalCol: string;
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

interface Blocks {
  countries: Map<string, string>;
  cell: Map<string, number | null>;
  rowKeys: Map<string, Set<string>>;
  rowTot: Map<string, number | null>;
  colTot: Map<string, number | null>;
  grand: Map<string, number | null>;
}

/**
 * Countries (ISO3) of the unit rows of a pooled summary by one domain (a unit layer: the
 * engine writes each unit's ISO3 on its row also when pooling). Empty when the domain is the
 * country or no unit layer, and for per-country summaries (whose overall rows carry ISO3).
 */
function unitCountries(rows: Row[], key: string): Set<string> {
  const out = new Set<string>();
  if (COUNTRY_CODES.includes(key) || rows.some((r) => isTotal(r, [key]) && r.ISO3 !== undefined)) return out;
  for (const r of rows) if (!isTotal(r, [key]) && typeof r.ISO3 === 'string' && r.ISO3 !== '') out.add(r.ISO3);
  return out;
}

/** Reads one part's rows into blocks (keyed by ISO3, or '' when `single` is given). */
function readPart(part: PivotPart, p: PivotInput, single: string | undefined, colKeys: Set<string>, keepRows: boolean, colSuffix: boolean): Blocks {
  // units of several countries in one block: "Rift Valley (KEN)", so same-named units stay apart
  const rowSuffix = single !== undefined && unitCountries(part.rowTotals, p.rowKey).size > 1;
  const rowText = (r: Row) => { const k = keyText(r[p.rowKey]); return k !== undefined && rowSuffix && k !== NA_KEY && r.ISO3 ? `${k} (${String(r.ISO3)})` : k; };
  const colText = (r: Row) => { const k = keyText(r[p.colKey]); return k !== undefined && colSuffix && k !== NA_KEY && r.ISO3 ? `${k} (${String(r.ISO3)})` : k; };
  const b: Blocks = { countries: new Map(), cell: new Map(), rowKeys: new Map(), rowTot: new Map(), colTot: new Map(), grand: new Map() };
  const seen = (r: Row) => {
    const c = single !== undefined ? '' : String(r.ISO3 ?? '');
    if (!b.countries.has(c)) b.countries.set(c, single ?? String(r.ADM0_NAME ?? r.ISO3 ?? 'All'));
    return c;
  };
  const addRow = (c: string, rk: string) => {
    if (!keepRows) return;
    if (!b.rowKeys.has(c)) b.rowKeys.set(c, new Set());
    b.rowKeys.get(c)!.add(rk);
  };
  for (const r of part.cells) {
    const c = seen(r);
    if (isTotal(r, [p.rowKey, p.colKey])) { b.grand.set(c, num(r[p.value])); continue; }
    const rk = rowText(r), ck = colText(r);
    if (rk === undefined || ck === undefined) continue;
    b.cell.set(JSON.stringify([c, rk, ck]), num(r[p.value]));
    addRow(c, rk);
    colKeys.add(ck);
  }
  for (const r of part.rowTotals) {
    const c = seen(r);
    if (isTotal(r, [p.rowKey])) { if (!b.grand.has(c)) b.grand.set(c, num(r[p.value])); continue; }
    const rk = rowText(r);
    if (rk === undefined) continue;
    b.rowTot.set(JSON.stringify([c, rk]), num(r[p.value]));
    addRow(c, rk);
  }
  for (const r of part.colTotals) {
    const c = seen(r);
    if (isTotal(r, [p.colKey])) { if (!b.grand.has(c)) b.grand.set(c, num(r[p.value])); continue; }
    const ck = colText(r);
    if (ck === undefined) continue;
    b.colTot.set(JSON.stringify([c, ck]), num(r[p.value]));
    colKeys.add(ck);
  }
  if (!keepRows) b.rowKeys.set('', new Set());
  return b;
}

function toBlocks(b: Blocks, cols: string[], order: string[] | null | undefined, label: (name: string) => string, all: boolean): PivotBlock[] {
  return [...b.countries].map(([iso3, name]) => ({
    iso3, name, ...(all ? { all: true } : {}),
    rows: ordered(b.rowKeys.get(iso3) ?? new Set(), order).map((key) => ({
      key,
      values: cols.map((ck) => b.cell.get(JSON.stringify([iso3, key, ck])) ?? null),
      total: b.rowTot.get(JSON.stringify([iso3, key])) ?? null,
    })),
    colTotals: cols.map((ck) => b.colTot.get(JSON.stringify([iso3, ck])) ?? null),
    total: b.grand.get(iso3) ?? null,
    totalLabel: label(name),
  }));
}

/**
 * Builds the pivot. Countries in the order they first appear in `cells`; row keys of a block
 * are the keys with a cell or a row total in that country; columns are the union over
 * countries (and the "All selected" block, last when `all` is given). @throws nothing:
 * missing figures are null (a group without cells, or a formula without a value there; the
 * engine gives 0 for `sum` over cells that are all NA, as R).
 */
export function pivotRows(p: PivotInput): Pivot {
  const colKeys = new Set<string>();
  const colUnits = new Set([...unitCountries(p.colTotals, p.colKey), ...unitCountries(p.all?.colTotals ?? [], p.colKey)]);
  const main = readPart(p, p, p.single, colKeys, true, colUnits.size > 1);
  const unitRows = p.all ? unitCountries(p.all.rowTotals, p.rowKey).size > 0 : false;
  const allName = p.all?.name ?? ALL_SELECTED;
  const union = p.all ? readPart(p.all, p, allName, colKeys, !unitRows, colUnits.size > 1) : null;
  const cols = ordered(colKeys, p.colOrder);
  const several = main.countries.size + (union ? 1 : 0) > 1;
  const label = (name: string) => p.totalRow ?? (several ? `${name} total` : 'Total');
  const blocks = toBlocks(main, cols, p.rowOrder, label, false);
  if (union) blocks.push(...toBlocks(union, cols, p.rowOrder, label, true));
  return { colKeys: cols, blocks, totalCol: p.totalCol ?? 'Total' };
}

/** Labels of a pivot's flat table. */
export interface PivotLabels { row: string; country?: string }

/**
 * The pivot as a flat table for CSV/XLSX: a header row `[Country, <row label>, ...column
 * keys, <totals column>]` (the country column only with several blocks: the ISO3 code, or
 * "All selected" for the union block), each block's rows, then its totals row labelled
 * ("Total", "Kenya total", "All selected total", "All selected"). Missing values are null
 * (empty cells).
 */
export function pivotGrid(p: Pivot, l: PivotLabels): Array<Array<string | number | null>> {
  const multi = p.blocks.length > 1;
  const out: Array<Array<string | number | null>> = [[...(multi ? [l.country ?? 'Country'] : []), l.row, ...p.colKeys, p.totalCol]];
  for (const b of p.blocks) {
    const c = multi ? [b.all ? b.name : b.iso3] : [];
    for (const r of b.rows) out.push([...c, r.key, ...r.values, r.total]);
    out.push([...c, b.totalLabel, ...b.colTotals, b.total]);
  }
  return out;
}

/** Arguments of one table: indicator, countries/regions, row and column domain codes. */
export interface TableArgs {
  /** Indicator code of the cells. */
  value: string;
  /** Country (ISO 3166-1 alpha-3) or region codes; several give per-code blocks and the "All selected" totals. */
  iso3: string[];
  /** Row domain code. */
  row: string;
  /** Column domain code. */
  col: string;
  /**
   * A statistic of one value per zone in the cells and totals (a `stats` name: mean, stdev, cv,
   * variance, weighted_mean...; column `<value>_<stat>`); absent: the indicator's own formula.
   */
  stat?: string;
  /** Weight layer code of a weighted `stat` (the API's `weights`). */
  weights?: string;
  /** Years of the series `value` (its stem) when a domain is {@link YEAR_DOMAIN}: the API's `year`. */
  years?: number[];
}

/** The column a table's cells read: the indicator's, or its statistic's `<value>_<stat>`. */
export function tableValueColumn(a: TableArgs): string {
  return a.stat ? `${a.value}_${a.stat}` : a.value;
}

/** Summaries of a table (TableResults as the engine gives them). */
export interface TableParts { cells: TableResult; rows: TableResult; cols: TableResult }

/** The summaries of a table and the key orders of its domains. */
export interface TableData extends TableParts {
  /**
   * True when `cells/rows/cols` are over the union of several selected codes (a domain is
   * the country): one block, whose totals row or column is "All selected".
   */
  union: boolean;
  /** Over the union of several selected codes, when no domain is the country: the "All selected" block. */
  all?: TableParts;
  /** Display order of the row keys (null: text order). */
  rowOrder: string[] | null;
  /** Display order of the column keys. */
  colOrder: string[] | null;
}

/** Field of the key of `by` code `b` in a table: the key column derived from `b` ("ELEVATION_by"), else `b`. */
export function keyField(t: TableResult, b: string): string {
  return t.columns.find((c) => c.role === 'key' && c.code === b && c.name !== 'total')?.name ?? b;
}

/**
 * A table part with the years as a domain: one long summary by the other domain over
 * `a.years`; its overall rows (`total: 1`, one per year) are the years' totals, the other
 * domain's totals over years and the grand total are left empty.
 * @throws IndapiError as getLayerTable
 */
async function yearParts(engine: Pick<Engine, 'getLayerTable'>, a: TableArgs, sel: Partial<GetLayerArgs>, o: CallOptions): Promise<TableParts> {
  const other = a.row === YEAR_DOMAIN ? a.col : a.row;
  const t = await engine.getLayerTable({ var: [a.value], ...sel, by: [other], year: a.years, ...(a.stat ? { stats: [a.stat], ...(a.weights ? { weights: a.weights } : {}) } : {}) } as GetLayerArgs, o);
  const cells = { ...t, rows: t.rows.filter((r) => r.total !== 1) };
  const years = { ...t, rows: t.rows.filter((r) => r.total === 1).map(({ total: _t, ...r }) => r) };
  const none = { ...t, rows: [] };
  return a.row === YEAR_DOMAIN ? { cells, rows: years, cols: none } : { cells, rows: none, cols: years };
}

/**
 * Runs the summaries of a table with one progress: per selected code (cells, row totals,
 * column totals: three calls), and with several codes the same three over the union of
 * their cells (`pooled: true`). When a domain is the country and
 * several codes are selected only the union's three are needed. Key orders come from
 * `order` (class-table or interval order), null without it.
 * @throws IndapiError as getLayerTable
 */
export async function fetchTableData(
  engine: Pick<Engine, 'getLayerTable'>, a: TableArgs, o: CallOptions = {},
  order?: (code: string, keys: string[]) => Promise<string[] | null>,
): Promise<TableData> {
  const codes = [...new Set(a.iso3.map((s) => s.toUpperCase()))];
  const several = codes.length > 1;
  const countryDomain = COUNTRY_CODES.includes(a.row) || COUNTRY_CODES.includes(a.col);
  const nParts = several ? (countryDomain ? 3 : 6) : 3;
  const done = new Array<number>(nParts).fill(0), total = new Array<number>(nParts).fill(1);
  const part = (i: number): CallOptions => ({
    signal: o.signal,
    onProgress: (d, t) => { done[i] = d; total[i] = t; o.onProgress?.(done.reduce((s, x) => s + x, 0), total.reduce((s, x) => s + x, 0)); },
  });
  const finish = (i: number) => { done[i] = total[i]; o.onProgress?.(done.reduce((s, x) => s + x, 0), total.reduce((s, x) => s + x, 0)); };
  const three = async (sel: Partial<GetLayerArgs>, first: number): Promise<TableParts> => {
    if ((a.row === YEAR_DOMAIN || a.col === YEAR_DOMAIN) && a.years?.length) {
      const t = await yearParts(engine, a, sel, part(first));
      [0, 1, 2].forEach((i) => finish(first + i));
      return t;
    }
    const q = (by: string[], i: number) => engine.getLayerTable({ var: [a.value], ...sel, by, ...(a.stat ? { stats: [a.stat], ...(a.weights ? { weights: a.weights } : {}) } : {}) } as GetLayerArgs, part(first + i)).then((t) => { finish(first + i); return t; });
    const [cells, rows, cols] = await Promise.all([q([a.row, a.col], 0), q([a.row], 1), q([a.col], 2)]);
    return { cells, rows, cols };
  };
  let main: TableParts;
  let all: TableParts | undefined;
  let union = false;
  if (!several) main = await three({ iso3: codes }, 0);
  else {
    // the union of the codes' cells, pooled: the engine's selection, not rebuilt here
    const pooled = { iso3: codes, pooled: true };
    if (countryDomain) {
      main = await three(pooled, 0);
      union = true;
    } else {
      [main, all] = await Promise.all([three({ iso3: codes }, 0), three(pooled, 3)]);
    }
  }
  const keysOf = (code: string) => {
    const f = keyField(main.cells, code);
    return main.cells.rows.map((x) => x[f]).filter((v) => v !== null && v !== undefined && v !== '').map(String);
  };
  // years sort as numbers without an order
  const rowOrder = order && a.row !== YEAR_DOMAIN ? await order(a.row, keysOf(a.row)) : null;
  const colOrder = order && a.col !== YEAR_DOMAIN ? await order(a.col, keysOf(a.col)) : null;
  return { ...main, union, ...(all ? { all } : {}), rowOrder, colOrder };
}

/**
 * The pivot of a table's summaries. Labels: with one code, "Total"; with several codes and no
 * country domain, one block per code ("Kenya total") and the "All selected" block ("All
 * selected total"); with the country as the column domain the totals column is "All
 * selected", as the row domain the totals row is.
 * @param single name of the one block when a domain is the country or the selection is one code's pool
 */
export function tablePivot(a: TableArgs, d: TableData, single?: string): Pivot {
  const rowKey = keyField(d.cells, a.row), colKey = keyField(d.cells, a.col);
  const byCountryCol = COUNTRY_CODES.includes(a.col), byCountryRow = COUNTRY_CODES.includes(a.row);
  return pivotRows({
    cells: d.cells.rows, rowTotals: d.rows.rows, colTotals: d.cols.rows,
    rowKey, colKey, value: tableValueColumn(a),
    rowOrder: d.rowOrder, colOrder: d.colOrder,
    ...(d.union ? { single: ALL_SELECTED } : single !== undefined ? { single } : {}),
    ...(d.all ? { all: { cells: d.all.cells.rows, rowTotals: d.all.rows.rows, colTotals: d.all.cols.rows } } : {}),
    ...(d.union && byCountryCol ? { totalCol: ALL_SELECTED } : {}),
    ...(d.union && byCountryRow ? { totalRow: ALL_SELECTED } : d.union ? { totalRow: 'Total' } : {}),
  });
}

/**
 * The Table's CSV download: the grid of {@link pivotGrid} as RFC 4180 text (papaparse, CRLF,
 * a final line break, empty fields for missing figures). Text a spreadsheet would run as a
 * formula (a class label `=HYPERLINK(...)`) gets a leading `'` as OWASP's CSV-injection advice
 * says; numbers, negative ones too, stay numbers (src/core/formats/csv.ts).
 */
export function pivotCsv(grid: Array<Array<string | number | null>>): string {
  return `${Papa.unparse(grid.map((x) => x.map((v) => (v === null ? '' : v))), { newline: '\r\n', escapeFormulae: FORMULA_TEXT })}\r\n`;
}

/** A percentage view of a pivot: each cell's share of its row's total, its column's total, or the block's total. */
export type PivotPercent = 'row' | 'col' | 'total';

/**
 * A pivot as percentages (TABLR's percentage views), block by block: `row`, each figure over
 * its row's total (row totals 100, the totals row over the block total); `col`, over its
 * column's total (the totals row 100, the totals column over the block total); `total`, over
 * the block total. Every figure keeps its place, so the totals stay consistent: with an
 * additive indicator (aggregation `sum`, the only kind for which shares mean something) a row
 * of row percentages adds to its 100, as does a column of column percentages. A figure or a
 * denominator that is missing or 0 gives null.
 */
export function pivotPercent(p: Pivot, mode: PivotPercent): Pivot {
  const pct = (v: number | null, d: number | null) => (v === null || d === null || d === 0 ? null : (v / d) * 100);
  return {
    ...p,
    blocks: p.blocks.map((b) => ({
      ...b,
      rows: b.rows.map((r) => ({
        ...r,
        values: r.values.map((v, i) => pct(v, mode === 'row' ? r.total : mode === 'col' ? b.colTotals[i] : b.total)),
        total: pct(r.total, mode === 'row' ? r.total : b.total),
      })),
      colTotals: b.colTotals.map((v) => pct(v, mode === 'col' ? v : b.total)),
      total: pct(b.total, b.total),
    })),
  };
}
