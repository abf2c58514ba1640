/** Summaries: countries/regions x `by` domains x several indicators, as table, chart and ADM1 choropleth. */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ByArg, GetLayerArgs, Row } from '../../core/types';
import type { TableResult } from '../../core/api';
import { intervalRule } from '../../core/r/breaks';
import { getEngine, getRaster } from '../services';
import { useRun } from '../useRun';
import { ChipSelect } from '../../ui/ChipSelect';
import { ResultTable } from '../../ui/ResultTable';
import { BarChart } from '../../ui/BarChart';
import { RunControls } from '../../ui/RunControls';
import { ResultFrame } from '../../ui/ResultFrame';
import { intervalText, requestBreaks } from './intervals';
import { shareColumn, sliceRows, splitDomains, unitOrder, withShares } from './two-domain';
import { codesKnown, byCellText, byColumn, chartKey, colLabel, emptyResult, errText, hasValue, isNaRow, isoOptions, isTotalRow, keyOrder, noData, prettyUnit, readBreaks, summaryVars, tableColumns, varOptions, varSearch, type PanelCtx } from './common';

const byCodesOf = (a: GetLayerArgs): string[] => (Array.isArray(a.by) ? a.by : Object.keys(a.by ?? {}));

/** Builds getLayer arguments from the URL state. */
export function summaryArgs(s: PanelCtx['state']): GetLayerArgs {
  const vars = summaryVars(s);
  let by: ByArg | undefined;
  if (s.by.length) {
    const custom = s.by.filter((b) => s.breaks[b]);
    if (custom.length) {
      // codes without custom breaks: null = no filter / default breaks
      const o: Record<string, Array<number | string> | null> = {};
      for (const b of s.by) o[b] = s.breaks[b] ?? null;
      by = o as ByArg;
    } else by = [...s.by];
  }
  return { var: vars, iso3: s.iso.length ? [...s.iso] : ['SSA'], ...(by ? { by } : {}) };
}

/** What a summary request was for, e.g. "Summary of AREA_TOTAL for ETH by ADM1_NAME_ALT, ELEVATION" (Download's "For:", the old-result line). */
export function summaryLabel(a: GetLayerArgs): string {
  const by = byCodesOf(a);
  return `Summary of ${a.var.join(', ')} for ${(a.iso3 ?? ['SSA']).join(', ')}${by.length ? ` by ${by.join(', ')}` : ''}`;
}

/** Indicators whose values below 0 m come from sea-floor depths of ETOPO5 at coastal cells. */
const TERRAIN = ['ELEVATION', 'SLOPE', 'TRI'];

/**
 * The shown summary handed to the map: rows, `by` codes, indicators and the charted one. A
 * summary by two domains maps one interval or class at a time: its rows only, `by` the unit
 * domain, `slice` the interval or class as shown ("1,500-6,000 m"); `share`: map each unit's
 * share (%) of its total (column `shareColumn(value)`) instead of the value.
 */
export interface SummaryRows { rows: Row[]; by: string[]; vars: string[]; value: string; slice?: string; share?: boolean }

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

/**
 * The note of the NA group's rows (cells outside every interval): "123 cells fell outside the
 * breaks" when the rows carry a cell count (`n`, `count` or `cells`), else the number of rows.
 */
export function naNote(rows: Row[], breaks = true): string {
  const n = rows.reduce((s, r) => s + (typeof r.n === 'number' ? r.n : typeof r.count === 'number' ? r.count : typeof r.cells === 'number' ? r.cells : NaN), 0);
  const what = breaks ? 'fell outside the breaks' : 'have no class';
  const fix = breaks ? '; widen the breaks to include them' : '';
  if (Number.isFinite(n)) return `${n.toLocaleString('en')} cell${n === 1 ? '' : 's'} ${breaks ? what : what.replace('have', n === 1 ? 'has' : 'have')} (row NA)${fix}.`;
  return `Some cells ${what}: ${rows.length === 1 ? 'the NA row holds them' : `${rows.length} NA rows hold them`}${fix}.`;
}

/** Props: the shared context and a callback with the shown rows (for the choropleth). */
export function SummaryPanel({ ctx, onRows }: { ctx: PanelCtx; onRows: (r: SummaryRows | null) => void }) {
  const { state, update, catalog, byCode, iso } = ctx;
  // a result with no value at all does not replace the one on screen (r.empty says so)
  const r = useRun<GetLayerArgs, TableResult>('getLayerTable', (a, o) => getEngine().getLayerTable(a, o), { setQuery: ctx.setQuery, isEmpty: (a, d) => emptyResult(d.rows, a.var) });
  const [msg, setMsg] = useState<string | null>(null);
  const [breakText, setBreakText] = useState<Record<string, string>>({});
  // the charted indicator is in the link (y=)
  const yCol = state.y;
  const setYCol = (v: string) => update({ y: v });
  const vars = summaryVars(state);
  const varOpts = useMemo(() => varOptions(catalog), [catalog]);
  const byOpts = useMemo(() => varOptions(catalog), [catalog]);
  const isoOpts = useMemo(() => isoOptions(iso), [iso]);
  const search = useMemo(() => varSearch(catalog), [catalog]);

  const wantFocus = useRef(false);
  const autoRun = useRef(false);
  const submit = (auto = false) => {
    if (r.running) return;
    autoRun.current = true; // a run of the user's: the link's run is done with
    setMsg(null);
    if (vars.length === 0) return setMsg('Choose at least one indicator.');
    for (const b of state.by) {
      const t = breakText[b];
      const read = t !== undefined && t.trim() ? readBreaks(t, intervalRule(b)) : null;
      if (typeof read === 'string') return setMsg(read);
    }
    const a = summaryArgs(state);
    r.run(a, { method: 'indapi', args: { ...a }, label: summaryLabel(a) });
    wantFocus.current = !auto;
    if (!auto && state.run !== 'summary') update({ run: 'summary' });
  };
  // A shared link with run=summary shows its result: run once when the catalog is there.
  useEffect(() => {
    if (autoRun.current || state.run !== 'summary' || !catalog.length || !vars.length || !codesKnown(ctx, [...vars, ...state.by], state.iso)) return;
    autoRun.current = true;
    submit(true);
  }, [catalog, iso, state.run, JSON.stringify([vars, state.by, state.iso])]);

  // The result on screen (a result with no value at all does not replace it: r.empty).
  const shown = r.last;
  const emptyMsg = r.empty ? `No data for ${r.empty.args.var.join(', ')} in ${(r.empty.args.iso3 ?? ['SSA']).join(', ')}${byCodesOf(r.empty.args).length ? ` by ${byCodesOf(r.empty.args).join(', ')}` : ''}.` : null;
  // After a run the user started, focus goes to the result's heading (never to the page body).
  const resultH = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!shown || !wantFocus.current) return;
    wantFocus.current = false;
    resultH.current?.focus();
  }, [shown]);
  const y = yCol && shown?.args.var.includes(yCol) ? yCol : shown?.args.var[0];

  // `by` codes of the shown result, and the row columns holding their keys ("ELEVATION_by" when ELEVATION is also summarised).
  const shownCodes = useMemo(() => (shown ? byCodesOf(shown.args) : []), [shown]);
  const shownBy = useMemo(() => shownCodes.map((b) => byColumn(shown?.data.columns ?? [], b)), [shown, shownCodes]);
  // Key orders of the by columns: class layers in class-table order, intervals by bound.
  const [orders, setOrders] = useState<Record<string, string[]>>({});
  useEffect(() => {
    if (!shown) return;
    let cancel = false;
    const by = byCodesOf(shown.args);
    void Promise.all(by.map(async (b) => {
      const col = byColumn(shown.data.columns, b);
      const vals = shown.data.rows.map((x) => x[col]).filter(hasValue).map(String);
      const cls = byCode.get(b)?.type === 'class' && !b.startsWith('ADM') ? await getRaster().classTable(b).then((t) => t.map((e) => String(e.label))).catch(() => undefined) : undefined;
      return [col, keyOrder(vals, cls)] as const;
    })).then((list) => {
      if (cancel) return;
      const o: Record<string, string[]> = {};
      for (const [b, ord] of list) if (ord) o[b] = ord;
      setOrders(o);
    });
    return () => { cancel = true; };
  }, [shown, byCode]);
  const rows = useMemo(() => sortByKeys(shown?.data.rows ?? [], shownBy, orders), [shown, shownBy, orders]);
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
  const multiCountry = new Set(rows.map((x) => x.ISO3)).size > 1;
  const pinned = useCallback((row: Row) => isTotalRow(row, shownBy), [shownBy]);
  // the NA group's key: cells outside every interval (continuous domains) or without a class
  const naKind = useCallback((c: string) => (byCode.get(shownCodes[shownBy.indexOf(c)] ?? c)?.type === 'continuous' ? 'outside the breaks' : 'no class'), [byCode, shownBy, shownCodes]);
  // intervals as people read them ("1,500-6,000 m", "up to 1,500 m"); R's cut() label (the API's, the downloads') in the tooltip
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
    return colLabel(byCode, c);
  }, [byCode, shownBy, shownCodes, y, two]);
  const decimals = useMemo(() => Object.fromEntries([...(shown?.args.var ?? []).map((v) => [v, byCode.get(v)?.dec ?? 2] as const), ...(y ? [[shareColumn(y), 1] as const] : [])]), [shown, byCode, y]);
  // Units by name (admin-1 and the like, no key order) over several countries: bars say whose unit ("Central (KEN)").
  const unitBars = multiCountry && !orders[xKey] && shownBy.includes(xKey);
  // Districts repeat names across provinces of one country: an ADM2 bar names its ADM1 unit too.
  const barLabel = useCallback((row: Row) => (unitBars
    ? `${String(row[xKey])} (${/^ADM2_/.test(xKey) && row.ADM1_NAME_ALT ? `${String(row.ADM1_NAME_ALT)}, ` : ''}${String(row.ISO3)})`
    : xKey === 'ISO3' && typeof row.ISO3 === 'string' ? String(row.ADM0_NAME ?? iso.find((e) => e.code === row.ISO3)?.name ?? row.ISO3)
    : row[xKey] === undefined || row[xKey] === null ? 'all' : keyText(xKey, row[xKey])), [xKey, unitBars, iso, keyText]);
  // countries: bars named, largest value first (the class table's ISO3 order means nothing to a reader)
  const barOrder = xKey === 'ISO3' || xKey === 'ADM0_NAME' ? undefined : orders[xKey];
  const naRows = rows.filter((x) => isNaRow(x, shownBy));
  const units = rows.filter((x) => !isTotalRow(x, shownBy)).length;
  const table = useMemo(() => {
    const t = tableColumns(rows, shown?.data.columns.map((c) => c.name).filter((c) => c !== 'total') ?? [], shownBy);
    if (!showShare || !y) return t;
    const at = t.cols.indexOf(y) + 1; // the share right after its indicator
    return { ...t, cols: [...t.cols.slice(0, at), shareColumn(y), ...t.cols.slice(at)] };
  }, [rows, shown, shownBy, showShare, y]);
  // the map: the units, or with two domains the units of one interval or class (and their shares when chosen)
  useEffect(() => {
    if (!shown) { if (r.error) onRows(null); return; } // a failed run's map goes with its table
    if (!y) return;
    const by = byCodesOf(shown.args);
    if (!two || !slice) { onRows({ rows: shown.data.rows, by, vars: shown.args.var, value: y }); return; }
    onRows({ rows: sliceRows(shownRows, two, slice), by: [by[shownBy.indexOf(two.unit)]], vars: shown.args.var, value: y, slice: keyText(two.group, slice), ...(showShare ? { share: true } : {}) });
  }, [shown, onRows, y, r.error, two, slice, shownRows, showShare, keyText, shownBy]);
  const place = table.country ?? (shown?.args.iso3 ?? ['SSA']).join(', ');
  const belowSea = shown ? shown.args.var.filter((v) => TERRAIN.includes(v) && rows.some((x) => typeof x[v] === 'number' && (x[v] as number) < 0)) : [];
  const stale = !!shown && JSON.stringify(summaryArgs(state)) !== JSON.stringify(shown.args);
  const allRegions = state.iso.length === 0 || state.iso.every((c) => iso.find((e) => e.code === c)?.type === 'region');
  const noDomain = state.iso.length === 0 ? 'No domain: one row for the region (SSA)' : allRegions ? `No domain: one row for the region${state.iso.length > 1 ? ' each' : ''}` : state.iso.some((c) => iso.find((e) => e.code === c)?.type === 'region') ? 'No domain: one row per country or region' : 'No domain: one row per country';

  return (
    <section aria-labelledby="sum-h">
      <h2 id="sum-h">Summaries</h2>
      <ChipSelect label="Indicators" options={varOpts} values={vars} onChange={(v) => update({ vars: v, noVars: v.length === 0 })} placeholder="Add an indicator…" emptyText="Choose at least one indicator" search={search} />
      <ChipSelect label="Countries or regions" options={isoOpts} values={state.iso} onChange={(v) => update({ iso: v })} placeholder="Add a country or region…" emptyText="All of Africa south of the Sahara (SSA)" />
      <ChipSelect label="Summarise by" options={byOpts} values={state.by} onChange={(v) => update({ by: v })} placeholder="Add a domain (e.g. ADM1_NAME_ALT)…" emptyText={noDomain} inputId="sum-by-input" search={search} />
      {byCode.has('ADM1_NAME_ALT') && !state.by.includes('ADM1_NAME_ALT') && (
        <p className="small"><button type="button" className="ghost small" onClick={() => { update({ by: [...state.by, 'ADM1_NAME_ALT'] }); setTimeout(() => document.getElementById('sum-by-input')?.focus(), 0); }}>+ by province (ADM1)</button></p>
      )}
      {state.by.filter((b) => byCode.get(b)?.type === 'continuous').map((b) => {
        const rec = byCode.get(b)!;
        const def = rec.classBreaks.split('|').join(', ');
        return (
          <label key={b} className="field">
            <span>Breaks for {b} ({rec.unit || 'no unit'}); empty = default</span>
            <input type="text" inputMode="decimal" placeholder={def} value={breakText[b] ?? (state.breaks[b] ? state.breaks[b].join(', ') : '')}
              onChange={(e) => {
                const t = e.target.value;
                setBreakText({ ...breakText, [b]: t });
                const n = readBreaks(t, intervalRule(b));
                const nb = { ...state.breaks };
                if (typeof n !== 'string') nb[b] = n; else delete nb[b];
                update({ breaks: nb });
              }} aria-invalid={!!breakText[b]?.trim() && typeof readBreaks(breakText[b], intervalRule(b)) === 'string'} />
          </label>
        );
      })}
      <RunControls run={r} label="Summarise" progressLabel="Summarising" onRun={() => submit()} message={msg} error={r.error && errText(r.error)}
        buttonData={{ 'data-runs': r.runs, 'data-running': r.running ? '1' : '0', 'data-vars': vars.join(',') }} />
      {emptyMsg && !r.running && <p className="msg warn" role="status" data-testid="summary-empty">{emptyMsg}{shown ? ' The previous result is kept below.' : ''}</p>}
      {shown && (
        <ResultFrame run={r} testId="summary-result">
          <h3 id="sum-result-h" tabIndex={-1} ref={resultH}>Result</h3>
          {stale && <p className="msg info small" role="status" data-testid="summary-stale">The choices above changed: press Summarise to update this result.</p>}
          <p className="muted small">{rows.length} row{rows.length === 1 ? '' : 's'}{shownBy.length && units < rows.length ? ` (${units} unit${units === 1 ? '' : 's'} and ${rows.length - units === 1 ? 'the total' : `${rows.length - units} totals`})` : ''} · {shown.args.var.join(', ')} · {(shown.args.iso3 ?? ['SSA']).join(', ')}{shownBy.length ? ` · by ${shownBy.join(', ')}` : ''}</p>
          {noData(rows.filter((x) => !isNaRow(x, shownBy)), shown.args.var, shown.args.iso3 ?? [], shownBy).map((m) => <p key={m} className="msg warn small" role="status">{m}</p>)}
          {naRows.length > 0 && <p className="msg warn small" role="status" data-testid="summary-na">{naNote(naRows, shownBy.filter((c) => naRows.some((x) => x[c] === null)).map(naKind).includes('outside the breaks'))}</p>}
          {shown.args.var.length > 1 && (
            <label className="field inline small"><span>Chart</span>
              <select value={y} onChange={(e) => setYCol(e.target.value)}>{shown.args.var.map((v) => <option key={v} value={v}>{label(v)} ({v})</option>)}</select>
            </label>
          )}
          {two && y && (
            <div className="row small" data-testid="summary-two-domains">
              {additive && <label className="field inline"><input type="checkbox" checked={share} onChange={(e) => setShare(e.target.checked)} data-testid="summary-share" /> <span>Share of each unit's total (%)</span></label>}
              <label className="field inline"><span>Map</span>
                <select value={slice ?? ''} onChange={(e) => setMapKey(e.target.value)} data-testid="summary-map-slice">{groupKeys.map((k) => <option key={k} value={k}>{keyText(two.group, k)}</option>)}</select>
              </label>
            </div>
          )}
          {rows.length > 0 && y && two && (() => {
            const chartRows = shownRows.filter((x) => hasValue(x[two.unit]) && hasValue(x[two.group]));
            const v = showShare ? shareColumn(y) : y;
            return <BarChart rows={chartRows} x={two.unit} y={v} color={two.group} colorLabel={(x) => keyText(two.group, x[two.group])} colorOrder={groupKeys.map((k) => keyText(two.group, k))} colorTitle={label(two.group)}
              label={barLabel} order={unitOrder(chartRows, y, barLabel)} max={25 * Math.max(1, groupKeys.length)}
              title={`${label(v)} by ${label(two.unit)} and ${label(two.group)}${table.country ? `, ${table.country}` : ''}`} xTitle={label(two.unit)} yTitle={label(v)} />;
          })()}
          {rows.length > 0 && y && !two && <BarChart rows={shownBy.includes(xKey) ? rows.filter((x) => hasValue(x[xKey]) && !isTotalRow(x, shownBy)) : rows} x={xKey} y={y} color={multiCountry && !unitBars && xKey !== 'ISO3' && xKey !== 'ADM0_NAME' ? 'ISO3' : undefined} label={barLabel}
            title={`${label(y)} by ${label(xKey)}${table.country ? `, ${table.country}` : ''}`} xTitle={label(xKey)} yTitle={label(y)} order={barOrder?.map((k) => keyText(xKey, k))} />}
          <ResultTable rows={shownRows} columns={table.cols} caption="Summary table" note={place} pinned={pinned} cellText={cellText} cellTitle={cellTitle} valueCols={[...shown.args.var, ...(showShare && y ? [shareColumn(y)] : [])]} colLabel={label} keyOrders={orders} decimals={decimals} />
          {belowSea.length > 0 && (
            <p className="small muted" data-testid="below-sea-note">
              Note: {belowSea.join(', ')} is below 0 m for some units. ETOPO5 does not resolve the land at some coastal cells and small islands, where a cell keeps a sea-floor depth;{' '}
              <a href="#card-title" onClick={(e) => { e.preventDefault(); update({ v: 'ELEVATION' }); setTimeout(() => { const d = document.querySelector<HTMLDetailsElement>('.card details.method'); if (d) d.open = true; document.getElementById('card-title')?.focus(); }, 50); }}>see the ELEVATION card</a>.
            </p>
          )}
        </ResultFrame>
      )}
    </section>
  );
}
