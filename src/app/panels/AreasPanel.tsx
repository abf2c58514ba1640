/** Areas: draw points/polygons on the map or paste WKT; summaries per feature with the `exact` option. */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Row } from '../../core/types';
import type { GetLayerWktArgs, TableResult } from '../../core/api';
import { getEngine } from '../services';
import { useRun } from '../useRun';
import { ResultTable } from '../../ui/ResultTable';
import { BarChart } from '../../ui/BarChart';
import { RunControls } from '../../ui/RunControls';
import { ResultFrame } from '../../ui/ResultFrame';
import type { DrawMode } from '../../ui/MapView';
import { parseWktGeometries } from '../../ui/wkt';
import { StatsPicker } from './StatsPicker';
import { statColumns, statDecimals, statLabel, zonalRequest, zonalText } from './zonal-choice';
import { lazyRetry } from '../../ui/lazy-retry';
import { Loadable } from '../../ui/Loadable';
import { codesKnown, chartKey, colLabel, errText, summaryVars, tableColumns, type PanelCtx } from './common';

// The upload tools (file readers, the table formats and GeoPackage writer of the bulk download)
// load when the panel is first opened, not with the page: they were 6 KB gzipped of its first download.
const UploadShapes = lazyRetry(() => import('./UploadShapes').then((m) => m.UploadShapes));
const BulkAreas = lazyRetry(() => import('./BulkAreas').then((m) => m.BulkAreas));

/** Bounds [w, s, e, n] of WKT shapes (a lone point gets a small box around it); null when none. */
export function wktBounds(wkt: string): [number, number, number, number] | null {
  let w = Infinity, s = Infinity, e = -Infinity, n = -Infinity;
  const walk = (c: unknown): void => {
    if (Array.isArray(c) && typeof c[0] === 'number') {
      w = Math.min(w, c[0] as number); e = Math.max(e, c[0] as number); s = Math.min(s, c[1] as number); n = Math.max(n, c[1] as number);
    } else if (Array.isArray(c)) c.forEach(walk);
  };
  try { for (const g of parseWktGeometries(wkt)) if ('coordinates' in g) walk(g.coordinates); } catch { return null; }
  if (!Number.isFinite(w)) return null;
  const pad = Math.max(0, 0.25 - Math.max(e - w, n - s) / 2);
  return [w - pad, s - pad, e + pad, n + pad];
}

/** Props of the areas panel. */
export interface AreasPanelProps { ctx: PanelCtx; drawMode: DrawMode; setDrawMode: (m: DrawMode) => void }

/** The panel. */
export function AreasPanel({ ctx, drawMode, setDrawMode }: AreasPanelProps) {
  const touch = typeof window.matchMedia === 'function' && window.matchMedia('(pointer: coarse)').matches; // touch screens tap
  const { state, update, byCode } = ctx;
  const [text, setText] = useState(state.wkt);
  const [wktErr, setWktErr] = useState<string | null>(null);
  const [msg, setMsg] = useState<string | null>(null);
  // the engine adds each border-crossing shape's whole-shape row (totals), as the API and the download do
  const r = useRun<GetLayerWktArgs, TableResult>('getLayerWKT', (a, o) => getEngine().getLayerWKT(a, o), { setQuery: ctx.setQuery, result: (d) => d });
  const [yCol, setYCol] = useState<string | null>(null);
  // the arguments of the last run: its error is shown only while the inputs are still those
  const [ranKey, setRanKey] = useState<string | null>(null);
  useEffect(() => { setText(state.wkt); setWktErr(null); }, [state.wkt]);
  const vars = summaryVars(state);
  // the upload tools mount when the panel is first shown and then stay (a bulk job's result is kept across tabs)
  const [opened, setOpened] = useState(state.panel === 'areas');
  if (state.panel === 'areas' && !opened) setOpened(true);

  const onText = (t: string) => {
    setText(t);
    setMsg(null); // a message about the previous text is stale
    if (!t.trim()) { setWktErr(null); update({ wkt: '' }); return; }
    try {
      parseWktGeometries(t);
      setWktErr(null);
      update({ wkt: t.trim() });
    } catch (e) {
      setWktErr(errText(e));
    }
  };
  const autoRun = useRef(false);
  const submit = (auto = false) => {
    if (r.running) return;
    autoRun.current = true; // a run of the user's: the link's run is done with
    setMsg(null);
    if (vars.length === 0) return setMsg('Choose at least one indicator (map one from the catalog or add it under Summaries).');
    if (wktErr) { document.getElementById('areas-wkt')?.focus(); return; } // the WKT's own error is the message
    if (!state.wkt.trim()) return setMsg('Draw a point or polygon on the map, or paste WKT, first.');
    const z = zonalRequest(state);
    const a: GetLayerWktArgs = { var: vars, wkt: state.wkt, exact: state.exact, totals: true, ...z };
    const n = parseWktGeometries(state.wkt).length;
    r.run(a, { method: 'indapi', args: { var: vars, wkt: state.wkt, ...(state.exact ? { exact: true } : {}), totals: true, ...z }, label: `Areas: ${vars.join(', ')} over ${n === 1 ? '1 shape' : `${n} shapes`}${state.exact ? ' (exact)' : ''}${zonalText(z)}` });
    setRanKey(JSON.stringify(a));
    if (!auto && state.run !== 'areas') update({ run: 'areas' });
    // the map goes to the shapes once their result is shown: its flight and the tiles it
    // draws do not compete with the engine for the CPU while the summary is computed
    fitAfter.current = state.wkt;
  };
  // shapes fitted already (uploaded: fitted on upload) are not flown to again
  const fitted = useRef<string | null>(null);
  const fitAfter = useRef<string | null>(null);
  const fit = useCallback((wkt: string) => {
    fitAfter.current = null;
    if (fitted.current === wkt) return;
    fitted.current = wkt;
    const b = wktBounds(wkt);
    if (b) ctx.fitTo(b);
  }, [ctx.fitTo]);
  useEffect(() => { if (r.last && fitAfter.current === r.last.args.wkt) fit(r.last.args.wkt); }, [r.last, fit]);
  // A link with run=areas shows its result: run once when the catalog is there.
  useEffect(() => {
    if (autoRun.current || state.run !== 'areas' || !ctx.catalog.length || !vars.length || !state.wkt || !codesKnown(ctx, vars, [])) return;
    autoRun.current = true;
    submit(true);
  }, [ctx.catalog, state.run, vars.join(',')]);
  const rows = r.last?.data.rows ?? [];
  const x = chartKey(rows, []);
  const y = yCol && r.last?.args.var.includes(yCol) ? yCol : r.last?.args.var[0];
  // a shape's whole-shape row (getLayerWKT `totals`) is the one without a country
  const isTotal = useCallback((row: Row) => row.feature !== undefined && (row.ISO3 === undefined || row.ISO3 === null), []);
  // bars per shape (and country): "1 · Kenya", as the shapes are numbered on the map; "1 · all countries" for a shape's total
  // a shape's name (an uploaded feature's name property), else its number
  const shapeName = useCallback((f: unknown) => state.names[Number(f) - 1] || String(f), [state.names]);
  const barLabel = useCallback((row: Row) => (row.feature !== undefined ? `${shapeName(row.feature)}${isTotal(row) ? ' · all countries' : row.ADM0_NAME ?? row.ISO3 ? ` · ${row.ADM0_NAME ?? row.ISO3}` : ''}` : String(row[x] ?? '')), [x, isTotal, shapeName]);
  const label = useCallback((c: string) => (c === 'feature' ? 'Shape' : statLabel(r.last?.data.columns, c) ?? colLabel(byCode, c)), [byCode, r.last]);
  const table = useMemo(() => tableColumns(rows.filter((row) => !isTotal(row)), r.last?.data.columns.map((c) => c.name) ?? [], ['feature']), [rows, r.last, isTotal]);
  const cellText = useCallback((row: Row, c: string) => (c === 'feature' && row.feature !== undefined ? shapeName(row.feature) : isTotal(row) && (c === 'ISO3' || c === 'ADM0_NAME') ? 'all countries' : undefined), [isTotal, shapeName]);
  const decimals = useMemo(() => ({ ...statDecimals(r.last?.data.columns), ...Object.fromEntries((r.last?.args.var ?? []).map((v) => [v, byCode.get(v)?.dec ?? 2])) }), [r.last, byCode]);
  return (
    <section aria-labelledby="areas-h">
      <h2 id="areas-h">Areas</h2>
      <div className="row" role="group" aria-label="Drawing tools">
        <button type="button" aria-pressed={drawMode === 'polygon'} onClick={() => setDrawMode(drawMode === 'polygon' ? 'off' : 'polygon')}>Draw polygon</button>
        <button type="button" aria-pressed={drawMode === 'point'} onClick={() => setDrawMode(drawMode === 'point' ? 'off' : 'point')}>Add point</button>
        <button type="button" onClick={() => { update({ wkt: '', names: [] }); setDrawMode('off'); }} disabled={!state.wkt}>Clear shapes</button>
      </div>
      {drawMode === 'polygon' && <p className="muted small">{touch ? 'Tap to add vertices; tap the first vertex to close the polygon.' : 'Click to add vertices; click the first vertex (or double-click) to close the polygon.'}</p>}
      {drawMode === 'point' && <p className="muted small">{touch ? 'Tap' : 'Click'} on the map to add a point.</p>}
      {opened && (
        <Loadable what="the upload tools" loading={<p className="muted small">Loading the upload tools…</p>}>
          <UploadShapes wkt={state.wkt} names={state.names} onNames={(names) => update({ names })} onWkt={(w, names) => { update({ wkt: w, names }); fit(w); }} />
        </Loadable>
      )}
      <label className="field">
        <span>WKT (EPSG:4326, longitude latitude): POINT, MULTIPOINT, POLYGON, MULTIPOLYGON, GEOMETRYCOLLECTION</span>
        <textarea id="areas-wkt" rows={4} value={text} onChange={(e) => onText(e.target.value)} spellCheck={false} aria-invalid={!!wktErr} aria-describedby="wkt-err" placeholder="POLYGON ((36 -1.5, 37.5 -1.5, 37.5 0, 36 0, 36 -1.5))" />
      </label>
      <p id="wkt-err" className={wktErr ? 'msg error' : 'sr-only'} role={wktErr ? 'alert' : undefined}>{wktErr ?? 'WKT is valid.'}</p>
      <label className="field inline">
        <input type="checkbox" checked={state.exact} onChange={(e) => update({ exact: e.target.checked })} />
        <span>Exact: weight cells by the fraction each shape covers (else cells whose centre is inside)</span>
      </label>
      <p className="muted small">Indicators: {vars.length ? vars.join(', ') : 'none chosen'}</p>
      <StatsPicker ctx={ctx} idPrefix="areas" />
      {/* one current message: the WKT's error, else this panel's, else the last run's error while its inputs stand */}
      <RunControls run={r} label="Summarise areas" progressLabel="Summarising areas" onRun={() => submit()}
        message={wktErr ? null : msg} messageTestId="areas-msg"
        error={!wktErr && !msg && r.error && ranKey === JSON.stringify({ var: vars, wkt: state.wkt, exact: state.exact, totals: true, ...zonalRequest(state) }) ? errText(r.error) : null} errorTestId="areas-run-error" />
      {r.last && (
        <ResultFrame run={r} testId="areas-result">
          <p className="muted small">{rows.length} row{rows.length === 1 ? '' : 's'}{r.last.args.exact ? ' · exact coverage' : ''}</p>
          {r.last.args.var.length > 1 && (
            <label className="field inline small"><span>Chart</span>
              <select value={y} onChange={(e) => setYCol(e.target.value)}>{r.last.args.var.map((v) => <option key={v} value={v}>{label(v)} ({v})</option>)}</select>
            </label>
          )}
          {rows.length > 0 && y && <BarChart rows={rows} x={x} y={y} label={barLabel} order={[...new Set(rows.map(barLabel))].sort((p, q) => p.localeCompare(q, undefined, { numeric: true }))} title={`${label(y)} by shape`} xTitle={x === 'feature' ? 'Shape' : label(x)} yTitle={label(y)} />}
          <ResultTable rows={rows} columns={table.cols} caption="Area summary table" note={table.country ?? undefined} colLabel={label} valueCols={[...r.last.args.var, ...statColumns(r.last.data.columns)]} pinned={isTotal} cellText={cellText} decimals={decimals} />
        </ResultFrame>
      )}
      {opened && <Loadable what="the bulk upload" loading={null}><BulkAreas ctx={ctx} /></Loadable>}
    </section>
  );
}
