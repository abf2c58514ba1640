/**
 * Summaries by two domains (issue 23 item 4), e.g. Cell area by ADM1_NAME_ALT and ELEVATION
 * intervals: which domain runs along the bars (the units) and which is in colours (the
 * intervals or classes), each row's share of its unit's total (as TABLR's row percentages),
 * and the rows of one interval or class for the map. Pure: rows in, rows out.
 */
import type { Row } from '../../core/types';
import { hasValue, isTotalRow } from './common';

/** The two domains of a summary: `unit` along the bars (and on the map), `group` in colours (one at a time on the map). */
export interface TwoDomains { unit: string; group: string }

/**
 * Splits a summary's two `by` columns: the group is the one with a key order (intervals or a
 * class table), or else the one with fewer distinct keys; null unless there are exactly two.
 * @param by the row columns holding the `by` keys, in request order
 * @param orders key orders of the columns that have one
 */
export function splitDomains(rows: Row[], by: string[], orders: Record<string, string[]>): TwoDomains | null {
  if (by.length !== 2) return null;
  const [a, b] = by;
  if (orders[b] && !orders[a]) return { unit: a, group: b };
  if (orders[a] && !orders[b]) return { unit: b, group: a };
  const n = (c: string) => new Set(rows.map((r) => r[c]).filter(hasValue)).size;
  return n(b) <= n(a) ? { unit: a, group: b } : { unit: b, group: a };
}

/** Name of the column holding each row's share (%) of its unit's total of indicator `y`. */
export function shareColumn(y: string): string {
  return `${y}_pct_of_unit`;
}

/**
 * Each row's share of its unit's total, in percent, in column {@link shareColumn}: the row's
 * value over the sum of the unit's rows (a unit is its key and its country; its NA group, cells
 * outside the breaks or without a class, counts in the total), so a unit's shares add to 100.
 * Meaningful for additive indicators (aggregation `sum`) only. Total rows get no share.
 */
export function withShares(rows: Row[], d: TwoDomains, y: string): Row[] {
  const by = [d.unit, d.group];
  const key = (r: Row) => `${String(r.ISO3 ?? '')}\u0000${String(r[d.unit])}`;
  const totals = new Map<string, number>();
  for (const r of rows) {
    if (isTotalRow(r, by) || !hasValue(r[d.unit]) || typeof r[y] !== 'number') continue;
    totals.set(key(r), (totals.get(key(r)) ?? 0) + (r[y] as number));
  }
  const col = shareColumn(y);
  return rows.map((r) => {
    const t = totals.get(key(r));
    if (isTotalRow(r, by) || typeof r[y] !== 'number' || t === undefined || t === 0) return r;
    return { ...r, [col]: ((r[y] as number) / t) * 100 };
  });
}

/** The rows of one key of the group domain (for the map): units with that interval or class. */
export function sliceRows(rows: Row[], d: TwoDomains, key: string): Row[] {
  return rows.filter((r) => hasValue(r[d.unit]) && String(r[d.group]) === key);
}

/**
 * Order of the units along the bars: largest total of `y` first (the sum of the unit's rows
 * shown), by their bar label.
 */
export function unitOrder(rows: Row[], y: string, label: (r: Row) => string): string[] {
  const sum = new Map<string, number>();
  for (const r of rows) sum.set(label(r), (sum.get(label(r)) ?? 0) + (typeof r[y] === 'number' ? (r[y] as number) : 0));
  return [...sum.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([k]) => k);
}
