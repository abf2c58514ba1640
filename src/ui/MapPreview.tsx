/**
 * The first view as an image, shown until the live map (MapLibre) draws (issue 26 target 4):
 * on a first visit MapLibre and its worker are 360 KB (brotli), 1.8 s of a 1.6 Mbps link,
 * while the indicator's first tiles are drawn by the raster worker from about 60 KB of COG
 * ranges. This draws those same tiles (the live map's own tile loader: same data, same
 * colours, same cells) where MapLibre will draw them (the camera and tile cover of
 * src/core/map/first-view.ts on the same container), over the basemap's ocean and country
 * fill and under its country borders (from the early fetch of the outlines when it has
 * arrived; drawn again when it does), with a "Loading the interactive map" note. It is removed
 * once the live map has drawn the raster. The image cannot be moved: a drag, a tap or a wheel on
 * it is answered at once (a busy cursor, and the note says the map moves as soon as it has
 * loaded) rather than ignored.
 */
import { useEffect, useRef, useState } from 'react';
import type { FeatureCollection, Position } from 'geojson';
import { fitCamera, screenPoint, viewTiles, type MapCamera, type PlacedTile } from '../core/map/first-view';
import type { TileLoader } from './map-types';
import { baseStyle, EMPTY } from './map-style';
import { prefetchedJson } from './prefetch';

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
}

/** The basemap colours of the live map's style (src/ui/map-style.ts), so the image matches it. */
function styleColors(): { ocean: string; land: string; border: string; borderPx: number } {
  const paint = (id: string) => (baseStyle(EMPTY).layers.find((l) => l.id === id) as { paint: Record<string, unknown> }).paint;
  return { ocean: String(paint('ocean')['background-color']), land: String(paint('countries-fill')['fill-color']), border: String(paint('countries-line')['line-color']), borderPx: Number(paint('countries-line')['line-width']) };
}

/** The live map's first camera in a `w` x `h` container (MapView's createMap: the link's view, else the bounds fitted with 10 px padding; zoom 1..13). */
export function firstCamera(view: [number, number, number] | null, bounds: [number, number, number, number], w: number, h: number): MapCamera | null {
  if (view) return { lng: view[0], lat: view[1], zoom: Math.max(1, Math.min(13, view[2])) };
  return fitCamera(bounds, w, h, 10, 1, 13);
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
  // the user tried to move the map before it could move (pointer down or wheel on the image)
  const [asked, setAsked] = useState(false);
  const ask = () => setAsked(true);
  useEffect(() => {
    const canvas = ref.current;
    const key = p.rasterKey;
    if (!canvas || !key) return;
    const w = canvas.clientWidth, h = canvas.clientHeight;
    const cam = firstCamera(p.view, p.bounds, w, h);
    if (!cam || w === 0 || h === 0) return;
    canvas.dataset.camera = `${cam.lng},${cam.lat},${cam.zoom}`; // for end-to-end tests: where the live map must start
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
    <div className={asked ? 'map-preview asked' : 'map-preview'} data-testid="map-preview" data-drawn={drawn ? '1' : '0'} onPointerDown={ask} onWheel={ask}>
      <canvas ref={ref} role="img" aria-label="Preview of the map (the interactive map is loading)" />
      {(drawn || asked) && <p className="overlay map-preview-note small" role="status">{asked ? 'Loading the interactive map: it moves as soon as it has loaded…' : 'Loading the interactive map…'}</p>}
    </div>
  );
}
