/**
 * The first view as an image, shown until the live map (MapLibre) draws (issue 26 target 4):
 * on a first visit MapLibre and its worker are 360 KB (brotli), 1.8 s of a 1.6 Mbps link,
 * while the indicator's first tiles are drawn by the raster worker from about 60 KB of COG
 * ranges. This draws those same tiles (the live map's own tile loader: same data, same
 * colours, same cells) where MapLibre will draw them (the camera and tile cover of
 * src/core/map/first-view.ts on the same container), over the basemap's ocean and country
 * fill and under its country borders (from the early fetch of the outlines when it has
 * arrived; drawn again when it does), with a "Loading the interactive map" note. It is removed
 * once the live map has drawn the raster. The image follows the hand from its first frame
 * (./preview-gestures.ts: drag, wheel, pinch, arrows and + / -): a CSS transform moves the
 * drawn layers together over the ocean colour, and the camera the hand leaves
 * (`movedCamera`, src/core/map/first-view.ts) is handed to `onMove`, so the live map starts there.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { FeatureCollection, Position } from 'geojson';
import { fitCamera, movedCamera, NO_MOVE, screenPoint, viewTiles, type MapCamera, type PlacedTile, type ScreenMove } from '../core/map/first-view';
import type { TileLoader } from './map-types';
import { baseStyle, EMPTY } from './map-style';
import { prefetchedJson } from './prefetch';
import { followHand } from './preview-gestures';

/** Props of {@link MapPreview}. */
export interface MapPreviewProps {
  /** Style key of the raster the live map will draw (`cog:<code>`); null: nothing yet. */
  rasterKey: string | null;
  /** The live map's tile loader (the raster worker). */
  loadTile: TileLoader;
  /** The link's view [lng, lat, zoom] the live map starts at, or null: `bounds` fitted (padding 10). */
  view: [number, number, number] | null;
  /** The bundle's window [w, s, e, n] degrees: the fitted first view and the raster source's bounds. */
  bounds: [number, number, number, number];
  /** The raster's opacity (0..1), as the live layer's. */
  opacity: number;
  /** The bundle's root URL (the country outlines' early fetch is looked up under it). */
  dataBase: string;
  /** Called once the image is on screen (the first time). */
  onDrawn: () => void;
  /**
   * Called when the first tile is back: the layer's level has been read, what is left is
   * drawing (CPU); the live map's code may start downloading then.
   */
  onFirstTile?: () => void;
  /**
   * Called with the camera the preview has been moved to by hand (MapLibre's centre in
   * degrees and zoom), when a gesture ends and, if one is under way, when the preview goes.
   */
  onMove?: (cam: MapCamera) => void;
}

/** The basemap colours of the live map's style (src/ui/map-style.ts), so the image matches it. */
function styleColors(): { ocean: string; land: string; border: string; borderPx: number } {
  const paint = (id: string) => (baseStyle(EMPTY).layers.find((l) => l.id === id) as { paint: Record<string, unknown> }).paint;
  return { ocean: String(paint('ocean')['background-color']), land: String(paint('countries-fill')['fill-color']), border: String(paint('countries-line')['line-color']), borderPx: Number(paint('countries-line')['line-width']) };
}

/** The live map's zoom range (MapView's createMap). */
const MIN_ZOOM = 1, MAX_ZOOM = 13;

/** The live map's first camera in a `w` x `h` container (MapView's createMap: the link's view, else the bounds fitted with 10 px padding; zoom 1..13). */
export function firstCamera(view: [number, number, number] | null, bounds: [number, number, number, number], w: number, h: number): MapCamera | null {
  if (view) return { lng: view[0], lat: view[1], zoom: Math.max(MIN_ZOOM, Math.min(MAX_ZOOM, view[2])) };
  return fitCamera(bounds, w, h, 10, MIN_ZOOM, MAX_ZOOM);
}

/**
 * Moves the preview's layers (`layers`) by hand on `box` from the first frame; the camera
 * `cam()` is moved to is handed to `onMove` when a gesture ends or the preview goes mid-gesture.
 * @returns whether the preview has been moved
 */
function useHand(box: RefObject<HTMLDivElement | null>, layers: RefObject<HTMLDivElement | null>, cam: RefObject<MapCamera | null>, onMove: RefObject<MapPreviewProps['onMove']>): boolean {
  const [moved, setMoved] = useState(false);
  useEffect(() => {
    const el = box.current, inner = layers.current;
    if (!el || !inner) return;
    let m: ScreenMove = NO_MOVE, pending = false;
    const end = () => {
      if (!pending || !cam.current) return;
      pending = false;
      onMove.current?.(movedCamera(cam.current, el.clientWidth, el.clientHeight, m));
    };
    const off = followHand(el, {
      zoom0: () => cam.current?.zoom ?? null,
      step: (f) => {
        m = f(m);
        pending = true;
        inner.style.transform = `translate(${m.txPx}px, ${m.tyPx}px) scale(${m.scale})`;
        inner.dataset.move = `${m.scale},${m.txPx},${m.tyPx}`; // for end-to-end tests: the move the live map must start from
        setMoved(true);
      },
      end,
      minZoom: MIN_ZOOM,
      maxZoom: MAX_ZOOM,
    });
    return () => { off(); end(); };
  }, []);
  return moved;
}

/** Adds the rings of the countries' polygons to the canvas path, projected for `camera`. */
function countriesPath(g: CanvasRenderingContext2D, fc: FeatureCollection, cam: MapCamera, w: number, h: number): void {
  const ring = (r: Position[]) => r.forEach(([lng, lat], i) => { const [x, y] = screenPoint(cam, w, h, lng, lat); if (i) g.lineTo(x, y); else g.moveTo(x, y); });
  g.beginPath();
  for (const f of fc.features) {
    const geom = f.geometry;
    if (geom?.type === 'Polygon') geom.coordinates.forEach(ring);
    else if (geom?.type === 'MultiPolygon') geom.coordinates.forEach((p) => p.forEach(ring));
  }
}

/** Paints the image: ocean, land, the raster tiles (nearest cell, at `opacity`), the borders. */
function paint(canvas: HTMLCanvasElement, cam: MapCamera, tiles: Array<[PlacedTile, ImageBitmap | null]>, countries: FeatureCollection | null, opacity: number): void {
  const w = canvas.clientWidth, h = canvas.clientHeight, dpr = window.devicePixelRatio || 1;
  canvas.width = Math.round(w * dpr);
  canvas.height = Math.round(h * dpr);
  const g = canvas.getContext('2d')!;
  const c = styleColors();
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.fillStyle = c.ocean;
  g.fillRect(0, 0, w, h);
  if (countries) { countriesPath(g, countries, cam, w, h); g.fillStyle = c.land; g.fill('evenodd'); }
  g.imageSmoothingEnabled = false; // the live layer's raster-resampling: nearest
  g.globalAlpha = opacity;
  for (const [t, bmp] of tiles) if (bmp) g.drawImage(bmp, t.leftPx, t.topPx, t.sizePx, t.sizePx);
  g.globalAlpha = 1;
  if (countries) { countriesPath(g, countries, cam, w, h); g.strokeStyle = c.border; g.lineWidth = c.borderPx; g.stroke(); }
}

/**
 * The preview image over the map's box (same size and place as the live map's container).
 * Draws once per raster key and container size; closes its tile bitmaps when it goes.
 */
export function MapPreview(p: MapPreviewProps) {
  const ref = useRef<HTMLCanvasElement>(null);
  const cb = useRef(p);
  cb.current = p;
  const [drawn, setDrawn] = useState(false);
  const box = useRef<HTMLDivElement>(null), layers = useRef<HTMLDivElement>(null);
  const camRef = useRef<MapCamera | null>(null);
  const onMove = useRef(p.onMove);
  onMove.current = p.onMove;
  const moved = useHand(box, layers, camRef, onMove);
  useEffect(() => {
    const canvas = ref.current;
    const key = p.rasterKey;
    if (!canvas || !key) return;
    const w = canvas.clientWidth, h = canvas.clientHeight;
    const cam = firstCamera(p.view, p.bounds, w, h);
    if (!cam || w === 0 || h === 0) return;
    camRef.current = cam;
    canvas.dataset.camera = `${cam.lng},${cam.lat},${cam.zoom}`; // for end-to-end tests: where the live map starts unless moved by hand
    let gone = false;
    let tiles: Array<[PlacedTile, ImageBitmap | null]> = [];
    let countries: FeatureCollection | null = null;
    const draw = () => { if (!gone) paint(canvas, cam, tiles, countries, cb.current.opacity); };
    const early = prefetchedJson(new URL('basemap/countries.geojson', p.dataBase).href);
    void early?.then((fc) => { countries = fc as FeatureCollection; if (tiles.length) draw(); }, () => undefined);
    const placed = viewTiles(cam, w, h, p.bounds);
    const loads = placed.map((t) => p.loadTile(key, t.z, t.x, t.y).catch(() => null));
    void Promise.race(loads).then(() => { if (!gone) cb.current.onFirstTile?.(); });
    void Promise.all(loads).then((bmps) => {
      tiles = placed.map((t, i) => [t, bmps[i]]);
      if (gone) return close();
      draw();
      setDrawn(true);
      cb.current.onDrawn();
    });
    function close() { for (const [, b] of tiles) b?.close(); }
    return () => { gone = true; close(); };
  }, [p.rasterKey, p.view?.join(','), p.bounds.join(',')]);
  return (
    <div ref={box} className="map-preview" data-testid="map-preview" data-drawn={drawn ? '1' : '0'} role="region" tabIndex={0} style={{ background: styleColors().ocean }}
      aria-label="Preview of the map: drag, pinch or wheel to move it, or the arrow keys and + and - (the interactive map is loading)">
      <div ref={layers} className="map-preview-layers">
        <canvas ref={ref} role="img" aria-label="Preview of the map (the interactive map is loading)" />
      </div>
      {drawn && <p className="overlay map-preview-note small" role="status">{moved ? 'Loading the interactive map (and what the move uncovered)…' : 'Loading the interactive map…'}</p>}
    </div>
  );
}
