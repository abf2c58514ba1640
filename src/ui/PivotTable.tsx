/** A rows x columns table of a pivot (the table builder): one block per country, the "All selected" block, row and column totals. */
import type { Pivot } from './pivot';

/** Props of {@link PivotTable}. */
export interface PivotTableProps {
  pivot: Pivot;
  /** Caption (what the cells hold). */
  caption: string;
  /** Header of the row-key column (the row domain's label). */
  rowLabel: string;
  /** Header over the column keys (the column domain's label). */
  colLabel: string;
  /** Formats a value for display (decimals, grouping). */
  fmt: (v: number) => string;
  /** A key as shown (e.g. "1,500-6,000 m" for R's "(1.5e+03,6e+03]"; the key itself is the header's tooltip). Default: the key. */
  keyLabel?: (key: string, axis: 'row' | 'col') => string;
}

/** The table: column keys as headers, totals last, missing values as an em dash. */
export function PivotTable({ pivot, caption, rowLabel, colLabel, fmt, keyLabel }: PivotTableProps) {
  const multi = pivot.blocks.length > 1;
  const shown = (k: string, axis: 'row' | 'col') => keyLabel?.(k, axis) ?? k;
  const tip = (k: string, axis: 'row' | 'col') => (shown(k, axis) !== k ? k : undefined);
  const cell = (v: number | null) => (v === null ? <span aria-label="no value">—</span> : fmt(v));
  return (
    <div className="table-wrap pivot-wrap" tabIndex={0} role="region" aria-label={caption}>
      <table className="pivot" data-testid="pivot-table">
        <caption>{caption}</caption>
        <thead>
          <tr><th scope="col" rowSpan={2}>{rowLabel}</th><th scope="colgroup" colSpan={pivot.colKeys.length}>{colLabel}</th><th scope="col" rowSpan={2} className="total">{pivot.totalCol}</th></tr>
          <tr>{pivot.colKeys.map((k) => <th key={k} scope="col" className="num" title={tip(k, 'col')}>{shown(k, 'col')}</th>)}</tr>
        </thead>
        {pivot.blocks.map((b) => (
          <tbody key={b.all ? '\u0000all' : b.iso3} data-iso3={b.all ? undefined : b.iso3} data-all={b.all ? '1' : undefined} className={b.all ? 'all-selected' : undefined}>
            {multi && <tr className="block-head"><th scope="rowgroup" colSpan={pivot.colKeys.length + 2}>{b.all ? b.name : `${b.name} (${b.iso3})`}</th></tr>}
            {b.rows.map((r) => (
              <tr key={r.key}>
                <th scope="row" title={tip(r.key, 'row')}>{shown(r.key, 'row')}</th>
                {r.values.map((v, i) => <td key={i} className="num">{cell(v)}</td>)}
                <td className="num total">{cell(r.total)}</td>
              </tr>
            ))}
            <tr className="total-row">
              <th scope="row">{b.totalLabel}</th>
              {b.colTotals.map((v, i) => <td key={i} className="num">{cell(v)}</td>)}
              <td className="num total">{cell(b.total)}</td>
            </tr>
          </tbody>
        ))}
      </table>
    </div>
  );
}
