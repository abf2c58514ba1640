/**
 * The map of an export drawn on a 2D canvas, without WebGL (issue 26: reading an A4 300-dpi
 * frame back from software WebGL took 5-25 s). The map's own style is followed layer by layer in
 * its order: the background, fills (the land, the choropleth, lakes), lines (rivers) and circles
 * (the marker) from the map's GeoJSON sources, their paint and filters evaluated at the export's
 * zoom by MapLibre's own style-spec evaluator (src/core/map/style-eval.ts), and the indicator or result raster (`indapi://` tiles) drawn
 * as one image by the raster worker (`renderView`, src/core/map/render-view.ts: the same cells and
 * colours as the map's tiles). Layers the export overlays as vectors (outlines, shapes: see
 * map-export.ts) are skipped. A view this cannot draw (rotated or pitched, an online basemap or
 * another layer it does not know) is left to the WebGL path ({@link canvasDrawable}).
 */
import type { GeoJSONSource, LayerSpecification, Map as MlMap } from 'maplibre-gl';
import type { Geometry, Position } from 'geojson';
import { mercX, mercY, projectView, viewBounds, type MercatorView } from '../core/map/render-view';
import { passes, styleValue, type ExprContext } from '../core/map/style-eval';

/** A view of the export in CSS px: what the composition needs of a map (MapLibre's map or a {@link MercatorView}). */
export interface ExportView {
  /** Size in CSS px. */
  width: number;
  height: number;
  /** MapLibre zoom, latitude of the centre (degrees) and bearing (degrees) for the scale bar and north arrow. */
  zoom: number;
  lat: number;
  bearing: number;
  /** [west, south, east, north] degrees. */
  bounds: [number, number, number, number];
  /** CSS px of [lon, lat] from the view's top-left corner. */
  project(lon: number, lat: number): [number, number];
}

/** The export view of a MapLibre map as it is. */
export function liveView(map: MlMap): ExportView {
  const cont = map.getContainer().getBoundingClientRect();
  const b = map.getBounds();
  return {
    width: cont.width, height: cont.height, zoom: map.getZoom(), lat: map.getCenter().lat, bearing: map.getBearing(),
    bounds: [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()],
    project: (lon, lat) => { const p = map.project([lon, lat]); return [p.x, p.y]; },
  };
}

/** The export view of a north-up {@link MercatorView}. */
export function mercatorView(v: MercatorView): ExportView {
  return { width: v.cssW, height: v.cssH, zoom: v.zoom, lat: v.centerLat, bearing: 0, bounds: viewBounds(v), project: (lon, lat) => projectView(v, lon, lat) };
}

/** The key of the raster worker's style behind an `indapi://<key>/{z}/{x}/{y}` tile source, else null. */
function rasterKey(map: MlMap, source: string): string | null {
  const tiles = (map.getStyle().sources[source] as { tiles?: string[] } | undefined)?.tiles;
  const m = /^indapi:\/\/([^/]+)\//.exec(tiles?.[0] ?? '');
  return m ? decodeURIComponent(m[1]) : null;
}

/** Layers of the style shown at `zoom` (visible, within their zoom range), terra-draw's drawing layers left out. */
function shownLayers(map: MlMap, zoom: number): LayerSpecification[] {
  return map.getStyle().layers.filter((l) => !l.id.startsWith('td-') && l.layout?.visibility !== 'none' && zoom >= (l.minzoom ?? 0) && zoom < (l.maxzoom ?? 24));
}

/**
 * True when {@link drawMapCanvas} can draw `map`'s view: north-up and flat, and every shown layer
 * a background, fill, line or circle over a GeoJSON source, or a raster of the raster worker.
 */
export function canvasDrawable(map: MlMap): boolean {
  if (map.getBearing() !== 0 || map.getPitch() !== 0) return false;
  const sources = map.getStyle().sources;
  return shownLayers(map, map.getZoom()).every((l) => {
    if (l.type === 'background') return true;
    if (l.type === 'raster') return rasterKey(map, l.source) !== null;
    return (l.type === 'fill' || l.type === 'line' || l.type === 'circle') && sources[l.source]?.type === 'geojson';
  });
}

/** Device px of [lon, lat]: Mercator scaled by `ws` (device px per world) and shifted by (ox, oy). */
interface Projector { ws: number; ox: number; oy: number }

/** Appends a geometry's polygon rings and lines to `rings` and its points to `points` (GeometryCollections recursively; null adds nothing). */
export function geometryParts(g: Geometry | null, rings: Position[][], points: Position[]): void {
  if (!g) return;
  switch (g.type) {
    case 'Polygon': rings.push(...g.coordinates); break;
    case 'MultiPolygon': for (const p of g.coordinates) rings.push(...p); break;
    case 'LineString': rings.push(g.coordinates); break;
    case 'MultiLineString': rings.push(...g.coordinates); break;
    case 'Point': points.push(g.coordinates); break;
    case 'MultiPoint': points.push(...g.coordinates); break;
    case 'GeometryCollection': for (const x of g.geometries) geometryParts(x, rings, points); break;
  }
}

/** "Point", "LineString" or "Polygon" of a geometry (Multi* as its single kind). */
function kindOf(g: Geometry): string {
  return g.type.replace('Multi', '');
}

/** The rings as one path in device px; rings whose box misses `box` ([w, s, e, n] degrees) are left out. */
function ringsPath(rings: Position[][], p: Projector, box: number[]): Path2D | null {
  const path = new Path2D();
  let any = false;
  for (const ring of rings) {
    let w = Infinity, s = Infinity, e = -Infinity, n = -Infinity;
    for (const [x, y] of ring) { if (x < w) w = x; if (x > e) e = x; if (y < s) s = y; if (y > n) n = y; }
    if (e < box[0] || w > box[2] || n < box[1] || s > box[3]) continue;
    ring.forEach(([x, y], i) => {
      const px = mercX(x) * p.ws + p.ox, py = mercY(y) * p.ws + p.oy;
      if (i === 0) path.moveTo(px, py); else path.lineTo(px, py);
    });
    any = true;
  }
  return any ? path : null;
}

/** Features of a GeoJSON object with their geometry. */
function features(d: unknown): Array<{ props: Record<string, unknown> | null; geometry: Geometry }> {
  const o = d as { type?: string; features?: unknown[]; geometry?: Geometry | null; properties?: Record<string, unknown> | null };
  if (!o || typeof o !== 'object') return [];
  if (o.type === 'FeatureCollection') return (o.features ?? []).flatMap(features);
  if (o.type === 'Feature') return o.geometry ? [{ props: o.properties ?? null, geometry: o.geometry }] : [];
  return [{ props: null, geometry: o as Geometry }];
}

/** What drawing one layer needs: the 2D context, the projection, the view's box with a margin, the zoom and device px per CSS px. */
interface DrawCtx { g: CanvasRenderingContext2D; p: Projector; box: number[]; zoom: number; k: number }

/** A paint or layout value of `l` for a feature (its default when unset). */
function value<T>(l: LayerSpecification, group: 'paint' | 'layout', prop: string, c: ExprContext, dflt: T): T {
  const v = (l[group] as Record<string, unknown> | undefined)?.[prop];
  return v === undefined ? dflt : (styleValue(l.type, group, prop, v, c) as T);
}

/** Draws a fill, line or circle layer's features of `data`. @throws UnsupportedExpression */
function drawVectorLayer(d: DrawCtx, l: LayerSpecification, data: unknown): void {
  const { g } = d;
  const filter = (l as { filter?: unknown }).filter;
  for (const f of features(data)) {
    const c: ExprContext = { zoom: d.zoom, props: f.props, geometryType: kindOf(f.geometry) };
    if (!passes(filter, c)) continue;
    const rings: Position[][] = [], points: Position[] = [];
    geometryParts(f.geometry, rings, points);
    g.globalAlpha = 1;
    if (l.type === 'fill') {
      if (c.geometryType !== 'Polygon') continue;
      const path = ringsPath(rings, d.p, d.box);
      if (!path) continue;
      g.globalAlpha = value(l, 'paint', 'fill-opacity', c, 1);
      g.fillStyle = value(l, 'paint', 'fill-color', c, '#000000');
      g.fill(path, 'evenodd');
      const outline = value<string | null>(l, 'paint', 'fill-outline-color', c, null);
      if (outline) { g.strokeStyle = outline; g.lineWidth = 1; g.stroke(path); }
    } else if (l.type === 'line') {
      const path = ringsPath(rings, d.p, d.box);
      if (!path) continue;
      g.globalAlpha = value(l, 'paint', 'line-opacity', c, 1);
      g.strokeStyle = value(l, 'paint', 'line-color', c, '#000000');
      g.lineWidth = value(l, 'paint', 'line-width', c, 1) * d.k;
      g.lineJoin = value(l, 'layout', 'line-join', c, 'miter');
      g.lineCap = value(l, 'layout', 'line-cap', c, 'butt');
      g.stroke(path);
    } else if (l.type === 'circle') {
      const r = value(l, 'paint', 'circle-radius', c, 5) * d.k, sw = value(l, 'paint', 'circle-stroke-width', c, 0) * d.k;
      g.fillStyle = value(l, 'paint', 'circle-color', c, '#000000');
      g.strokeStyle = value(l, 'paint', 'circle-stroke-color', c, '#000000');
      g.lineWidth = sw;
      for (const [x, y] of points) {
        g.beginPath();
        g.arc(mercX(x) * d.p.ws + d.p.ox, mercY(y) * d.p.ws + d.p.oy, r, 0, 2 * Math.PI);
        g.fill();
        if (sw > 0) g.stroke();
      }
    }
  }
  g.globalAlpha = 1;
}

/** The GeoJSON data of a source (MapLibre's copy), null when it has none. */
async function sourceData(map: MlMap, id: string): Promise<unknown> {
  const s = map.getSource(id) as GeoJSONSource | undefined;
  return s && typeof s.getData === 'function' ? s.getData() : null;
}

/**
 * Draws `map`'s style for view `v` on a canvas of pxW x pxH device px, layer by layer in the
 * style's order, leaving out the layers in `skip` (those the export draws as vectors). Check
 * {@link canvasDrawable} first.
 * @throws UnsupportedExpression when a paint value or filter needs the live map (feature state) or does not compile;
 *   the signal's reason when aborted
 */
export async function drawMapCanvas(map: MlMap, v: MercatorView, pxW: number, pxH: number, skip: Set<string>, signal?: AbortSignal): Promise<HTMLCanvasElement> {
  const canvas = document.createElement('canvas');
  canvas.width = pxW; canvas.height = pxH;
  // a canvas in memory (not on the GPU): its pixels are read once, for the encoding, with no read-back
  const g = canvas.getContext('2d', { willReadFrequently: true })!;
  const k = pxW / v.cssW;
  const ws = 512 * 2 ** v.zoom * k;
  const p: Projector = { ws, ox: pxW / 2 - mercX(v.centerLon) * ws, oy: pxH / 2 - mercY(v.centerLat) * ws };
  const [w, s, e, n] = viewBounds(v);
  const d: DrawCtx = { g, p, box: [w - (e - w) * 0.05, s - (n - s) * 0.05, e + (e - w) * 0.05, n + (n - s) * 0.05], zoom: v.zoom, k };
  const layers = shownLayers(map, v.zoom).filter((l) => !skip.has(l.id));
  const { getRaster } = await import('./services'); // the page's raster worker (a module with DOM globals: not loaded by the unit tests)
  // the raster's image is drawn in the worker while the vectors are read
  const rasters = new Map(layers.filter((l) => l.type === 'raster').map((l) => [l.id, getRaster().renderView(rasterKey(map, (l as { source: string }).source)!, v, pxW, pxH)]));
  for (const l of layers) {
    signal?.throwIfAborted();
    const c: ExprContext = { zoom: v.zoom, props: null, geometryType: 'Point' };
    if (l.type === 'background') {
      g.globalAlpha = value(l, 'paint', 'background-opacity', c, 1);
      g.fillStyle = value(l, 'paint', 'background-color', c, '#000000');
      g.fillRect(0, 0, pxW, pxH);
      g.globalAlpha = 1;
    } else if (l.type === 'raster') {
      const img = await rasters.get(l.id)!;
      if (!img) continue;
      g.globalAlpha = value(l, 'paint', 'raster-opacity', c, 1);
      g.imageSmoothingEnabled = false;
      g.drawImage(img, 0, 0);
      img.close();
      g.globalAlpha = 1;
    } else drawVectorLayer(d, l, await sourceData(map, (l as { source: string }).source));
  }
  return canvas;
}
