/**
 * The map: MapLibre GL with an offline basemap from the bundle's GeoJSON (ocean
 * background, countries fill and borders, ADM1 lines, GSHHG lakes and major rivers drawn over
 * the indicator layer; no remote tiles or glyphs: ./map-style.ts) or an optional online raster
 * basemap, the selected indicator as raster tiles drawn by a worker through the `indapi://`
 * protocol (exact per-pixel reprojection of the 1/12-degree grid to Web Mercator), an ADM1
 * choropleth, drawn/pasted areas, a marker, and terra-draw for drawing points and polygons.
 * This module makes the map and wires its input; ./map-layers.ts keeps each layer in step
 * with the props.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import * as maplibregl from 'maplibre-gl';
import type { GeoJSONSource, Map as MlMap } from 'maplibre-gl';
import maplibreWorkerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import 'maplibre-gl/dist/maplibre-gl.css';
import { TerraDraw, TerraDrawPointMode, TerraDrawPolygonMode } from 'terra-draw';
import { TerraDrawMapLibreGLAdapter } from 'terra-draw-maplibre-gl-adapter';
import type { FeatureCollection } from 'geojson';
import { bundleFiles } from './bundle-files';
import { afterFirstMap } from './first-map';
import { prefetchedJson } from './prefetch';
import type { MapViewProps, TileLoader } from './map-types';
import { baseStyle, EMPTY, SSA_BOUNDS } from './map-style';
import { useAreas, useChoropleth, useDrawMode, useFit, useGridWindow, useLabels, useMarker, useOnlineBasemap, useOutsideView, useRasterLayer } from './map-layers';

export type { BasemapTiles, DrawMode, MapLabel, MapViewProps, TileLoader } from './map-types';
export { labelPoint, overlayPadding } from './map-layers';

maplibregl.setWorkerUrl(maplibreWorkerUrl);

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

/** True on touch-first devices (CSS `pointer: coarse`). */
const COARSE = () => typeof window.matchMedia === 'function' && window.matchMedia('(pointer: coarse)').matches;

type PropsRef = RefObject<MapViewProps>;

/**
 * terra-draw on a loaded map: a finished shape goes to `onDrawn` (and the time to `lastDraw`, so
 * the click that closes a polygon is no map click), then the drawing is cleared.
 */
function startDrawing(map: MlMap, cb: PropsRef, lastDraw: RefObject<number>): TerraDraw {
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
  return draw;
}

/**
 * Admin outlines the manifest lists (none that the bundle lacks: no failed request); no manifest
 * list: admin-1 as before. After the first map (first-map.ts): the outlines (1.2 MB, 185 KB
 * brotli) are not needed to draw it. data-map-overlays="1" once they are asked for (or could
 * not be): e2e/app-helpers.ts settle() waits for it.
 */
function loadOverlays(map: MlMap, current: () => MlMap | null, dataBase: string, secondary: boolean): void {
  const abs = (f: string) => new URL(f, dataBase).href;
  void afterFirstMap().then(() => bundleFiles(dataBase)).then((files) => {
    if (current() !== map) return;
    for (const [src, path] of [['admin1', 'basemap/admin1.geojson'], ['admin2', 'basemap/admin2.geojson'], ['lakes', 'basemap/lakes.geojson'], ['rivers', 'basemap/rivers.geojson']]) {
      if (files ? files.has(path) : src === 'admin1') (map.getSource(src) as GeoJSONSource).setData(abs(path));
    }
  }).finally(() => { if (!secondary) document.body.dataset.mapOverlays = '1'; });
}

/** Pointer and keyboard input: hover, leaving, moves, Enter at the centre, clicks (not while drawing). */
function wireInput(map: MlMap, cb: PropsRef, lastDraw: RefObject<number>): void {
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
}

/** A new map in `container` with the base style, its controls, and the countries from the app's early fetch when there is one. */
function createMap(container: HTMLElement, p: MapViewProps, current: () => MlMap | null): MlMap {
  const countriesUrl = new URL('basemap/countries.geojson', p.dataBase).href;
  const earlyCountries = prefetchedJson(countriesUrl); // fetched by the app's start (./prefetch.ts)
  const v0 = p.view;
  const map = new maplibregl.Map({
    container,
    ...(v0 ? { center: [v0[0], v0[1]] as [number, number], zoom: v0[2] } : { bounds: p.gridBounds ?? SSA_BOUNDS, fitBoundsOptions: { padding: 10 } }),
    maxZoom: 13,
    minZoom: 1,
    attributionControl: { compact: true, customAttribution: 'Basemap: Natural Earth 1:10m (public domain); lakes and rivers: GSHHG 2.3.7 (LGPL); from the bundle' },
    dragRotate: false,
    style: baseStyle(earlyCountries ? EMPTY : countriesUrl),
  });
  map.addControl(new maplibregl.NavigationControl({ showCompass: false }), 'top-left');
  map.addControl(new maplibregl.ScaleControl({ unit: 'metric' }), 'bottom-right');
  if (earlyCountries) {
    // the early fetch's GeoJSON once the style has its sources; if it failed, the map's own request
    const loaded = new Promise<void>((res) => map.once('load', () => res()));
    void Promise.all([earlyCountries.catch(() => countriesUrl), loaded]).then(([data]) => {
      if (current() === map) (map.getSource('countries') as GeoJSONSource | undefined)?.setData(data as FeatureCollection | string);
    });
  }
  return map;
}

/** The map of a MapView: made once per bundle root (`dataBase`), `ready` once loaded (with terra-draw and the overlays asked for). */
function useMapInstance(p: MapViewProps, cb: PropsRef) {
  const el = useRef<HTMLDivElement>(null);
  const mapRef = useRef<MlMap | null>(null);
  const drawRef = useRef<TerraDraw | null>(null);
  const [ready, setReady] = useState(false);
  const lastDraw = useRef(0);
  useEffect(() => {
    ensureProtocol();
    const current = () => mapRef.current;
    const map = createMap(el.current!, p, current);
    mapRef.current = map;
    (window as any)[p.secondary ? '__indapiMap2' : '__indapiMap'] = map; // for end-to-end tests
    cb.current.onMap?.(map);
    map.on('load', () => {
      // the attribution starts folded (its "i" button opens it), never over the legends
      map.getContainer().querySelector('.maplibregl-ctrl-attrib')?.classList.remove('maplibregl-compact-show');
      const draw = startDrawing(map, cb, lastDraw);
      drawRef.current = draw;
      if (!p.secondary) (window as any).__indapiDraw = draw; // for end-to-end tests: the vertices placed so far
      loadOverlays(map, current, p.dataBase, !!p.secondary);
      setReady(true);
    });
    wireInput(map, cb, lastDraw);
    return () => { drawRef.current?.stop(); map.remove(); mapRef.current = null; setReady(false); };
  }, [p.dataBase]);
  return { el, mapRef, drawRef, ready };
}

/** The map component. */
export function MapView(p: MapViewProps) {
  const cb = useRef(p);
  cb.current = p;
  tileLoader = p.loadTile;
  const { el, mapRef, drawRef, ready } = useMapInstance(p, cb);
  useRasterLayer(mapRef, ready, cb, p);
  useGridWindow(mapRef, ready, cb, p.gridBounds);
  useOnlineBasemap(mapRef, ready, cb, p.basemap);
  useChoropleth(mapRef, ready, p);
  useAreas(mapRef, ready, p.areas);
  useLabels(mapRef, ready, p.labels);
  useMarker(mapRef, ready, p.marker);
  useFit(mapRef, ready, p.fit);
  useOutsideView(mapRef, p.view);
  useDrawMode(mapRef, drawRef, ready, p.drawMode);
  return <div ref={el} className="map" role="region" aria-label={p.label ?? 'Map of the selected indicator. Focus it to pan with the arrow keys, zoom with + and -, and press Enter to read the cell at the centre.'} data-ready={ready ? '1' : '0'} />;
}
