/**
 * Catchment and marketsheds: who and what lies within N minutes of travel from one or many
 * named places (issues 19, 24). Sources come from clicks on the map (or Enter on the focused
 * map: its centre), the place search, pasted `lon, lat[, name]` lines, or an uploaded points
 * file (CSV with lon/lat/name[/capacity] columns, GeoJSON or KML points); the link keeps them
 * (`src=`). With several sources each cell belongs to its nearest source by travel time (the
 * marketshed); the table lists each source x band with cells, area and the chosen indicators,
 * and "within N" running totals beside the additive figures; the map colours each marketshed
 * (App, result-layers.ts) and a chart per source follows. Works offline on kept layers.
 */
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import type { CatchmentArgs, CatchmentResult } from '../../core/api';
import { DEFAULT_BREAKS_MIN } from '../../core/catchment/bands';
import { getEngine } from '../services';
import { bandColours, type BandView } from '../catchment-layer';
import { BandViewSwitch } from '../BandViewSwitch';
import { useRun } from '../useRun';
import { ChipSelect } from '../../ui/ChipSelect';
import { ResultTable } from '../../ui/ResultTable';
import { BarChart } from '../../ui/BarChart';
import { RunControls } from '../../ui/RunControls';
import { ResultFrame } from '../../ui/ResultFrame';
import type { Row } from '../../core/types';
import { colLabel, errText, readBreaks, varOptions, type PanelCtx } from './common';
import { addSources, answerSentence, refusedSource, srcKey, staleReason, BANDS_RULE, coverageRows, parseCapacity, isAdditive, WITHIN_SUFFIX, parseSourceLines, parseSourcesCsv, sourcesFromGeoJson, type Bbox, type SourceSpec, type SourcesRead } from './catchment';

/** Arguments of a catchment run, as the HTTP contract names them. */
export type CatchmentRunArgs = CatchmentArgs & { xy: Array<[number, number]>; minutes: number[]; var: string[] };

/** Props of the catchment panel. */
export interface CatchmentPanelProps {
  ctx: PanelCtx;
  /** The named sources (the link's `src=`, or the picked place when none). */
  sources: SourceSpec[];
  /** Replace the sources (into the link). */
  onSources: (s: SourceSpec[]) => void;
  /** A result to draw on the map (null: clear). */
  onResult: (r: CatchmentResult | null) => void;
  /** Figures within each time or per band: one state with the chart and the map legend (useResultLayers.ts), and its setter. */
  bandView: BandView;
  setBandView: (v: BandView) => void;
}

/** Default indicators: the modelled population and the people of GeoNames towns, when the bundle has them. */
const DEFAULT_VARS = ['POP_MODEL', 'PLACES_POP'];
/** Most per-source charts drawn (the table has every source). */
const MAX_CHARTS = 12;

/** Reads an uploaded points file: CSV (papaparse), GeoJSON, KML (@tmcw/togeojson). */
async function readPoints(file: File, bbox: Bbox): Promise<SourcesRead> {
  if (file.size > 10 * 1024 * 1024) return { sources: [], errors: [`${file.name} is over 10 MB.`] };
  const text = await file.text();
  const n = file.name.toLowerCase();
  if (n.endsWith('.kml') || text.trimStart().startsWith('<')) {
    const { kml } = await import('@tmcw/togeojson');
    const doc = new DOMParser().parseFromString(text, 'text/xml');
    if (doc.getElementsByTagName('parsererror').length) return { sources: [], errors: [`${file.name} is not well-formed XML.`] };
    return sourcesFromGeoJson(kml(doc), bbox);
  }
  if (/\.(geo)?json$/.test(n) || text.trimStart().startsWith('{')) {
    try { return sourcesFromGeoJson(JSON.parse(text), bbox); } catch (e) { return { sources: [], errors: [`${file.name} is not valid JSON: ${(e as Error).message}`] }; }
  }
  return parseSourcesCsv(text, bbox);
}

/** The panel. */
export function CatchmentPanel({ ctx, sources, onSources, onResult, bandView, setBandView }: CatchmentPanelProps) {
  const { state, update, catalog, byCode } = ctx;
  const frictions = useMemo(() => catalog.filter((r) => r.type === 'continuous' && /^minutes? per met(re|er)$/i.test(r.unit.trim())), [catalog]);
  const [friction, setFriction] = useState<string>('');
  const [text, setText] = useState((state.cm ?? DEFAULT_BREAKS_MIN).join(', '));
  const [msg, setMsg] = useState<string | null>(null);
  const [rowErrs, setRowErrs] = useState<string[]>([]);
  // sources the engine refused (a point in the sea beyond snapping, outside the grid): flagged in the list, left out of runs
  const [skipped, setSkipped] = useState<Record<string, string>>({});
  const [capErr, setCapErr] = useState(false);
  const r = useRun<CatchmentRunArgs, CatchmentResult>('catchment', (a, o) => {
    const engine = getEngine();
    if (!engine.catchment) throw new Error('Catchments are not available.');
    return engine.catchment(a, o).then((d) => { performance.mark('catchment:engine'); return d; });
  }, { setQuery: ctx.setQuery, result: (d) => d }); // a download of the catchment on screen writes this result: no Dijkstra again in the files worker
  const vars = state.vars.length ? state.vars : state.noVars ? [] : DEFAULT_VARS.filter((c) => byCode.has(c)).concat(byCode.has('POP_MODEL') ? [] : ['PN14_POP'].filter((c) => byCode.has(c)));
  const varOpts = useMemo(() => varOptions(catalog, (x) => x.type === 'continuous' || x.type === 'class'), [catalog]);
  // the bands on the map follow the result on screen: a failed run (a point in the sea) takes them away
  useEffect(() => { if (r.last) onResult(r.last.data); else if (r.error) onResult(null); }, [r.last, r.error, onResult]);
  // a source the engine cannot use is flagged and the run goes on without it, rather than every run failing on it
  useEffect(() => {
    const bad = r.error && refusedSource(r.error.message, usable);
    if (bad) setSkipped((k) => ({ ...k, [srcKey(bad.source)]: bad.why }));
  }, [r.error]);
  const fr = friction || frictions[0]?.varCode || '';
  const bbox: Bbox = useMemo(() => {
    const ssa = ctx.iso.find((e) => e.code === 'SSA');
    return ssa ? [Math.floor(ssa.bboxDeg[0]), Math.floor(ssa.bboxDeg[1]), Math.ceil(ssa.bboxDeg[2]), Math.ceil(ssa.bboxDeg[3])] : [-26, -35, 64, 28];
  }, [ctx.iso]);

  const cmKey = (state.cm ?? DEFAULT_BREAKS_MIN).join(', ');
  useEffect(() => { setText(cmKey); }, [cmKey]);

  const add = (read: SourcesRead) => {
    const a = addSources(sources, read.sources);
    setRowErrs([...read.errors, ...a.errors]);
    if (a.list !== sources && a.list.length !== sources.length) onSources(a.list);
  };

  const usable = sources.filter((s) => !skipped[srcKey(s)]);
  const run = (breaks?: number[]) => {
    setMsg(null);
    const sources = usable;
    if (!frictions.length) return setMsg('This bundle has no friction layer (a layer in minutes per metre): ingest one to compute catchments.');
    if (!sources.length) return setMsg('Add a source: click the map (or press Enter on it), choose a place in the place search, paste points or upload a file.');
    const b = breaks ?? readBreaks(text, BANDS_RULE);
    if (typeof b === 'string') return setMsg(b);
    if (!breaks && JSON.stringify(b) !== JSON.stringify(state.cm ?? DEFAULT_BREAKS_MIN)) { update({ cm: b }); return; }
    const caps = sources.some((s) => s.capacity !== undefined) ? sources.map((s) => s.capacity ?? 0) : undefined;
    const a: CatchmentRunArgs = {
      // travel counted from the points themselves, not 0 for the whole 9 km source cell (issue 24 item 5)
      xy: sources.map((s) => [s.lon, s.lat]), names: sources.map((s, i) => s.name || `Source ${i + 1}`), minutes: b, var: vars, origin: 'point',
      ...(sources.length > 1 ? { marketshed: true } : {}), ...(caps ? { capacity: caps } : {}),
      ...(fr && fr !== frictions[0]?.varCode ? { friction: fr } : {}),
    };
    const { xy, ...rest } = a;
    performance.mark('catchment:request');
    r.run(a, { method: 'catchment', args: { xy: xy.length === 1 ? xy[0] : xy, ...rest }, label: `Catchment from ${sources.map((s) => s.name).slice(0, 3).join(', ')}${sources.length > 3 ? ` and ${sources.length - 3} more` : ''}` });
  };
  // Runs when the sources, bands, indicators or friction layer change (a link opens with them).
  const key = JSON.stringify([usable, state.cm, vars, fr, catalog.length > 0]);
  const lastKey = useRef('');
  useEffect(() => {
    if (!catalog.length || !usable.length || key === lastKey.current) return;
    lastKey.current = key;
    run(state.cm ?? [...DEFAULT_BREAKS_MIN]);
  }, [key]);

  const res = r.last?.data;
  // the answer first, at the top of the panel, in view without scrolling to the tables
  const pop = res && r.last ? answerVar(r.last.args.var, byCode) : undefined;
  const answer = res && pop ? answerSentence(res, pop, pop === 'POP_MODEL' ? 'modelled' : pop) : null;
  const stale = staleReason(!!res, usable.length, !!msg || capErr, r.last?.args, { xy: usable.map((s) => [s.lon, s.lat]), minutes: state.cm ?? DEFAULT_BREAKS_MIN, var: vars });
  const setName = (i: number, name: string) => onSources(sources.map((s, k) => (k === i ? { ...s, name: name.slice(0, 200) } : s)));
  const setCapacity = (i: number, cap: number | undefined) => onSources(sources.map((s, k) => { if (k !== i) return s; const { capacity: _, ...o } = s; return cap === undefined ? o : { ...o, capacity: cap }; }));
  return (
    <section aria-labelledby="catch-h" data-testid="catchment-panel">
      <h2 id="catch-h">Catchment</h2>
      {answer && <p className={stale ? 'catch-answer result-old' : 'catch-answer'} data-testid="catchment-answer" role="status">{answer}</p>}
      <p className="muted small">Add sources by clicking the map (or pressing Enter on the focused map: its centre), by the place search, by pasting points or by uploading a file. With several sources each cell goes to its nearest source by travel time (its marketshed).</p>
      <SourceList sources={sources} skipped={skipped} onCapErr={setCapErr} onName={setName} onCapacity={setCapacity} onRemove={(i) => onSources(sources.filter((_, k) => k !== i))} onClear={() => onSources([])} />
      <AddSources bbox={bbox} onRead={add} errors={rowErrs} />
      <label className="field">Travel-time bands (minutes)
        <input type="text" value={text} inputMode="decimal" aria-describedby="catch-bands-help" onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => { if (e.key === 'Enter') { const b = readBreaks(text, BANDS_RULE); if (typeof b !== 'string') update({ cm: b }); else setMsg(b); } }}
          onBlur={() => { const b = readBreaks(text, BANDS_RULE); if (typeof b !== 'string' && JSON.stringify(b) !== JSON.stringify(state.cm ?? DEFAULT_BREAKS_MIN)) update({ cm: b }); }} />
      </label>
      <p id="catch-bands-help" className="muted small">Cells are put in a band by their own travel time, labelled as R cut(): [0,60], (60,120], …; "within" columns add the bands up to their upper limit.</p>
      <p className="muted small" data-testid="catchment-cell-note">{res?.notes?.[0] ?? 'Cells are 5 arc-minutes (about 9 x 9 km, 85 km² near the equator): a cell is in a band as a whole, so bands under about 2 h of walking hold few cells, and travel is counted from each source point to the cell centres.'}</p>
      {frictions.length > 1 && (
        <label className="field">Friction layer
          <select value={fr} onChange={(e) => setFriction(e.target.value)}>{frictions.map((f) => <option key={f.varCode} value={f.varCode}>{f.varLabel}</option>)}</select>
        </label>
      )}
      {fr && <p className="muted small" title={byCode.get(fr)?.varDesc}>Over {byCode.get(fr)?.varLabel ?? fr}{fr === 'FRICTION_WALK' ? ': walking only, no roads, rivers or land cover.' : '.'}</p>}
      <ChipSelect label="Indicators per band" options={varOpts} values={vars} onChange={(v) => update({ vars: v, noVars: v.length === 0 })} placeholder="Add an indicator…" emptyText="Cells and area only" />
      {vars.includes('POP_MODEL') && <p className="muted small">{byCode.get('POP_MODEL')?.varLabel}: modelled from national totals and GeoNames towns, not a census.</p>}
      <RunControls run={r} label="Compute catchment" progressLabel="Travel time" onRun={() => run()} message={msg} error={r.error && errText(r.error)} />
      {res && r.last && <ResultFrame run={r} stale={stale} testId="catchment-result"><CatchmentResults res={res} vars={r.last.args.var} byCode={byCode} view={bandView} setView={setBandView} /></ResultFrame>}
    </section>
  );
}

/** The named sources: name (editable), point, capacity, remove. */
function SourceList({ sources, skipped, onCapErr, onName, onCapacity, onRemove, onClear }: { sources: SourceSpec[]; skipped: Record<string, string>; onCapErr: (bad: boolean) => void; onName: (i: number, n: string) => void; onCapacity: (i: number, c: number | undefined) => void; onRemove: (i: number) => void; onClear: () => void }) {
  if (!sources.length) return <p className="small muted" data-testid="catchment-source">No source yet.</p>;
  return (
    <div className="catch-sources" data-testid="catchment-sources">
      <ol>
        {sources.slice(0, 200).map((s, i) => (
          <li key={`${s.lon},${s.lat}`}>
            <input type="text" aria-label={`Name of source ${i + 1}`} value={s.name} maxLength={200} onChange={(e) => onName(i, e.target.value)} />
            <span className="small muted" data-testid="catchment-source">{s.lon.toFixed(3)}, {s.lat.toFixed(3)}</span>
            <CapacityInput name={s.name || `source ${i + 1}`} value={s.capacity} onChange={(c) => onCapacity(i, c)} onError={onCapErr} />
            {skipped[srcKey(s)] && <span className="small error" data-testid="catchment-source-skipped">Not used: {skipped[srcKey(s)]}</span>}
            <button type="button" className="ghost small" aria-label={`Remove ${s.name || `source ${i + 1}`}`} onClick={() => onRemove(i)}>×</button>
          </li>
        ))}
      </ol>
      {sources.length > 200 && <p className="small muted">… and {sources.length - 200} more.</p>}
      <p className="small muted">Capacity (optional): people a source can serve. With capacities, each source covers the people of its nearest cells in travel-time order until its capacity is reached (coverage, as AccessMod's); a source without one covers no one. The map shows covered cells in the source's colour and those within reach left uncovered in grey.</p>
      <button type="button" className="ghost small" onClick={onClear}>Remove all sources</button>
    </div>
  );
}

/** A source's capacity in people: typed, kept on Enter or leaving the field; empty: none; a bad value says why. */
function CapacityInput({ name, value, onChange, onError }: { name: string; value: number | undefined; onChange: (c: number | undefined) => void; onError: (bad: boolean) => void }) {
  const [text, setText] = useState(value === undefined ? '' : String(value));
  const [err, setErr] = useState<string | null>(null);
  useEffect(() => { setText(value === undefined ? '' : String(value)); }, [value]);
  const commit = () => {
    const c = parseCapacity(text);
    if (typeof c === 'string') { onError(true); return setErr(c); }
    setErr(null);
    onError(false);
    if (c !== value) onChange(c);
  };
  return (
    <>
      <input type="text" inputMode="numeric" className="catch-cap" aria-label={`Capacity of ${name} (people)`} placeholder="capacity" value={text}
        aria-invalid={err ? true : undefined} onChange={(e) => setText(e.target.value)} onBlur={commit} onKeyDown={(e) => { if (e.key === 'Enter') commit(); }} />
      {err && <span className="small error" role="alert">{err}</span>}
    </>
  );
}

/** Pasted lines and uploaded points files, and the rows that could not be added (each named). */
function AddSources({ bbox, onRead, errors }: { bbox: Bbox; onRead: (r: SourcesRead) => void; errors: string[] }) {
  const [paste, setPaste] = useState('');
  return (
    <>
      <details className="catch-add">
        <summary>Paste or upload sources</summary>
        <label className="field">Points, one per line: longitude, latitude[, name]
          <textarea rows={3} value={paste} onChange={(e) => setPaste(e.target.value)} placeholder={'36.82, -1.29, Nairobi\n34.76, -0.10, Kisumu'} data-testid="catchment-paste" />
        </label>
        <div className="row">
          <button type="button" onClick={() => { const p = parseSourceLines(paste, bbox); onRead(p); if (!p.errors.length) setPaste(''); }}>Add points</button>
          <label className="file-btn">Upload CSV, GeoJSON or KML
            <input type="file" accept=".csv,.txt,.geojson,.json,.kml" data-testid="catchment-file"
              onChange={(e) => { const f = e.target.files?.[0]; e.target.value = ''; if (f) void readPoints(f, bbox).then(onRead); }} />
          </label>
        </div>
        <p className="muted small">A CSV needs lon and lat columns (or longitude / latitude, x / y); name and capacity (people) are optional. At most 1,000 sources.</p>
      </details>
      {errors.length > 0 && (
        <div className="msg error" role="alert" data-testid="catchment-row-errors">
          <p>{errors.length === 1 ? 'One row was not added:' : `${errors.length} rows were not added:`}</p>
          <ul>{errors.slice(0, 20).map((e, i) => <li key={i}>{e}</li>)}</ul>
          {errors.length > 20 && <p>… and {errors.length - 20} more.</p>}
        </div>
      )}
    </>
  );
}

/** Bar label -> the map's colour of that band for the source named `src` ('' : the single source); `within`: bars labelled "≤ 120". */
function chartColours(res: CatchmentResult, src: string, within: boolean): Record<string, string> {
  const cols = bandColours(res, Math.max(0, res.sources.findIndex((x) => x.name === src)));
  return Object.fromEntries(res.bands.map((b, i) => [within && !res.cumulative ? `≤ ${b.toMinutes}` : b.label, cols[i]]));
}

/** Coverage with capacity: per source the people covered and those of its marketshed left uncovered, then all sources. */
function CoverageResult({ res }: { res: CatchmentResult }) {
  const cov = res.coverage!;
  const rows = coverageRows(res);
  const cols = ['source', 'capacity', 'population_covered', 'population_in_reach', 'population_uncovered', 'minutes_covered'];
  const labels: Record<string, string> = {
    source: 'Source', capacity: 'Capacity (people)', population_covered: 'People covered', population_in_reach: `People within ${res.breaks[res.breaks.length - 1]} min (its marketshed)`,
    population_uncovered: 'Within reach, not covered', minutes_covered: 'Minutes to the last cell covered',
  };
  return (
    <div data-testid="catchment-coverage">
      <p className="small">Coverage of {cov.population.varLabel || cov.population.varCode}: {Math.round(cov.covered).toLocaleString('en')} people covered by the sources' capacities; {Math.round(cov.uncovered).toLocaleString('en')} within {res.breaks[res.breaks.length - 1]} minutes left uncovered (grey on the map).</p>
      <ResultTable rows={rows} columns={cols} caption="Coverage with capacity, per source" colLabel={(c) => labels[c] ?? c} valueCols={cols.slice(1)} decimals={{ capacity: 0, population_covered: 0, population_in_reach: 0, population_uncovered: 0, minutes_covered: 0 }} />
    </div>
  );
}

/** The indicator the answer sentence counts: POP_MODEL, else the first summed indicator in people. */
function answerVar(vars: string[], byCode: PanelCtx['byCode']): string | undefined {
  const summed = vars.filter((v) => isAdditive(byCode.get(v)?.aggFunR, v));
  return summed.find((v) => v === 'POP_MODEL') ?? summed.find((v) => /^people$/i.test(byCode.get(v)?.unit.trim() ?? '')) ?? undefined;
}

/** The result: the answer in a sentence, notes, coverage, a within / per-band switch, the tables (people first) and a chart per source. */
const CatchmentResults = memo(function CatchmentResults({ res, vars, byCode, view, setView }: { res: CatchmentResult; vars: string[]; byCode: PanelCtx['byCode']; view: BandView; setView: (v: BandView) => void }) {
  const many = !!res.marketshed;
  const allRows = res.table.rows;
  const rows = many ? allRows.filter((x) => x.source !== null && x.source !== undefined && x.source !== '') : allRows;
  const names = new Set(res.table.columns.map((c) => c.name));
  // "within" figures: the table's `_within` columns (disjoint bands), or the bands themselves (cumulative bands)
  const within = view === 'within' && !res.cumulative;
  const shownCol = (c: string) => (within && names.has(c + WITHIN_SUFFIX) ? c + WITHIN_SUFFIX : c);
  const people = vars.filter((v) => names.has(v)).sort((a, b) => Number(byCode.get(b)?.unit.trim() === 'people') - Number(byCode.get(a)?.unit.trim() === 'people'));
  const cols = [...(many ? ['source'] : []), 'band', ...people.map(shownCol), ...['cells', 'area_km2'].map(shownCol)];
  const decimals: Record<string, number> = { area_km2: 1, cells: 0, [`area_km2${WITHIN_SUFFIX}`]: 1, [`cells${WITHIN_SUFFIX}`]: 0 };
  for (const v of vars) { decimals[v] = Number(byCode.get(v)?.dec ?? 2); decimals[v + WITHIN_SUFFIX] = decimals[v]; }
  const label = (c: string): string => {
    if (c.endsWith(WITHIN_SUFFIX)) return `${label(c.slice(0, -WITHIN_SUFFIX.length))}, within`;
    return c === 'band' ? (view === 'within' ? 'Within (minutes)' : 'Band (minutes)') : c === 'source' ? 'Source' : c === 'cells' ? 'Cells' : c === 'area_km2' ? 'Area (km²)' : colLabel(byCode, c);
  };
  // in the "within" view the band column says up to which time the figures run
  // the bench (bench/catchment-panel.ts) reads this mark: the tables and charts of this result are in the DOM
  useEffect(() => { performance.mark('catchment:table'); }, [res]);
  const display = (rs: Row[]): Row[] => (view === 'within' && !res.cumulative ? rs.map((x): Row => ({ ...x, band: `≤ ${x.minutes_to}` })) : rs);
  const chartVar = shownCol(people.find((v) => rows.some((x) => typeof x[v] === 'number')) ?? 'area_km2');
  const bySource = new Map<string, Row[]>();
  for (const x of display(rows)) { const k = String(x.source ?? ''); if (!bySource.has(k)) bySource.set(k, []); bySource.get(k)!.push(x); }
  const valueCols = cols.filter((c) => c !== 'source' && c !== 'band');
  return (
    <>
      {(res.notes ?? []).slice(1).map((n, i) => <p key={i} className="small" data-testid="catchment-note">{n}</p>)}
      {res.coverage && <CoverageResult res={res} />}
      {!res.cumulative && (
        <BandViewSwitch view={view} onView={setView} name="catch-view" label="Figures shown" testId="catchment-view" />
      )}
      <h3 className="catch-table-h">{many ? 'Each source' : 'By travel time'}{view === 'within' ? ': people within each time' : ': per band'}</h3>
      <ResultTable rows={display(rows)} columns={cols} caption={many ? 'Marketsheds: each source by band' : 'Catchment bands'} colLabel={label} valueCols={valueCols} decimals={decimals} max={5000} />
      {many && <h3 className="catch-table-h">All sources together</h3>}
      {many && <ResultTable rows={display(allRows.filter((x) => !x.source))} columns={cols.filter((c) => c !== 'source')} caption="All sources together" colLabel={label} valueCols={valueCols} decimals={decimals} />}
      {[...bySource].slice(0, MAX_CHARTS).map(([src, rs]) => (
        <BarChart key={src} rows={rs} barColours={chartColours(res, src, view === 'within')} x="band" y={chartVar} title={`${src ? `${src}: ` : ''}${label(chartVar)} ${view === 'within' ? 'each time' : 'by band'}`} xTitle={label('band')} yTitle={label(chartVar)} order={rs.map((x) => String(x.band))} fullList="in the table above" />
      ))}
      {bySource.size > MAX_CHARTS && <p className="muted small">Charts for the first {MAX_CHARTS} of {bySource.size} sources; the table has all.</p>}
    </>
  );
});
