/** Summaries: countries/regions x `by` domains x several indicators, as table, chart and ADM1 choropleth. */
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ByArg, GetLayerArgs, Row } from '../../core/types';
import type { TableResult } from '../../core/api';
import { getEngine } from '../services';
import { useRun } from '../useRun';
import { ChipSelect } from '../../ui/ChipSelect';
import { ResultTable } from '../../ui/ResultTable';
import { BarChart } from '../../ui/BarChart';
import { Progress } from '../../ui/Progress';
import { byCellText, chartKey, emptyResult, errText, isoOptions, isTotalRow, noData, parseBreaks, summaryVars, varOptions, type PanelCtx } from './common';

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

/** Props: the shared context and a callback with the shown rows (for the choropleth). */
export function SummaryPanel({ ctx, onRows }: { ctx: PanelCtx; onRows: (r: { rows: Row[]; by: string[]; vars: string[] } | null) => void }) {
  const { state, update, catalog, byCode, iso } = ctx;
  const r = useRun<GetLayerArgs, TableResult>('getLayerTable', (a, o) => getEngine().getLayerTable(a, o));
  const [msg, setMsg] = useState<string | null>(null);
  const [breakText, setBreakText] = useState<Record<string, string>>({});
  const [yCol, setYCol] = useState<string | null>(null);
  const vars = summaryVars(state);
  const varOpts = useMemo(() => varOptions(catalog), [catalog]);
  const byOpts = useMemo(() => varOptions(catalog), [catalog]);
  const isoOpts = useMemo(() => isoOptions(iso), [iso]);

  const submit = () => {
    setMsg(null);
    if (vars.length === 0) return setMsg('Choose at least one indicator to summarise (or map one from the catalog).');
    for (const b of state.by) {
      const t = breakText[b];
      if (t !== undefined && t.trim() && !parseBreaks(t)) return setMsg(`Breaks for ${b} must be at least two increasing numbers, e.g. 0, 500, 1000.`);
    }
    const a = summaryArgs(state);
    r.run(a);
    ctx.setQuery({ method: 'indapi', args: { ...a }, label: `Summary of ${a.var.join(', ')}` });
  };

  // The result on screen: a result with no value at all does not replace the previous one.
  const [shown, setShown] = useState<typeof r.last>(null);
  const [emptyMsg, setEmptyMsg] = useState<string | null>(null);
  useEffect(() => {
    const l = r.last;
    if (!l) return;
    if (emptyResult(l.data.rows, l.args.var)) {
      setEmptyMsg(`No data for ${l.args.var.join(', ')} in ${(l.args.iso3 ?? ['SSA']).join(', ')}${byCodesOf(l.args).length ? ` by ${byCodesOf(l.args).join(', ')}` : ''}.`);
      return;
    }
    setEmptyMsg(null);
    setShown(l);
  }, [r.last]);
  useEffect(() => {
    if (!shown) return;
    onRows({ rows: shown.data.rows, by: byCodesOf(shown.args), vars: shown.args.var });
  }, [shown, onRows]);

  const rows = useMemo(() => shown?.data.rows ?? [], [shown]);
  const shownBy = useMemo(() => (shown ? byCodesOf(shown.args) : []), [shown]);
  const xKey = chartKey(rows, shownBy);
  const y = yCol && shown?.args.var.includes(yCol) ? yCol : shown?.args.var[0];
  const multiCountry = new Set(rows.map((x) => x.ISO3)).size > 1;
  const pinned = useCallback((row: Row) => isTotalRow(row, shownBy), [shownBy]);
  const cellText = useCallback((row: Row, c: string) => byCellText(row, c, shownBy), [shownBy]);
  const units = rows.filter((x) => !isTotalRow(x, shownBy)).length;

  return (
    <section aria-labelledby="sum-h">
      <h2 id="sum-h">Summaries</h2>
      <ChipSelect label="Indicators" options={varOpts} values={vars} onChange={(v) => update({ vars: v })} placeholder="Add an indicator…" />
      <ChipSelect label="Countries or regions" options={isoOpts} values={state.iso} onChange={(v) => update({ iso: v })} placeholder="Add a country or region…" emptyText="All of Africa south of the Sahara (SSA)" />
      <ChipSelect label="Summarise by" options={byOpts} values={state.by} onChange={(v) => update({ by: v })} placeholder="Add a domain (e.g. ADM1_NAME_ALT)…" emptyText="No domain: one row per country" />
      {byCode.has('ADM1_NAME_ALT') && !state.by.includes('ADM1_NAME_ALT') && (
        <p className="small"><button type="button" className="ghost small" onClick={() => update({ by: [...state.by, 'ADM1_NAME_ALT'] })}>+ by province (ADM1)</button></p>
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
                const n = parseBreaks(t);
                const nb = { ...state.breaks };
                if (n) nb[b] = n; else delete nb[b];
                update({ breaks: nb });
              }} aria-invalid={!!breakText[b]?.trim() && !parseBreaks(breakText[b])} />
          </label>
        );
      })}
      <div className="row">
        <button type="button" className="primary" onClick={submit} disabled={r.running}>Summarise</button>
        {r.running && <Progress label="Summarising" done={r.progress?.[0]} total={r.progress?.[1]} onCancel={r.cancel} />}
      </div>
      {msg && <p className="msg error" role="alert">{msg}</p>}
      {r.error && !r.running && <p className="msg error" role="alert">{errText(r.error)}</p>}
      {emptyMsg && !r.running && <p className="msg warn" role="status" data-testid="summary-empty">{emptyMsg}{shown ? ' The previous result is kept below.' : ''}</p>}
      {shown && (
        <div className="result-block" data-testid="summary-result">
          <p className="muted small">{rows.length} row{rows.length === 1 ? '' : 's'}{shownBy.length && units < rows.length ? ` (${units} unit${units === 1 ? '' : 's'} and ${rows.length - units === 1 ? 'the total' : `${rows.length - units} totals`})` : ''} · {shown.args.var.join(', ')} · {(shown.args.iso3 ?? ['SSA']).join(', ')}{shownBy.length ? ` · by ${shownBy.join(', ')}` : ''}</p>
          {noData(rows, shown.args.var, shown.args.iso3 ?? [], shownBy).map((m) => <p key={m} className="msg warn small" role="status">{m}</p>)}
          {shown.args.var.length > 1 && (
            <label className="field inline small"><span>Chart</span>
              <select value={y} onChange={(e) => setYCol(e.target.value)}>{shown.args.var.map((v) => <option key={v}>{v}</option>)}</select>
            </label>
          )}
          {rows.length > 0 && y && <BarChart rows={shownBy.includes(xKey) ? rows.filter((x) => x[xKey] !== undefined && x[xKey] !== '') : rows} x={xKey} y={y} color={multiCountry && xKey !== 'ISO3' && xKey !== 'ADM0_NAME' ? 'ISO3' : undefined} title={`${y} by ${xKey}`} />}
          <ResultTable rows={rows} columns={shown.data.columns.map((c) => c.name)} caption="Summary table" pinned={pinned} cellText={cellText} valueCols={shown.args.var} />
        </div>
      )}
    </section>
  );
}
