/**
 * A table of thousands of rows that renders only the rows in view (@tanstack/react-virtual):
 * a fixed header, rows of one height in a scrolling body, numbers right-aligned with the
 * column's decimals. Used for an upload's results (10,000 shapes), where the plain
 * ResultTable would put every row in the page.
 */
import { useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { Row } from '../core/types';

/** Props of {@link VirtualTable}. */
export interface VirtualTableProps {
  /** The rows. */
  rows: Row[];
  /** Column names in order. */
  columns: string[];
  /** Header text of a column (default the name). */
  label?: (c: string) => string;
  /** Decimals of number columns (default 2). */
  decimals?: (c: string) => number;
  /** Text of a cell when not the value itself (e.g. a shape's name). */
  cellText?: (row: Row, c: string) => string | undefined;
  /** Accessible name of the table. */
  caption: string;
  /** Height of the scrolling body, px (default 320). */
  height?: number;
  /** Test id. */
  testId?: string;
}

const ROW_PX = 28;

function show(v: unknown, dec: number): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? (Number.isInteger(v) ? v.toLocaleString('en') : v.toLocaleString('en', { minimumFractionDigits: dec, maximumFractionDigits: dec })) : 'NA';
  return String(v);
}

/** The table (a grid of divs with ARIA table roles, so only visible rows exist in the page). */
export function VirtualTable({ rows, columns, label = (c) => c, decimals = () => 2, cellText, caption, height = 320, testId }: VirtualTableProps) {
  const body = useRef<HTMLDivElement>(null);
  const v = useVirtualizer({ count: rows.length, getScrollElement: () => body.current, estimateSize: () => ROW_PX, overscan: 12 });
  const grid = { display: 'grid', gridTemplateColumns: `repeat(${columns.length}, minmax(6.5em, 1fr))` } as const;
  return (
    <div className="vtable" role="table" aria-label={caption} aria-rowcount={rows.length + 1} data-testid={testId} data-rows={rows.length}>
      <div role="rowgroup" className="vtable-head">
        <div role="row" aria-rowindex={1} style={grid}>{columns.map((c) => <div role="columnheader" key={c} title={c}>{label(c)}</div>)}</div>
      </div>
      <div ref={body} role="rowgroup" className="vtable-body" style={{ height: Math.min(height, ROW_PX * rows.length + 2), overflow: 'auto', position: 'relative' }} tabIndex={0}>
        <div style={{ height: v.getTotalSize(), position: 'relative' }}>
          {v.getVirtualItems().map((it) => {
            const r = rows[it.index];
            return (
              <div role="row" key={it.key} aria-rowindex={it.index + 2} style={{ ...grid, position: 'absolute', top: 0, left: 0, right: 0, height: ROW_PX, transform: `translateY(${it.start}px)` }}>
                {columns.map((c) => {
                  const t = cellText?.(r, c);
                  const val = r[c];
                  return <div role="cell" key={c} className={typeof val === 'number' && t === undefined ? 'num' : undefined}>{t ?? show(val, decimals(c))}</div>;
                })}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
