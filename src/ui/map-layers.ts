/**
 * What the map view (src/ui/MapView.tsx) keeps in step with its props once the map is loaded
 * (`ready`), one hook per responsibility: the indicator's raster layer (with progressive
 * drawing), the bundle window, the online basemap, the choropleth, drawn areas and their
 * numbers, named labels, the marker, fitting bounds clear of the overlays, and the drawing mode.
 * Each reads the map from `mapRef` and the latest props from `cb` (callbacks, opacity, bounds).
 */
import { useEffect, useRef, type RefObject } from 'react';
import * as maplibregl from 'maplibre-gl';
import type { GeoJSONSource, Map as MlMap, RasterTileSource } from 'maplibre-gl';
import type { TerraDraw } from 'terra-draw';
import type { Geometry, Position } from 'geojson';
import type { MapViewProps } from './map-types';
import { EMPTY, SSA_BOUNDS } from './map-style';

type MapRef = RefObject<MlMap | null>;
type PropsRef = RefObject<MapViewProps>;

/**
 * Draws the raster tiles of style `key` again whenever, at an idle moment, the raster worker
 * says tiles drawn from a coarser preview can be drawn from their own level (progressive
 * drawing, workers/raster.worker.ts): the tile URLs get a new `?r=` so MapLibre asks again,
 * keeping the old tiles on screen until the new ones are in. Sets `data-map-sharp="1"` on the
 * body once the map is idle with nothing left to refine; with `expose` (the main map) its
 * state is `window.__indapiRefine` for end-to-end tests.
 * @returns a function that stops it
 */
function refineOnIdle(map: MlMap, key: string, refine: () => ((key: string) => Promise<boolean>) | undefined, expose: boolean): () => void {
  let version = 0, stopped = false;
  // for end-to-end tests (e2e/app-helpers.ts settle): a refinement running, and whether the last one drew again
  const state = { busy: false, again: false };
  if (expose) (window as any).__indapiRefine = state;
  const onIdle = async () => {
    const f = refine();
    if (state.busy || !f || !map.getSource('raster') || !map.isSourceLoaded('raster')) return;
    state.busy = true; // set before the first await: an idle listener added after this one sees it
    try {
      const again = await f(key);
      state.again = again;
      if (stopped) return;
      const src = map.getSource('raster') as RasterTileSource | undefined;
      if (again && src) src.setTiles([`indapi://${encodeURIComponent(key)}/{z}/{x}/{y}?r=${++version}`]);
      else if (!again) document.body.dataset.mapSharp = '1';
    } catch {
      state.again = false; /* a worker swap or a failed read: the next idle moment asks again */
    } finally {
      state.busy = false;
    }
  };
  map.on('idle', onIdle);
  return () => { stopped = true; map.off('idle', onIdle); };
}

/** A label position of a geometry: the area-weighted centroid of a polygon's largest ring, a point itself. */
export function labelPoint(g: Geometry): [number, number] | null {
  const ringCentroid = (r: Position[]): { a: number; c: [number, number] } => {
    let a = 0, cx = 0, cy = 0;
    for (let i = 0, j = r.length - 1; i < r.length; j = i++) {
      const f = r[j][0] * r[i][1] - r[i][0] * r[j][1];
      a += f; cx += (r[j][0] + r[i][0]) * f; cy += (r[j][1] + r[i][1]) * f;
    }
    if (Math.abs(a) < 1e-12) return { a: 0, c: [r.reduce((s, p) => s + p[0], 0) / r.length, r.reduce((s, p) => s + p[1], 0) / r.length] };
    return { a: Math.abs(a / 2), c: [cx / (3 * a), cy / (3 * a)] };
  };
  switch (g.type) {
    case 'Point': return [g.coordinates[0], g.coordinates[1]];
    case 'MultiPoint': return g.coordinates.length ? [g.coordinates[0][0], g.coordinates[0][1]] : null;
    case 'Polygon': return g.coordinates.length ? ringCentroid(g.coordinates[0]).c : null;
    case 'MultiPolygon': {
      const rs = g.coordinates.filter((p) => p.length).map((p) => ringCentroid(p[0]));
      return rs.length ? rs.sort((x, y) => y.a - x.a)[0].c : null;
    }
    default: return null;
  }
}

/**
 * fitBounds padding that keeps the fitted area clear of the overlays over the map (legends
 * bottom-left, hover read-out top-right): each overlay takes the side where it costs the
 * least room; the total stays within 60% of the map's width and height.
 */
export function overlayPadding(map: DOMRect, overlays: DOMRect[], margin = 16): { top: number; bottom: number; left: number; right: number } {
  const pad = { top: margin, bottom: margin, left: margin, right: margin };
  const W = map.width, H = map.height;
  for (const o of overlays) {
    const r = { left: o.left - map.left, right: o.right - map.left, top: o.top - map.top, bottom: o.bottom - map.top };
    if (o.width === 0 || o.height === 0 || r.right <= 0 || r.bottom <= 0 || r.left >= W || r.top >= H) continue;
    const opts: Array<[keyof typeof pad, number, number]> = [];
    if (r.left < W / 2) opts.push(['left', r.right + margin, (r.right + margin) / W]);
    if (r.right > W / 2) opts.push(['right', W - r.left + margin, (W - r.left + margin) / W]);
    if (r.top < H / 2) opts.push(['top', r.bottom + margin, (r.bottom + margin) / H]);
    if (r.bottom > H / 2) opts.push(['bottom', H - r.top + margin, (H - r.top + margin) / H]);
    if (!opts.length) continue;
    const [side, px] = opts.sort((a, b) => a[2] - b[2])[0];
    pad[side] = Math.max(pad[side], px);
  }
  const fitAxis = (a: 'left' | 'top', b: 'right' | 'bottom', size: number) => {
    const sum = pad[a] + pad[b], cap = size * 0.6;
    if (sum > cap) { pad[a] = Math.round(pad[a] * cap / sum); pad[b] = Math.round(pad[b] * cap / sum); }
  };
  fitAxis('left', 'right', W);
  fitAxis('top', 'bottom', H);
  return pad;
}

/** The indicator's raster tiles (`indapi://` key): replaced when the style key or the window changes; then its opacity. */
export function useRasterLayer(mapRef: MapRef, ready: boolean, cb: PropsRef, p: Pick<MapViewProps, 'rasterKey' | 'gridBounds' | 'secondary' | 'opacity' | 'rasterOverChoropleth'>): void {
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !ready) return;
    if (map.getLayer('raster')) map.removeLayer('raster');
    if (map.getSource('raster')) map.removeSource('raster');
    if (!p.rasterKey) return;
    map.addSource('raster', { type: 'raster', tiles: [`indapi://${encodeURIComponent(p.rasterKey)}/{z}/{x}/{y}`], tileSize: 256, bounds: cb.current.gridBounds ?? SSA_BOUNDS, minzoom: 0, maxzoom: 16 });
    performance.mark('raster:source'); // the bench (bench/catchment-panel.ts) reads it: a new style key handed to MapLibre
    map.addLayer({ id: 'raster', type: 'raster', source: 'raster', paint: { 'raster-opacity': cb.current.opacity, 'raster-resampling': 'nearest', 'raster-fade-duration': 0 } }, p.rasterOverChoropleth ? 'lakes-fill' : 'choropleth');
    const onIdle = () => { if (map.getSource('raster') && map.isSourceLoaded('raster')) { cb.current.onRendered?.(); map.off('idle', onIdle); } };
    map.on('idle', onIdle);
    const stopRefine = refineOnIdle(map, p.rasterKey, () => cb.current.refineTiles, !p.secondary);
    return () => { map.off('idle', onIdle); stopRefine(); };
  }, [p.rasterKey, ready, p.gridBounds?.join(','), p.rasterOverChoropleth]);
  useEffect(() => {
    const map = mapRef.current;
    if (map && ready && map.getLayer('raster')) map.setPaintProperty('raster', 'raster-opacity', p.opacity);
  }, [p.opacity, ready]);
}

/** A bundle window other than the first view's (read after the map was made): shown, unless a view or a fit was given. */
export function useGridWindow(mapRef: MapRef, ready: boolean, cb: PropsRef, gridBounds: MapViewProps['gridBounds']): void {
  const firstBounds = useRef(gridBounds ?? SSA_BOUNDS);
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !ready || !gridBounds || gridBounds.join(',') === firstBounds.current.join(',')) return;
    firstBounds.current = gridBounds;
    if (!cb.current.view && !cb.current.fit) map.fitBounds(gridBounds, { padding: 10, duration: 0 });
  }, [gridBounds?.join(','), ready]);
}

/** Online basemap: a raster source under everything but the ocean, instead of the bundled land fill; a failure is reported once. */
export function useOnlineBasemap(mapRef: MapRef, ready: boolean, cb: PropsRef, basemap: MapViewProps['basemap']): void {
  const bm = basemap ?? null;
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !ready) return;
    if (map.getLayer('online-basemap')) map.removeLayer('online-basemap');
    if (map.getSource('online-basemap')) map.removeSource('online-basemap');
    map.setLayoutProperty('countries-fill', 'visibility', bm ? 'none' : 'visible');
    if (!bm) return;
    map.addSource('online-basemap', { type: 'raster', tiles: bm.tiles, tileSize: bm.tileSize, maxzoom: bm.maxzoom, attribution: bm.attribution });
    map.addLayer({ id: 'online-basemap', type: 'raster', source: 'online-basemap', paint: { 'raster-fade-duration': 0 } }, 'countries-fill');
    let failed = false;
    const onErr = (e: maplibregl.ErrorEvent & { sourceId?: string }) => {
      if (failed || e.sourceId !== 'online-basemap') return;
      failed = true;
      cb.current.onBasemapError?.(e.error?.message ?? 'tiles could not be loaded');
    };
    map.on('error', onErr);
    return () => { map.off('error', onErr); };
  }, [bm?.id, ready]);
}

/** The choropleth: its fill on the outlines of its level, coloured by unit key (transparent when none). */
export function useChoropleth(mapRef: MapRef, ready: boolean, p: Pick<MapViewProps, 'choropleth' | 'choroplethLevel' | 'rasterOverChoropleth'>): void {
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !ready) return;
    const src = p.choroplethLevel === 2 ? 'admin2' : p.choroplethLevel === 0 ? 'countries' : 'admin1';
    if (map.getLayer('choropleth')?.source !== src) { // the fill moves onto the outlines of the level
      map.removeLayer('choropleth');
      map.addLayer({ id: 'choropleth', type: 'fill', source: src, paint: { 'fill-color': '#888888', 'fill-opacity': 0 } }, 'lakes-fill');
      // a one-interval map's cells stay over the units
      if (p.rasterOverChoropleth && map.getLayer('raster')) map.moveLayer('raster', 'lakes-fill');
    }
    if (!p.choropleth || p.choropleth.length === 0) {
      map.setPaintProperty('choropleth', 'fill-opacity', 0);
      return;
    }
    const expr: any[] = ['match', ['get', p.choroplethLevel === 0 ? 'iso3' : 'value']];
    const seen = new Set<number | string>();
    for (const [v, c] of p.choropleth) if (!seen.has(v)) { seen.add(v); expr.push(v, c); }
    // elsewhere a white wash: the raster under it must not read as the choropleth's legend colours
    expr.push('rgba(255,255,255,0.8)');
    map.setPaintProperty('choropleth', 'fill-color', expr as any);
    map.setPaintProperty('choropleth', 'fill-opacity', 1); // opaque: the colours are the legend's, not mixed with the raster
  }, [p.choropleth, p.choroplethLevel, ready]);
}

/** Drawn or pasted areas, numbered as the `feature` column (HTML markers: the map has no glyphs). */
export function useAreas(mapRef: MapRef, ready: boolean, areas: MapViewProps['areas']): void {
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !ready) return;
    (map.getSource('areas') as GeoJSONSource).setData(areas ?? EMPTY);
    // Number the shapes as the `feature` column does: HTML markers (the map has no glyphs).
    const markers: maplibregl.Marker[] = [];
    for (const f of areas?.features ?? []) {
      const at = f.geometry ? labelPoint(f.geometry) : null;
      if (!at) continue;
      const el = document.createElement('div');
      el.className = 'area-label';
      el.textContent = String(f.properties?.id ?? '');
      el.setAttribute('aria-hidden', 'true');
      const isPoint = f.geometry.type === 'Point' || f.geometry.type === 'MultiPoint';
      markers.push(new maplibregl.Marker({ element: el, anchor: isPoint ? 'bottom-left' : 'center', offset: isPoint ? [4, -4] : [0, 0] }).setLngLat(at).addTo(map));
    }
    return () => { for (const m of markers) m.remove(); };
  }, [areas, ready]);
}

/** Named points as HTML labels (a catchment's sources). */
export function useLabels(mapRef: MapRef, ready: boolean, labels: MapViewProps['labels']): void {
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !ready || !labels?.length) return;
    const markers = labels.map((l) => {
      const el = document.createElement('div');
      el.className = 'area-label source-label';
      el.textContent = l.text;
      if (l.color) el.style.background = l.color;
      return new maplibregl.Marker({ element: el, anchor: 'bottom-left', offset: [4, -4] }).setLngLat([l.lon, l.lat]).addTo(map);
    });
    // a label never covers the scale bar or the attribution: moved to the point's left side, else hidden while there
    let frame = 0;
    const clear = () => { frame = 0; clearOfControls(map, markers); };
    const onMove = () => { if (!frame) frame = requestAnimationFrame(clear); };
    map.on('move', onMove);
    map.on('resize', onMove);
    onMove();
    return () => { map.off('move', onMove); map.off('resize', onMove); if (frame) cancelAnimationFrame(frame); for (const m of markers) m.remove(); };
  }, [labels, ready]);
}

/** Whether two boxes overlap (touching edges do not). */
const overlaps = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/**
 * Keeps the labels off the map's bottom controls (scale bar, attribution; the phone's map is
 * small, so a source near the lower right edge put its label over the scale): a label over one
 * goes to the left of its point (offset by its width), and is hidden when it overlaps there too.
 */
function clearOfControls(map: maplibregl.Map, markers: maplibregl.Marker[]): void {
  const ctrls = [...map.getContainer().querySelectorAll<HTMLElement>('.maplibregl-ctrl-bottom-right > .maplibregl-ctrl, .maplibregl-ctrl-bottom-left > .maplibregl-ctrl')].map((c) => c.getBoundingClientRect()).filter((r) => r.width > 0);
  for (const m of markers) {
    const el = m.getElement();
    el.style.visibility = '';
    m.setOffset([4, -4]);
    if (!ctrls.some((c) => overlaps(el.getBoundingClientRect(), c))) continue;
    m.setOffset([-(el.offsetWidth + 4), -4]);
    if (ctrls.some((c) => overlaps(el.getBoundingClientRect(), c))) el.style.visibility = 'hidden';
  }
}

/** The marked point. */
export function useMarker(mapRef: MapRef, ready: boolean, marker: MapViewProps['marker']): void {
  useEffect(() => {
    const map = mapRef.current;
    if (map && ready) (map.getSource('marker') as GeoJSONSource).setData(marker ? { type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: marker } } : EMPTY);
  }, [marker, ready]);
}

/**
 * True when the map shows `fit` ([w, s, e, n] degrees) whole inside the padded box (px) already, at
 * most half a zoom level further out than fitting would go: fitting again would barely move it,
 * and its 600 ms animation would delay the map's next idle moment (e.g. a catchment run again
 * with other bands over the same window).
 */
function alreadyFits(map: MlMap, fit: [number, number, number, number], pad: { top: number; bottom: number; left: number; right: number }): boolean {
  const cam = map.cameraForBounds(fit, { padding: pad, maxZoom: 8 });
  if (cam?.zoom === undefined || map.getZoom() < cam.zoom - 0.5 || map.getZoom() > cam.zoom + 0.01 || map.getBearing() !== 0 || map.getPitch() !== 0) return false;
  const { clientWidth: W, clientHeight: H } = map.getContainer();
  const nw = map.project([fit[0], fit[3]]), se = map.project([fit[2], fit[1]]);
  return nw.x >= pad.left - 1 && nw.y >= pad.top - 1 && se.x <= W - pad.right + 1 && se.y <= H - pad.bottom + 1;
}

/** Fits bounds when they change, with padding that keeps them clear of the overlays over the map. */
export function useFit(mapRef: MapRef, ready: boolean, fit: MapViewProps['fit']): void {
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !ready || !fit) return;
    const box = map.getContainer().getBoundingClientRect();
    const overlays = [...(map.getContainer().parentElement?.querySelectorAll<HTMLElement>('.overlay') ?? [])].flatMap((o) => (o.classList.contains('bl') ? [...o.children] : [o]).map((c) => {
      const r = c.getBoundingClientRect();
      // the hover read-out grows to ~5 lines when the pointer is on the map
      return c.classList.contains('tl-info') ? new DOMRect(r.x, r.y, r.width, Math.max(r.height, 110)) : r;
    }));
    const padding = overlayPadding(box, overlays);
    if (alreadyFits(map, fit, padding)) return;
    map.fitBounds(fit, { padding, duration: 600, maxZoom: 8 });
  }, [fit, ready]);
}

/** A view from outside (a link, Back/Forward): the map goes there unless it is already there. */
export function useOutsideView(mapRef: MapRef, view: MapViewProps['view']): void {
  useEffect(() => {
    const map = mapRef.current;
    const v = view;
    if (!map || !v) return;
    const c = map.getCenter();
    if (Math.abs(c.lng - v[0]) > 1e-3 || Math.abs(c.lat - v[1]) > 1e-3 || Math.abs(map.getZoom() - v[2]) > 1e-2) map.jumpTo({ center: [v[0], v[1]], zoom: v[2] });
  }, [view?.join(',')]);
}

/** terra-draw's mode and the crosshair cursor follow the drawing mode. */
export function useDrawMode(mapRef: MapRef, drawRef: RefObject<TerraDraw | null>, ready: boolean, drawMode: MapViewProps['drawMode']): void {
  useEffect(() => {
    const d = drawRef.current;
    if (!d || !ready) return;
    d.setMode(drawMode === 'off' ? 'static' : drawMode);
    if (mapRef.current) mapRef.current.getCanvas().style.cursor = drawMode === 'off' ? '' : 'crosshair';
  }, [drawMode, ready]);
}
