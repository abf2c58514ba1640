/**
 * The second map of a layer comparison, beside the main {@link MapView} (which it reuses: same
 * basemap, raster tiles from the worker, areas and picked place):
 * - `swipe`: the second map lies over the main one and is clipped (CSS `clip-path`) to the
 *   right of a divider; the divider is a focusable slider (`role="slider"`, arrow keys, Page
 *   Up/Down, Home/End) that can also be dragged. Pointer events left of it reach the main map.
 * - `split`: the two maps side by side (stacked top/bottom on a phone), centre and zoom kept in
 *   step both ways ({@link syncMaps}).
 * The second layer has its own legend (collapsed on a phone) naming it and its side, and place
 * labels as on the main map; the place
 * under the pointer on either map goes to the comparison read-out ({@link setCompareHover}).
 *
 * `@maplibre/maplibre-gl-compare` was not used: it has no keyboard or ARIA support (a mouse/touch
 * only `div`), requires Node's `events` module in the browser, and clips with the deprecated
 * CSS `clip` property; the swipe and the move sync are a few lines here.
 */
import { useEffect, useRef, useState } from 'react';
import { Progress } from './Progress';
import type { Map as MlMap } from 'maplibre-gl';
import type { Feature, FeatureCollection } from 'geojson';
import type { VarRecord } from '../core/types';
import { MapView, type TileLoader } from './MapView';
import { Legend } from './Legend';
import { loadPlaces, usePlaceLabels, type Place } from './PlaceSearch';
import type { Palette } from '../core/map/palette';
import { setCompareHover, type CompareMode } from './CompareBar';
import { SWIPE_MAX, SWIPE_MIN, swipeKey, syncMaps } from './compare-sync';

/** Props of {@link CompareMaps}. */
export interface CompareMapsProps {
  /** Bundle root URL ending in "/". */
  dataBase: string;
  /** The bundle's window [west, south, east, north], degrees (as the main map's). */
  gridBounds?: [number, number, number, number];
  /** Loads raster tiles (the same worker as the main map). */
  loadTile: TileLoader;
  /** Progressive drawing of the second map (see MapView's `refineTiles`). */
  refineTiles?: (key: string) => Promise<boolean>;
  /** The second indicator. */
  rec: VarRecord;
  /** Name of the main indicator (the slider's spoken value). */
  labelA: string;
  /** Side names: e.g. "Left"/"Right", "Top"/"Bottom" ({@link compareSide}). */
  sideA: string;
  sideB: string;
  /** Swipe or side by side. */
  mode: CompareMode;
  /** Divider position, fraction of the width from the left. */
  sw: number;
  /** The divider was moved (keyboard or end of a drag). */
  onSw: (f: number) => void;
  /** The main map (null until created). */
  map: MlMap | null;
  /** Styles the layer in the raster worker: its tile key and palette. */
  styleLayer: (rec: VarRecord) => Promise<{ key: string; palette: Palette }>;
  /** Raster opacity 0..1 (shared with the main map) and its setter. */
  opacity: number;
  onOpacity: (v: number) => void;
  /** Drawn or pasted areas and the picked place, as on the main map. */
  areas: FeatureCollection | null;
  marker: [number, number] | null;
  /** Pointer over / off the second map, and a click on it (as on the main map). */
  onHover: (ll: [number, number] | null) => void;
  onClick: (ll: [number, number]) => void;
  /** Phone layout: legend collapsed. */
  phone: boolean;
}

const noDraw = (_f: Feature) => undefined;

/** The second map, the divider and the second legend (children of the map area, beside the main map). */
export function CompareMaps(p: CompareMapsProps) {
  const [map2, setMap2] = useState<MlMap | null>(null);
  const [layer, setLayer] = useState<{ key: string; palette: Palette } | null>(null);
  const [err, setErr] = useState<string | null>(null);
  const [pos, setPos] = useState(p.sw);
  const drag = useRef(false);
  const cb = useRef(p);
  cb.current = p;
  const [view0] = useState<[number, number, number] | null>(() => {
    if (!p.map) return null;
    const c = p.map.getCenter();
    return [c.lng, c.lat, p.map.getZoom()];
  });
  useEffect(() => { if (!drag.current) setPos(p.sw); }, [p.sw]);
  // Place labels on the second map too (the main map's come with its place search).
  const [places, setPlaces] = useState<Place[] | null>(null);
  useEffect(() => { loadPlaces(p.dataBase).then(setPlaces).catch(() => undefined); }, [p.dataBase]);
  usePlaceLabels(map2, places, p.phone ? 12 : 30);

  // the style key the second map has drawn (MapView's onRendered): progress shows until the chosen layer is on it
  const [drawnKey, setDrawnKey] = useState<string | null>(null);
  const layerKey = useRef<string | null>(null);
  layerKey.current = layer?.key ?? null;
  useEffect(() => {
    let cancel = false;
    setErr(null);
    setLayer(null);
    setDrawnKey(null);
    p.styleLayer(p.rec).then((l) => { if (!cancel) setLayer(l); }).catch((e) => { if (!cancel) setErr(`Cannot draw ${p.rec.varCode}: ${(e as Error).message}`); });
    return () => { cancel = true; };
  }, [p.rec]);

  useEffect(() => (p.map && map2 ? syncMaps(p.map, map2) : undefined), [p.map, map2]);

  // The main map's pointer, taps and Enter key feed the comparison read-out too.
  useEffect(() => {
    const m = p.map;
    if (!m) return;
    let raf = 0;
    const move = (e: { lngLat: { lng: number; lat: number } }) => {
      cancelAnimationFrame(raf);
      raf = requestAnimationFrame(() => setCompareHover({ ll: [e.lngLat.lng, e.lngLat.lat], side: 'a' }));
    };
    const out = () => { cancelAnimationFrame(raf); setCompareHover(null); };
    const click = (e: { lngLat: { lng: number; lat: number } }) => setCompareHover({ ll: [e.lngLat.lng, e.lngLat.lat], side: 'a' }); // a tap on a phone
    const key = (e: KeyboardEvent) => { if (e.key === 'Enter') { const c = m.getCenter(); setCompareHover({ ll: [c.lng, c.lat], side: 'a' }); } };
    m.on('mousemove', move);
    m.on('mouseout', out);
    m.on('click', click);
    m.getCanvas().addEventListener('keydown', key);
    return () => { cancelAnimationFrame(raf); m.off('mousemove', move); m.off('mouseout', out); m.off('click', click); m.getCanvas().removeEventListener('keydown', key); setCompareHover(null); };
  }, [p.map]);

  const fracAt = (el: HTMLElement, clientX: number) => {
    const r = el.parentElement!.getBoundingClientRect();
    return Math.min(SWIPE_MAX, Math.max(SWIPE_MIN, Math.round(((clientX - r.left) / r.width) * 1000) / 1000));
  };
  const swipe = p.mode === 'swipe';
  const pct = Math.round(pos * 100);
  return (
    <>
      <div className={`cmp-second ${p.mode}`} style={swipe ? { clipPath: `inset(0 0 0 ${pos * 100}%)` } : undefined} data-testid="compare-second">
        <MapView secondary dataBase={p.dataBase} rasterKey={layer?.key ?? null} opacity={p.opacity} loadTile={p.loadTile} refineTiles={p.refineTiles} choropleth={null}
          gridBounds={p.gridBounds} areas={p.areas} marker={p.marker} fit={null} drawMode="off" onDrawn={noDraw} view={view0} onMap={setMap2} onRendered={() => setDrawnKey(layerKey.current)}
          label={`${p.sideB} map: ${p.rec.varLabel}. Moves with the ${p.sideA.toLowerCase()} map.`}
          onHover={(ll) => { setCompareHover(ll ? { ll, side: 'b' } : null); cb.current.onHover(ll); }}
          onClick={(ll) => { setCompareHover({ ll, side: 'b' }); cb.current.onClick(ll); }} />
      </div>
      {swipe && (
        <div className="cmp-divider" role="slider" tabIndex={0} aria-label="Swipe divider between the two layers" aria-orientation="horizontal"
          aria-valuemin={Math.round(SWIPE_MIN * 100)} aria-valuemax={Math.round(SWIPE_MAX * 100)} aria-valuenow={pct}
          aria-valuetext={`${pct}%: ${p.labelA} on the left, ${p.rec.varLabel} on the right`}
          style={{ left: `${pos * 100}%` }} data-testid="compare-divider"
          onKeyDown={(e) => { const n = swipeKey(pos, e.key); if (n === null) return; e.preventDefault(); setPos(n); p.onSw(n); }}
          onPointerDown={(e) => { e.preventDefault(); drag.current = true; e.currentTarget.setPointerCapture(e.pointerId); e.currentTarget.focus(); }}
          onPointerMove={(e) => { if (drag.current) setPos(fracAt(e.currentTarget, e.clientX)); }}
          onPointerUp={(e) => { if (!drag.current) return; drag.current = false; const n = fracAt(e.currentTarget, e.clientX); setPos(n); p.onSw(n); }}
          onPointerCancel={() => { drag.current = false; }}>
          <span className="cmp-grip" aria-hidden="true">◂▸</span>
        </div>
      )}
      <div className={`overlay cmp-legend ${p.mode}`} data-testid="compare-legend">
        {err && <p className="msg error" role="alert">{err}</p>}
        {!err && (!layer || drawnKey !== layer.key) && <div data-testid="compare-progress"><Progress label={`Drawing ${p.rec.varLabel}`} /></div>}
        <Legend key={p.phone ? 'phone' : 'wide'} collapsed={p.phone} title={`${p.sideB}: ${p.rec.varLabel}`} unit={p.rec.unit} palette={layer?.palette ?? null} opacity={p.opacity} onOpacity={p.onOpacity} />
      </div>
    </>
  );
}
