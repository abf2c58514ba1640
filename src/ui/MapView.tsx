/**
 * The map: MapLibre GL with an offline basemap from the bundle's GeoJSON (ocean
 * background, countries fill and borders, ADM1 lines, GSHHG lakes and major rivers drawn over
 * the indicator layer; no remote tiles or glyphs) or an optional online raster basemap, the
 * selected indicator as raster tiles drawn by a worker through the `indapi://` protocol
 * (exact per-pixel reprojection of the 1/12-degree grid to Web Mercator), an ADM1
 * choropleth, drawn/pasted areas, a marker, and terra-draw for drawing points and polygons.
 */
import { useEffect, useRef, useState } from 'react';
import * as maplibregl from 'maplibre-gl';
import type { GeoJSONSource, Map as MlMap, RasterTileSource } from 'maplibre-gl';
import maplibreWorkerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import 'maplibre-gl/dist/maplibre-gl.css';
import { TerraDraw, TerraDrawPointMode, TerraDrawPolygonMode } from 'terra-draw';
import { TerraDrawMapLibreGLAdapter } from 'terra-draw-maplibre-gl-adapter';
import type { FeatureCollection, Feature, Geometry, Position } from 'geojson';
import { bundleFiles } from './bundle-files';
import { SSA_GRID } from '../core/grid';
import { afterFirstMap } from './first-map';
import { prefetchedJson } from './prefetch';

maplibregl.setWorkerUrl(maplibreWorkerUrl);

/** Loads one raster tile of a style key (null = empty tile). */
export type TileLoader = (key: string, z: number, x: number, y: number) => Promise<ImageBitmap | null>;

let tileLoader: TileLoader | null = null;
let protocolAdded = false;
function ensureProtocol() {
  if (protocolAdded) return;
  protocolAdded = true;
  maplibregl.addProtocol('indapi', async (params) => {
    const m = /^indapi:\/\/([^/]+)\/(\d+)\/(\d+)\/(\d+)/.exec(params.url);
    const bmp = m && tileLoader ? await tileLoader(decodeURIComponent(m[1]), +m[2], +m[3], +m[4]) : null;
    return { data: bmp ?? (await createImageBitmap(new ImageData(256, 256))) };
  });
}

/** An online raster basemap (XYZ tiles, Web Mercator) drawn instead of the bundled land fill. */
export interface BasemapTiles {
  /** Identifier (changes replace the source). */
  id: string;
  /** https tile URL templates with {z}, {x}, {y}. */
  tiles: string[];
  /** Attribution shown in the map's attribution control. */
  attribution: string;
  /** Tile size in px. */
  tileSize: number;
  /** Highest zoom of the tiles. */
  maxzoom: number;
}

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

/** Drawing mode of the map. */
export type DrawMode = 'off' | 'point' | 'polygon';

/** A named point drawn on the map as an HTML label (the map has no glyphs), e.g. a catchment's sources. */
export interface MapLabel {
  /** Longitude, latitude, degrees. */
  lon: number;
  lat: number;
  /** Text shown. */
  text: string;
  /** Background colour (CSS); default the area-label orange. */
  color?: string;
}

/** Props of {@link MapView}. */
export interface MapViewProps {
  /** Bundle root URL ending in "/". */
  dataBase: string;
  /** Style key of the raster layer (null: none). */
  rasterKey: string | null;
  /** Raster opacity 0..1. */
  opacity: number;
  /** Loads raster tiles (runs in a worker). */
  loadTile: TileLoader;
  /** Choropleth: [unit key, colour] pairs (the admin key layer's raster value; for countries the ISO 3166-1 alpha-3 code); null: none. */
  choropleth: Array<[number | string, string]> | null;
  /**
   * Units of the choropleth: 0 (basemap/countries.geojson, joined on its `iso3`), 1
   * (basemap/admin1.geojson, the default) or 2 (basemap/admin2.geojson), joined on `value`, the key layer's raster value.
   */
  choroplethLevel?: 0 | 1 | 2;
  /** Drawn or pasted areas to show; each is numbered on the map by its `id` property (its `feature` number). */
  areas: FeatureCollection | null;
  /** A marked point [lon, lat]. */
  marker: [number, number] | null;
  /** Named points labelled on the map (null or absent: none). */
  labels?: MapLabel[] | null;
  /** Bounds to fit when they change: [w, s, e, n] degrees. */
  fit: [number, number, number, number] | null;
  /** Drawing mode. */
  drawMode: DrawMode;
  /** A finished drawn feature (terra-draw), in EPSG:4326. */
  onDrawn: (f: Feature) => void;
  /** Pointer moved to / left a position. */
  onHover: (lngLat: [number, number] | null) => void;
  /** Click at a position (not while drawing). */
  onClick: (lngLat: [number, number]) => void;
  /** Called once the map is idle after the first raster render (for timing). */
  onRendered?: () => void;
  /**
   * Progressive drawing (the raster worker's `refined`): asked at each idle moment of the map
   * for the current style key; resolves true when tiles drawn from a coarser preview can now
   * be drawn from their own level, and the map then draws the raster tiles again.
   */
  refineTiles?: (key: string) => Promise<boolean>;
  /** Map view [centre longitude, latitude, zoom] to show (e.g. from a link, or Back); null = the default/fitted view. */
  view?: [number, number, number] | null;
  /** The view after each move ends (pans, zooms, fits): [centre longitude, latitude, zoom]. */
  onView?: (v: [number, number, number]) => void;
  /** The MapLibre map, once created (place labels and search, map export). */
  onMap?: (map: MlMap) => void;
  /** A second map beside the main one (layer comparison): not exposed as `window.__indapiMap` but as `__indapiMap2`. */
  secondary?: boolean;
  /** An online basemap under the layers instead of the bundled land fill (null/undefined: the bundled basemap). */
  basemap?: BasemapTiles | null;
  /** The online basemap's tiles failed (offline, blocked): the caller falls back to the bundled basemap. */
  onBasemapError?: (message: string) => void;
  /** Accessible name of the map region (default: the main map's). */
  label?: string;
  /**
   * The bundle's window [west, south, east, north] in degrees (manifest.json `grid`; default the
   * embedded bundle's [-26, -35, 64, 28]): the first view without `view`, and where raster tiles are drawn.
   */
  gridBounds?: [number, number, number, number];
}

const EMPTY: FeatureCollection = { type: 'FeatureCollection', features: [] };

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
/** True on touch-first devices (CSS `pointer: coarse`). */
const COARSE = () => typeof window.matchMedia === 'function' && window.matchMedia('(pointer: coarse)').matches;
const SSA_BOUNDS: [number, number, number, number] = [SSA_GRID.xmin, SSA_GRID.ymin, SSA_GRID.xmax, SSA_GRID.ymax];

/** The map component. */
export function MapView(p: MapViewProps) {
  const el = useRef<HTMLDivElement>(null);
  const mapRef = useRef<MlMap | null>(null);
  const drawRef = useRef<TerraDraw | null>(null);
  const [ready, setReady] = useState(false);
  const lastDraw = useRef(0);
  const cb = useRef(p);
  cb.current = p;
  tileLoader = p.loadTile;

  useEffect(() => {
    ensureProtocol();
    const abs = (f: string) => new URL(f, p.dataBase).href;
    const countriesUrl = abs('basemap/countries.geojson');
    const earlyCountries = prefetchedJson(countriesUrl); // fetched by the app's start (./prefetch.ts)
    const v0 = p.view;
    const map = new maplibregl.Map({
      container: el.current!,
      ...(v0 ? { center: [v0[0], v0[1]] as [number, number], zoom: v0[2] } : { bounds: p.gridBounds ?? SSA_BOUNDS, fitBoundsOptions: { padding: 10 } }),
      maxZoom: 13,
      minZoom: 1,
      attributionControl: { compact: true, customAttribution: 'Basemap: Natural Earth 1:10m (public domain); lakes and rivers: GSHHG 2.3.7 (LGPL); from the bundle' },
      dragRotate: false,
      style: {
        version: 8,
        sources: {
          countries: { type: 'geojson', data: earlyCountries ? EMPTY : countriesUrl },
          // admin outlines: set on load when the manifest lists them (src/ui/bundle-files.ts)
          admin1: { type: 'geojson', data: EMPTY, promoteId: 'value' },
          admin2: { type: 'geojson', data: EMPTY, promoteId: 'value' },
          // lakes and major rivers (GSHHG): set on load when the manifest lists them
          lakes: { type: 'geojson', data: EMPTY },
          rivers: { type: 'geojson', data: EMPTY },
          areas: { type: 'geojson', data: EMPTY },
          marker: { type: 'geojson', data: EMPTY },
        },
        layers: [
          { id: 'ocean', type: 'background', paint: { 'background-color': '#d7e6f0' } },
          { id: 'countries-fill', type: 'fill', source: 'countries', paint: { 'fill-color': '#f4f2ec' } },
          { id: 'choropleth', type: 'fill', source: 'admin1', paint: { 'fill-color': '#888888', 'fill-opacity': 0 } },
          // water above the indicator raster and the choropleth, so lakes such as Lake Victoria stay visible
          { id: 'lakes-fill', type: 'fill', source: 'lakes', paint: { 'fill-color': '#b5d3ea', 'fill-outline-color': '#3d7fb3' } },
          { id: 'rivers-line', type: 'line', source: 'rivers', filter: ['any', ['==', ['get', 'class'], 1], ['>=', ['zoom'], 4]], layout: { 'line-join': 'round', 'line-cap': 'round' }, paint: { 'line-color': '#3d7fb3', 'line-width': ['interpolate', ['linear'], ['zoom'], 3, ['match', ['get', 'class'], 1, 0.8, 0.4], 8, ['match', ['get', 'class'], 1, 2, 1.2]] } },
          { id: 'admin2-line', type: 'line', source: 'admin2', minzoom: 5, paint: { 'line-color': '#8a8a8a', 'line-width': 0.3, 'line-opacity': 0.6 } },
          { id: 'admin1-line', type: 'line', source: 'admin1', minzoom: 2.5, paint: { 'line-color': '#6b6b6b', 'line-width': 0.4, 'line-opacity': 0.6 } },
          { id: 'countries-line', type: 'line', source: 'countries', paint: { 'line-color': '#3c3c3c', 'line-width': 0.9 } },
          { id: 'areas-fill', type: 'fill', source: 'areas', filter: ['==', ['geometry-type'], 'Polygon'], paint: { 'fill-color': '#ff6a00', 'fill-opacity': 0.15 } },
          { id: 'areas-line', type: 'line', source: 'areas', paint: { 'line-color': '#d94f00', 'line-width': 2 } },
          { id: 'areas-point', type: 'circle', source: 'areas', filter: ['==', ['geometry-type'], 'Point'], paint: { 'circle-radius': 5, 'circle-color': '#d94f00', 'circle-stroke-color': '#fff', 'circle-stroke-width': 1.5 } },
          { id: 'marker', type: 'circle', source: 'marker', paint: { 'circle-radius': 6, 'circle-color': 'rgba(0,0,0,0)', 'circle-stroke-color': '#111', 'circle-stroke-width': 2 } },
        ],
      },
    });
    map.addControl(new maplibregl.NavigationControl({ showCompass: false }), 'top-left');
    map.addControl(new maplibregl.ScaleControl({ unit: 'metric' }), 'bottom-right');
    mapRef.current = map;
    (window as any)[p.secondary ? '__indapiMap2' : '__indapiMap'] = map; // for end-to-end tests
    cb.current.onMap?.(map);
    if (earlyCountries) {
      // the early fetch's GeoJSON once the style has its sources; if it failed, the map's own request
      const loaded = new Promise<void>((res) => map.once('load', () => res()));
      void Promise.all([earlyCountries.catch(() => countriesUrl), loaded]).then(([data]) => {
        if (mapRef.current === map) (map.getSource('countries') as GeoJSONSource | undefined)?.setData(data as FeatureCollection | string);
      });
    }
    map.on('load', () => {
      // the attribution starts folded (its "i" button opens it), never over the legends
      map.getContainer().querySelector('.maplibregl-ctrl-attrib')?.classList.remove('maplibregl-compact-show');
      const draw = new TerraDraw({
        adapter: new TerraDrawMapLibreGLAdapter({ map }),
        // A finger is less precise than a mouse: on touch screens a tap within 40 px of the first
        // vertex closes the polygon (terra-draw's default; 20 px with a mouse), and the placed
        // vertices are shown as points so the first one can be seen to be tapped.
        modes: [new TerraDrawPointMode(), new TerraDrawPolygonMode({ pointerDistance: COARSE() ? 40 : 20, showCoordinatePoints: COARSE() })],
      });
      draw.start();
      draw.on('finish', (id) => {
        lastDraw.current = Date.now();
        const f = draw.getSnapshotFeature(id);
        if (f) cb.current.onDrawn({ type: 'Feature', properties: {}, geometry: f.geometry as any });
        draw.clear();
      });
      drawRef.current = draw;
      if (!p.secondary) (window as any).__indapiDraw = draw; // for end-to-end tests: the vertices placed so far
      // Admin outlines the manifest lists (none that the bundle lacks: no failed request); no manifest list: admin-1 as before.
      // After the first map (first-map.ts): the outlines (1.2 MB, 185 KB brotli) are not needed to draw it.
      // data-map-overlays="1" once they are asked for (or could not be): e2e/app-helpers.ts settle() waits for it
      void afterFirstMap().then(() => bundleFiles(p.dataBase)).then((files) => {
        if (mapRef.current !== map) return;
        for (const [src, path] of [['admin1', 'basemap/admin1.geojson'], ['admin2', 'basemap/admin2.geojson'], ['lakes', 'basemap/lakes.geojson'], ['rivers', 'basemap/rivers.geojson']]) {
          if (files ? files.has(path) : src === 'admin1') (map.getSource(src) as GeoJSONSource).setData(abs(path));
        }
      }).finally(() => { if (!p.secondary) document.body.dataset.mapOverlays = '1'; });
      setReady(true);
    });
    let raf = 0;
    map.on('mousemove', (e) => {
      cancelAnimationFrame(raf);
      raf = requestAnimationFrame(() => cb.current.onHover([e.lngLat.lng, e.lngLat.lat]));
    });
    map.on('mouseout', () => cb.current.onHover(null));
    map.on('moveend', () => { const c = map.getCenter(); cb.current.onView?.([c.lng, c.lat, map.getZoom()]); });
    // Keyboard: arrows pan (MapLibre), Enter reads and picks the cell at the map centre.
    map.getCanvas().addEventListener('keydown', (e) => {
      if (e.key !== 'Enter') return;
      const c = map.getCenter();
      cb.current.onHover([c.lng, c.lat]);
      cb.current.onClick([c.lng, c.lat]);
    });
    map.on('click', (e) => { if (cb.current.drawMode === 'off' && Date.now() - lastDraw.current > 400) cb.current.onClick([e.lngLat.lng, e.lngLat.lat]); });
    return () => { drawRef.current?.stop(); map.remove(); mapRef.current = null; setReady(false); };
  }, [p.dataBase]);

  // Raster layer: replaced when the style key changes.
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !ready) return;
    if (map.getLayer('raster')) map.removeLayer('raster');
    if (map.getSource('raster')) map.removeSource('raster');
    if (!p.rasterKey) return;
    map.addSource('raster', { type: 'raster', tiles: [`indapi://${encodeURIComponent(p.rasterKey)}/{z}/{x}/{y}`], tileSize: 256, bounds: cb.current.gridBounds ?? SSA_BOUNDS, minzoom: 0, maxzoom: 16 });
    map.addLayer({ id: 'raster', type: 'raster', source: 'raster', paint: { 'raster-opacity': cb.current.opacity, 'raster-resampling': 'nearest', 'raster-fade-duration': 0 } }, 'choropleth');
    const onIdle = () => { if (map.getSource('raster') && map.isSourceLoaded('raster')) { cb.current.onRendered?.(); map.off('idle', onIdle); } };
    map.on('idle', onIdle);
    const stopRefine = refineOnIdle(map, p.rasterKey, () => cb.current.refineTiles, !p.secondary);
    return () => { map.off('idle', onIdle); stopRefine(); };
  }, [p.rasterKey, ready, p.gridBounds?.join(',')]);

  // A bundle window other than the first view's (read after the map was made): show it, unless a view or a fit was given.
  const firstBounds = useRef(p.gridBounds ?? SSA_BOUNDS);
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !ready || !p.gridBounds || p.gridBounds.join(',') === firstBounds.current.join(',')) return;
    firstBounds.current = p.gridBounds;
    if (!cb.current.view && !cb.current.fit) map.fitBounds(p.gridBounds, { padding: 10, duration: 0 });
  }, [p.gridBounds?.join(','), ready]);

  // Online basemap: a raster source under everything but the ocean, instead of the bundled land fill.
  const bm = p.basemap ?? null;
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

  useEffect(() => {
    const map = mapRef.current;
    if (map && ready && map.getLayer('raster')) map.setPaintProperty('raster', 'raster-opacity', p.opacity);
  }, [p.opacity, ready]);

  useEffect(() => {
    const map = mapRef.current;
    if (!map || !ready) return;
    const src = p.choroplethLevel === 2 ? 'admin2' : p.choroplethLevel === 0 ? 'countries' : 'admin1';
    if (map.getLayer('choropleth')?.source !== src) { // the fill moves onto the outlines of the level
      map.removeLayer('choropleth');
      map.addLayer({ id: 'choropleth', type: 'fill', source: src, paint: { 'fill-color': '#888888', 'fill-opacity': 0 } }, 'lakes-fill');
    }
    if (!p.choropleth || p.choropleth.length === 0) {
      map.setPaintProperty('choropleth', 'fill-opacity', 0);
      return;
    }
    const expr: any[] = ['match', ['get', p.choroplethLevel === 0 ? 'iso3' : 'value']];
    const seen = new Set<number | string>();
    for (const [v, c] of p.choropleth) if (!seen.has(v)) { seen.add(v); expr.push(v, c); }
    expr.push('rgba(0,0,0,0)');
    map.setPaintProperty('choropleth', 'fill-color', expr as any);
    map.setPaintProperty('choropleth', 'fill-opacity', 1); // opaque: the colours are the legend's, not mixed with the raster
  }, [p.choropleth, p.choroplethLevel, ready]);

  useEffect(() => {
    const map = mapRef.current;
    if (!map || !ready) return;
    (map.getSource('areas') as GeoJSONSource).setData(p.areas ?? EMPTY);
    // Number the shapes as the `feature` column does: HTML markers (the map has no glyphs).
    const markers: maplibregl.Marker[] = [];
    for (const f of p.areas?.features ?? []) {
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
  }, [p.areas, ready]);

  useEffect(() => {
    const map = mapRef.current;
    if (!map || !ready || !p.labels?.length) return;
    const markers = p.labels.map((l) => {
      const el = document.createElement('div');
      el.className = 'area-label source-label';
      el.textContent = l.text;
      if (l.color) el.style.background = l.color;
      return new maplibregl.Marker({ element: el, anchor: 'bottom-left', offset: [4, -4] }).setLngLat([l.lon, l.lat]).addTo(map);
    });
    return () => { for (const m of markers) m.remove(); };
  }, [p.labels, ready]);

  useEffect(() => {
    const map = mapRef.current;
    if (map && ready) (map.getSource('marker') as GeoJSONSource).setData(p.marker ? { type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: p.marker } } : EMPTY);
  }, [p.marker, ready]);

  useEffect(() => {
    const map = mapRef.current;
    if (!map || !ready || !p.fit) return;
    const box = map.getContainer().getBoundingClientRect();
    const overlays = [...(map.getContainer().parentElement?.querySelectorAll<HTMLElement>('.overlay') ?? [])].flatMap((o) => (o.classList.contains('bl') ? [...o.children] : [o]).map((c) => {
      const r = c.getBoundingClientRect();
      // the hover read-out grows to ~5 lines when the pointer is on the map
      return c.classList.contains('tl-info') ? new DOMRect(r.x, r.y, r.width, Math.max(r.height, 110)) : r;
    }));
    map.fitBounds(p.fit, { padding: overlayPadding(box, overlays), duration: 600, maxZoom: 8 });
  }, [p.fit, ready]);

  // A view from outside (a link, Back/Forward): go there unless the map is already there.
  useEffect(() => {
    const map = mapRef.current;
    const v = p.view;
    if (!map || !v) return;
    const c = map.getCenter();
    if (Math.abs(c.lng - v[0]) > 1e-3 || Math.abs(c.lat - v[1]) > 1e-3 || Math.abs(map.getZoom() - v[2]) > 1e-2) map.jumpTo({ center: [v[0], v[1]], zoom: v[2] });
  }, [p.view?.join(',')]);

  useEffect(() => {
    const d = drawRef.current;
    if (!d || !ready) return;
    d.setMode(p.drawMode === 'off' ? 'static' : p.drawMode);
    if (mapRef.current) mapRef.current.getCanvas().style.cursor = p.drawMode === 'off' ? '' : 'crosshair';
  }, [p.drawMode, ready]);

  return <div ref={el} className="map" role="region" aria-label={p.label ?? 'Map of the selected indicator. Focus it to pan with the arrow keys, zoom with + and -, and press Enter to read the cell at the centre.'} data-ready={ready ? '1' : '0'} />;
}
