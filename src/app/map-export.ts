/**
 * Export of the current map view as PNG, SVG or PDF, all three from one SVG composition
 * (map-export-svg.ts): the WebGL canvas captured in a `render` event (where the drawing
 * buffer is still valid, so no `preserveDrawingBuffer` is needed) and embedded as a PNG
 * `<image>`; the country and first-level outlines and the drawn/uploaded shapes as vector
 * paths read from the map's GeoJSON sources (their line layers are hidden for the captured
 * frame so they are not drawn twice); the HTML markers (place labels, shape numbers), title,
 * legend, scale bar, north arrow and attribution as vector shapes and text.
 * PNG: the map's pixels with the SVG's overlay drawn over them, encoded once. SVG: the map's
 * pixels as an embedded PNG. PDF: the map's pixels as a JPEG on a jsPDF page (A4, oriented as
 * the view) under the overlay converted with svg2pdf.js (both loaded on first use). Each
 * export reports its steps and stops on a cancel (map-export-steps.ts). Loaded itself on first
 * use (dynamic import from App.tsx).
 */
import type { GeoJSONSource, Map as MlMap } from 'maplibre-gl';
import type { Geometry, Position } from 'geojson';
import type { VarRecord } from '../core/types';
import type { LegendEntry, Palette } from '../core/map/palette';
import { prettyUnit } from './panels/common';
import { composeMapSvg, circlePath, exportLegend, exportTarget, toWinAnsi, type ExportSize, type ExportTarget, type MapComposition, type MapExportFormat, type MapLabel, type MapLegend, type MapPath, type Measure } from './map-export-svg';
import { svgImage } from './svg-to-png';
import { abortable, buildThenSave, stepper, type OnExportProgress } from './map-export-steps';
import { canvasDrawable, drawMapCanvas, geometryParts, liveView, mercatorView, type ExportView } from './map-export-canvas';
import { fitView } from '../core/map/render-view';
import { UnsupportedExpression } from '../core/map/style-eval';

export { scaleBar } from './map-export-svg';

/** What goes on the export besides the map. */
export interface MapExportInfo {
  /** Title, e.g. "Elevation (ETOPO5)". */
  title: string;
  /** Second title line, e.g. "1988 · unit: m" (optional). */
  subtitle?: string;
  /** Legends, left to right (the choropleth's, then the layer's under it); empty for none. */
  legends: MapLegend[];
  /** Data attribution items (sources and licences); the map's own attribution control text is added. */
  attribution: string[];
}

/** A line/fill layer of the map drawn as vector paths in the export, and the defaults of its style. */
interface VectorLayer { layer: string; source: string; kind: 'line' | 'fill' | 'circle'; stroke: string; width: number; opacity?: number; fill?: string; fillOpacity?: number }

/**
 * The MapView layers drawn as vectors (ids and styles as in src/ui/MapView.tsx; paint values
 * that are plain colours/numbers are read from the map). The choropleth fill and the raster
 * stay in the map image.
 */
const VECTOR_LAYERS: VectorLayer[] = [
  { layer: 'admin2-line', source: 'admin2', kind: 'line', stroke: '#8a8a8a', width: 0.3, opacity: 0.6 },
  { layer: 'admin1-line', source: 'admin1', kind: 'line', stroke: '#6b6b6b', width: 0.4, opacity: 0.6 },
  { layer: 'countries-line', source: 'countries', kind: 'line', stroke: '#3c3c3c', width: 0.9 },
  { layer: 'areas-fill', source: 'areas', kind: 'fill', stroke: 'none', width: 0, fill: '#ff6a00', fillOpacity: 0.15 },
  { layer: 'areas-line', source: 'areas', kind: 'line', stroke: '#d94f00', width: 2 },
  { layer: 'areas-point', source: 'areas', kind: 'circle', stroke: '#ffffff', width: 1.5, fill: '#d94f00' },
];

/** Layers of {@link VECTOR_LAYERS} that the map shows at zoom `z` (present, visible, within their zoom range). */
function shownVectorLayers(map: MlMap, z: number): VectorLayer[] {
  return VECTOR_LAYERS.filter((v) => {
    const l = map.getLayer(v.layer);
    return !!l && map.getLayoutProperty(v.layer, 'visibility') !== 'none' && z >= (l.minzoom ?? 0) && z < (l.maxzoom ?? 24);
  });
}

/**
 * A copy of the map canvas as painted in the next frame (with `hidden` layers hidden), at the
 * canvas's pixel size: the pixels stay on a canvas (no PNG encoding here, see {@link exportMap}).
 * `restore`: show the hidden layers again afterwards (the page's map; a hidden export map is
 * left as it is, so it draws no other frame: an A4 300-dpi frame costs seconds without a GPU).
 */
function capture(map: MlMap, hidden: string[], restore: boolean, signal?: AbortSignal): Promise<HTMLCanvasElement> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) { reject(signal.reason); return; }
    for (const id of hidden) map.setLayoutProperty(id, 'visibility', 'none');
    map.once('render', () => {
      try {
        const src = map.getCanvas();
        const c = document.createElement('canvas');
        c.width = src.width; c.height = src.height;
        const g = c.getContext('2d')!;
        g.drawImage(src, 0, 0);
        g.getImageData(0, 0, 1, 1); // draws now: a deferred draw would read the map's buffer after the next frame cleared it
        resolve(c);
      } catch (e) { reject(e); } finally {
        if (restore) for (const id of hidden) map.setLayoutProperty(id, 'visibility', 'visible');
      }
    });
    map.triggerRepaint();
  });
}

/** Geometries of a GeoJSON object (FeatureCollection, Feature or geometry). */
function geometries(d: unknown): Geometry[] {
  const o = d as { type?: string; features?: unknown[]; geometry?: Geometry };
  if (!o || typeof o !== 'object') return [];
  if (o.type === 'FeatureCollection') return (o.features ?? []).flatMap(geometries);
  if (o.type === 'Feature') return o.geometry ? [o.geometry] : [];
  return [o as Geometry];
}

/**
 * SVG path data of the rings/lines of a source in `view`: vertices projected to CSS
 * px, rounded to 0.1 px, vertices closer than 0.5 px to the last kept one
 * dropped, rings whose bounding box misses the view (plus a margin) skipped.
 */
function projectedPaths(view: ExportView, data: unknown, kind: VectorLayer['kind']): { d: string; points: Array<[number, number]> } {
  const [bw, bs, be, bn] = view.bounds;
  const mx = (be - bw) * 0.05, my = (bn - bs) * 0.05;
  const [w, s, e, n] = [bw - mx, bs - my, be + mx, bn + my];
  const rings: Position[][] = [], pts: Position[] = [];
  const polyOnly = kind === 'fill';
  for (const g of geometries(data)) {
    if (polyOnly && g.type !== 'Polygon' && g.type !== 'MultiPolygon') continue;
    geometryParts(g, rings, pts);
  }
  const r1 = (x: number) => Math.round(x * 10) / 10;
  const out: string[] = [];
  if (kind !== 'circle') {
    for (const ring of rings) {
      let rw = Infinity, rs = Infinity, re = -Infinity, rn = -Infinity;
      for (const [x, y] of ring) { if (x < rw) rw = x; if (x > re) re = x; if (y < rs) rs = y; if (y > rn) rn = y; }
      if (re < w || rw > e || rn < s || rs > n) continue;
      let lx = NaN, ly = NaN, seg = '';
      ring.forEach(([x, y], i) => {
        const [px, py] = view.project(x, y);
        if (i > 0 && i < ring.length - 1 && Math.abs(px - lx) < 0.5 && Math.abs(py - ly) < 0.5) return;
        seg += `${i === 0 ? 'M' : 'L'}${r1(px)} ${r1(py)}`;
        lx = px; ly = py;
      });
      out.push(seg);
    }
  }
  const points = kind === 'circle' ? pts.filter(([x, y]) => x >= w && x <= e && y >= s && y <= n).map(([x, y]) => view.project(x, y)) : [];
  return { d: out.join(''), points };
}

/** A paint value of the map's style when it is a plain string/number, else `dflt`. */
function paint<T extends string | number>(map: MlMap, layer: string, prop: string, dflt: T): T {
  const v: unknown = map.getPaintProperty(layer, prop as Parameters<MlMap['getPaintProperty']>[1]);
  return (typeof v === typeof dflt ? v : dflt) as T;
}

/** Vector paths of the shown outline and shape layers of `map` (their data and paint) in `view`. */
async function vectorPaths(map: MlMap, view: ExportView, layers: VectorLayer[]): Promise<MapPath[]> {
  const data = new Map<string, unknown>();
  for (const src of new Set(layers.map((l) => l.source))) {
    const s = map.getSource(src) as GeoJSONSource | undefined;
    data.set(src, s && typeof s.getData === 'function' ? await s.getData() : null);
  }
  mark('outline-data');
  const out: MapPath[] = [];
  for (const v of layers) {
    const { d, points } = projectedPaths(view, data.get(v.source), v.kind);
    if (v.kind === 'line' && d) out.push({ d, stroke: paint(map, v.layer, 'line-color', v.stroke), width: paint(map, v.layer, 'line-width', v.width), opacity: paint(map, v.layer, 'line-opacity', v.opacity ?? 1) });
    if (v.kind === 'fill' && d) out.push({ d, stroke: 'none', width: 0, fill: paint(map, v.layer, 'fill-color', v.fill!), fillOpacity: paint(map, v.layer, 'fill-opacity', v.fillOpacity ?? 1) });
    if (v.kind === 'circle' && points.length) {
      const r = paint(map, v.layer, 'circle-radius', 5);
      out.push({ d: points.map(([x, y]) => circlePath(x, y, r)).join(''), stroke: v.stroke, width: v.width, fill: v.fill });
    }
  }
  return out;
}

/** The HTML markers on the map (place labels, a catchment's sources, shape numbers) as labels in map CSS px. */
function markerLabels(map: MlMap): MapLabel[] {
  const cont = map.getContainer().getBoundingClientRect();
  const out: MapLabel[] = [];
  for (const el of map.getContainer().querySelectorAll<HTMLElement>('.maplibregl-marker')) {
    const text = el.textContent?.trim();
    if (!text) continue;
    const r = el.getBoundingClientRect();
    if (el.classList.contains('source-label')) {
      // a catchment's source: a name box anchored bottom-left 4 px up and right of its point
      // (src/ui/map-layers.ts useLabels), exported as a place (dot on the point, name beside it)
      const px = r.left - cont.left - 4, py = r.bottom - cont.top + 4;
      if (px >= 0 && px <= cont.width && py >= 0 && py <= cont.height) out.push({ kind: 'place', x: px - 3, y: py, text });
      continue;
    }
    const place = el.classList.contains('place-label');
    const y = r.top - cont.top + r.height / 2;
    if (y < 0 || y > cont.height || r.right < cont.left || r.left > cont.right) continue;
    out.push(place ? { kind: 'place', x: r.left - cont.left, y, text } : { kind: 'shape', x: r.left - cont.left + r.width / 2, y, text });
  }
  return out;
}

/** Text widths from a 2D canvas (the fonts the browser resolves for sans-serif). */
function canvasMeasure(): Measure {
  const g = document.createElement('canvas').getContext('2d')!;
  return (t, px, bold) => { g.font = `${bold ? 700 : 400} ${px}px sans-serif`; return g.measureText(t).width; };
}

/** The text of the map's attribution control (basemap, MapLibre), as items. */
function mapAttribution(map: MlMap): string[] {
  const el = map.getContainer().querySelector('.maplibregl-ctrl-attrib-inner');
  return (el?.textContent ?? '').split('|').map((s) => s.trim()).filter(Boolean);
}

/**
 * A map like `map` (its style, the same area: `map`'s bounds fitted in the new size) in a hidden
 * container of cssW x cssH CSS px drawn at `ratio` device px per CSS px, once it has loaded its
 * tiles. Dispose of it with `remove()` (which also removes the container).
 * @throws the signal's reason when aborted (the map is removed)
 */
async function offscreenMap(map: MlMap, t: ExportTarget, signal?: AbortSignal): Promise<MlMap> {
  const host = document.createElement('div');
  host.style.cssText = `position:fixed;left:${-t.cssW - 100}px;top:0;width:${t.cssW}px;height:${t.cssH}px;pointer-events:none`;
  host.setAttribute('aria-hidden', 'true');
  document.body.append(host);
  const style = map.getStyle();
  style.layers = style.layers.filter((l) => !l.id.startsWith('td-')); // not terra-draw's drawing layers
  const Ctor = map.constructor as typeof MlMap;
  const off = new Ctor({
    container: host, style, bounds: map.getBounds(), pixelRatio: t.ratio, interactive: false, attributionControl: false,
    fadeDuration: 0, maxZoom: map.getMaxZoom(), minZoom: map.getMinZoom(),
  });
  const remove = off.remove.bind(off);
  off.remove = () => { remove(); host.remove(); };
  try {
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => reject(signal!.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      off.once('idle', () => { signal?.removeEventListener('abort', onAbort); resolve(); });
    });
  } catch (e) { off.remove(); throw e; }
  return off;
}

/** A performance mark "map-export:<name>" (the bench reads them to show where an export's time goes). */
function mark(name: string): void {
  performance.mark(`map-export:${name}`);
}

/** A composition without its map image (`mapImage` is ''), and the map's pixels on a canvas. */
interface ComposedView { comp: MapComposition; raster: HTMLCanvasElement }

/** The map's pixels of an export, with the ids of the layers drawn as vectors left out. */
type GrabPixels = (vectorLayerIds: string[]) => Promise<HTMLCanvasElement>;

/**
 * The composition of `view` of map `style` (its outline and shape layers as vectors; labels,
 * legends, attribution; the map image left out) and the map's pixels from `grab`; labels are
 * read from `src`'s HTML markers and moved to `view` by their longitude and latitude.
 * @throws AbortError (the signal's reason) when aborted
 */
async function composeView(src: MlMap, style: MlMap, view: ExportView, info: MapExportInfo, step: (label: string) => void, grab: GrabPixels, signal?: AbortSignal): Promise<ComposedView> {
  const layers = shownVectorLayers(style, view.zoom);
  step('Drawing outlines');
  const paths = await vectorPaths(style, view, layers);
  mark('outlines');
  signal?.throwIfAborted();
  const raster = await grab([...new Set(layers.map((l) => l.layer))]);
  mark('captured');
  signal?.throwIfAborted();
  const own = mapAttribution(src);
  const attribution = [...info.attribution, ...own.filter((a) => !info.attribution.includes(a))];
  const labels = markerLabels(src).map((l) => {
    const [x, y] = view.project(...src.unproject([l.x, l.y]).toArray());
    return { ...l, x, y };
  });
  const comp: MapComposition = {
    width: Math.round(view.width), height: Math.round(view.height), mapImage: '',
    title: info.title, subtitle: info.subtitle ?? '', legends: info.legends,
    lat: view.lat, zoom: view.zoom, bearing: view.bearing,
    attribution, labels, paths,
  };
  return { comp, raster };
}

/** The number of steps of an export (see {@link exportMap}). */
const STEPS = 4;

/** A composed view, the pixel size of the image to write and what disposes of the view's map. */
type Composed = ComposedView & { canvas: { width: number; height: number }; dispose: () => void };

/**
 * True when the export's map is drawn by a hidden MapLibre map and read back from WebGL, as
 * before issue 26 (the page's `window.__indapiExportPath` set to "webgl": only for
 * bench/map-export-bench.ts, which times both paths in one run).
 */
function webglPath(): boolean {
  return (globalThis as { __indapiExportPath?: string }).__indapiExportPath === 'webgl';
}

/**
 * The composition of `map`'s view fitted into target `t` drawn on a 2D canvas
 * (map-export-canvas.ts): the map's bounds fitted into the target's CSS size as a hidden map
 * would fit them; null when that view cannot be drawn so (the WebGL path then draws it).
 * @throws AbortError (the signal's reason) when aborted
 */
async function canvasComposition(map: MlMap, t: ExportTarget, info: MapExportInfo, step: (label: string) => void, signal?: AbortSignal): Promise<Composed | null> {
  if (webglPath() || !canvasDrawable(map)) return null;
  const b = map.getBounds();
  const fit = fitView([b.getWest(), b.getSouth(), b.getEast(), b.getNorth()], t.cssW, t.cssH, map.getMaxZoom());
  const v = { ...fit, zoom: Math.max(fit.zoom, map.getMinZoom()) };
  const view = mercatorView(v);
  const skip = new Set(shownVectorLayers(map, v.zoom).map((l) => l.layer));
  let raster: HTMLCanvasElement;
  try {
    raster = await drawMapCanvas(map, v, t.pxW, t.pxH, skip, signal);
  } catch (e) {
    if (e instanceof UnsupportedExpression) return null;
    throw e;
  }
  mark('map-drawn');
  OPAQUE.add(raster);
  const c = await composeView(map, map, view, info, step, async () => raster, signal);
  mark('composed');
  return { ...c, canvas: { width: t.pxW, height: t.pxH }, dispose: () => {} };
}

/**
 * The composition of the current view at `size` (see {@link exportTarget}): the map itself for
 * the screen size; else drawn on a 2D canvas ({@link canvasComposition}), or, for a view that
 * cannot be drawn so, by a hidden map of the target's size and pixel ratio read back from
 * WebGL. Steps 1 and 2 of the export ("Drawing map"; "Drawing outlines").
 * @returns the composition (without its map image), the map's pixels, the pixel size of the
 *   image to write, and `dispose`, which removes a hidden map (its WebGL context's loss can
 *   take long without a GPU: call it once the file is handed over)
 * @throws AbortError (the signal's reason) when aborted
 */
async function mapComposition(map: MlMap, info: MapExportInfo, step: (label: string) => void, signal: AbortSignal | undefined, size: ExportSize, format: MapExportFormat): Promise<Composed> {
  const cont = map.getContainer().getBoundingClientRect();
  const t = exportTarget(cont, size, format);
  step('Drawing map');
  mark('start');
  if (!t) {
    const cv = map.getCanvas();
    const grab: GrabPixels = (hidden) => capture(map, hidden, true, signal);
    return { ...await composeView(map, map, liveView(map), info, step, grab, signal), canvas: { width: cv.width, height: cv.height }, dispose: () => {} };
  }
  const drawn = await canvasComposition(map, t, info, step, signal);
  if (drawn) return drawn;
  const off = await offscreenMap(map, t, signal);
  mark('map-drawn');
  try {
    const v = await composeView(map, off, liveView(off), info, step, (hidden) => capture(off, hidden, false, signal), signal);
    mark('composed');
    return { ...v, canvas: { width: t.pxW, height: t.pxH }, dispose: () => off.remove() };
  } catch (e) { off.remove(); throw e; }
}

/** The sea colour under the map image (the basemap's background; the SVG's too). */
const SEA = '#d7e6f0';

let encoder: Worker | null = null;
let nextEncode = 1;

/**
 * Encodes a canvas as PNG or JPEG in the image encoding worker (workers/image-encode.worker.ts,
 * started on first use): the pixels go over as a transferred ImageBitmap, the file comes back.
 * @throws Error when the browser cannot encode it
 */
async function canvasBlob(c: HTMLCanvasElement, type: 'image/png' | 'image/jpeg', quality?: number): Promise<Blob> {
  encoder ??= new Worker(new URL('../../workers/image-encode.worker.ts', import.meta.url), { type: 'module', name: 'image-encode' });
  const w = encoder;
  const id = nextEncode++;
  const bitmap = await createImageBitmap(c);
  return new Promise<Blob>((res, rej) => {
    const onMessage = (e: MessageEvent<{ id: number; blob?: Blob; error?: string }>) => {
      if (e.data.id !== id) return;
      w.removeEventListener('message', onMessage);
      if (e.data.blob) res(e.data.blob); else rej(new Error(`${type} encoding failed: ${e.data.error ?? 'no image'}`));
    };
    w.addEventListener('message', onMessage);
    w.postMessage({ id, bitmap, type, quality }, [bitmap]);
  });
}

/** A blob as a data: URL (read by the browser, no base64 in script). */
function dataUrl(b: Blob): Promise<string> {
  return new Promise((res, rej) => {
    const r = new FileReader();
    r.onload = () => res(r.result as string);
    r.onerror = () => rej(r.error ?? new Error('could not read the image'));
    r.readAsDataURL(b);
  });
}

/** Canvases drawn by the export itself, opaque (the style's background drawn first) and used once: {@link rasterAt} takes them as they are. */
const OPAQUE = new WeakSet<HTMLCanvasElement>();

/** `raster` at `px` (scaled when its size differs) over the sea colour, on a canvas in memory of its own (a canvas of {@link OPAQUE} at its size: itself). */
function rasterAt(raster: HTMLCanvasElement, px: { width: number; height: number }): HTMLCanvasElement {
  if (OPAQUE.has(raster) && raster.width === px.width && raster.height === px.height) return raster;
  const c = document.createElement('canvas');
  c.width = px.width; c.height = px.height;
  const g = c.getContext('2d', { willReadFrequently: true })!;
  g.drawImage(raster, 0, 0, px.width, px.height);
  g.globalCompositeOperation = 'destination-over';
  g.fillStyle = SEA;
  g.fillRect(0, 0, px.width, px.height);
  g.globalCompositeOperation = 'source-over';
  return c;
}

/**
 * PNG of the composition: the map's pixels with the overlay (the SVG without its map image:
 * outlines, labels, title, legends) drawn over them by the browser at the image's size; one
 * PNG encoding.
 */
async function pngOf(raster: HTMLCanvasElement, overlay: string, px: { width: number; height: number }, step: (label: string) => void, signal?: AbortSignal): Promise<Blob> {
  const c = rasterAt(raster, px);
  const img = await abortable(svgImage(overlay), signal);
  c.getContext('2d', { willReadFrequently: true })!.drawImage(img, 0, 0, px.width, px.height);
  mark('overlaid');
  step('Writing PNG');
  const png = await abortable(canvasBlob(c, 'image/png'), signal);
  mark('encoded');
  return png;
}

/** A4 in PDF points (1/72 inch): 841.89 x 595.28 (ISO 216, 297 x 210 mm). */
const A4: [number, number] = [841.89, 595.28];

/**
 * One-page PDF: A4, landscape when the view is wider than tall, the composition (drawn at the
 * page's aspect, see {@link exportTarget}) filling the page within 28-pt margins: the map as
 * the JPEG `mapJpeg` placed as is (no decoding or re-encoding by the PDF writer), the overlay
 * SVG (without its map image) over it converted with svg2pdf.js, text as PDF text in Helvetica
 * (WinAnsiEncoding, other characters replaced by {@link toWinAnsi}). jsPDF and svg2pdf.js load
 * on first use.
 */
async function svgToPdf(overlay: string, mapJpeg: Uint8Array, title: string): Promise<Blob> {
  const [{ jsPDF }, { svg2pdf }] = await Promise.all([import('jspdf'), import('svg2pdf.js')]);
  const el = new DOMParser().parseFromString(overlay, 'image/svg+xml').documentElement as unknown as SVGSVGElement;
  for (const t of el.querySelectorAll('text, title')) t.textContent = toWinAnsi(t.textContent ?? '');
  const W = Number(el.getAttribute('width')), H = Number(el.getAttribute('height'));
  const landscape = W >= H;
  const [pw, ph] = landscape ? A4 : [A4[1], A4[0]];
  const doc = new jsPDF({ orientation: landscape ? 'landscape' : 'portrait', unit: 'pt', format: 'a4', compress: true });
  doc.setProperties({ title: toWinAnsi(title), creator: 'indapi3' });
  const m = 28;
  const k = Math.min((pw - 2 * m) / W, (ph - 2 * m) / H);
  const [x, y] = [(pw - W * k) / 2, (ph - H * k) / 2];
  doc.addImage(mapJpeg, 'JPEG', x, y, W * k, H * k, 'map', 'NONE');
  const host = document.createElement('div');
  host.style.cssText = 'position:absolute;left:-10000px;top:0;width:0;height:0;overflow:hidden';
  host.append(el);
  document.body.append(host);
  try {
    await svg2pdf(el, doc, { x, y, width: W * k, height: H * k });
  } finally { host.remove(); }
  return doc.output('blob');
}

/**
 * Renders the current view with legend, scale bar, north arrow, attribution, labels and
 * outlines in `format`, in four steps reported to `onProgress` ("Drawing map", "Drawing
 * outlines", "Encoding image", "Writing PNG/SVG/PDF"); a cancel (`signal`) stops it at once.
 * @param size the image size (see {@link exportTarget}; a PDF is always an A4 page)
 * @returns png: image/png of the map canvas's pixel size or of `size`; svg: image/svg+xml (CSS px,
 *   the map image as an embedded PNG at the size's pixel ratio); pdf: application/pdf, one A4
 *   page (the map image as a JPEG)
 * @throws Error when the browser cannot encode the image; the signal's reason when aborted
 */
export async function exportMap(map: MlMap, format: MapExportFormat, info: MapExportInfo, signal?: AbortSignal, size: ExportSize = { kind: 'screen' }, onProgress?: OnExportProgress): Promise<Blob> {
  const step = stepper(STEPS, signal, onProgress);
  const { comp, raster, canvas, dispose } = await mapComposition(map, info, step, signal, size, format);
  try {
    return await encode(comp, raster, canvas, format, step, signal);
  } finally { setTimeout(dispose, 0); } // after the file is handed over (see mapComposition)
}

/** Steps 3 and 4 of {@link exportMap}: the file of the composition and the map's pixels. */
async function encode(comp: MapComposition, raster: HTMLCanvasElement, canvas: { width: number; height: number }, format: MapExportFormat, step: (label: string) => void, signal?: AbortSignal): Promise<Blob> {
  const measure = canvasMeasure();
  step('Encoding image');
  if (format === 'png') return pngOf(raster, composeMapSvg(comp, measure), canvas, step, signal);
  const c = rasterAt(raster, canvas);
  if (format === 'pdf') {
    const jpeg = new Uint8Array(await abortable<ArrayBuffer>(canvasBlob(c, 'image/jpeg', 0.92).then((b) => b.arrayBuffer()), signal));
    mark('encoded');
    step('Writing PDF');
    return abortable(svgToPdf(composeMapSvg(comp, measure), jpeg, comp.subtitle ? `${comp.title} (${comp.subtitle})` : comp.title), signal);
  }
  const png = await abortable(canvasBlob(c, 'image/png').then(dataUrl), signal);
  mark('encoded');
  step('Writing SVG');
  return new Blob([composeMapSvg({ ...comp, mapImage: png }, measure)], { type: 'image/svg+xml' });
}

/** What the app maps now: the mapped layer's record and palette, or the ADM1 choropleth over it. */
export interface MapViewSource {
  /** Catalog record of the mapped layer (undefined before the catalog loads). */
  rec?: VarRecord;
  /** Palette of the mapped layer (null while loading). */
  palette: Palette | null;
  /** Heading of the layer's legend in place of its code (a change map: "Change 2000–2010"); the unit is added. */
  layerHeading?: string;
  /** The choropleth shown instead, with the record of its value column when known. */
  choro?: { title: string; legend: LegendEntry[]; unit: string; rec?: VarRecord } | null;
  /**
   * A panel's result drawn as cells instead of the indicator (catchment bands, similar cells):
   * its title, subtitle, legend heading and data sources; `palette` is then the cells' palette.
   */
  cells?: CellsExportInfo | null;
}

/** What the export says of a result drawn as cells (see {@link MapViewSource.cells}). */
export interface CellsExportInfo {
  /** Map title, e.g. "Travel time from 3 sources". */
  title: string;
  /** Second title line, e.g. "walking (FRICTION_WALK) · 16 neighbours". */
  subtitle: string;
  /** Heading of the cells' legend, e.g. "Band, minutes". */
  heading: string;
  /** Data sources to attribute ("FRICTION_WALK: ..."). */
  attribution: string[];
  /** The downloaded file's name stem after "map-" ("catchment", "similar"). */
  fileStem: string;
}

/** Year or year range of a record ("1988", "2000–2010", '' when unknown). */
function years(r?: VarRecord): string {
  if (!r?.year) return '';
  return r.yearEnd && r.yearEnd !== r.year ? `${r.year}–${r.yearEnd}` : r.year;
}

/**
 * The title, subtitle (year, unit), legends (the choropleth's and the layer's under it, or the
 * layer's) and data attribution of what the app maps.
 * Units are printed as the app prints them (prettyUnit: "km2" as "km²").
 */
export function exportInfo(src: MapViewSource): MapExportInfo {
  const { rec, palette, choro, cells } = src;
  if (cells) {
    return {
      title: cells.title, subtitle: cells.subtitle,
      legends: palette ? [exportLegend({ palette }, cells.heading, 0)] : [],
      attribution: ['indapi3', ...cells.attribution, 'Places: GeoNames (CC BY 4.0)'],
    };
  }
  const data = choro?.rec ?? rec;
  const unit = choro ? choro.unit : prettyUnit(rec?.unit ?? '');
  const title = choro ? choro.title : rec ? rec.varLabel : 'Map';
  const subtitle = [years(data), unit ? `unit: ${unit}` : ''].filter(Boolean).join(' · ');
  const recUnit = prettyUnit(rec?.unit ?? '');
  const layerHeading = choro ? `${rec?.varLabel ?? 'Layer'} under it${recUnit ? ` (${recUnit})` : ''}` : recUnit ? `${src.layerHeading ?? rec?.varCode ?? 'Value'} (${recUnit})` : src.layerHeading ?? 'Legend';
  const legends: MapLegend[] = [];
  // the choropleth's heading names its indicator (the summary's value column), as the app's legend does
  if (choro) legends.push(exportLegend({ entries: choro.legend }, `${choro.rec?.varLabel ?? choro.title}${unit ? ` (${unit})` : ''}`, data?.dec ?? 2));
  if (palette) legends.push(exportLegend({ palette }, layerHeading, rec?.dec ?? 2));
  const srcs = [rec, choro?.rec].filter((r, i, a): r is VarRecord => !!r && a.findIndex((x) => x?.varCode === r.varCode) === i);
  return {
    title, subtitle, legends,
    attribution: ['indapi3', ...srcs.map((r) => `${r.varCode}: ${r.sourceMini || r.sources}`), 'Places: GeoNames (CC BY 4.0)'],
  };
}

/** Downloads a blob as `name` (an object URL on a link, clicked). */
function download(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const el = document.createElement('a');
  el.href = url; el.download = name;
  document.body.append(el); el.click(); el.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Exports the current view as `format` and downloads it as map-<varCode>.<png|svg|pdf>,
 * reporting the export's steps to `onProgress`; nothing is downloaded once `signal` is aborted.
 * @throws as {@link exportMap}
 */
export function saveMapView(map: MlMap, format: MapExportFormat, src: MapViewSource, signal?: AbortSignal, size: ExportSize = { kind: 'screen' }, onProgress?: OnExportProgress): Promise<void> {
  return buildThenSave(() => exportMap(map, format, exportInfo(src), signal, size, onProgress), (blob) => download(blob, `map-${src.cells?.fileStem ?? src.rec?.varCode ?? 'view'}.${format}`), signal);
}
