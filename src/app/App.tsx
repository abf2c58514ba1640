/**
 * The application shell: header, catalog browser and indicator card on the left, the map
 * in the centre (legend, opacity, hover read-out), and the panels on the right
 * (summaries, areas, compare, downloads, API). State that can be shared lives in the URL.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Feature, FeatureCollection } from 'geojson';
import type { Row, VarRecord } from '../core/types';
import { SSA_GRID } from '../core/grid';
import { CatalogBrowser } from '../ui/CatalogBrowser';
import { IndicatorCard } from '../ui/IndicatorCard';
import { Legend } from '../ui/Legend';
import type { DrawMode } from '../ui/MapView';
import type { Map as MlMap } from 'maplibre-gl';
import type { Palette } from '../core/map/palette';
import { appendWkt, wktToFeatures } from '../ui/wkt';
import type { CellInfo } from '../../workers/protocol/raster';
import { DATA_BASE, ONLINE_BASEMAPS, catalogQuery, loadGrid, loadIso } from './bundle';
import { catchmentLayer, SOURCE_HUES, similarCellsLayer, similarUnitsChoropleth, summaryChoropleth, type Choro } from './result-layers';
import { useBasemap } from './basemap-control';
import { getRaster } from './services';
import { useUrlState } from './useUrlState';
import type { PanelId } from './url-state';
import { errText, type PanelCtx, type QuerySpec } from './panels/common';
import { fmtValue, HoverInfo } from './HoverInfo';
import { AppHeader } from './AppHeader';
import { useLinkCodes } from './useLinkCodes';
import { SummaryPanel, summaryArgs, type SummaryRows } from './panels/SummaryPanel';
import { AreasPanel } from './panels/AreasPanel';
import { UPLOAD_EVENT } from './panels/UploadShapes';
import type { CatchmentResult } from '../core/api';
import { addSources, type SourceSpec } from './url-state';
import type { MapLabel } from '../ui/MapView';
import { UpdateBanner } from './UpdateBanner';
import { Progress } from '../ui/Progress';
import { MapExportControl } from './map-export-control';
import type { ExportSize, MapExportFormat } from './map-export-size';
import { CompareBar, compareSide } from '../ui/CompareBar';
import { afterFirstMap, markFirstMap } from '../ui/first-map';
import { varOptions, varSearch } from './panels/common';
import { lazyRetry } from '../ui/lazy-retry';
import { Loadable } from '../ui/Loadable';

const MapView = lazyRetry(() => import('../ui/MapView').then((m) => m.MapView));
const TablePanel = lazyRetry(() => import('./panels/TablePanel').then((m) => m.TablePanel));
const CompareMaps = lazyRetry(() => import('../ui/CompareMaps').then((m) => m.CompareMaps));
const PlaceSearch = lazyRetry(() => import('../ui/PlaceSearch').then((m) => m.PlaceSearch));
// panels loaded when opened (not before the first map); Areas stays in the entry: a file
// dropped on the map is handed to its upload listener right after switching to it
const ComparePanel = lazyRetry(() => import('./panels/ComparePanel').then((m) => m.ComparePanel));
const DownloadPanel = lazyRetry(() => import('./panels/DownloadPanel').then((m) => m.DownloadPanel));
const ApiPanel = lazyRetry(() => import('./panels/ApiPanel').then((m) => m.ApiPanel));
const CatchmentPanel = lazyRetry(() => import('./panels/CatchmentPanel').then((m) => m.CatchmentPanel));

const PANELS: Array<[PanelId, string]> = [['summary', 'Summaries'], ['table', 'Table'], ['areas', 'Areas'], ['compare', 'Compare'], ['catchment', 'Catchment'], ['download', 'Download'], ['api', 'API']];

/** Tile loader handed to the map: draws in the raster worker. */
const loadTile = (key: string, z: number, x: number, y: number) => getRaster().tile(key, z, x, y);
const refineTiles = (key: string) => getRaster().refined(key);
/**
 * The place search's box until its code is loaded (after the first map): the same box, not
 * yet usable, so the map's tools do not move when it arrives.
 */
const placeSearchHolder = (
  <div className="place-search">
    <input type="search" placeholder="Find a place…" aria-label="Find a place (loading)" disabled />
  </div>
);
(window as any).__indapiRaster = getRaster(); // for end-to-end tests of the map's pixels

/** True while the viewport is phone-sized (the one-column layout of styles.css, up to 900 px). */
function usePhone(): boolean {
  const q = '(max-width: 900px)';
  const [phone, setPhone] = useState(() => window.matchMedia(q).matches);
  useEffect(() => {
    const m = window.matchMedia(q);
    const on = () => setPhone(m.matches);
    m.addEventListener('change', on);
    return () => m.removeEventListener('change', on);
  }, []);
  return phone;
}

/** True on touch-first devices (CSS `pointer: coarse`): the read-out says "Tap", not "Hover". */
function useCoarsePointer(): boolean {
  const q = '(pointer: coarse)';
  const [coarse, setCoarse] = useState(() => window.matchMedia(q).matches);
  useEffect(() => {
    const m = window.matchMedia(q);
    const on = () => setCoarse(m.matches);
    m.addEventListener('change', on);
    return () => m.removeEventListener('change', on);
  }, []);
  return coarse;
}

/** The app. */
export function App() {
  const [state, update] = useUrlState();
  const catalogQ = useQuery(catalogQuery);
  const isoQ = useQuery({ queryKey: ['iso'], queryFn: ({ signal }) => loadIso(signal), staleTime: Infinity, retry: 1 });
  // the bundle's window (an ingested bundle's comes from its table): map bounds and per-cell result layers
  const gridQ = useQuery({ queryKey: ['grid', DATA_BASE], queryFn: ({ signal }) => loadGrid(signal), staleTime: Infinity, retry: 1 });
  const grid = gridQ.data ?? SSA_GRID;
  const gridBounds = useMemo((): [number, number, number, number] => [grid.xmin, grid.ymin, grid.xmax, grid.ymax], [grid]);
  const catalog = useMemo(() => catalogQ.data ?? [], [catalogQ.data]);
  const iso = useMemo(() => isoQ.data ?? [], [isoQ.data]);
  const byCode = useMemo(() => new Map(catalog.map((r) => [r.varCode, r])), [catalog]);
  const [query, setQuery] = useState<QuerySpec | null>(null);
  const [drawMode, setDrawMode] = useState<DrawMode>('off');
  const [hover, setHover] = useState<CellInfo | null>(null);
  const [picked, setPicked] = useState<CellInfo | null>(null);
  const [palette, setPalette] = useState<Palette | null>(null);
  const [rasterKey, setRasterKey] = useState<string | null>(null);
  const [mapErr, setMapErr] = useState<string | null>(null);
  const [choro, setChoro] = useState<Choro | null>(null);
  const phone = usePhone();
  const coarse = useCoarsePointer();
  const base = useBasemap(ONLINE_BASEMAPS);
  const [drawer, setDrawer] = useState(false);
  const [wide, setWide] = useState(false);
  const [fit, setFit] = useState<[number, number, number, number] | null>(null);
  const [mlMap, setMlMap] = useState<MlMap | null>(null);
  // The lazy panels other than the open one (and the place search) load after the first map:
  // their code is not what a first visit on a slow network waits for (issue 17).
  const [afterMap, setAfterMap] = useState(false);
  useEffect(() => { const ac = new AbortController(); afterFirstMap(ac.signal).then(() => setAfterMap(true), () => undefined); return () => ac.abort(); }, []);
  const mounted = (panel: string) => afterMap || state.panel === panel;
  /** A panel whose code is loaded on demand: its own loading line and failure message; opening it tries a failed load again. */
  const lazyPanel = (id: PanelId, what: string, el: ReactNode) => (
    <Loadable what={what} resetKeys={[state.panel === id]} loading={<p className="muted small">Loading {what}…</p>}>{el}</Loadable>
  );

  // Unknown codes in a pasted link: dropped, with a message in place.
  const badMsg = useLinkCodes(state, update, catalog, iso, byCode);
  // A choropleth of an earlier summary goes when the countries, indicators or domains change.
  const choroKey = JSON.stringify([state.vars, state.noVars, state.iso, state.by]);
  const firstChoroKey = useRef(choroKey);
  useEffect(() => { if (choroKey !== firstChoroKey.current) { firstChoroKey.current = choroKey; setChoro(null); } }, [choroKey]);

  const rec = state.v ? byCode.get(state.v) : undefined;
  // Start reading the mapped layer while the catalog loads.
  useEffect(() => { void getRaster().prefetch(state.v ?? 'ELEVATION', 3).catch(() => undefined); }, []);
  // First visit: map a sensible default.
  useEffect(() => {
    if (!state.v && catalog.length && !location.hash) update({ v: byCode.has('ELEVATION') ? 'ELEVATION' : catalog[0].varCode }, { replace: true });
  }, [catalog]);

  const [restyle, setRestyle] = useState(0);
  // Similar cells being drawn ('styling' in the raster worker, then their style key until the map has drawn it): progress on the map.
  const [cellsPending, setCellsPending] = useState<string | null>(null);
  // The record whose layer the map draws: the legend's title, unit and palette go with it, so a
  // switch that fails (offline, a layer never stored) leaves the old map with its own legend.
  const [drawnRec, setDrawnRec] = useState<VarRecord | null>(null);
  // After a failed switch the selection goes back to the layer on the map (so the card, the
  // catalog and the legend's "Back to" name it): that step restyles nothing and keeps the message.
  const revertedTo = useRef<string | null>(null);
  // Style the selected layer in the raster worker.
  useEffect(() => {
    if (!rec) { setRasterKey(null); setPalette(null); setDrawnRec(null); return; }
    if (revertedTo.current === rec.varCode) { revertedTo.current = null; return; }
    revertedTo.current = null;
    let cancel = false;
    setMapErr(null);
    const key = `cog:${rec.varCode}`;
    getRaster().styleCog(key, rec).then((p) => { if (!cancel) { setPalette(p); setRasterKey(key); setDrawnRec(rec); } })
      .catch((e) => {
        if (cancel) return;
        const still = drawnRecRef.current;
        const back = still && still.varCode !== rec.varCode;
        setMapErr(`Cannot show ${rec.varLabel} (${rec.varCode}): ${errText(e).replace(/([^.])$/, '$1.')}${back ? ` The map still shows ${still.varLabel}.` : ''}`);
        if (back) { revertedTo.current = still.varCode; update({ v: still.varCode }, { replace: true }); }
      });
    return () => { cancel = true; };
  }, [rec, restyle]);
  const drawnRecRef = useRef<VarRecord | null>(null);
  drawnRecRef.current = drawnRec;

  // Hover / click look-ups (latest wins).
  const hoverSeq = useRef(0);
  const onHover = useCallback((ll: [number, number] | null) => {
    const seq = ++hoverSeq.current;
    if (!ll) { setHover(null); return; }
    void getRaster().cellInfo(state.v, ll[0], ll[1]).then((i) => { if (seq === hoverSeq.current) setHover(i); });
  }, [state.v]);
  // Catchment sources: the link's `src=`, else the picked place of an older link (issue 24).
  const catchSources: SourceSpec[] = useMemo(() => (state.src.length ? state.src : state.pick ? [{ lon: state.pick[0], lat: state.pick[1], name: 'Picked place' }] : []), [state.src, state.pick]);
  const addCatchSource = useCallback((s: SourceSpec) => {
    const a = addSources(catchSources, [s]);
    if (a.list.length !== catchSources.length) update({ src: a.list });
  }, [catchSources, update]);
  const onClick = useCallback((ll: [number, number]) => {
    void getRaster().cellInfo(state.v, ll[0], ll[1]).then((i) => {
      setPicked(i);
      if (!i) return;
      // in the Catchment panel a click (or Enter on the map: its centre) adds a source where it was made
      if (state.panel === 'catchment') addCatchSource({ lon: +ll[0].toFixed(5), lat: +ll[1].toFixed(5), name: `${i.adm1 ?? 'Point'} ${ll[0].toFixed(2)}, ${ll[1].toFixed(2)}` });
      else update({ pick: [i.lon, i.lat] });
    });
  }, [state.v, state.panel, update, addCatchSource]);
  // The picked place of a link (or of Back/Forward): look it up; none: clear.
  const pickKey = state.pick?.join(',') ?? '';
  useEffect(() => {
    const pk = state.pick;
    if (!pk) { setPicked(null); return; }
    if (picked && Math.abs(picked.lon - pk[0]) < 1 / 24 && Math.abs(picked.lat - pk[1]) < 1 / 24) return;
    let cancel = false;
    void getRaster().cellInfo(state.v, pk[0], pk[1]).then((i) => { if (!cancel) setPicked(i); });
    return () => { cancel = true; };
  }, [pickKey]);
  // The map view goes into the link (replacing the history entry: moving the map is not a step).
  const onView = useCallback((v: [number, number, number]) => update({ map: v }, { replace: true }), [update]);
  const skipFit = useRef(!!state.map);
  const onDrawn = useCallback((f: Feature) => {
    update({ wkt: appendWkt(state.wkt, f.geometry) });
    if (f.geometry.type !== 'Point') setDrawMode('off');
  }, [state.wkt, update]);

  const areas: FeatureCollection | null = useMemo(() => {
    if (!state.wkt) return null;
    try { return wktToFeatures(state.wkt); } catch { return null; }
  }, [state.wkt]);

  // Fit the map to the chosen countries (not over the view of a link).
  useEffect(() => {
    if (!iso.length) return;
    if (skipFit.current) { skipFit.current = false; return; }
    if (!state.iso.length) return;
    const es = iso.filter((e) => state.iso.includes(e.code));
    if (!es.length) return;
    setFit([Math.min(...es.map((e) => e.bboxDeg[0])), Math.min(...es.map((e) => e.bboxDeg[1])), Math.max(...es.map((e) => e.bboxDeg[2])), Math.max(...es.map((e) => e.bboxDeg[3]))]);
  }, [iso, state.iso.join(',')]);

  // Choropleth from summaries by ADM2 (when the manifest lists basemap/admin2.geojson) or ADM1, on the
  // outlines whose `value` is the ADM<l>_NAME_ALT raster value (a summary by code joins on its `code`).
  const onSummaryRows = useCallback((r: SummaryRows | null) => {
    void summaryChoropleth(r, iso, byCode).then(setChoro, () => setChoro(null));
  }, [byCode, iso]);

  const rasterKeyRef = useRef(rasterKey);
  rasterKeyRef.current = rasterKey;
  // Compare results on the map: ADM1 ranks as a choropleth, cells as a raster.
  const onCompare = useCallback((r: { rows: Row[]; by: number } | null) => {
    // null: the ranking failed, its result left the panel and leaves the map
    if (!r) { setChoro(null); if (rasterKeyRef.current?.startsWith('cells:similar')) setRestyle((n) => n + 1); return; }
    const score = r.rows.length && Object.keys(r.rows[0]).find((k) => /score/i.test(k));
    if (!score) return;
    if (r.by !== 0) { void similarUnitsChoropleth(r.rows, score).then((c) => { if (c) setChoro(c); }); return; }
    setChoro(null); // the cell ranks are a raster layer: an ADM1 choropleth would hide them
    const { values, palette: pal } = similarCellsLayer(r.rows, score, grid);
    const key = `cells:similar:${Date.now()}`;
    setCellsPending('styling');
    void getRaster().styleCells(key, grid, values, pal).then(() => { setRasterKey(key); setPalette(pal); setCellsPending(key); }).catch(() => setCellsPending(null));
  }, [grid]);

  // Catchment bands on the map: band index per cell (per source and band for a marketshed); null (the run
  // failed, its result left the panel): the bands leave the map too, the mapped indicator comes back.
  // A new set of sources (or bands) fits the map to the result's window, so a shared link opens on the bands.
  const [catchLabels, setCatchLabels] = useState<MapLabel[] | null>(null);
  const fittedCatch = useRef('');
  const onCatchment = useCallback((r: CatchmentResult | null) => {
    if (!r) { setCatchLabels(null); if (rasterKeyRef.current?.startsWith('cells:catchment')) setRestyle((n) => n + 1); return; }
    const { values, palette: pal } = catchmentLayer(r, grid);
    const key = `cells:catchment:${Date.now()}`;
    setCatchLabels(r.sources.slice(0, 200).map((s, i) => ({ lon: s.lon, lat: s.lat, text: s.name, color: r.sources.length > 1 ? SOURCE_HUES[i % SOURCE_HUES.length] : undefined })));
    const fitKey = JSON.stringify([r.sources.map((s) => [s.lon, s.lat]), r.breaks]);
    if (fitKey !== fittedCatch.current) {
      fittedCatch.current = fitKey;
      const g = r.grid;
      setFit([g.xmin, g.ymin, g.xmax, g.ymax]);
    }
    void getRaster().styleCells(key, grid, values, pal).then(() => { setChoro(null); setRasterKey(key); setPalette(pal); });
  }, [grid]);

  // The map view as PNG, SVG or PDF (map-export.ts, loaded on first use): legend of the choropleth or the mapped layer.
  const saveMap = async (m: MlMap, format: MapExportFormat, size: ExportSize) => {
    const { saveMapView } = await import('./map-export');
    await saveMapView(m, format, { rec, palette, choro: choro && { ...choro, rec: byCode.get(choro.code.split(' by ')[0]) } }, undefined, size);
  };
  const fitTo = useCallback((b: [number, number, number, number]) => setFit([...b]), []);
  const ctx: PanelCtx = { catalog, byCode, iso, state, update, setQuery, fitTo };
  // Without a run query, downloads and the API panel use the current map/summary selection.
  const stateQuery: QuerySpec | null = useMemo(() => {
    const a = summaryArgs(state);
    const by = state.by.length ? ` by ${state.by.join(', ')}` : '';
    return a.var.length ? { method: 'indapi', args: { ...a }, label: `Current selection: ${a.var.join(', ')} for ${(a.iso3 ?? ['SSA']).join(', ')}${by}` } : null;
  }, [state]);
  const current = query ?? stateQuery;
  const loading = catalogQ.isLoading;
  // Layer comparison (CompareBar, CompareMaps): the second layer's record and the side names.
  const rec2 = state.cmp && state.v2 ? byCode.get(state.v2) : undefined;
  const cmpOn = !!(rec2 && rec);
  const varOpts = useMemo(() => varOptions(catalog), [catalog]);
  const varFind = useMemo(() => varSearch(catalog), [catalog]);

  return (
    <div className={`app${wide ? ' wide' : ''}${drawer ? ' drawer-open' : ''}`}>
      <a href="#tab-summary" className="skip-link" onClick={(e) => { e.preventDefault(); document.getElementById(`tab-${state.panel}`)?.focus(); }}>Skip to tools</a>
      <AppHeader drawer={drawer} setDrawer={setDrawer} />
      <UpdateBanner />
      {badMsg.text && <p className="msg warn banner" role="alert">{badMsg.text} <button type="button" className="ghost" onClick={badMsg.dismiss}>Dismiss</button></p>}
      <aside className="left" aria-label="Catalog" id="catalog-drawer" onKeyDown={(e) => { if (e.key === 'Escape' && drawer) setDrawer(false); }}>
        {phone && <p className="row space drawer-head"><strong>Catalog</strong><button type="button" className="ghost small" onClick={() => setDrawer(false)}>Close</button></p>}
        {catalogQ.error && <p className="msg error" role="alert">Cannot load the catalog: {(catalogQ.error as Error).message}</p>}
 <CatalogBrowser loading={loading} records={catalog} selected={state.v} onSelect={(c) => { update({ v: c }); setChoro(null); setDrawer(false); }} />
        {rec && <IndicatorCard rec={rec} />}
      </aside>
      <main className={`centre${cmpOn ? ` cmp cmp-${state.cmp}` : ''}${drawMode !== 'off' ? ' drawing' : ''}`} aria-label="Map" onDragOver={(e) => { if (e.dataTransfer.types.includes('Files')) e.preventDefault(); }}
        onDrop={(e) => { const f = e.dataTransfer.files[0]; if (!f) return; e.preventDefault(); update({ panel: 'areas' }); setTimeout(() => window.dispatchEvent(new CustomEvent(UPLOAD_EVENT, { detail: f })), 0); }}>
        {/* the map's own heading: the legends' h3 titles follow an h2 also on a phone, where the card's h2 is in the closed drawer (axe heading-order) */}
        <h2 className="sr-only">Map</h2>
        <Loadable what="the map" loading={<div className="map placeholder">Loading map…</div>}>
          <MapView dataBase={DATA_BASE} rasterKey={rasterKey} opacity={state.op} loadTile={loadTile} refineTiles={refineTiles} choropleth={choro?.pairs ?? null} choroplethLevel={choro?.level ?? 1} areas={areas}
            marker={picked ? [picked.lon, picked.lat] : null} labels={state.panel === 'catchment' ? catchLabels : null} fit={fit} gridBounds={gridBounds} drawMode={drawMode} onDrawn={onDrawn} onHover={onHover} onClick={onClick} view={state.map} onView={onView} onMap={setMlMap} basemap={base.basemap} onBasemapError={base.onError}
            onRendered={() => { (window as any).__indapiFirstRender ??= performance.now(); document.body.dataset.mapRendered = '1'; markFirstMap(); setCellsPending((k) => (k && k === rasterKey ? null : k)); }} />
        </Loadable>
        {cmpOn && <Loadable what="the second map" compact loading={null}><CompareMaps dataBase={DATA_BASE} gridBounds={gridBounds} loadTile={loadTile} refineTiles={refineTiles} rec={rec2!} labelA={rec!.varLabel} sideA={compareSide(state.cmp, state.v2, phone, 'a')} sideB={compareSide(state.cmp, state.v2, phone, 'b')}
          mode={state.cmp!} sw={state.sw} onSw={(sw) => update({ sw }, { replace: true })} map={mlMap} opacity={state.op} onOpacity={(op) => update({ op })} areas={areas} marker={picked ? [picked.lon, picked.lat] : null}
          onHover={onHover} onClick={onClick} phone={phone} styleLayer={(r) => getRaster().styleCog(`cog:${r.varCode}`, r).then((palette) => ({ key: `cog:${r.varCode}`, palette }))} /></Loadable>}
        <div className="overlay-stack">
        <div className="overlay map-tools" role="group" aria-label="Place search and map export">
          {!afterMap ? placeSearchHolder : <Loadable what="the place search" compact loading={placeSearchHolder}><PlaceSearch map={mlMap} dataBase={DATA_BASE} maxLabels={phone ? 12 : 30} onPlace={state.panel === 'catchment' ? (p) => addCatchSource({ lon: p.lon, lat: p.lat, name: p.name }) : undefined} /></Loadable>}
          <MapExportControl disabled={!mlMap} onSave={(f, z) => (mlMap ? saveMap(mlMap, f, z) : Promise.resolve())} />
          {base.control}
        </div>
        <CompareBar options={varOpts} search={varFind} byCode={byCode} v={state.v} v2={state.v2} cmp={state.cmp} phone={phone} onChange={(c, o) => update(c, o)} cellInfo={(c, lo, la) => getRaster().cellInfo(c, lo, la)} fmt={fmtValue} />
        <HoverInfo hover={hover} choro={choro} rec={rec} coarse={coarse} />
        {picked && (
          <div className="overlay tr-picked" data-testid="picked">
            <span><strong>Picked:</strong> {picked.adm1 ?? '—'}, {picked.country ?? '—'} · cell {picked.cell5m}</span>
            <button type="button" className="ghost small" onClick={() => { setPicked(null); update({ pick: null }); }} aria-label="Clear picked place">×</button>
          </div>
        )}
        </div>
        {drawMode !== 'off' && <p className="overlay draw-hint small" role="status">{drawMode === 'polygon' ? `${coarse ? 'Tap' : 'Click'} to add vertices; ${coarse ? 'tap' : 'click'} the first vertex to close.` : `${coarse ? 'Tap' : 'Click'} to add a point.`} <button type="button" className="ghost small" onClick={() => setDrawMode('off')}>Stop drawing</button></p>}
        <div className="overlay bl">
          {mapErr && <p className="msg error" role="alert" data-testid="map-error">{mapErr}</p>}
          {cellsPending && <div data-testid="cells-progress"><Progress label="Drawing the similar cells" /></div>}
          {rec && drawnRec && <Legend key={phone ? 'phone' : 'wide'} collapsed={!!choro || phone} title={`${cmpOn ? `${compareSide(state.cmp, state.v2, phone, 'a')}: ` : ''}${rasterKey?.startsWith('cells:catchment') ? 'Travel time (catchment)' : rasterKey?.startsWith('cells:') ? 'Similarity' : drawnRec.varLabel}`} unit={rasterKey?.startsWith('cells:') ? '' : drawnRec.unit} noDataLabel={rasterKey?.startsWith('cells:catchment') ? 'Beyond the last band, or unreachable' : undefined} palette={palette} opacity={state.op} onOpacity={(op) => update({ op })}>
            {rasterKey?.startsWith('cells:') && <button type="button" className="ghost small" onClick={() => setRestyle((k) => k + 1)}>Back to {rec.varCode}</button>}
          </Legend>}
          {choro && (
            <details className="legend" open={!phone} aria-label="Choropleth legend">
              <summary><h3 title={choro.code}>{choro.title}</h3><code className="legend-code">{choro.code}</code></summary>
              <ul role="list">{choro.legend.map((e, i) => <li key={i}><span className="sw" style={{ background: e.color }} aria-hidden="true" />{e.label}</li>)}</ul>
              <button type="button" className="ghost small" onClick={() => setChoro(null)}>Hide choropleth</button>
            </details>
          )}
        </div>
      </main>
      <aside className="right" aria-label="Tools">
        <div className="tabs-bar">
        <div role="tablist" aria-label="Tools" className="tabs">
          {PANELS.map(([id, label]) => (
            <button key={id} role="tab" id={`tab-${id}`} aria-selected={state.panel === id} aria-controls={`panel-${id}`} tabIndex={state.panel === id ? 0 : -1}
              onClick={() => update({ panel: id })}
              onKeyDown={(e) => {
                const i = PANELS.findIndex((p) => p[0] === state.panel);
                const n = e.key === 'ArrowRight' ? (i + 1) % PANELS.length : e.key === 'ArrowLeft' ? (i + PANELS.length - 1) % PANELS.length : -1;
                if (n >= 0) { update({ panel: PANELS[n][0] }); document.getElementById(`tab-${PANELS[n][0]}`)?.focus(); }
              }}>{label}</button>
 ))}
        </div>
          <button type="button" className="ghost small widen" aria-pressed={wide} onClick={() => setWide(!wide)} title={wide ? 'Give the map its room back' : 'Make the tools panel wider (tables with many columns)'} aria-label={wide ? 'Narrow panel' : 'Widen panel'}>{wide ? 'Narrow' : 'Widen'}</button>
        </div>
        {PANELS.map(([id]) => (
          <div key={id} role="tabpanel" id={`panel-${id}`} aria-labelledby={`tab-${id}`} hidden={state.panel !== id} className="panel">
            {id === 'summary' && <SummaryPanel ctx={ctx} onRows={onSummaryRows} />}
            {id === 'table' && mounted(id) && lazyPanel(id, 'the table builder', <TablePanel ctx={ctx} />)}
            {id === 'areas' && <AreasPanel ctx={ctx} drawMode={drawMode} setDrawMode={setDrawMode} />}
            {id === 'compare' && mounted(id) && lazyPanel(id, 'the comparison tools', <ComparePanel ctx={ctx} picked={picked} onResult={onCompare} />)}
            {id === 'catchment' && state.panel === 'catchment' && lazyPanel(id, 'the catchment tool', <CatchmentPanel ctx={ctx} sources={catchSources} onSources={(s) => update({ src: s, ...(state.pick && !state.src.length ? { pick: null } : {}) })} onResult={onCatchment} />)}
            {id === 'download' && mounted(id) && lazyPanel(id, 'the download panel', <DownloadPanel query={current} />)}
            {id === 'api' && mounted(id) && lazyPanel(id, 'the API panel', <ApiPanel query={current} />)}
          </div>
        ))}
      </aside>
    </div>
  );
}
