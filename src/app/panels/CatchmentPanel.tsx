/**
 * Catchment: who and what lies within N minutes of travel from a place (issue 19). The source
 * is the picked place (a click on the map, or a place chosen in the place search while this
 * panel is open); bands and indicators are chosen here. The engine worker computes the
 * travel time over the bundle's friction layer; the bands are drawn on the map (App), and
 * each band's cells, area and indicator summaries are listed and charted. Downloads and the
 * API snippet follow the run (method `catchment`). Works offline on kept layers: it only
 * reads the friction layer, ISO3 and the chosen indicators.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { CatchmentResult } from '../../core/catchment/query';
import { DEFAULT_BREAKS_MIN } from '../../core/catchment/bands';
import { getEngine } from '../services';
import { useRun } from '../useRun';
import { ChipSelect } from '../../ui/ChipSelect';
import { ResultTable } from '../../ui/ResultTable';
import { BarChart } from '../../ui/BarChart';
import { Progress } from '../../ui/Progress';
import { ResultFrame } from '../../ui/ResultFrame';
import { colLabel, errText, varOptions, type PanelCtx } from './common';
import { parseBreaks } from './catchment';

/** Arguments of a catchment run, as the HTTP contract names them. */
export interface CatchmentRunArgs { xy: Array<[number, number]>; minutes: number[]; var: string[]; friction?: string }

/** Props of the catchment panel. */
export interface CatchmentPanelProps {
  ctx: PanelCtx;
  /** The source point [lon, lat] (degrees), or null. */
  source: [number, number] | null;
  /** A result to draw on the map (null: clear). */
  onResult: (r: CatchmentResult | null) => void;
}

/** The panel. */
export function CatchmentPanel({ ctx, source, onResult }: CatchmentPanelProps) {
  const { state, update, catalog, byCode } = ctx;
  const frictions = useMemo(() => catalog.filter((r) => r.type === 'continuous' && /^minutes? per met(re|er)$/i.test(r.unit.trim())), [catalog]);
  const [friction, setFriction] = useState<string>('');
  const [text, setText] = useState((state.cm ?? DEFAULT_BREAKS_MIN).join(', '));
  const [msg, setMsg] = useState<string | null>(null);
  const r = useRun<CatchmentRunArgs, CatchmentResult>('catchment', (a, o) => {
    const engine = getEngine();
    if (!engine.catchment) throw new Error('Catchments are not available.');
    return engine.catchment(a, o);
  }, { setQuery: ctx.setQuery });
  const vars = state.vars.length ? state.vars : ['PN14_POP'].filter((c) => byCode.has(c));
  const varOpts = useMemo(() => varOptions(catalog, (x) => x.type === 'continuous' || x.type === 'class'), [catalog]);
  // the bands on the map follow the result on screen: a failed run (a point in the sea) takes them away
  useEffect(() => { if (r.last) onResult(r.last.data); else if (r.error) onResult(null); }, [r.last, r.error, onResult]);
  const fr = friction || frictions[0]?.varCode || '';

  // bands of a link (or of Back/Forward) show in the input
  const cmKey = (state.cm ?? DEFAULT_BREAKS_MIN).join(', ');
  useEffect(() => { setText(cmKey); }, [cmKey]);

  const run = (breaks?: number[]) => {
    setMsg(null);
    if (!frictions.length) return setMsg('This bundle has no friction layer (a layer in minutes per metre): ingest one to compute catchments.');
    if (!source) return setMsg('Click the map, or choose a place in the place search, to set the starting point.');
    const b = breaks ?? parseBreaks(text);
    if (typeof b === 'string') return setMsg(b);
    // new bands from the input: into the URL, whose change runs (below)
    if (!breaks && source && JSON.stringify(b) !== JSON.stringify(state.cm ?? DEFAULT_BREAKS_MIN)) { update({ cm: b }); return; }
    const a: CatchmentRunArgs = { xy: [source], minutes: b, var: vars, ...(fr && fr !== frictions[0]?.varCode ? { friction: fr } : {}) };
    r.run(a, { method: 'catchment', args: { xy: source, minutes: b, var: vars, ...(a.friction ? { friction: a.friction } : {}) }, label: `Catchment from ${source[0].toFixed(3)}, ${source[1].toFixed(3)}` });
  };
  // Runs when the source, bands, indicators or friction layer change (a link opens with them).
  const key = JSON.stringify([source, state.cm, vars, fr, catalog.length > 0]);
  const lastKey = useRef('');
  useEffect(() => {
    if (!catalog.length || !source || key === lastKey.current) return;
    lastKey.current = key;
    run(state.cm ?? [...DEFAULT_BREAKS_MIN]);
  }, [key]);

  const rows = r.last?.data.table.rows ?? [];
  const cols = r.last ? r.last.data.table.columns.map((c) => c.name).filter((c) => c !== 'minutes_from' && c !== 'minutes_to') : [];
  const decimals = useMemo(() => Object.fromEntries([['area_km2', 1], ['cells', 0], ...(r.last?.args.var ?? []).map((v) => [v, byCode.get(v)?.dec ?? 2] as const)]), [r.last, byCode]);
  const label = (c: string) => (c === 'band' ? 'Minutes' : c === 'cells' ? 'Cells' : c === 'area_km2' ? 'Area (km²)' : colLabel(byCode, c));
  return (
    <section aria-labelledby="catch-h" data-testid="catchment-panel">
      <h2 id="catch-h">Catchment</h2>
      <p className="small">From: {source ? <strong data-testid="catchment-source">{source[0].toFixed(3)}, {source[1].toFixed(3)}</strong> : <span className="muted">click the map or choose a place in the search</span>}</p>
      <label className="field">Travel-time bands (minutes)
        <input type="text" value={text} inputMode="decimal" aria-describedby="catch-bands-help" onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => { if (e.key === 'Enter') { const b = parseBreaks(text); if (typeof b !== 'string') update({ cm: b }); else setMsg(b); } }}
          onBlur={() => { const b = parseBreaks(text); if (typeof b !== 'string' && JSON.stringify(b) !== JSON.stringify(state.cm ?? DEFAULT_BREAKS_MIN)) update({ cm: b }); }} />
      </label>
      <p id="catch-bands-help" className="muted small">Cells are put in a band by their own travel time, labelled as R cut(): [0,60], (60,120], …</p>
      {frictions.length > 1 && (
        <label className="field">Friction layer
          <select value={fr} onChange={(e) => setFriction(e.target.value)}>{frictions.map((f) => <option key={f.varCode} value={f.varCode}>{f.varLabel}</option>)}</select>
        </label>
      )}
      {fr && <p className="muted small" title={byCode.get(fr)?.varDesc}>Over {byCode.get(fr)?.varLabel ?? fr}{fr === 'FRICTION_WALK' ? ': walking only, no roads, rivers or land cover.' : '.'}</p>}
      <ChipSelect label="Indicators per band" options={varOpts} values={vars} onChange={(v) => update({ vars: v, noVars: v.length === 0 })} placeholder="Add an indicator…" emptyText="Cells and area only" />
      <div className="row">
        <button type="button" className="primary" onClick={() => run()} aria-disabled={r.running}>Compute catchment</button>
        {r.running && <Progress label="Travel time" done={r.progress?.[0]} total={r.progress?.[1]} onCancel={r.cancel} />}
      </div>
      {msg && <p className="msg error" role="alert">{msg}</p>}
      {r.error && !r.running && <p className="msg error" role="alert">{errText(r.error)}</p>}
      {r.last && (
        <ResultFrame run={r} testId="catchment-result">
          <ResultTable rows={rows} columns={cols} caption="Catchment bands" colLabel={label} valueCols={['cells', 'area_km2', ...r.last.args.var]} decimals={decimals} />
          {['area_km2', ...r.last.args.var.filter((v) => rows.some((x) => typeof x[v] === 'number'))].map((v) => (
            <BarChart key={v} rows={rows} x="band" y={v} title={`${label(v)} by band`} xTitle="Minutes" yTitle={label(v)} order={rows.map((x) => String(x.band))} fullList="in the table above" />
          ))}
        </ResultFrame>
      )}
    </section>
  );
}
