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
}

/** Union of row keys in first-seen order. */
export function columnsOf(rows: Row[]): string[] {
  const seen = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r)) seen.add(k);
  return [...seen];
}

/** Compares two cells: numbers numerically, text naturally; missing last. */
export function compareCells(a: unknown, b: unknown): number {
  if (a === undefined || a === null || a === '') return b === undefined || b === null || b === '' ? 0 : 1;
  if (b === undefined || b === null || b === '') return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true });
}

/** The table component. */
export function ResultTable({ rows, columns, caption, onRowClick, max = 2000, plain = ['CELL5M', 'rank', 'feature', 'ID'] }: ResultTableProps) {
  const cols = useMemo(() => columns ?? columnsOf(rows), [rows, columns]);
  const [sort, setSort] = useState<{ col: string; dir: 1 | -1 } | null>(null);
  const sorted = useMemo(() => {
    if (!sort) return rows;
    return [...rows].sort((x, y) => sort.dir * compareCells(x[sort.col], y[sort.col]));
  }, [rows, sort]);
  const click = (c: string) => setSort((s) => (s && s.col === c ? { col: c, dir: (-s.dir) as 1 | -1 } : { col: c, dir: 1 }));
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-label={caption}>
      <table className="result">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {cols.map((c) => (
              <th key={c} scope="col" aria-sort={sort?.col === c ? (sort.dir === 1 ? 'ascending' : 'descending') : 'none'}>
                <button type="button" onClick={() => click(c)}>{c}{sort?.col === c ? (sort.dir === 1 ? ' ▲' : ' ▼') : ''}</button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {sorted.slice(0, max).map((r, i) => (
            <tr key={i} onClick={onRowClick ? () => onRowClick(r) : undefined} className={onRowClick ? 'clickable' : undefined}>
              {cols.map((c) => <td key={c} className={typeof r[c] === 'number' ? 'num' : undefined}>{r[c] === undefined ? '' : typeof r[c] === 'number' && !plain.includes(c) ? (r[c] as number).toLocaleString('en', { maximumFractionDigits: 6 }) : String(r[c])}</td>)}
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length > max && <p className="muted small">Showing {max} of {rows.length} rows; download for all.</p>}
    </div>
  );
}
