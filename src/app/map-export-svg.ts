/**
 * The exported map view as one standalone SVG document: the map raster as an embedded PNG
 * `<image>`, outlines and drawn shapes as vector paths, and title, legend, scale bar, north
 * arrow, place labels and attribution as vector shapes and selectable `<text>` in a generic
 * `sans-serif` font. PNG export rasterises this SVG and PDF export converts it, so the three
 * formats show the same composition. Pure: no DOM (text widths come from an injected
 * {@link Measure}).
 */
import { fmtBreak, intervalLabels, legendOf, type LegendEntry, type Palette } from '../core/map/palette';
import { MAX_EXPORT_PX, type ExportSize, type MapExportFormat } from './map-export-size';
export { MAX_EXPORT_PX, type ExportSize, type MapExportFormat } from './map-export-size';



/** Where an export is rendered: a map of cssW x cssH CSS px drawn at `ratio` device px per CSS px, written as pxW x pxH pixels. */
export interface ExportTarget { cssW: number; cssH: number; ratio: number; pxW: number; pxH: number }

/** A4 in mm (ISO 216). */
const A4_MM: [number, number] = [297, 210];
/** The PDF page's margin in mm (28 pt). */
export const PDF_MARGIN_MM = (28 / 72) * 25.4;

/**
 * The render target of an export of a `view` (CSS px) at `size`; CSS px are 1/96 inch, so an A4
 * page at d dpi is drawn 1123 x 794 CSS px (landscape) at d/96 px per CSS px. A PDF is always an A4
 * page (at 150 dpi unless 300 is chosen) and the map fills the page within its margins.
 * @returns null for the screen size (the map as it is)
 */
export function exportTarget(view: { width: number; height: number }, size: ExportSize, format: MapExportFormat): ExportTarget | null {
  const landscape = view.width >= view.height;
  if (format === 'pdf' || size.kind === 'a4') {
    const dpi = size.kind === 'a4' ? size.dpi : 150;
    const m = format === 'pdf' ? 2 * PDF_MARGIN_MM : 0;
    const [wMm, hMm] = landscape ? [A4_MM[0] - m, A4_MM[1] - m] : [A4_MM[1] - m, A4_MM[0] - m];
    const ratio = dpi / 96;
    const cssW = Math.round((wMm / 25.4) * 96), cssH = Math.round((hMm / 25.4) * 96);
    return { cssW, cssH, ratio, pxW: Math.round((wMm / 25.4) * dpi), pxH: Math.round((hMm / 25.4) * dpi) };
  }
  if (size.kind === 'width') {
    const px = Math.max(200, Math.min(MAX_EXPORT_PX, Math.round(size.px)));
    const pxH = Math.round((px * view.height) / view.width);
    const k = pxH > MAX_EXPORT_PX ? MAX_EXPORT_PX / pxH : 1;
    return { cssW: Math.round(view.width), cssH: Math.round(view.height), ratio: (px * k) / view.width, pxW: Math.round(px * k), pxH: Math.round(pxH * k) };
  }
  return null;
}

/** Legend entry: a colour (#rrggbb) and its label. */
export interface MapLegendEntry {
  /** Label, e.g. "500 - 1000 m". */
  label: string;
  /** Colour, #rrggbb. */
  color: string;
}

/**
 * Legend of the exported map: class swatches with labels, or a stepped ramp of the colours of
 * continuous intervals with the break values at the class boundaries (n colours, n + 1 ticks).
 */
export type MapLegend =
  | { kind: 'swatches'; heading: string; entries: MapLegendEntry[] }
  | { kind: 'ramp'; heading: string; colors: string[]; ticks: string[] };

/** A label on the map at a point (CSS pixels from the top left of the map). */
export interface MapLabel {
  /** x in CSS px. */
  x: number;
  /** y in CSS px (vertical centre of the label). */
  y: number;
  /** Text shown. */
  text: string;
  /** A place name (dot and name) or a drawn shape's number (disc with the number). */
  kind: 'place' | 'shape';
}

/** A vector path drawn over the map raster, in CSS pixels of the map. */
export interface MapPath {
  /** SVG path data (M/L/Z and arcs), CSS px. */
  d: string;
  /** Stroke colour (CSS colour) or 'none'. */
  stroke: string;
  /** Stroke width in CSS px. */
  width: number;
  /** Stroke opacity 0..1 (default 1). */
  opacity?: number;
  /** Fill colour (default none). */
  fill?: string;
  /** Fill opacity 0..1 (default 1). */
  fillOpacity?: number;
}

/** Everything the exported view shows. */
export interface MapComposition {
  /** Map width in CSS px. */
  width: number;
  /** Map height in CSS px. */
  height: number;
  /** The map raster as a data URL (image/png), drawn over the whole width x height; '' for the overlay alone. */
  mapImage: string;
  /** Title, e.g. "Elevation (ETOPO5)". */
  title: string;
  /** Second title line, e.g. "1988 · unit: m" ('' for none). */
  subtitle: string;
  /** Legends, left to right (e.g. the choropleth's, then the raster layer's under it); empty for none. */
  legends: MapLegend[];
  /** Latitude of the map centre in degrees (for the scale bar). */
  lat: number;
  /** MapLibre zoom (512-px tiles). */
  zoom: number;
  /** Map bearing in degrees clockwise from north (rotates the north arrow). */
  bearing: number;
  /** Attribution items (data sources, basemap, places), joined with " · " and wrapped. */
  attribution: string[];
  /** Place labels and shape numbers. */
  labels: MapLabel[];
  /** Vector outlines and shapes, drawn in order, clipped to the map. */
  paths: MapPath[];
}

/** Width in CSS px of `text` at font size `px` (bold or regular sans-serif). */
export type Measure = (text: string, px: number, bold: boolean) => number;

/**
 * A width estimate without a DOM: the average advance of DejaVu Sans / Helvetica is about
 * 0.55 em (0.6 em bold) for mixed-case text; used when no canvas can measure.
 */
export const approxMeasure: Measure = (text, px, bold) => text.length * px * (bold ? 0.6 : 0.55);

/** Earth's equatorial circumference in metres: 2 pi x 6378137 m (WGS84 semi-major axis, as EPSG:3857 uses). */
const EARTH_M = 40075016.686;

/**
 * Metres per CSS pixel of a Web Mercator map at latitude `lat` (degrees) and MapLibre zoom `z`:
 * cos(lat) x 2 pi R / (512 x 2^z). Formula: "ground resolution" of Microsoft's Bing Maps Tile
 * System (learn.microsoft.com/bingmaps/articles/bing-maps-tile-system), written there for
 * 256-px tiles; MapLibre's zoom counts 512-px tiles (its zoom z equals raster zoom z + 1).
 */
export function metresPerPixel(lat: number, z: number): number {
  return (EARTH_M * Math.cos((lat * Math.PI) / 180)) / (512 * 2 ** z);
}

/**
 * A scale bar for a Web Mercator view: the longest 1, 2 or 5 x 10^k km that fits in `maxPx`
 * CSS pixels at latitude `lat` (degrees) and zoom `z` ({@link metresPerPixel}).
 * @returns km: the bar's length in km; px: its length in CSS px; label: "200 km" or "500 m"
 */
export function scaleBar(lat: number, z: number, maxPx: number): { km: number; px: number; label: string } {
  const mPerPx = metresPerPixel(lat, z);
  const maxKm = (maxPx * mPerPx) / 1000;
  const p = 10 ** Math.floor(Math.log10(maxKm));
  const km = Number(([5, 2, 1].map((k) => k * p).find((k) => k <= maxKm) ?? p).toPrecision(6));
  const label = km >= 1 ? `${km} km` : `${Number((km * 1000).toPrecision(6))} m`;
  return { km, px: (km * 1000) / mPerPx, label };
}

/** Escapes text for XML content and attribute values; drops characters XML 1.0 does not allow. */
export function xmlEscape(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** Cuts `text` with "…" so it fits `maxW` px. */
export function fitText(text: string, maxW: number, px: number, bold: boolean, measure: Measure): string {
  if (measure(text, px, bold) <= maxW) return text;
  let lo = 0, hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (measure(`${text.slice(0, mid)}…`, px, bold) <= maxW) lo = mid; else hi = mid - 1;
  }
  return `${text.slice(0, lo).trimEnd()}…`;
}

/** Splits `items` joined with " · " into lines no wider than `maxW` px (an item wider than a line is cut). */
export function wrapItems(items: string[], maxW: number, px: number, measure: Measure): string[] {
  const lines: string[] = [];
  let cur = '';
  for (const raw of items.map((s) => s.trim()).filter(Boolean)) {
    const it = fitText(raw, maxW, px, false, measure);
    const next = cur ? `${cur} · ${it}` : it;
    if (!cur || measure(next, px, false) <= maxW) cur = next;
    else { lines.push(cur); cur = it; }
  }
  if (cur) lines.push(cur);
  return lines;
}

/** Font sizes and spacing of the legend box (CSS px). */
const LG = { pad: 8, head: 12, text: 11, row: 16, sw: 14, swH: 12, step: 14 } as const;

/** Placed legend: the box size and its rows, relative to the box's top left (CSS px). */
export interface LegendLayout {
  /** Box width. */
  w: number;
  /** Box height. */
  h: number;
  /** Heading text (fitted) at (pad, pad), baseline-top. */
  heading: string;
  /** Colour cells: swatches (with gaps) or the ramp's touching steps. */
  cells: Array<{ x: number; y: number; w: number; h: number; color: string }>;
  /** Texts: labels of swatches or ticks of the ramp, y = vertical centre. */
  texts: Array<{ x: number; y: number; text: string }>;
  /** Tick marks of a ramp (x1..x2 at y). */
  ticks: Array<{ x1: number; x2: number; y: number }>;
  /** Entries left out because the box would be taller than allowed; 0 if none. */
  more: number;
}

/**
 * Lays out a legend in at most `maxW` x `maxH` CSS px: swatch rows of 16 px (at most 14, the
 * app's legend cap, fewer when `maxH` is short; a last row "+ N more classes" counts the rest),
 * or a ramp of 14-px steps with a tick label at each break.
 */
export function legendLayout(legend: MapLegend, maxW: number, maxH: number, measure: Measure = approxMeasure): LegendLayout {
  const top = LG.pad + LG.head + 8;
  const cells: LegendLayout['cells'] = [];
  const texts: LegendLayout['texts'] = [];
  const ticks: LegendLayout['ticks'] = [];
  let more = 0;
  let contentW: number;
  let h: number;
  if (legend.kind === 'swatches') {
    const fitRows = Math.max(1, Math.floor((maxH - top - LG.pad) / LG.row));
    let n = Math.min(legend.entries.length, 14, fitRows);
    if (n < legend.entries.length && n === fitRows) n = Math.max(0, n - 1); // room for the "+ N more" row
    more = legend.entries.length - n;
    const labelX = LG.pad + LG.sw + 6;
    const labelMax = maxW - labelX - LG.pad;
    legend.entries.slice(0, n).forEach((e, i) => {
      const y = top + i * LG.row;
      cells.push({ x: LG.pad, y: y + 2, w: LG.sw, h: LG.swH, color: e.color });
      texts.push({ x: labelX, y: y + 8, text: fitText(e.label, labelMax, LG.text, false, measure) });
    });
    if (more) texts.push({ x: LG.pad, y: top + n * LG.row + 8, text: `+ ${more} more classes` });
    contentW = Math.max(0, ...texts.map((t) => t.x - LG.pad + measure(t.text, LG.text, false)));
    h = top + (n + (more ? 1 : 0)) * LG.row + LG.pad - 2;
  } else {
    const n = legend.colors.length;
    const room = maxH - top - 2 - 6 - LG.pad;
    const step = n * LG.step <= room ? LG.step : Math.max(3, room / n);
    const y0 = top + 2;
    legend.colors.forEach((c, i) => cells.push({ x: LG.pad, y: y0 + i * step, w: LG.sw, h: step, color: c }));
    const tx = LG.pad + LG.sw + 4;
    // label every tick when they are 12 px apart or more, else every k-th; first and last always
    const k = Math.max(1, Math.ceil(12 / step));
    const last = legend.ticks.length - 1;
    const shown: number[] = [];
    for (let i = 0; i <= last; i += k) shown.push(i);
    if (shown.at(-1) !== last) { if ((last - shown.at(-1)!) * step < 12 && shown.length > 1) shown.pop(); shown.push(last); }
    for (const i of shown) {
      const y = y0 + i * step;
      ticks.push({ x1: LG.pad + LG.sw, x2: tx, y });
      texts.push({ x: tx + 3, y, text: fitText(legend.ticks[i], maxW - tx - 3 - LG.pad, LG.text, false, measure) });
    }
    contentW = Math.max(LG.sw, ...texts.map((t) => t.x - LG.pad + measure(t.text, LG.text, false)));
    h = y0 + n * step + 6 + LG.pad;
  }
  const heading = fitText(legend.heading, maxW - 2 * LG.pad, LG.head, true, measure);
  const w = Math.min(maxW, Math.ceil(Math.max(contentW, measure(heading, LG.head, true)) + 2 * LG.pad));
  return { w, h: Math.ceil(h), heading, cells, texts, ticks, more };
}

const INK = '#1b1f24';
const n1 = (x: number) => String(Math.round(x * 10) / 10);

/** A circle as SVG path data (two arcs), CSS px. */
export function circlePath(x: number, y: number, r: number): string {
  return `M${n1(x - r)} ${n1(y)}a${n1(r)} ${n1(r)} 0 1 0 ${n1(2 * r)} 0a${n1(r)} ${n1(r)} 0 1 0 ${n1(-2 * r)} 0Z`;
}

/** A box on the exported view (CSS px, top left and size). */
interface Box { x: number; y: number; w: number; h: number }

const overlaps = (a: Box, b: Box) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/**
 * Places the legends bottom left, left to right, beside the scale bar (`scaleW` px kept free at
 * the right); a legend that does not fit beside the previous one starts a row above them. On a
 * map too narrow for a legend beside the scale bar, the legends go above it.
 * @param bottom y of the legends' bottom edge; @param top lowest y a legend may reach
 */
function placeLegends(legends: MapLegend[], W: number, bottom: number, scaleW: number, top: number, measure: Measure): Array<{ legend: MapLegend; lay: LegendLayout; x: number; y: number }> {
  const beside = W - 20 - scaleW;
  const lift = beside >= 160 ? 0 : 30;
  const right = lift ? W - 10 : 10 + beside;
  const out: Array<{ legend: MapLegend; lay: LegendLayout; x: number; y: number }> = [];
  let x = 10, rowBottom = bottom - lift, rowH = 0;
  const perW = legends.length > 1 ? Math.max(160, Math.min(280, (right - 10) / legends.length - 8)) : right - 10;
  for (const legend of legends) {
    let lay = legendLayout(legend, Math.min(perW, right - x), rowBottom - top, measure);
    if (x > 10 && x + lay.w > right) { // a new row above
      rowBottom -= rowH + 8; x = 10; rowH = 0;
      lay = legendLayout(legend, Math.min(perW, right - x), rowBottom - top, measure);
    }
    if (rowBottom - lay.h < top - 1) break; // no room left for this legend
    out.push({ legend, lay, x, y: rowBottom - lay.h });
    x += lay.w + 8; rowH = Math.max(rowH, lay.h);
  }
  return out;
}

/** A label placed on the export: place names right of their dot, or left of it (`left`) at the right edge; `box` is its background. */
type PlacedLabel = MapLabel & { left: boolean; box: Box };

/**
 * Place and shape labels kept on the export (a place name repeated within 40 px, such as a
 * source's tag over the town label of the same name, once): a place name whose box would cross the right edge
 * goes left of its dot; a label whose box crosses the top edge, the bottom (`bottom`, the
 * attribution strip) or any of `boxes` (title, legends, scale bar, north arrow) is left out.
 */
function placeLabels(labels: MapLabel[], W: number, bottom: number, boxes: Box[], measure: Measure): PlacedLabel[] {
  const out: PlacedLabel[] = [];
  for (const l of labels) {
    // one name per place: a catchment source's tag and the town label of the same name at the same spot are one label
    if (l.kind === 'place' && out.some((o) => o.kind === 'place' && o.text.trim().toLowerCase() === l.text.trim().toLowerCase() && Math.hypot(o.x - l.x, o.y - l.y) < 40)) continue;
    let box: Box, left = false;
    if (l.kind === 'place') {
      const tw = measure(l.text, 11.5, true) + 6;
      box = { x: l.x + 6, y: l.y - 8, w: tw, h: 16 };
      if (box.x + box.w > W - 2) { left = true; box = { x: l.x - 6 - tw, y: l.y - 8, w: tw, h: 16 }; }
    } else box = { x: l.x - 10, y: l.y - 10, w: 20, h: 20 };
    if (box.x < 0 || box.x + box.w > W || box.y < 0 || box.y + box.h > bottom || boxes.some((b) => overlaps(b, box))) continue;
    out.push({ ...l, left, box });
  }
  return out;
}

/**
 * The SVG document of an exported map view (width x height CSS px; 1 user unit = 1 CSS px).
 * Layout: title box top left, north arrow top right, legend bottom left and scale bar bottom
 * right above a white attribution strip along the bottom edge. Without a map image (`mapImage`
 * '') it is the overlay alone (no sea background, no `<image>`), drawn over the map's pixels.
 * @param c what the view shows
 * @param measure text widths (a canvas's measureText in the browser)
 */
export function composeMapSvg(c: MapComposition, measure: Measure = approxMeasure): string {
  const W = c.width, H = c.height;
  const o: string[] = [];
  const text = (x: number, y: number, s: string, px: number, extra = '') =>
    `<text x="${n1(x)}" y="${n1(y)}" font-size="${px}"${extra}>${xmlEscape(s)}</text>`;
  o.push(`<?xml version="1.0" encoding="UTF-8"?>`);
  o.push(`<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.1" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif">`);
  o.push(`<title>${xmlEscape(c.subtitle ? `${c.title} (${c.subtitle})` : c.title)}</title>`);
  o.push(`<defs><clipPath id="map-clip"><rect x="0" y="0" width="${W}" height="${H}"/></clipPath></defs>`);
  if (c.mapImage) {
    o.push(`<rect x="0" y="0" width="${W}" height="${H}" fill="#d7e6f0"/>`);
    o.push(`<image id="map-raster" x="0" y="0" width="${W}" height="${H}" preserveAspectRatio="none" xlink:href="${c.mapImage}"/>`);
  }
  if (c.paths.length) {
    o.push(`<g id="map-vectors" clip-path="url(#map-clip)" stroke-linejoin="round" stroke-linecap="round">`);
    for (const p of c.paths) {
      o.push(`<path d="${p.d}" fill="${p.fill ?? 'none'}"${p.fill && p.fillOpacity !== undefined ? ` fill-opacity="${p.fillOpacity}"` : ''} stroke="${p.stroke}" stroke-width="${p.width}"${p.opacity !== undefined ? ` stroke-opacity="${p.opacity}"` : ''}/>`);
    }
    o.push('</g>');
  }
  // attribution strip
  const attr = wrapItems(c.attribution, W - 12, 10, measure);
  const stripH = attr.length ? attr.length * 12 + 5 : 0;
  // title box (opaque: nothing on the map shows through it)
  const titleMax = Math.max(80, W - 70);
  const t1 = fitText(c.title, titleMax - 16, 14, true, measure);
  const t2 = c.subtitle ? fitText(c.subtitle, titleMax - 16, 11, false, measure) : '';
  const tw = Math.ceil(Math.max(measure(t1, 14, true), t2 ? measure(t2, 11, false) : 0) + 16);
  const th = t2 ? 42 : 28;
  const boxes: Box[] = [{ x: 10, y: 10, w: tw, h: th }, { x: W - 34, y: 10, w: 24, h: 44 }];
  const bottom = H - stripH - 10;
  const sb = scaleBar(c.lat, c.zoom, Math.min(120, W / 4));
  const sbOk = Number.isFinite(sb.px) && sb.px > 0;
  if (sbOk) boxes.push({ x: W - 22 - sb.px, y: bottom - 22, w: sb.px + 12, h: 24 });
  const legends = placeLegends(c.legends, W, bottom, sbOk ? sb.px + 28 : 0, 10 + th + 10, measure);
  for (const l of legends) boxes.push({ x: l.x, y: l.y, w: l.lay.w, h: l.lay.h });
  // place labels and shape numbers: a place name goes left of its dot at the right edge, and a
  // label that would fall under the title, legend, scale bar, north arrow or the map's edges is left out
  const labels = placeLabels(c.labels, W, H - stripH, boxes, measure);
  if (labels.length) {
    o.push(`<g id="map-labels">`);
    for (const l of labels) {
      if (l.kind === 'place') {
        o.push(`<rect x="${n1(l.box.x)}" y="${n1(l.box.y)}" width="${n1(l.box.w)}" height="16" rx="3" fill="#ffffff" fill-opacity="0.8"/>`);
        o.push(`<path d="${circlePath(l.left ? l.x - 3 : l.x + 3, l.y, 2.5)}" fill="${INK}"/>`);
        o.push(text(l.left ? l.x - 9 : l.x + 9, l.y + 4, l.text, 11.5, ` font-weight="bold" fill="${INK}"${l.left ? ' text-anchor="end"' : ''}`));
      } else {
        o.push(`<path d="${circlePath(l.x, l.y, 9)}" fill="#d94f00" stroke="#ffffff" stroke-width="1.5"/>`);
        o.push(text(l.x, l.y + 4, l.text, 11, ' font-weight="bold" fill="#ffffff" text-anchor="middle"'));
      }
    }
    o.push('</g>');
  }
  if (attr.length) {
    o.push(`<g id="attribution"><rect x="0" y="${H - stripH}" width="${W}" height="${stripH}" fill="#ffffff"/>`);
    attr.forEach((line, i) => o.push(text(W - 6, H - stripH + 12 + i * 12, line, 10, ' fill="#333333" text-anchor="end"')));
    o.push('</g>');
  }
  o.push(`<g id="title"><rect x="10" y="10" width="${tw}" height="${th}" rx="3" fill="#ffffff" stroke="#aab2bc"/>`);
  o.push(text(18, 29, t1, 14, ` font-weight="bold" fill="${INK}"`));
  if (t2) o.push(text(18, 43, t2, 11, ` fill="#444444"`));
  o.push('</g>');
  // north arrow
  const nx = W - 22, ny = 30;
  o.push(`<g id="north-arrow" transform="rotate(${n1(-c.bearing)} ${nx} ${ny})"><path d="M${nx} ${ny - 16}L${nx + 7} ${ny + 6}L${nx} ${ny + 1}L${nx - 7} ${ny + 6}Z" fill="${INK}" stroke="#ffffff" stroke-width="1"/>`);
  o.push(text(nx, ny + 19, 'N', 11, ` font-weight="bold" fill="${INK}" text-anchor="middle"`));
  o.push('</g>');
  if (sbOk) {
    const sx = W - 16 - sb.px, sy = bottom - 4;
    o.push(`<g id="scale-bar"><rect x="${n1(sx - 6)}" y="${n1(sy - 18)}" width="${n1(sb.px + 12)}" height="24" fill="#ffffff" fill-opacity="0.85"/>`);
    o.push(`<path d="M${n1(sx)} ${n1(sy - 6)}V${n1(sy)}H${n1(sx + sb.px)}V${n1(sy - 6)}" fill="none" stroke="${INK}" stroke-width="2"/>`);
    o.push(text(sx + sb.px / 2, sy - 5, sb.label, 11, ` fill="${INK}" text-anchor="middle"`));
    o.push('</g>');
  }
  legends.forEach(({ legend, lay, x, y }, i) => {
    o.push(`<g id="${i ? `legend-${i + 1}` : 'legend'}" transform="translate(${n1(x)} ${n1(y)})"><rect x="0" y="0" width="${lay.w}" height="${lay.h}" rx="3" fill="#ffffff" fill-opacity="0.95" stroke="#aab2bc"/>`);
    o.push(text(8, 8 + 11, lay.heading, 12, ` font-weight="bold" fill="${INK}"`));
    for (const cell of lay.cells) {
      o.push(`<rect x="${n1(cell.x)}" y="${n1(cell.y)}" width="${n1(cell.w)}" height="${n1(cell.h)}" fill="${cell.color}"${legend.kind === 'swatches' ? ' stroke="#666666" stroke-width="0.5"' : ''}/>`);
    }
    if (legend.kind === 'ramp' && lay.cells.length) {
      const f = lay.cells[0], l = lay.cells[lay.cells.length - 1];
      o.push(`<rect x="${n1(f.x)}" y="${n1(f.y)}" width="${n1(f.w)}" height="${n1(l.y + l.h - f.y)}" fill="none" stroke="#666666" stroke-width="0.5"/>`);
    }
    for (const t of lay.ticks) o.push(`<path d="M${n1(t.x1)} ${n1(t.y)}H${n1(t.x2)}" stroke="#444444" stroke-width="1"/>`);
    for (const t of lay.texts) o.push(text(t.x, t.y + 4, t.text, 11, ` fill="${INK}"`));
    o.push('</g>');
  });
  o.push('</svg>');
  return o.join('\n');
}

/** Characters of Windows-1252 (the PDF WinAnsiEncoding of the standard fonts) above 0xFF. */
const CP1252_EXTRA = '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ';
/** Replacements for common characters outside WinAnsiEncoding. */
const NOT_WIN_ANSI: Record<string, string> = { '≤': '<=', '≥': '>=', '−': '-', '‐': '-', '‑': '-', '→': '->', '←': '<-', '×': 'x', '≈': '~', '₂': '2' };

/**
 * Text as the PDF standard fonts (Helvetica, WinAnsiEncoding, PDF 1.7 Annex D) can show it:
 * known symbols replaced ("≤" by "<="), accents dropped from other Latin letters (NFD),
 * anything else replaced by "?".
 */
export function toWinAnsi(s: string): string {
  let out = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if ((cp >= 0x20 && cp < 0x7f) || (cp >= 0xa0 && cp <= 0xff) || CP1252_EXTRA.includes(ch)) { out += ch; continue; }
    if (NOT_WIN_ANSI[ch]) { out += NOT_WIN_ANSI[ch]; continue; }
    const base = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
    out += base && [...base].every((b) => b.codePointAt(0)! < 0x7f) ? base : '?';
  }
  return out;
}

/**
 * The export legend of the app's map legend: the choropleth's entries or the palette's classes
 * as swatches; continuous intervals whose labels are R `cut()` labels of the breaks as a ramp
 * with the breaks (formatted with `dec` decimals) as ticks.
 * @param src the choropleth legend entries, or the mapped layer's palette
 * @param heading legend heading, e.g. "Elevation (m)"
 * @param dec decimals of the layer (for the ramp's ticks)
 */
export function exportLegend(src: { entries: LegendEntry[] } | { palette: Palette }, heading: string, dec: number): MapLegend {
  if ('entries' in src) return { kind: 'swatches', heading, entries: src.entries.map((e) => ({ label: e.label, color: e.color })) };
  const p = src.palette;
  if (p.kind === 'intervals' && p.breaks.length === p.colors.length + 1 && p.colors.length > 1) {
    const cut = intervalLabels(p.breaks);
    if (cut.length === p.labels.length && cut.every((l, i) => l === p.labels[i])) return { kind: 'ramp', heading, colors: [...p.colors], ticks: p.breaks.map((b) => fmtBreak(b, dec)) };
  }
  return { kind: 'swatches', heading, entries: legendOf(p).map((e) => ({ label: e.label, color: e.color })) };
}
