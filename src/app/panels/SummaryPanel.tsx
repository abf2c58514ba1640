/** Summaries: countries/regions x `by` domains x several indicators, as table, chart and ADM1 choropleth. */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { ByArg, GetLayerArgs } from '../../core/types';
import type { TableResult } from '../../core/api';
import { intervalRule } from '../../core/r/breaks';
import { getEngine } from '../services';
import { useRun } from '../useRun';
import { ChipSelect } from '../../ui/ChipSelect';
import { RunControls } from '../../ui/RunControls';
import { codesKnown, emptyResult, errText, isoOptions, peopleCodes, readBreaks, summaryVars, varOptions, varSearch, type PanelCtx } from './common';
import { byCodesOf, useSummaryView, type SummaryRows } from './summary-view';
import { SummaryResult } from './SummaryResult';
import { StatsPicker } from './StatsPicker';
import { isNationalRecord } from '../../ui/series-info';
import { lazyRetry } from '../../ui/lazy-retry';
import { Loadable } from '../../ui/Loadable';
import { bundleAt } from '../../ui/bundle-files';
import { DATA_BASE } from '../bundle';

const SeriesChart = lazyRetry(() => import('../../ui/SeriesChart').then((m) => m.SeriesChart));
/** The bundle's national series table (read once by the page's bundle reader). */
const loadNational = (signal: AbortSignal) => bundleAt(DATA_BASE).series(signal).then((s) => s?.table ?? null);
import { zonalRequest, zonalText } from './zonal-choice';
import { seriesOfVars, yearArg, type SeriesYears } from '../years-choice';
import { deparse, FULL, R_TEXT } from '../../core/r/deparse';

const YearsPicker = lazyRetry(() => import('./YearsPicker').then((m) => m.YearsPicker));

/**
 * Builds getLayer arguments from the URL state (the chosen statistics as `stats`, `q`, `bins`,
 * `weights`; with a Years choice over series, `year` and the series' stems as `var`).
 * @param series the catalog's series by code (absent or empty: no `year` is sent)
 */
export function summaryArgs(s: PanelCtx['state'], series?: ReadonlyMap<string, SeriesYears>): GetLayerArgs {
  const sv = summaryVars(s);
  const ser = s.yrs && series ? seriesOfVars(sv, series) : null;
  const year = ser ? yearArg(s.yrs, ser.held) : undefined;
  const vars = year && ser ? ser.stems : sv;
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
  return { var: vars, iso3: s.iso.length ? [...s.iso] : ['SSA'], ...(by ? { by } : {}), ...(year ? { year } : {}), ...zonalRequest(s) };
}

/** What a summary request was for, e.g. "Summary of AREA_TOTAL for ETH by ADM1_NAME_ALT, ELEVATION" (Download's "For:", the old-result line). */
export function summaryLabel(a: GetLayerArgs): string {
  const by = byCodesOf(a);
  return `Summary of ${a.var.join(', ')}${a.year?.length ? `, years ${deparse(a.year, FULL, R_TEXT)}` : ''} for ${(a.iso3 ?? ['SSA']).join(', ')}${by.length ? ` by ${by.join(', ')}` : ''}${zonalText(a)}`;
}

export { naNote, sortByKeys, type SummaryRows } from './summary-view';

/** The breaks of the continuous `by` codes, typed (kept as typed; good ones go to the link). */
function BreakFields({ ctx, breakText, setBreakText }: { ctx: PanelCtx; breakText: Record<string, string>; setBreakText: (t: Record<string, string>) => void }) {
  const { state, update, byCode } = ctx;
  return (
    <>
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
    </>
  );
}

/** "No domain: …": what one row stands for when nothing is chosen under "Summarise by". */
function noDomainText(state: PanelCtx['state'], iso: PanelCtx['iso']): string {
  const allRegions = state.iso.length === 0 || state.iso.every((c) => iso.find((e) => e.code === c)?.type === 'region');
  return state.iso.length === 0 ? 'No domain: one row for the region (SSA)' : allRegions ? `No domain: one row for the region${state.iso.length > 1 ? ' each' : ''}` : state.iso.some((c) => iso.find((e) => e.code === c)?.type === 'region') ? 'No domain: one row per country or region' : 'No domain: one row per country';
}

/** Props: the shared context and a callback with the shown rows (for the choropleth). */
export function SummaryPanel({ ctx, onRows }: { ctx: PanelCtx; onRows: (r: SummaryRows | null) => void }) {
  const { state, update, catalog, byCode, iso } = ctx;
  // a result with no value at all does not replace the one on screen (r.empty says so)
  const r = useRun<GetLayerArgs, TableResult>('getLayerTable', (a, o) => getEngine().getLayerTable(a, o), { setQuery: ctx.setQuery, isEmpty: (a, d) => emptyResult(d.rows, a.var), result: (d) => d });
  const [msg, setMsg] = useState<string | null>(null);
  const [breakText, setBreakText] = useState<Record<string, string>>({});
  // the charted indicator is in the link (y=)
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
    const a = summaryArgs(state, ctx.series);
    r.run(a, { method: 'indapi', args: { ...a }, label: summaryLabel(a) });
    wantFocus.current = !auto;
    if (!auto && state.run !== 'summary') update({ run: 'summary' });
  };
  // A shared link with run=summary shows its result: run once when the catalog is there.
  useEffect(() => {
    if (autoRun.current || state.run !== 'summary' || !catalog.length || !vars.length || !codesKnown(ctx, [...vars, ...state.by], state.iso)) return;
    // a link's years wait for the catalog's series (worked out after the catalog)
    if (state.yrs && !ctx.series?.size) return;
    autoRun.current = true;
    submit(true);
  }, [catalog, iso, ctx.series, state.run, JSON.stringify([vars, state.by, state.iso])]);

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
  const view = useSummaryView(ctx, r, state.y, onRows);
  // a national series among the indicators: its line chart per selected country (read from the bundle's series table, not a run)
  const national = vars.map((c) => byCode.get(c)).find((x) => x && isNationalRecord(x));
  const isoNames = useMemo(() => new Map(iso.map((e) => [e.code, e.name])), [iso]);
  const stale = !!shown && JSON.stringify(summaryArgs(state, ctx.series)) !== JSON.stringify(shown.args);
  const ser = ctx.series ? seriesOfVars(vars, ctx.series) : null;

  return (
    <section aria-labelledby="sum-h">
      <h2 id="sum-h">Summaries</h2>
      <ChipSelect label="Indicators" options={varOpts} values={vars} onChange={(v) => update({ vars: v, noVars: v.length === 0 })} placeholder="Add an indicator…" emptyText="Choose at least one indicator" search={search} />
      <ChipSelect label="Countries or regions" options={isoOpts} values={state.iso} onChange={(v) => update({ iso: v })} placeholder="Add a country or region…" emptyText="All of Africa south of the Sahara (SSA)" />
      <ChipSelect label="Summarise by" options={byOpts} values={state.by} onChange={(v) => update({ by: v })} placeholder="Add a domain (e.g. ADM1_NAME_ALT)…" emptyText={noDomainText(state, iso)} inputId="sum-by-input" search={search} />
      {byCode.has('ADM1_NAME_ALT') && !state.by.includes('ADM1_NAME_ALT') && (
        <p className="small"><button type="button" className="ghost small" onClick={() => { update({ by: [...state.by, 'ADM1_NAME_ALT'] }); setTimeout(() => document.getElementById('sum-by-input')?.focus(), 0); }}>+ by province (ADM1)</button></p>
      )}
      <BreakFields ctx={ctx} breakText={breakText} setBreakText={setBreakText} />
      {ser && <Loadable what="the years choice" compact loading={null}><YearsPicker choice={state.yrs} held={ser.held} onChange={(c) => update({ yrs: c })} /></Loadable>}
      <StatsPicker ctx={ctx} idPrefix="sum" />
      <RunControls run={r} label="Summarise" progressLabel="Summarising" onRun={() => submit()} message={msg} error={r.error && errText(r.error)}
        buttonData={{ 'data-runs': r.runs, 'data-running': r.running ? '1' : '0', 'data-vars': vars.join(',') }} />
      {emptyMsg && !r.running && <p className="msg warn" role="status" data-testid="summary-empty">{emptyMsg}{shown ? ' The previous result is kept below.' : ''}</p>}
      {national && <Loadable what="the series chart" compact loading={null}><SeriesChart rec={national} iso3s={state.iso.filter((c) => iso.some((e) => e.code === c && e.type !== 'region'))} load={loadNational} names={isoNames} /></Loadable>}
      {shown && <SummaryResult r={{ ...r, last: shown }} v={view} stale={stale} headingRef={resultH} setYCol={setYCol} update={update} peopleVars={peopleCodes(ctx.byCode)} />}
    </section>
  );
}
