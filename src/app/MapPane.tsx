/**
 * The map in the centre of the shell: the main map (lazy MapLibre) with the mapped layer or a
 * result, the second map of a layer comparison, and the overlays (place search, export,
 * basemap, comparison bar, read-out, picked place, drawing hint, legends). A file dropped on
 * the map goes to the Areas panel's upload.
 */
import { useEffect, useMemo, useState, type DragEvent, type ReactElement } from 'react';
import type { Map as MlMap } from 'maplibre-gl';
import type { MapCamera } from '../core/map/first-view';
import type { VarRecord } from '../core/types';
import { CompareBar, compareSide } from '../ui/CompareBar';
import { firstMapDrawn, liveMapReleased, markFirstMap, releaseLiveMap } from '../ui/first-map';
import { lazyRetry } from '../ui/lazy-retry';
import { Loadable } from '../ui/Loadable';
import { MapPreview } from '../ui/MapPreview';
import { DATA_BASE, ONLINE_BASEMAPS } from './bundle';
import { useBasemap } from './basemap-control';
import { fmtValue, HoverInfo } from './HoverInfo';
import { MapExportControl } from './map-export-control';
import type { ExportSize, MapExportFormat } from './map-export-size';
import type { OnExportProgress } from './map-export-steps';
import { MapLegends } from './MapLegends';
import { UploadMapLayer } from './UploadLayer';
import { varOptions, varSearch } from './panels/common';
import { handOverDroppedFile } from './panels/upload-drop';
import { getRaster } from './services';
import type { UrlState } from './url-state';
import type { BundleData } from './useBundleData';
import type { MapLayer } from './useMapLayer';
import type { SeriesMap } from './useSeriesMap';
import type { MapPointer } from './useMapPointer';
import type { MapViewState } from './useMapView';
import { COARSE_QUERY, useMediaQuery } from './useMediaQuery';
import type { ResultLayers } from './useResultLayers';
import type { UrlUpdate } from './useUrlState';

const MapView = lazyRetry(() => liveMapReleased().then(() => import('../ui/MapView')).then((m) => m.MapView));
const CompareMaps = lazyRetry(() => import('../ui/CompareMaps').then((m) => m.CompareMaps));
const PlaceSearch = lazyRetry(() => import('../ui/PlaceSearch').then((m) => m.PlaceSearch));

/** Tile loader handed to the map: draws in the raster worker. */
const loadTile = (key: string, z: number, x: number, y: number) => getRaster().tile(key, z, x, y);
const refineTiles = (key: string) => getRaster().refined(key);
const styleLayer = (r: VarRecord) => getRaster().styleCog(`cog:${r.varCode}`, r).then((palette) => ({ key: `cog:${r.varCode}`, palette }));
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

/** Props of {@link MapPane}. */
export interface MapPaneProps {
  state: UrlState;
  update: UrlUpdate;
  data: BundleData;
  /** The selected record. */
  rec: VarRecord | undefined;
  layer: MapLayer;
  /** The mapped series' year or change (a national series' choropleth takes the map's choropleth). */
  series: SeriesMap;
  results: ResultLayers;
  pointer: MapPointer;
  view: MapViewState;
  /** Phone layout. */
  phone: boolean;
  /** The first map has drawn: the place search's code may load. */
  afterMap: boolean;
}

/** Hands a file dropped on the map to the Areas panel's upload (after switching to it). */
function dropFile(e: DragEvent, update: UrlUpdate): void {
  const f = e.dataTransfer.files[0];
  if (!f) return;
  e.preventDefault();
  update({ panel: 'areas' });
  setTimeout(() => handOverDroppedFile(f), 0);
}

/** The map pane. */
export function MapPane(p: MapPaneProps) {
  const { state, update, data, rec, layer, series, results, pointer, view, phone } = p;
  const [mlMap, setMlMap] = useState<MlMap | null>(null);
  const base = useBasemap(ONLINE_BASEMAPS);
  const coarse = useMediaQuery(COARSE_QUERY);
  const rec2 = state.cmp && state.v2 ? data.byCode.get(state.v2) : undefined;
  const cmpOn = !!(rec2 && rec);
  // the second map's code loads once the comparison bar opens, while the second layer is chosen
  useEffect(() => { if (state.cmp) void import('../ui/CompareMaps').catch(() => undefined); }, [state.cmp]);
  const side = (s: 'a' | 'b') => compareSide(state.cmp, state.v2, phone, s);
  const marker: [number, number] | null = pointer.picked ? [pointer.picked.lon, pointer.picked.lat] : null;
  const choro = series.choro ?? results.choro;
  const onOpacity = (op: number) => update({ op });
  const [live, setLive] = useState(firstMapDrawn);
  const [view0] = useState(state.map); // the view the preview shows first (the live map's unless moved by hand)
  // the camera the preview was moved to by hand: the live map starts there (exact; the link keeps it rounded)
  const [hand, setHand] = useState<[number, number, number] | null>(null);
  const onHand = (c: MapCamera) => { const v: [number, number, number] = [c.lng, c.lat, c.zoom]; setHand(v); update({ map: v }, { replace: true }); };
  const onRendered = () => {
    (window as any).__indapiFirstRender ??= performance.now(); document.body.dataset.mapRendered = '1'; markFirstMap(); setLive(true); results.onRendered();
    // the style key of the cells drawn (a catchment, similar cells): the bench and tests wait on it
    if (layer.rasterKey?.startsWith('cells:')) { performance.mark('cells:drawn'); document.body.dataset.cellsDrawn = layer.rasterKey; }
  };
  const onPreview = () => { (window as any).__indapiFirstPreview ??= performance.now(); document.body.dataset.mapPreview = '1'; releaseLiveMap(); };
  const wanted = (!!rec && !series.choro && series.info?.kind !== 'national') || data.loading;
  usePreviewRelease(!live && !cmpOn, layer, wanted);
  useDrawnWithoutCells(!live && !wanted && !layer.rasterKey ? mlMap : null, onRendered);
  return (
    <main className={`centre${cmpOn ? ` cmp cmp-${state.cmp}` : ''}${view.drawMode !== 'off' ? ' drawing' : ''}`} aria-label="Map" onDragOver={(e) => { if (e.dataTransfer.types.includes('Files')) e.preventDefault(); }}
      onDrop={(e) => dropFile(e, update)}>
      {/* the map's own heading: the legends' h3 titles follow an h2 also on a phone, where the card's h2 is in the closed drawer (axe heading-order) */}
      <h2 className="sr-only">Map</h2>
      <Loadable what="the map" loading={<div className="map placeholder">Loading map…</div>}>
        <MapView dataBase={DATA_BASE} rasterKey={layer.rasterKey} rasterOverChoropleth={results.sliceCellsDrawn} opacity={state.op} loadTile={loadTile} refineTiles={refineTiles} choropleth={choro?.pairs ?? null} choroplethLevel={choro?.level ?? 1} areas={view.areas}
          marker={marker} labels={state.panel === 'catchment' ? results.catchLabels : null} fit={view.fit} gridBounds={data.gridBounds} drawMode={view.drawMode} onDrawn={view.onDrawn} onHover={pointer.onHover} onClick={pointer.onClick} view={!live && hand ? hand : state.map} onView={view.onView} onMap={setMlMap} basemap={base.basemap} onBasemapError={base.onError}
          onRendered={onRendered} />
      </Loadable>
      {!live && !cmpOn && <MapPreview rasterKey={layer.rasterKey} loadTile={loadTile} view={view0} bounds={data.gridBounds} opacity={state.op} dataBase={DATA_BASE} onDrawn={onPreview} onFirstTile={releaseLiveMap} onMove={onHand} />}
      {cmpOn && <Loadable what="the second map" compact loading={null}><CompareMaps dataBase={DATA_BASE} gridBounds={data.gridBounds} loadTile={loadTile} refineTiles={refineTiles} rec={rec2!} labelA={rec!.varLabel} sideA={side('a')} sideB={side('b')}
        mode={state.cmp!} sw={state.sw} onSw={(sw) => update({ sw }, { replace: true })} map={mlMap} opacity={state.op} onOpacity={onOpacity} areas={view.areas} marker={marker}
        onHover={pointer.onHover} onClick={pointer.onClick} phone={phone} styleLayer={styleLayer} /></Loadable>}
      <UploadMapLayer map={mlMap} />
      <MapTools {...p} mlMap={mlMap} baseControl={base.control} coarse={coarse} />
      {view.drawMode !== 'off' && <p className="overlay draw-hint small" role="status">{view.drawMode === 'polygon' ? `${coarse ? 'Tap' : 'Click'} to add vertices; ${coarse ? 'tap' : 'click'} the first vertex to close.` : `${coarse ? 'Tap' : 'Click'} to add a point.`} <button type="button" className="ghost small" onClick={() => view.setDrawMode('off')}>Stop drawing</button></p>}
      <MapLegends rec={rec} layer={layer} series={series} results={results} sidePrefix={cmpOn ? `${side('a')}: ` : ''} phone={phone} opacity={state.op} onOpacity={onOpacity} />
    </main>
  );
}

/**
 * Lets the live map's code load when there is no preview to wait for (src/ui/first-map.ts
 * releaseLiveMap): no preview shown (`previewing` false: the live map drew, or a comparison),
 * no layer to draw once the catalog is read (`wanted` false), or the layer failed to style.
 */
function usePreviewRelease(previewing: boolean, layer: MapLayer, wanted: boolean): void {
  useEffect(() => { if (!previewing || !wanted || layer.mapErr) releaseLiveMap(); }, [previewing, wanted, layer.mapErr]);
}

/**
 * The live map counts as drawn at its first idle moment (style, land and outlines drawn) when
 * it has no cells to draw: a national series (a choropleth on the country outlines) or no layer.
 * Else the preview, which only draws cells, would stay in front of the live map, blank.
 * @param map the live map while it waits for that, else null
 */
function useDrawnWithoutCells(map: MlMap | null, onDrawn: () => void): void {
  useEffect(() => {
    if (!map) return;
    const done = () => onDrawn();
    if (map.loaded()) { done(); return; }
    map.once('idle', done);
    return () => { map.off('idle', done); };
  }, [map]);
}

/** Props of {@link MapTools}: the pane's, the main map, the basemap select and the pointer kind. */
interface MapToolsProps extends MapPaneProps {
  mlMap: MlMap | null;
  baseControl: ReactElement | null;
  coarse: boolean;
}

/** The overlay stack: place search, map export and basemap; the comparison bar; the read-out; the picked place. */
function MapTools({ state, update, data, rec, layer, series, results, pointer, phone, afterMap, mlMap, baseControl, coarse }: MapToolsProps) {
  const { catalog, byCode } = data;
  const varOpts = useMemo(() => varOptions(catalog), [catalog]);
  const varFind = useMemo(() => varSearch(catalog), [catalog]);
  const { picked } = pointer;
  const onPlace = state.panel === 'catchment' ? (pl: { lon: number; lat: number; name: string }) => pointer.addCatchSource({ lon: pl.lon, lat: pl.lat, name: pl.name }) : undefined;
  // The map view as PNG, SVG or PDF (map-export.ts, loaded on first use): legend of the choropleth or the mapped layer.
  const saveMap = async (m: MlMap, format: MapExportFormat, size: ExportSize, signal: AbortSignal, onProgress: OnExportProgress) => {
    const { saveMapView } = await import('./map-export');
    const choro = series.choro ?? results.choro;
    const cells = results.cellsInfo && results.cellsInfo.key === layer.rasterKey ? results.cellsInfo.info : null;
    // a gridded series' change map: its title, unit, decimals, years and legend heading (the record's sources stay)
    const drawn = layer.change?.rec ?? rec;
    await saveMapView(m, format, { rec: drawn, palette: layer.palette, layerHeading: layer.change?.heading, choro: choro && { ...choro, rec: series.choro?.rec ?? byCode.get(choro.code.split(' by ')[0]) }, cells }, signal, size, onProgress);
  };
  return (
    <div className="overlay-stack">
      <div className="overlay map-tools" role="group" aria-label="Place search and map export">
        {!afterMap ? placeSearchHolder : <Loadable what="the place search" compact loading={placeSearchHolder}><PlaceSearch map={mlMap} dataBase={DATA_BASE} maxLabels={phone ? 12 : 30} onPlace={onPlace} /></Loadable>}
        <MapExportControl disabled={!mlMap} onSave={(f, z, sig, prog) => (mlMap ? saveMap(mlMap, f, z, sig, prog) : Promise.resolve())} />
        {baseControl}
      </div>
      <CompareBar options={varOpts} search={varFind} byCode={byCode} v={state.v} v2={state.v2} cmp={state.cmp} phone={phone} onChange={(c, o) => update(c, o)} cellInfo={(c, lo, la) => getRaster().cellInfo(c, lo, la)} fmt={fmtValue} />
      <HoverInfo hover={pointer.hover} choro={series.choro ?? results.choro} rec={layer.change?.rec ?? rec} coarse={coarse} cells={!series.choro} />
      {picked && (
        <div className="overlay tr-picked" data-testid="picked">
          <span><strong>Picked:</strong> {picked.adm1 ?? '—'}, {picked.country ?? '—'} · cell {picked.cell5m}</span>
          <button type="button" className="ghost small" onClick={pointer.clearPicked} aria-label="Clear picked place">×</button>
        </div>
      )}
    </div>
  );
}
