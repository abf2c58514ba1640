/**
 * The shown result of the Summaries panel: counts, no-data and NA notes, the charted
 * indicator, the two-domain choices (share, the interval or class on the map), the chart and
 * the table, and the below-sea note of terrain layers. Its figures come from `useSummaryView`
 * (./summary-view.ts).
 */
import type { Ref } from 'react';
import type { GetLayerArgs, Row } from '../../core/types';
import type { TableResult } from '../../core/api';
import type { RunState } from '../useRun';
import { ResultTable } from '../../ui/ResultTable';
import { BarChart } from '../../ui/BarChart';
import { ResultFrame } from '../../ui/ResultFrame';
import { shareColumn, unitOrder } from './two-domain';
import { hasValue, isNaRow, isTotalRow, noData, type PanelCtx } from './common';
import { naNote, type SummaryView } from './summary-view';
import { statColumns } from './zonal-choice';

/** Indicators whose values below 0 m come from sea-floor depths of ETOPO5 at coastal cells. */
const TERRAIN = ['ELEVATION', 'SLOPE', 'TRI'];

/** Props of {@link SummaryResult}. */
export interface SummaryResultProps {
  /** The run, with a result shown (`r.last`). */
  r: RunState<GetLayerArgs, TableResult> & { last: NonNullable<RunState<GetLayerArgs, TableResult>['last']> };
  /** The result's view. */
  v: SummaryView;
  /** The inputs changed since the result's request. */
  stale: boolean;
  /** The result's heading (focused after a run the user started). */
  headingRef: Ref<HTMLHeadingElement>;
  /** Sets the charted indicator (the link's y=). */
  setYCol: (v: string) => void;
  update: PanelCtx['update'];
  /** Codes of the people layers (catalog unit "people"): the NA note counts their people too. */
  peopleVars?: string[];
}

/** The chart: units x intervals or classes with two domains, else one bar per key. */
function SummaryChart({ v }: { v: SummaryView }) {
  const { rows, y, two, shownRows, showShare, keyText, groupKeys, label, barLabel, table, shownBy, xKey, multiCountry, unitBars, barOrder, year } = v;
  if (!rows.length || !y) return null;
  const inYear = year === null ? '' : `, ${year}`; // a result over several years: the chart's one year
  if (two) {
    const chartRows = shownRows.filter((x) => hasValue(x[two.unit]) && hasValue(x[two.group]));
    const col = showShare ? shareColumn(y) : y;
    return <BarChart rows={chartRows} x={two.unit} y={col} color={two.group} colorLabel={(x) => keyText(two.group, x[two.group])} colorOrder={groupKeys.map((k) => keyText(two.group, k))} colorTitle={label(two.group)}
      label={barLabel} order={unitOrder(chartRows, y, barLabel)} max={25 * Math.max(1, groupKeys.length)}
      title={`${label(col)} by ${label(two.unit)} and ${label(two.group)}${table.country ? `, ${table.country}` : ''}${inYear}`} xTitle={label(two.unit)} yTitle={label(col)} />;
  }
  return <BarChart rows={shownBy.includes(xKey) ? rows.filter((x: Row) => hasValue(x[xKey]) && !isTotalRow(x, shownBy)) : rows} x={xKey} y={y} color={multiCountry && !unitBars && xKey !== 'ISO3' && xKey !== 'ADM0_NAME' ? 'ISO3' : undefined} label={barLabel}
    title={`${label(y)} by ${label(xKey)}${table.country ? `, ${table.country}` : ''}${inYear}`} xTitle={label(xKey)} yTitle={label(y)} order={barOrder?.map((k) => keyText(xKey, k))} />;
}

/** The charted indicator and, with two domains, the share and the interval or class on the map. */
function SummaryChoices({ v, vars, setYCol }: { v: SummaryView; vars: string[]; setYCol: (v: string) => void }) {
  const { y, two, additive, share, setShare, slice, setMapKey, groupKeys, keyText, label } = v;
  return (
    <>
      {vars.length > 1 && (
        <label className="field inline small"><span>Chart</span>
          <select value={y} onChange={(e) => setYCol(e.target.value)}>{vars.map((c) => <option key={c} value={c}>{label(c)} ({c})</option>)}</select>
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
    </>
  );
}

/** Terrain layers below 0 m: a note with a link to the ELEVATION card. */
function BelowSeaNote({ codes, update }: { codes: string[]; update: PanelCtx['update'] }) {
  return (
    <p className="small muted" data-testid="below-sea-note">
      Note: {codes.join(', ')} is below 0 m for some units. ETOPO5 does not resolve the land at some coastal cells and small islands, where a cell keeps a sea-floor depth;{' '}
      <a href="#card-title" onClick={(e) => { e.preventDefault(); update({ v: 'ELEVATION' }); setTimeout(() => { const d = document.querySelector<HTMLDetailsElement>('.card details.method'); if (d) d.open = true; document.getElementById('card-title')?.focus(); }, 50); }}>see the ELEVATION card</a>.
    </p>
  );
}

/** The result block. */
export function SummaryResult({ r, v, stale, headingRef, setYCol, update, peopleVars = [] }: SummaryResultProps) {
  const shown = r.last;
  const { allRows: rows, shownBy, units, naRows, naKind, y, showShare, tableRows, table, pinned, cellText, cellTitle, label, orders, decimals } = v;
  const place = table.country ?? (shown.args.iso3 ?? ['SSA']).join(', ');
  const belowSea = shown.args.var.filter((c) => TERRAIN.includes(c) && rows.some((x) => typeof x[c] === 'number' && (x[c] as number) < 0));
  return (
    <ResultFrame run={r} testId="summary-result">
      <h3 id="sum-result-h" tabIndex={-1} ref={headingRef}>Result</h3>
      {stale && <p className="msg info small" role="status" data-testid="summary-stale">The choices above changed: press Summarise to update this result.</p>}
      <p className="muted small">{rows.length} row{rows.length === 1 ? '' : 's'}{shownBy.length && units < rows.length ? ` (${units} unit${units === 1 ? '' : 's'} and ${rows.length - units === 1 ? 'the total' : `${rows.length - units} totals`})` : ''} · {shown.args.var.join(', ')} · {(shown.args.iso3 ?? ['SSA']).join(', ')}{shownBy.length ? ` · by ${shownBy.join(', ')}` : ''}</p>
      {noData(rows.filter((x) => !isNaRow(x, shownBy)), shown.args.var, shown.args.iso3 ?? [], shownBy).map((m) => <p key={m} className="msg warn small" role="status">{m}</p>)}
      {naRows.length > 0 && <p className="msg warn small" role="status" data-testid="summary-na">{naNote(naRows, shownBy.filter((c) => naRows.some((x) => x[c] === null)).map(naKind).includes('outside the breaks'), shown.args.var.filter((c) => peopleVars.includes(c)))}</p>}
      <SummaryChoices v={v} vars={shown.args.var} setYCol={setYCol} />
      <SummaryChart v={v} />
      <ResultTable rows={tableRows} columns={table.cols} caption="Summary table" note={place} pinned={pinned} cellText={cellText} cellTitle={cellTitle} valueCols={[...shown.args.var, ...statColumns(shown.data.columns), ...(showShare && y ? [shareColumn(y)] : [])]} colLabel={label} keyOrders={orders} decimals={decimals} />
      {belowSea.length > 0 && <BelowSeaNote codes={belowSea} update={update} />}
    </ResultFrame>
  );
}
