/** Sortable result table (click or Enter on a header sorts; again reverses). */
import { useMemo, useState } from 'react';
import type { Row } from '../core/types';

/** Props of {@link ResultTable}. */
export interface ResultTableProps {
  rows: Row[];
  /** Column order; default: union of row keys in first-seen order. */
  columns?: string[];
  caption: string;
  /** Optional row click (e.g. to select a unit). */
  onRowClick?: (r: Row) => void;
  /** Max rows shown. */
  max?: number;
  /** Columns whose numbers are ids or codes, shown without digit grouping (e.g. CELL5M). */
  plain?: string[];
  /** Rows kept at the top in their own order whatever the sort (e.g. a country's total). */
  pinned?: (r: Row) => boolean;
  /** Display text of a cell when it should differ from the value (undefined = default). */
  cellText?: (r: Row, col: string) => string | undefined;
  /** Columns whose empty cells read "no data" (e.g. the requested indicators). */
  valueCols?: string[];
  /** Header text of a column, e.g. "Elevation (ETOPO5) (m)"; the code is shown under it when they differ. */
  colLabel?: (col: string) => string;
  /** Sort order of the keys of some columns (class order, interval order) instead of text order. */
  keyOrders?: Record<string, string[]>;
  /** Text shown above the table (e.g. the one country of the rows); also the table's caption. */
  note?: string;
  /** Cell tooltip (e.g. the country name of an ISO3 cell). */
  cellTitle?: (r: Row, col: string) => string | undefined;
  /** Decimals per numeric column (the indicator's `dec`): every number of the column shows exactly that many. */
  decimals?: Record<string, number>;
}

/** True when a cell holds no value (absent, null, NaN or empty text). */
export function isMissing(v: unknown): boolean {
  return v === undefined || v === null || v === '' || (typeof v === 'number' && Number.isNaN(v));
}

/** Union of row keys in first-seen order. */
export function columnsOf(rows: Row[]): string[] {
  const seen = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r)) seen.add(k);
  return [...seen];
}

/** Compares two cells: numbers numerically, text naturally; missing last. */
export function compareCells(a: unknown, b: unknown): number {
  if (isMissing(a)) return isMissing(b) ? 0 : 1;
  if (isMissing(b)) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true });
}

/**
 * Rows in display order: the pinned rows first (in their order), then the others sorted
 * by `sort` (missing values last in both directions), or in their order without a sort.
 */
export function orderRows(rows: Row[], sort: { col: string; dir: 1 | -1 } | null, pinned?: (r: Row) => boolean, keyOrder?: string[]): Row[] {
  const top = pinned ? rows.filter(pinned) : [];
  const rest = pinned ? rows.filter((r) => !pinned(r)) : [...rows];
  if (sort) {
    const rank = keyOrder ? new Map(keyOrder.map((k, i) => [k, i])) : null;
    rest.sort((x, y) => {
      const a = x[sort.col], b = y[sort.col];
      if (isMissing(a) || isMissing(b)) return compareCells(a, b);
      if (rank) return sort.dir * ((rank.get(String(a)) ?? Infinity) - (rank.get(String(b)) ?? Infinity) || compareCells(a, b));
      return sort.dir * compareCells(a, b);
    });
  }
  return [...top, ...rest];
}

/** Display text of a cell: numbers with digit grouping and `dec` decimals (fixed when given, else up to 6); ids plain. */
export function fmtCell(v: unknown, plainCol: boolean, dec?: number): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'number' && !plainCol) {
    if (dec === undefined) return v.toLocaleString('en', { maximumFractionDigits: 6 });
    const d = Math.max(0, Math.min(6, Math.round(dec)));
    return v.toLocaleString('en', { minimumFractionDigits: d, maximumFractionDigits: d });
  }
  return String(v);
}

/** The table component. */
export function ResultTable({ rows, columns, caption, onRowClick, max = 2000, plain = ['CELL5M', 'rank', 'feature', 'ID', 'year', 'year_from', 'year_to'], pinned, cellText, valueCols = [], colLabel, keyOrders, note, cellTitle, decimals }: ResultTableProps) {
  const cols = useMemo(() => columns ?? columnsOf(rows), [rows, columns]);
  const [sort, setSort] = useState<{ col: string; dir: 1 | -1 } | null>(null);
  const sorted = useMemo(() => orderRows(rows, sort, pinned, sort ? keyOrders?.[sort.col] : undefined), [rows, sort, pinned, keyOrders]);
  const numeric = useMemo(() => new Set(cols.filter((c) => valueCols.includes(c) || rows.some((r) => typeof r[c] === 'number'))), [cols, rows, valueCols]);
  const click = (c: string) => setSort((s) => (s && s.col === c ? { col: c, dir: (-s.dir) as 1 | -1 } : { col: c, dir: 1 }));
  return (
    <>
    {note && <p className="table-note small" data-testid="table-note">{note}</p>}
    <div className="table-wrap" tabIndex={0} role="region" aria-label={note ? `${caption}: ${note}` : caption}>
      <table className="result">
        <caption className="sr-only">{note ? `${caption}: ${note}` : caption}</caption>
        <thead>
          <tr>
            {cols.map((c) => {
              const lab = colLabel?.(c) ?? c;
              return (
                <th key={c} scope="col" data-col={c} className={numeric.has(c) ? 'num' : undefined} aria-sort={sort?.col === c ? (sort.dir === 1 ? 'ascending' : 'descending') : 'none'}>
                  <button type="button" onClick={() => click(c)} title={lab !== c ? `${lab} (${c})` : c}>
                    <span className="h-label">{lab}{sort?.col === c ? (sort.dir === 1 ? ' ▲' : ' ▼') : ''}</span>
                    {lab !== c && <code className="h-code">{c}</code>}
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {sorted.slice(0, max).map((r, i) => {
            const pin = pinned?.(r) ?? false;
            const cls = [onRowClick ? 'clickable' : '', pin ? 'pinned' : ''].filter(Boolean).join(' ') || undefined;
            return (
              <tr key={i} onClick={onRowClick ? () => onRowClick(r) : undefined} className={cls} data-pinned={pin ? '1' : undefined}>
                {cols.map((c) => {
                  const custom = cellText?.(r, c);
                  if (custom !== undefined) return <td key={c} className="label" data-col={c} title={cellTitle?.(r, c)}>{custom}</td>;
                  if (valueCols.includes(c) && isMissing(r[c])) return <td key={c} className="num nodata" data-col={c}>no data</td>;
                  return <td key={c} data-col={c} className={typeof r[c] === 'number' ? 'num' : undefined} title={cellTitle?.(r, c)}>{fmtCell(r[c], plain.includes(c), decimals?.[c])}</td>;
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
    {rows.length > max && <p className="muted small">Showing {max} of {rows.length} rows; download for all.</p>}
    </>
  );
}
