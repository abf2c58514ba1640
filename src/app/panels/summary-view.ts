/**
 * What the Summaries panel shows of a result (src/app/panels/SummaryPanel.tsx), derived in
 * hooks: key orders of the `by` columns (class tables, interval bounds), rows in that order,
 * two domains split into units x intervals or classes (the share of each unit's total, the
 * interval or class on the map), texts of keys, cells, bars and columns, the table's columns,
 * and the rows handed to the map (the choropleth).
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { GetLayerArgs, Row } from '../../core/types';
import type { TableResult } from '../../core/api';
import { loadClassLabels } from '../bundle';
import type { RunState } from '../useRun';
import { intervalText, requestBreaks, sliceBounds } from './intervals';
import { shareColumn, sliceRows, splitDomains, withShares, type TwoDomains } from './two-domain';
import { statDecimals, statLabel } from './zonal-choice';
import { byCellText, byColumn, chartKey, chartYear, colLabel, hasValue, isNaRow, isTotalRow, keyOrder, prettyUnit, tableColumns, type PanelCtx } from './common';

/** The `by` codes of summary arguments (a list, or the keys of an object of breaks). */
export const byCodesOf = (a: GetLayerArgs): string[] => (Array.isArray(a.by) ? a.by : Object.keys(a.by ?? {}));

/**
 * The shown summary handed to the map: rows, `by` codes, indicators and the charted one. A
 * summary by two domains maps one interval or class at a time: its rows only, `by` the unit
 * domain, `slice` the interval or class as shown ("1,500-6,000 m"); `share`: map each unit's
 * share (%) of its total (column `shareColumn(value)`) instead of the value.
 */
export interface SummaryRows {
  rows: Row[]; by: string[]; vars: string[]; value: string; slice?: string; share?: boolean;
  /** With `slice`: the rows of every unit of the summary (any interval or class), so the map greys the units without the slice. */
  units?: Row[];
  /**
   * With `slice` of a continuous layer's interval: that layer and the interval's bounds (R cut():
   * lo < value <= hi, in the layer's unit; -Infinity / Infinity when open), so the map paints
   * the cells inside it over the units.
   */
  sliceCells?: { code: string; lo: number; hi: number };
  /** A result over several years: the one year these rows are (the map says which). */
  year?: number;
}



/**
 * Rows in key order: countries in their result order, then each `by` column with a key
 * order (classes, intervals) in that order; other columns keep the result's order.
 */
export function sortByKeys(rows: Row[], by: string[], orders: Record<string, string[]>): Row[] {
  const iso = new Map<unknown, number>();
  for (const r of rows) if (!iso.has(r.ISO3)) iso.set(r.ISO3, iso.size);
  const ranks = by.filter((b) => orders[b]).map((b) => [b, new Map(orders[b].map((k, i) => [k, i]))] as const);
  return rows.map((r, i) => ({ r, i })).sort((a, b) => {
    const d = (iso.get(a.r.ISO3) ?? 0) - (iso.get(b.r.ISO3) ?? 0);
    if (d) return d;
    for (const [c, m] of ranks) {
      const x = m.get(String(a.r[c])) ?? -1, y = m.get(String(b.r[c])) ?? -1; // empty (total) first
      if (x !== y) return x - y;
    }
    return a.i - b.i;
  }).map((x) => x.r);
}

/** The NA group's note (kept with the pure helpers in ./common, where it is tested). */
export { naNote } from './common';

/**
 * Key orders of the shown result's `by` columns: class layers in class-table order, intervals
 * by bound (column -> keys); empty until the class tables are read.
 */
export function useKeyOrders(shown: RunState<GetLayerArgs, TableResult>['last'], byCode: PanelCtx['byCode']): Record<string, string[]> {
  const [orders, setOrders] = useState<Record<string, string[]>>({});
  useEffect(() => {
    if (!shown) return;
    let cancel = false;
    const by = byCodesOf(shown.args);
    void Promise.all(by.map(async (b) => {
      const col = byColumn(shown.data.columns, b);
      const vals = shown.data.rows.map((x) => x[col]).filter(hasValue).map(String);
      const cls = byCode.get(b)?.type === 'class' && !b.startsWith('ADM') ? await loadClassLabels(b).catch(() => undefined) : undefined;
      return [col, keyOrder(vals, cls)] as const;
    })).then((list) => {
      if (cancel) return;
      const o: Record<string, string[]> = {};
      for (const [b, ord] of list) if (ord) o[b] = ord;
      setOrders(o);
    });
    return () => { cancel = true; };
  }, [shown, byCode]);
  return orders;
}

/** What {@link useSummaryText} needs of the shown result. */
interface TextInput {
  shown: RunState<GetLayerArgs, TableResult>['last'];
  shownCodes: string[];
  shownBy: string[];
  y: string | undefined;
  two: TwoDomains | null;
}

/**
 * Texts of the shown result: intervals as people read them ("1,500-6,000 m", "up to 1,500 m";
 * R's cut() label, the API's and the downloads', in the tooltip), the NA group's key, cells
 * and their tooltips, and column labels.
 */
function useSummaryText(byCode: PanelCtx['byCode'], { shown, shownCodes, shownBy, y, two }: TextInput) {
  // the NA group's key: cells outside every interval (continuous domains) or without a class
  const naKind = useCallback((c: string) => (byCode.get(shownCodes[shownBy.indexOf(c)] ?? c)?.type === 'continuous' ? 'outside the breaks' : 'no class'), [byCode, shownBy, shownCodes]);
  const keyText = useCallback((c: string, v: unknown) => {
    const code = shownCodes[shownBy.indexOf(c)];
    const rec = code ? byCode.get(code) : undefined;
    return typeof v === 'string' && rec?.type === 'continuous' && shown ? intervalText(v, prettyUnit(rec.unit), requestBreaks(shown.args.by, code, rec)) : String(v);
  }, [shownCodes, shownBy, byCode, shown]);
  const cellText = useCallback((row: Row, c: string) => {
    if (!shownBy.includes(c)) return undefined;
    if (row[c] === null && isNaRow(row, shownBy)) return `NA (${naKind(c)})`;
    return hasValue(row[c]) ? keyText(c, row[c]) : byCellText(row, c, shownBy);
  }, [shownBy, naKind, keyText]);
  const cellTitle = useCallback((row: Row, c: string) => (c === 'ISO3' && row.ADM0_NAME ? String(row.ADM0_NAME)
    : shownBy.includes(c) && typeof row[c] === 'string' && keyText(c, row[c]) !== row[c] ? `${row[c] as string} (R cut() label, as in the API and downloads)` : undefined), [shownBy, keyText]);
  const label = useCallback((c: string) => {
    const i = shownBy.indexOf(c);
    // a continuous layer as a domain: its key column holds intervals
    const r0 = i >= 0 && c === shownCodes[i] ? byCode.get(c) : undefined;
    if (r0?.type === 'continuous') return r0.unit ? `${r0.varLabel} interval (${prettyUnit(r0.unit)})` : `${r0.varLabel} interval`;
    if (y && two && c === shareColumn(y)) return `${colLabel(byCode, y).replace(/ \(.*$/, '')}: % of the unit's total`;
    return statLabel(shown?.data.columns, c) ?? colLabel(byCode, c);
  }, [byCode, shownBy, shownCodes, y, two, shown]);
  return { naKind, keyText, cellText, cellTitle, label };
}

/** Bars of the chart: the key along them and each bar's text. */
function useBars(ctx: Pick<PanelCtx, 'iso'>, rows: Row[], shownBy: string[], xKey: string, orders: Record<string, string[]>, keyText: (c: string, v: unknown) => string) {
  const multiCountry = new Set(rows.map((x) => x.ISO3)).size > 1;
  // Units by name (admin-1 and the like, no key order) over several countries: bars say whose unit ("Central (KEN)").
  const unitBars = multiCountry && !orders[xKey] && shownBy.includes(xKey);
  // Districts repeat names across provinces of one country: an ADM2 bar names its ADM1 unit too.
  const barLabel = useCallback((row: Row) => (unitBars
    ? `${String(row[xKey])} (${/^ADM2_/.test(xKey) && row.ADM1_NAME_ALT ? `${String(row.ADM1_NAME_ALT)}, ` : ''}${String(row.ISO3)})`
    : xKey === 'ISO3' && typeof row.ISO3 === 'string' ? String(row.ADM0_NAME ?? ctx.iso.find((e) => e.code === row.ISO3)?.name ?? row.ISO3)
    : row[xKey] === undefined || row[xKey] === null ? 'all' : keyText(xKey, row[xKey])), [xKey, unitBars, ctx.iso, keyText]);
  // countries: bars named, largest value first (the class table's ISO3 order means nothing to a reader)
  const barOrder = xKey === 'ISO3' || xKey === 'ADM0_NAME' ? undefined : orders[xKey];
  return { multiCountry, unitBars, barLabel, barOrder };
}

/**
 * The view of the shown summary (nothing while none is shown) and the rows handed to the map:
 * the units, or with two domains the units of one interval or class (and their shares when chosen).
 * @param yCol the charted indicator of the link (y=), when the result has it
 */
export function useSummaryView(ctx: Pick<PanelCtx, 'byCode' | 'iso' | 'state'>, r: RunState<GetLayerArgs, TableResult>, yCol: string | null, onRows: (r: SummaryRows | null) => void) {
  const { byCode } = ctx;
  const shown = r.last;
  const y = yCol && shown?.args.var.includes(yCol) ? yCol : shown?.args.var[0];
  // `by` codes of the shown result, and the row columns holding their keys ("ELEVATION_by" when ELEVATION is also summarised).
  const shownCodes = useMemo(() => (shown ? byCodesOf(shown.args) : []), [shown]);
  const shownBy = useMemo(() => shownCodes.map((b) => byColumn(shown?.data.columns ?? [], b)), [shown, shownCodes]);
  const orders = useKeyOrders(shown, byCode);
  const allRows = useMemo(() => sortByKeys(shown?.data.rows ?? [], shownBy, orders), [shown, shownBy, orders]);
  // a result over several years: the chart and the map show one year (the table every year)
  const year = useMemo(() => chartYear(allRows, ctx.state.year), [allRows, ctx.state.year]);
  const rows = useMemo(() => (year === null ? allRows : allRows.filter((x) => x.year === year)), [allRows, year]);
  // two domains (e.g. provinces x ELEVATION intervals): units along the bars, intervals or classes in colours, one on the map
  const two = useMemo(() => splitDomains(rows, shownBy, orders), [rows, shownBy, orders]);
  const additive = !!y && /^sum\(/.test(byCode.get(y)?.aggFunR ?? '');
  const [share, setShare] = useState(false);
  const showShare = share && additive && !!two;
  const shownRows = useMemo(() => (two && y && additive ? withShares(rows, two, y) : rows), [rows, two, y, additive]);
  const [mapKey, setMapKey] = useState<string | null>(null);
  const groupKeys = useMemo(() => (two ? orders[two.group] ?? [...new Set(rows.map((x) => x[two.group]).filter(hasValue).map(String))] : []), [two, orders, rows]);
  const slice = two && groupKeys.length ? (mapKey && groupKeys.includes(mapKey) ? mapKey : groupKeys[0]) : null;
  const xKey = two ? two.unit : chartKey(rows, shownBy);
  const pinned = useCallback((row: Row) => isTotalRow(row, shownBy), [shownBy]);
  const text = useSummaryText(byCode, { shown, shownCodes, shownBy, y, two });
  const bars = useBars(ctx, rows, shownBy, xKey, orders, text.keyText);
  const decimals = useMemo(() => ({ ...statDecimals(shown?.data.columns), ...Object.fromEntries([...(shown?.args.var ?? []).map((v) => [v, byCode.get(v)?.dec ?? 2] as const), ...(y ? [[shareColumn(y), 1] as const] : [])]) }), [shown, byCode, y]);
  const table = useMemo(() => {
    const t = tableColumns(rows, shown?.data.columns.map((c) => c.name).filter((c) => c !== 'total') ?? [], shownBy);
    if (!showShare || !y) return t;
    const at = t.cols.indexOf(y) + 1; // the share right after its indicator
    return { ...t, cols: [...t.cols.slice(0, at), shareColumn(y), ...t.cols.slice(at)] };
  }, [rows, shown, shownBy, showShare, y]);
  const { keyText } = text;
  // the map: the units, or with two domains the units of one interval or class (and their shares when chosen)
  useEffect(() => {
    if (!shown) { if (r.error) onRows(null); return; } // a failed run's map goes with its table
    if (!y) return;
    const by = byCodesOf(shown.args);
    const inYear = year === null ? {} : { year };
    if (!two || !slice) { onRows({ rows: year === null ? shown.data.rows : rows, by, vars: shown.args.var, value: y, ...inYear }); return; }
    const units = shownRows.filter((x) => x[two.unit] !== undefined && x[two.unit] !== null && x[two.unit] !== '');
    const cells = sliceBounds(slice, shownCodes[shownBy.indexOf(two.group)], shown.args, byCode);
    onRows({ rows: sliceRows(shownRows, two, slice), units, by: [by[shownBy.indexOf(two.unit)]], vars: shown.args.var, value: y, slice: keyText(two.group, slice), ...(showShare ? { share: true } : {}), ...(cells ? { sliceCells: cells } : {}), ...inYear });
  }, [shown, onRows, y, r.error, two, slice, shownRows, showShare, keyText, shownBy, shownCodes, byCode, year, rows]);
  const naRows = allRows.filter((x) => isNaRow(x, shownBy));
  const units = allRows.filter((x) => !isTotalRow(x, shownBy)).length;
  // the table keeps every year
  const tableRows = year === null ? shownRows : allRows;
  return { y, shownBy, orders, rows, allRows, tableRows, year, two, additive, share, setShare, showShare, shownRows, groupKeys, slice, setMapKey, xKey, pinned, ...text, ...bars, decimals, table, naRows, units };
}

/** The view of a shown summary ({@link useSummaryView}'s value). */
export type SummaryView = ReturnType<typeof useSummaryView>;
