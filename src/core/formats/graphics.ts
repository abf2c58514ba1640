/**
 * The `plot` and `hist` graphics: SVG documents built in the core, turned into PNG by an
 * injected {@link Rasterizer} (resvg in WebAssembly, in the browser and in Node).
 *
 * - plot: a map of one layer on its window: the cells as an embedded PNG image (one pixel
 *   per cell, drawn without smoothing), coloured by the catalog's `classBreaks` /
 *   `classColors` (R `cut()` right-closed intervals) or the class table's colours, or by a
 *   ColorBrewer palette named by `pal`; country outlines from the basemap GeoJSON; title,
 *   legend, graticule labels and an attribution line. The map uses R's aspect for
 *   longitude/latitude plots, 1 / cos(mid latitude).
 *   A zonal map (request with `by`: each cell carries its domain's summary, e.g. the SUM of
 *   a province) is not coloured with the catalog's per-cell breaks, which would put every
 *   domain in one class: its continuous values are split into 5-7 equal-count (quantile)
 *   classes of the distinct domain values present (one class per value when there are
 *   fewer than 5), labelled `min – max`; the title says `<formula> by <domain>`; admin-1
 *   outlines are drawn when a `by` code is an admin-1 layer (`ADM1_…`) and an admin-1
 *   basemap is given (skipped otherwise).
 * - hist: Vega-Lite (rendered headless to SVG by Vega). Continuous layers: a 30-bin
 *   histogram, a box plot under it (whiskers at the most extreme values within 1.5 IQR of
 *   the box, as R's `boxplot`), and the statistics N, Min, 1st Qu., Median, Mean, 3rd Qu.,
 *   Max (R `quantile` type 7), printed with the variable's `dec` decimals. Class layers: a
 *   bar chart of the cell count per class label (catalog colours) with each class's share,
 *   and N; no numeric statistics (class codes are not quantities).
 */
import type { CellLayer, CellResult } from '../api';
import { IndapiError, throwIfAborted } from '../errors';
import type { VarRecord } from '../types';
import { toBase64, xmlEscape } from './bytes';
import { COLORBREWER_ATTRIBUTION, PALETTES, paletteColors } from './palettes';
import { encodePng } from './png';
import { classColors, classIndices, maskedValues, minMax, windowGeo } from './raster';
import { fiveNum, histogram, quantile7 } from './stats';
import { parseHex } from './tiff';

/** SVG-to-PNG renderer, injected (see {@link createResvgRasterizer}). */
export type Rasterizer = (svg: string, signal?: AbortSignal) => Promise<Uint8Array>;

/**
 * SVG attributes that squeeze a one-line text into `maxWidth` pixels when its estimated
 * width (characters x `charWidth`, an average advance for DejaVu Sans at that size) is
 * larger; empty otherwise. Uses SVG 1.1 `textLength` with `lengthAdjust="spacingAndGlyphs"`.
 */
function fitWidth(text: string, charWidth: number, maxWidth: number): string {
  return text.length * charWidth > maxWidth ? ` textLength="${maxWidth.toFixed(0)}" lengthAdjust="spacingAndGlyphs"` : '';
}

/** A GeoJSON FeatureCollection of (Multi)Polygons for outlines, with an optional attribution line. */
export interface Basemap {
  type: 'FeatureCollection';
  features: Array<{ type: 'Feature'; geometry: { type: string; coordinates: unknown } | null; properties?: Record<string, unknown> | null }>;
  /** Attribution of the outlines (default "Country outlines: Natural Earth"). */
  attribution?: string;
}

/** Loads something resvg's `initWasm` accepts: the wasm bytes, a Response, or a compiled module. */
export type WasmLoader = () => Promise<ArrayBuffer | Uint8Array | Response | WebAssembly.Module>;

let resvgInit: Promise<typeof import('@resvg/resvg-wasm')> | undefined;

/**
 * A {@link Rasterizer} using `@resvg/resvg-wasm`. The wasm is initialised once per realm.
 * The core cannot read files: pass a loader (Node: read
 * `node_modules/@resvg/resvg-wasm/index_bg.wasm`; browser: `fetch` of its bundled URL) and
 * the font files to use (resvg-wasm has no system fonts; DejaVu Sans is used in tests).
 * @param opts `wasm` loader, `fonts` (TrueType/OpenType bytes), output `width` in pixels
 */
export function createResvgRasterizer(opts: { wasm: WasmLoader; fonts?: () => Promise<Uint8Array[]>; width?: number }): Rasterizer {
  let fonts: Promise<Uint8Array[]> | undefined;
  return async (svg, signal) => {
    throwIfAborted(signal);
    if (!resvgInit) {
      resvgInit = (async () => {
        const mod = await import('@resvg/resvg-wasm');
        await mod.initWasm((await opts.wasm()) as any);
        return mod;
      })();
      resvgInit.catch(() => {
        resvgInit = undefined;
      });
    }
    const mod = await resvgInit;
    fonts ??= opts.fonts ? opts.fonts() : Promise.resolve([]);
    const fontBuffers = await fonts;
    throwIfAborted(signal);
    const r = new mod.Resvg(svg, {
      font: { fontBuffers, defaultFontFamily: 'DejaVu Sans', sansSerifFamily: 'DejaVu Sans' },
      fitTo: opts.width ? { mode: 'width', value: opts.width } : { mode: 'original' },
      background: 'white',
      imageRendering: 1, // optimizeSpeed: cells stay sharp squares
    });
    try {
      const img = r.render();
      const png = img.asPng();
      img.free();
      return png;
    } finally {
      r.free();
    }
  };
}

/** One legend entry. */
interface LegendItem {
  color: string;
  label: string;
}

/** Colouring of a layer: an index per cell into `legend` (-1 = no colour). */
interface Colouring {
  legend: LegendItem[];
  index: Int32Array;
  paletteUsed: boolean;
}

function fmt(x: number, dec?: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (dec !== undefined && dec >= 0 && dec <= 10) return x.toFixed(dec);
  return String(Number(x.toPrecision(6)));
}

/** A number with thousands separators and `dec` decimals (6 significant digits without `dec`), e.g. "1,234,567". */
function fmtGrouped(x: number, dec?: number): string {
  const t = fmt(x, dec);
  const m = /^(-?)(\d+)(.*)$/.exec(t);
  return m ? `${m[1]}${m[2].replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${m[3]}` : t;
}

/**
 * Colours of a zonal map's continuous values: equal-count classes of the distinct values
 * present (5-7 classes; one per value when there are fewer than 5), labelled `min – max`
 * of the values each class holds, coloured with `pal` (default YlOrRd).
 */
function colourZonal(values: Float64Array, rec: VarRecord | undefined, pal: string | undefined): Colouring {
  const u = [...new Set(Array.from(values).filter((v) => Number.isFinite(v)))].sort((a, b) => a - b);
  const n = u.length;
  const k = n < 5 ? Math.max(1, n) : Math.min(7, n);
  // Class j holds u[floor(j n / k) .. floor((j + 1) n / k) - 1]; its upper bound is the last of them.
  const upper: number[] = [];
  const labels: string[] = [];
  for (let j = 0; j < k; j++) {
    const a = u[Math.floor((j * n) / k)];
    const b = u[Math.floor(((j + 1) * n) / k) - 1];
    upper.push(b);
    const fa = fmtGrouped(a, rec?.dec);
    const fb = fmtGrouped(b, rec?.dec);
    labels.push(a === b || fa === fb ? fa : `${fa} – ${fb}`);
  }
  const colors = n === 0 ? [] : (paletteColors(pal ?? 'YlOrRd', k) as string[]);
  const index = new Int32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isFinite(v)) {
      index[i] = -1;
      continue;
    }
    let lo = 0;
    let hi = k - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (v <= upper[mid]) hi = mid;
      else lo = mid + 1;
    }
    index[i] = lo;
  }
  return { legend: labels.map((label, i) => ({ label, color: colors[i] })), index, paletteUsed: n > 0 };
}

/**
 * Colours of a continuous layer: catalog breaks and colours (or `pal`), else 7 quantile
 * classes of the values with YlOrRd. Values at or below the first break go to the first
 * class, above the last break to the last.
 */
function colourContinuous(values: Float64Array, rec: VarRecord | undefined, pal: string | undefined): Colouring {
  let breaks = (rec?.classBreaks ?? '').split('|').filter((s) => s.trim() !== '').map(Number);
  let labels = (rec?.classLabels ?? '').split('|');
  let colors = (rec?.classColors ?? '').split('|').filter((s) => s);
  const dec = rec?.dec;
  if (breaks.length < 2 || breaks.some((b) => !Number.isFinite(b))) {
    const { sorted } = fiveNum(values);
    breaks = [...new Set(Array.from({ length: 8 }, (_, i) => quantile7(sorted, i / 7)))];
    if (breaks.length < 2) breaks = [breaks[0] ?? 0, (breaks[0] ?? 0) + 1];
    labels = [];
    colors = [];
  }
  const n = breaks.length - 1;
  if (labels.length !== n || labels.some((l) => !l)) labels = breaks.slice(0, n).map((b, i) => `(${fmt(b, dec)},${fmt(breaks[i + 1], dec)}]`);
  let paletteUsed = false;
  if (pal || colors.length !== n) {
    colors = paletteColors(pal ?? 'YlOrRd', n) as string[];
    paletteUsed = true;
  }
  const index = new Int32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Number.isNaN(v)) {
      index[i] = -1;
      continue;
    }
    let k = 0;
    while (k < n - 1 && v > breaks[k + 1]) k++;
    index[i] = k;
  }
  return { legend: labels.map((label, i) => ({ label, color: colors[i] })), index, paletteUsed };
}

function colourClass(layer: CellLayer, mask: Uint8Array, rec: VarRecord | undefined, pal: string | undefined): Colouring {
  const { classes, index } = classIndices(layer, mask);
  let colors = classColors(classes, rec);
  let paletteUsed = false;
  if (pal || colors.some((c) => !c)) {
    const fill = paletteColors(pal ?? 'Set3', classes.length) as string[];
    colors = colors.map((c, i) => (pal ? fill[i] : (c ?? fill[i])));
    paletteUsed = true;
  }
  return { legend: classes.map((c, i) => ({ label: String(c.label), color: colors[i] as string })), index, paletteUsed };
}

function ringPath(ring: number[][], tx: (x: number) => number, ty: (y: number) => number): string {
  let d = '';
  let last = '';
  for (let i = 0; i < ring.length; i++) {
    const p = `${tx(ring[i][0]).toFixed(1)},${ty(ring[i][1]).toFixed(1)}`;
    if (p === last) continue;
    d += (d ? 'L' : 'M') + p;
    last = p;
  }
  return d ? d + 'Z' : '';
}

function outlinePath(basemap: Basemap | undefined, bbox: [number, number, number, number], tx: (x: number) => number, ty: (y: number) => number): string {
  if (!basemap) return '';
  const parts: string[] = [];
  const [x0, y0, x1, y1] = bbox;
  for (const f of basemap.features ?? []) {
    const g = f.geometry;
    if (!g) continue;
    const polys = (g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? (g.coordinates as unknown[]) : []) as number[][][][];
    for (const poly of polys) {
      const outer = poly[0] ?? [];
      let a = Infinity, b = Infinity, c = -Infinity, d = -Infinity;
      for (const [x, y] of outer) {
        a = Math.min(a, x); b = Math.min(b, y); c = Math.max(c, x); d = Math.max(d, y);
      }
      if (c < x0 || a > x1 || d < y0 || b > y1) continue;
      for (const ring of poly) parts.push(ringPath(ring, tx, ty));
    }
  }
  return parts.join('');
}

/** Input of {@link renderPlot}. */
export interface PlotInput {
  cells: CellResult;
  layer: CellLayer;
  rec?: VarRecord;
  basemap?: Basemap;
  /** Admin-1 outlines, drawn when a `by` code is an admin-1 layer (`ADM1_…`). */
  admin1?: Basemap;
  /** Admin-2 outlines (basemap/admin2.geojson of an ingested bundle), drawn when a `by` code is an admin-2 layer (`ADM2_…`). */
  admin2?: Basemap;
  /** ColorBrewer palette name. */
  pal?: string;
  /**
   * The request's `by` domains (code and catalog record): when given, the layer is a zonal
   * map (each cell carries its domain's summary), coloured by classes of the values present.
   */
  by?: Array<{ code: string; rec?: VarRecord }>;
  now: Date;
}

/** The aggregation formula's function name, e.g. "sum" of "sum(X, na.rm=TRUE)". */
function formulaName(rec: VarRecord | undefined): string {
  const m = /^\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\(/.exec(rec?.aggFunR ?? '');
  return m ? m[1] : '';
}

/** True for a by code that is an admin-1 layer (ADM1_NAME_ALT, ADM1_CODE_ALT, ...). */
export function isAdmin1Code(code: string): boolean {
  return /^ADM1_/i.test(code);
}

/** True for a by code that is an admin-2 layer (ADM2_NAME_ALT, ADM2_CODE_ALT, ...). */
export function isAdmin2Code(code: string): boolean {
  return /^ADM2_/i.test(code);
}

/**
 * SVG map of one layer.
 * @throws IndapiError BAD_ARGUMENT when `pal` names no known palette
 */
export function renderPlot(p: PlotInput): string {
  if (p.pal !== undefined && !paletteColors(p.pal, 3)) {
    throw new IndapiError('BAD_ARGUMENT', `pal: '${p.pal}' is not a ColorBrewer palette; use one of ${Object.keys(PALETTES).join(', ')}.`, { pal: p.pal });
  }
  const { cells, layer, rec } = p;
  const geo = windowGeo(cells.grid);
  const zonal = (p.by ?? []).length > 0;
  const col =
    layer.type === 'class'
      ? colourClass(layer, cells.mask, rec, p.pal)
      : zonal
        ? colourZonal(maskedValues(layer, cells.mask), rec, p.pal)
        : colourContinuous(maskedValues(layer, cells.mask), rec, p.pal);

  // RGBA image, one pixel per cell.
  const rgba = new Uint8Array(geo.width * geo.height * 4);
  const rgb = col.legend.map((l) => parseHex(l.color));
  for (let i = 0; i < col.index.length; i++) {
    const k = col.index[i];
    if (k < 0) continue;
    const [r, g, b] = rgb[k];
    rgba.set([r, g, b, 255], i * 4);
  }
  const png = encodePng(geo.width, geo.height, rgba);

  // Layout.
  const midLat = (geo.ymin + geo.ymax) / 2;
  const aspect = ((geo.ymax - geo.ymin) / ((geo.xmax - geo.xmin) * Math.cos((midLat * Math.PI) / 180))) || 1;
  let mapW = 560;
  let mapH = mapW * aspect;
  if (mapH > 620) {
    mapH = 620;
    mapW = mapH / aspect;
  }
  const left = 60;
  const top = 64;
  const legendX = left + mapW + 24;
  const shown = col.legend.slice(0, 24);
  const legendH = 36 + shown.length * 20 + (col.legend.length > shown.length ? 20 : 0);
  const width = Math.round(legendX + 230);
  const height = Math.round(top + Math.max(mapH, legendH) + 70);
  const tx = (x: number) => left + ((x - geo.xmin) / (geo.xmax - geo.xmin)) * mapW;
  const ty = (y: number) => top + ((geo.ymax - y) / (geo.ymax - geo.ymin)) * mapH;
  const bbox: [number, number, number, number] = [geo.xmin - 1, geo.ymin - 1, geo.xmax + 1, geo.ymax + 1];
  const outline = outlinePath(p.basemap, bbox, tx, ty);
  const adm1 = (p.by ?? []).some((b) => isAdmin1Code(b.code)) ? outlinePath(p.admin1, bbox, tx, ty) : '';
  const adm2 = (p.by ?? []).some((b) => isAdmin2Code(b.code)) ? outlinePath(p.admin2, bbox, tx, ty) : '';

  const e = xmlEscape;
  const byText = zonal ? ` by ${(p.by ?? []).map((b) => b.rec?.varLabel || b.code).join(', ')}` : '';
  const formula = zonal ? formulaName(rec) : '';
  const title = `${rec ? `${rec.varLabel}${rec.unit ? ` (${rec.unit})` : ''}` : layer.code}${zonal ? `: ${formula ? `${formula} ` : ''}${byText.trim()}` : ''}`;
  const area = `${layer.code} · ${geo.width} x ${geo.height} cells of 5 arc-minutes · [${fmt(geo.xmin)}, ${fmt(geo.ymin)}, ${fmt(geo.xmax)}, ${fmt(geo.ymax)}]`;
  const attribution = [
    rec?.sourceMini || rec?.sources ? `Source: ${rec?.sourceMini || rec?.sources}` : '',
    p.basemap ? (p.basemap.attribution ?? 'Country outlines: Natural Earth') : '',
    adm1 ? (p.admin1?.attribution ?? 'Admin-1 outlines: Natural Earth') : '',
    adm2 ? (p.admin2?.attribution ?? 'Admin-2 outlines: the bundle') : '',
    col.paletteUsed ? COLORBREWER_ATTRIBUTION : '',
    `indapi3, ${p.now.toISOString().slice(0, 10)}`,
  ].filter((s) => s).join(' · ');

  // Graticule labels: about 5 ticks per axis at whole degrees.
  const step = (span: number) => [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30].find((s) => span / s <= 6) ?? 45;
  const ticks: string[] = [];
  const sx = step(geo.xmax - geo.xmin);
  for (let k = Math.ceil(geo.xmin / sx - 1e-9); k * sx <= geo.xmax + 1e-9; k++) {
    const x = Number((k * sx).toFixed(4));
    ticks.push(`<line x1="${tx(x).toFixed(1)}" y1="${(top + mapH).toFixed(1)}" x2="${tx(x).toFixed(1)}" y2="${(top + mapH + 5).toFixed(1)}" stroke="#333"/><text x="${tx(x).toFixed(1)}" y="${(top + mapH + 18).toFixed(1)}" text-anchor="middle" font-size="11">${x < 0 ? `${-x}°W` : x > 0 ? `${x}°E` : '0°'}</text>`);
  }
  const sy = step(geo.ymax - geo.ymin);
  for (let k = Math.ceil(geo.ymin / sy - 1e-9); k * sy <= geo.ymax + 1e-9; k++) {
    const y = Number((k * sy).toFixed(4));
    ticks.push(`<line x1="${left - 5}" y1="${ty(y).toFixed(1)}" x2="${left}" y2="${ty(y).toFixed(1)}" stroke="#333"/><text x="${left - 8}" y="${(ty(y) + 4).toFixed(1)}" text-anchor="end" font-size="11">${y < 0 ? `${-y}°S` : y > 0 ? `${y}°N` : '0°'}</text>`);
  }
  const legend = shown
    .map((l, i) => `<rect x="${legendX}" y="${top + 28 + i * 20}" width="16" height="14" fill="${e(l.color)}" stroke="#555" stroke-width="0.5"/><text x="${legendX + 22}" y="${top + 40 + i * 20}" font-size="12">${e(l.label.length > 30 ? l.label.slice(0, 29) + '…' : l.label)}</text>`)
    .join('\n');
  const more = col.legend.length > shown.length ? `<text x="${legendX}" y="${top + 40 + shown.length * 20}" font-size="12">… and ${col.legend.length - shown.length} more</text>` : '';
  const legendTitle = (layer.type === 'class' ? 'Class' : rec?.unit ? rec.unit : 'Value') + (zonal ? ` per ${(p.by ?? []).map((b) => b.code).join(' × ')}` : '');

  return `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="DejaVu Sans, Arial, sans-serif">
<title>${e(title)}</title>
<rect width="100%" height="100%" fill="#ffffff"/>
<text x="${left}" y="28" font-size="18" font-weight="bold"${fitWidth(title, 18 * 0.62, width - left - 12)}>${e(title)}</text>
<text x="${left}" y="48" font-size="12" fill="#444">${e(area)}</text>
<defs><clipPath id="map"><rect x="${left}" y="${top}" width="${mapW.toFixed(1)}" height="${mapH.toFixed(1)}"/></clipPath></defs>
<rect x="${left}" y="${top}" width="${mapW.toFixed(1)}" height="${mapH.toFixed(1)}" fill="#f2f2f2"/>
<g clip-path="url(#map)">
<image x="${left}" y="${top}" width="${mapW.toFixed(1)}" height="${mapH.toFixed(1)}" preserveAspectRatio="none" image-rendering="optimizeSpeed" style="image-rendering:pixelated" xlink:href="data:image/png;base64,${toBase64(png)}"/>
${adm2 ? `<path d="${adm2}" fill="none" stroke="#8a8a8a" stroke-width="0.35" stroke-linejoin="round"/>\n` : ''}${adm1 ? `<path d="${adm1}" fill="none" stroke="#666666" stroke-width="0.5" stroke-linejoin="round"/>\n` : ''}${outline ? `<path d="${outline}" fill="none" stroke="#333333" stroke-width="0.8" stroke-linejoin="round"/>` : ''}
</g>
<rect x="${left}" y="${top}" width="${mapW.toFixed(1)}" height="${mapH.toFixed(1)}" fill="none" stroke="#333"/>
${ticks.join('\n')}
<text x="${legendX}" y="${top + 14}" font-size="13" font-weight="bold">${e(legendTitle)}</text>
${legend}
${more}
<text x="${left}" y="${height - 14}" font-size="10" fill="#444"${fitWidth(attribution, 10 * 0.56, width - left - 12)}>${e(attribution)}</text>
</svg>
`;
}

/** Input of {@link renderHist}. */
export interface HistInput {
  cells: CellResult;
  layer: CellLayer;
  rec?: VarRecord;
  now: Date;
}

/** Renders a Vega-Lite spec to SVG, headless. */
async function vegaSvg(spec: unknown): Promise<string> {
  const vl = await import('vega-lite');
  const vega = await import('vega');
  // evaluated without `new Function` (vega-interpreter): workers and the service worker run under a CSP with no eval
  const { expressionInterpreter } = await import('vega-interpreter');
  const compiled = vl.compile(spec as any).spec;
  const view = new vega.View(vega.parse(compiled, undefined, { ast: true }), { renderer: 'none', expr: expressionInterpreter });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/**
 * SVG bar chart of a class layer's selected cells: cell count per class label (in class
 * table order, catalog colours, else Set3), each bar labelled with its count and share, and
 * N. Only classes present are drawn, except that a table of at most 20 classes is drawn
 * whole (absent classes as 0).
 */
async function renderClassHist(p: HistInput): Promise<string> {
  const { layer, rec } = p;
  const { classes, index } = classIndices(layer, p.cells.mask);
  const counts = new Array<number>(classes.length).fill(0);
  let n = 0;
  for (const k of index) {
    if (k < 0) continue;
    counts[k]++;
    n++;
  }
  if (n === 0) throw new IndapiError('EMPTY_SELECTION', `${layer.code} has no value in the selected cells: nothing to draw.`);
  let colors = classColors(classes, rec);
  if (colors.some((c) => !c)) {
    const fill = paletteColors('Set3', classes.length) as string[];
    colors = colors.map((c, i) => c ?? fill[i]);
  }
  const keep = classes.map((_, i) => i).filter((i) => counts[i] > 0 || classes.length <= 20);
  const pct = (c: number) => `${((100 * c) / n).toFixed(1)} %`;
  const bars = keep.map((i) => ({ label: String(classes[i].label), count: counts[i], text: `${counts[i]} (${pct(counts[i])})`, color: colors[i] as string }));
  const font = 'DejaVu Sans, Arial, sans-serif';
  const title = rec ? `${rec.varLabel}${rec.unit ? ` (${rec.unit})` : ''}` : layer.code;
  const spec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: `${layer.code}: cells per class, N = ${n}`, subtitle: `indapi3 · ${rec?.sourceMini ? `Source: ${rec.sourceMini} · ` : ''}${p.now.toISOString().slice(0, 10)}` },
    config: { font, view: { stroke: null }, axis: { labelFont: font, titleFont: font, labelLimit: 260 }, title: { font, subtitleFont: font } },
    background: 'white',
    width: 420,
    height: { step: 22 },
    data: { values: bars },
    encoding: {
      y: { field: 'label', type: 'nominal', sort: null, title },
      x: { field: 'count', type: 'quantitative', title: 'Cells', axis: { tickMinStep: 1, format: 'd' }, scale: { domainMax: Math.max(...bars.map((b) => b.count)) * 1.3 } },
    },
    layer: [
      { mark: { type: 'bar', stroke: '#555', strokeWidth: 0.5 }, encoding: { color: { field: 'color', type: 'nominal', scale: null, legend: null } } },
      { mark: { type: 'text', align: 'left', dx: 4, fontSize: 11 }, encoding: { text: { field: 'text' } } },
    ],
  };
  return vegaSvg(spec);
}

/**
 * SVG of one layer's selected cells (Vega-Lite, headless): for continuous layers a
 * histogram + box plot + statistics (printed with the record's `dec` decimals); for class
 * layers a bar chart of the cells per class label with shares and N (no numeric statistics).
 * @throws IndapiError EMPTY_SELECTION when the layer has no value
 */
export async function renderHist(p: HistInput): Promise<string> {
  if (p.layer.type === 'class') return renderClassHist(p);
  const { layer, rec } = p;
  const values = maskedValues(layer, p.cells.mask);
  const { summary: s, sorted } = fiveNum(values);
  if (s.n === 0) throw new IndapiError('EMPTY_SELECTION', `${layer.code} has no value in the selected cells: nothing to draw.`);
  const bins = histogram(sorted, 30);
  const iqr = s.q3 - s.q1;
  const loW = sorted.find((v) => v >= s.q1 - 1.5 * iqr) ?? s.min;
  let hiW = s.max;
  for (let i = sorted.length - 1; i >= 0; i--) {
    if (sorted[i] <= s.q3 + 1.5 * iqr) {
      hiW = sorted[i];
      break;
    }
  }
  // Outliers, thinned to distinct positions at 1/600 of the range.
  const [lo, hi] = minMax(sorted);
  const seen = new Set<number>();
  const outliers: Array<{ v: number }> = [];
  for (const v of sorted) {
    if (v >= loW && v <= hiW) continue;
    const key = Math.round(((v - lo) / (hi - lo || 1)) * 600);
    if (seen.has(key)) continue;
    seen.add(key);
    outliers.push({ v });
  }
  const dec = rec?.dec;
  const f = (x: number) => fmt(x, dec !== undefined && Number.isFinite(dec) ? Math.max(0, Math.min(dec, 10)) : undefined);
  const stats = [
    ['N', String(s.n)],
    ['Min.', f(s.min)],
    ['1st Qu.', f(s.q1)],
    ['Median', f(s.median)],
    ['Mean', f(s.mean)],
    ['3rd Qu.', f(s.q3)],
    ['Max.', f(s.max)],
  ].map(([k, v], i) => ({ i, k, v }));
  const xTitle = rec ? `${rec.varLabel}${rec.unit ? ` (${rec.unit})` : ''}` : layer.code;
  const domain = [bins[0].x0, bins[bins.length - 1].x1];
  const font = 'DejaVu Sans, Arial, sans-serif';
  const spec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: `${layer.code}: distribution over ${s.n} cells`, subtitle: `indapi3 · ${rec?.sourceMini ? `Source: ${rec.sourceMini} · ` : ''}${p.now.toISOString().slice(0, 10)}` },
    config: { font, view: { stroke: null }, axis: { labelFont: font, titleFont: font }, title: { font, subtitleFont: font } },
    background: 'white',
    hconcat: [
      {
        vconcat: [
          {
            width: 520,
            height: 260,
            data: { values: bins },
            mark: { type: 'bar', color: '#4682b4', stroke: '#ffffff', strokeWidth: 0.5 },
            encoding: {
              x: { field: 'x0', type: 'quantitative', bin: { binned: true }, scale: { domain, nice: false, zero: false }, axis: { title: null } },
              x2: { field: 'x1' },
              y: { field: 'count', type: 'quantitative', title: 'Frequency (cells)', axis: { tickMinStep: 1, format: 'd' } },
            },
          },
          {
            width: 520,
            height: 50,
            layer: [
              { data: { values: [{ a: loW, b: hiW }] }, mark: { type: 'rule', color: '#333' }, encoding: { x: { field: 'a', type: 'quantitative', scale: { domain, nice: false, zero: false }, title: xTitle }, x2: { field: 'b' } } },
              { data: { values: [{ a: s.q1, b: s.q3 }] }, mark: { type: 'bar', color: '#b0c4de', stroke: '#333', height: 26 }, encoding: { x: { field: 'a', type: 'quantitative' }, x2: { field: 'b' } } },
              { data: { values: [{ a: s.median }] }, mark: { type: 'tick', color: '#000', thickness: 2, size: 26 }, encoding: { x: { field: 'a', type: 'quantitative' } } },
              { data: { values: [{ a: loW }, { a: hiW }] }, mark: { type: 'tick', color: '#333', size: 14 }, encoding: { x: { field: 'a', type: 'quantitative' } } },
              { data: { values: outliers }, mark: { type: 'point', color: '#333', size: 12 }, encoding: { x: { field: 'v', type: 'quantitative' } } },
            ],
          },
        ],
      },
      {
        width: 150,
        height: 140,
        data: { values: stats },
        layer: [
          { mark: { type: 'text', align: 'left', fontSize: 12, fontWeight: 'bold' }, encoding: { y: { field: 'i', type: 'ordinal', axis: null }, text: { field: 'k' }, x: { value: 0 } } },
          { mark: { type: 'text', align: 'right', fontSize: 12 }, encoding: { y: { field: 'i', type: 'ordinal', axis: null }, text: { field: 'v' }, x: { value: 150 } } },
        ],
      },
    ],
  };
  return vegaSvg(spec);
}
