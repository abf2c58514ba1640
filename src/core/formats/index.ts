/**
 * File writers and data packages (`genFile`): every file `format` of the spec's E3, with
 * the original's aliases, as pure functions over the engine's {@link TableResult} /
 * {@link CellResult}. Runs in a browser worker and in Node (no Node built-ins).
 *
 * Formats and their files (`<base>` = `<method>-<vars>-<by>-<area>`, see ./names.ts):
 * - csv, dta, rds, rda: `<base>.csv|.dta|.rds|.rda` + `meta.csv`, `README.md`,
 *   `datapackage.json`, `DESCRIPTION`, `terms.html` (tabular, from the summary table); the
 *   `.rda` (RData, R's `save()` format, opened with `load()`) holds one data.frame named
 *   after the file stem as R's `make.names` would (`getLayer-ELEVATION-KEN` ->
 *   `getLayer.ELEVATION.KEN`, see {@link rObjectName}); the `.rds` is read with `readRDS()`;
 * - json: `<base>.geojson` + the same side files: with `by` (unless `collapse = FALSE`) one
 *   polygon feature per group (the union of its cells) carrying the group's summary; else one
 *   cell-centre point per cell carrying the cell's own values (see ./geojson.ts);
 * - tif: per var `<method>-<VAR>-<by>-<area>.tif` + `.tfw` + `.tif.aux.xml`, then
 *   `meta.csv`, `README.md`, `datapackage.json` (resources: the rasters and meta.csv), `DESCRIPTION`;
 * - asc: per var `.asc` + `.prj` + `.asc.aux.xml`, then the same side files;
 * - grd: `<base>.grd` + `<base>.gri` (all vars as bands), then the same side files;
 * - with `by`, raster cells hold their group's summary (a zonal map), as README.md and the
 *   `.aux.xml` metadata item `VALUES` say;
 * - plot, hist: per var `.svg` + `.png`, also returned as session graphics.
 *
 * Class coding: tif and asc hold 0-based class indices (as the original service wrote
 * them), grd, dta and rds the catalog class values. The `.aux.xml` of tif/asc carries the
 * category names and a raster attribute table `value` (index) / `class_value` / `label`,
 * and the README.md of raster packages a table index -> class value -> label per class
 * layer. A multi-band grd cannot carry class labels (one attribute table per file, see
 * ./grd.ts): only its README table maps them.
 * The ZIP is named with the format as requested (`….rdata.zip`), see ./names.ts.
 */
import type { CallOptions, CellResult, GeneratedFile, Graphic, TableResult } from '../api';
import { IndapiError, throwIfAborted } from '../errors';
import type { ClassEntry, VarRecord } from '../types';
import JSZip from 'jszip';
import { ascText, ESRI_PRJ_WGS84 } from './asc';
import { utf8 } from './bytes';
import { writeCsv } from './csv';
import { dtaTimeStamp, writeDta } from './dta';
import { CELL_POINTS_DESCRIPTION, writeGeoJson, writeGeoJsonZonal, zonalDescription } from './geojson';
import { writeGrd, type GrdBand } from './grd';
import { dataFileBase, requestCodes, zipFileName, type RequestCodes } from './names';
import { pamXml } from './pam';
import { dataPackageJson, descriptionText, metaCsv, PRODUCER, readmeText, termsHtml, type ClassCoding, type PackageInfo } from './pkg';
import { classColors, classIndices, countSelected, maskedValues, windowGeo } from './raster';
import { rObjectName, writeRda, writeRds } from './rds';
import { worldFile, writeGeoTiff } from './tiff';
import { isAdmin1Code, isAdmin2Code, renderHist, renderPlot, type Basemap, type Rasterizer } from './graphics';

export { writeCsv, csvText } from './csv';
export { writeDta, dtaTimeStamp } from './dta';
export { writeRds, writeRda, serializeR, serializeRData, rObjectName } from './rds';
export { writeGeoJson, writeGeoJsonZonal, traceGroups, zonalDescription, CELL_POINTS_DESCRIPTION } from './geojson';
export { writeGeoTiff, worldFile } from './tiff';
export { writeGrd } from './grd';
export { ascText, ESRI_PRJ_WGS84 } from './asc';
export { pamXml } from './pam';
export { dataFileBase, requestCodes, zipFileName } from './names';
export { createResvgRasterizer, type Rasterizer, type Basemap } from './graphics';
export { PALETTES, paletteColors } from './palettes';
export { quantile7, fiveNum } from './stats';

/** Graphics defaults of a realm (see {@link configureGraphics}). */
export interface GraphicsDefaults {
  /** SVG-to-PNG renderer. */
  rasterize?: Rasterizer;
  /** Country outlines, or a loader of them. */
  basemap?: Basemap | (() => Promise<Basemap | undefined>);
  /** Admin-1 outlines (e.g. `basemap/admin1.geojson`), or a loader of them: drawn on plots by an admin-1 `by`; loaded only then. */
  admin1?: Basemap | (() => Promise<Basemap | undefined>);
  /** Admin-2 outlines (`basemap/admin2.geojson` of an ingested bundle), or a loader of them: drawn on plots by an admin-2 `by`; loaded only then. */
  admin2?: Basemap | (() => Promise<Basemap | undefined>);
}

let defaultGraphics: GraphicsDefaults = {};

/**
 * Sets the rasterizer and basemaps that plot and hist use when a {@link genFile} call does
 * not pass its own (configure once per realm: in the Node server and in the worker).
 * @param g `rasterize` (see {@link createResvgRasterizer}); `basemap` (countries) and
 *   `admin1` and `admin2` (admin-1 and admin-2 units), each as a value or a loader
 */
export function configureGraphics(g: GraphicsDefaults): void {
  defaultGraphics = { ...defaultGraphics, ...g };
}

/** Normalised file formats. `data.table` means "no file" (the value itself). */
export type FileFormat = 'csv' | 'dta' | 'rds' | 'rda' | 'json' | 'tif' | 'asc' | 'grd' | 'plot' | 'hist' | 'data.table';

const ALIASES: Record<string, FileFormat> = {
  tif: 'tif',
  tiff: 'tif',
  geotiff: 'tif',
  geotif: 'tif',
  geojson: 'json',
  json: 'json',
  grd: 'grd',
  grid: 'grd',
  rds: 'rds',
  rda: 'rda',
  rdata: 'rda',
  dta: 'dta',
  stata: 'dta',
  asc: 'asc',
  ascii: 'asc',
  csv: 'csv',
  xls: 'csv',
  xlsx: 'csv',
  plot: 'plot',
  hist: 'hist',
  'data.table': 'data.table',
};

/**
 * Normalises a `format` argument with the original's aliases (case-insensitive):
 * tif|tiff|geotiff|geotif, geojson|json, grd|grid, rds (an `.rds` file for `readRDS`),
 * rda|rdata (an `.rda` RData file for `load`),
 * dta|stata, asc|ascii, csv|xls|xlsx (CSV), plot, hist, data.table.
 * @throws IndapiError BAD_FORMAT "'<format>' is not a recognized format." for anything
 *   else; BAD_FORMAT for nc|netcdf, which this version does not write.
 */
export function normalizeFormat(format: string): FileFormat {
  const f = String(format).trim().toLowerCase();
  const n = ALIASES[f];
  if (n) return n;
  if (f === 'nc' || f === 'netcdf') {
    throw new IndapiError('BAD_FORMAT', `'${format}' (netCDF) is not supported in this version: use tif, asc or grd for rasters.`, { format });
  }
  throw new IndapiError('BAD_FORMAT', `'${format}' is not a recognized format.`, { format });
}

/** Formats written from the summary table. */
const TABULAR = new Set<FileFormat>(['csv', 'dta', 'rds', 'rda']);
/** Formats written from the per-cell result. */
const PER_CELL = new Set<FileFormat>(['json', 'tif', 'asc', 'grd', 'plot', 'hist']);

/** True when the format is written from the per-cell result (`collapse = false`). */
export function needsCells(format: FileFormat): boolean {
  return PER_CELL.has(format);
}

/**
 * True when a json (GeoJSON) package is written as zonal polygons: the request has `by` and
 * does not ask for `collapse = FALSE`.
 * @param args the request arguments as parsed
 */
export function zonalJson(args: { by?: unknown; collapse?: unknown }): boolean {
  return requestCodes(args as Record<string, unknown>).by.length > 0 && args.collapse !== false;
}

/**
 * Arguments of the per-cell query (`Engine.getLayerCells`) that a format needs. `hist`
 * describes the distribution of each variable's own cell values over the selection
 * (countries, region or WKT), so the `by` domains, which would give every cell its group's
 * summary (a zonal map), are dropped; so does `json` with `collapse = FALSE` (points carrying
 * cell values, never a group's summary). Every other format keeps them.
 * @param format a normalised format ({@link normalizeFormat})
 * @param args the query arguments as sent
 * @returns the arguments to pass to `getLayerCells` (a copy without `by` for hist and per-cell json)
 */
export function cellQueryArgs<T extends { by?: unknown; collapse?: unknown }>(format: FileFormat, args: T): T {
  if (format !== 'hist' && !(format === 'json' && args.collapse === false)) return args;
  const { by: _by, ...rest } = args;
  return rest as T;
}

/** Media types of the files (the original's, GeoJSON's from RFC 7946). */
export const MEDIA_TYPES: Record<string, string> = {
  csv: 'text/csv',
  dta: 'application/x-stata-dta',
  rds: 'application/octet-stream',
  rda: 'application/octet-stream',
  geojson: 'application/geo+json',
  tif: 'image/tiff',
  tfw: 'text/plain',
  xml: 'application/xml',
  asc: 'application/x-ascii-grid',
  prj: 'text/plain',
  grd: 'application/octet-stream',
  gri: 'application/octet-stream',
  png: 'image/png',
  svg: 'image/svg+xml',
  json: 'application/json',
  md: 'text/markdown',
  html: 'text/html',
  DESCRIPTION: 'text/plain',
};

/** Default limit of {@link estimateBytes} (bytes): 512 MiB, what a browser tab can hold twice (files + ZIP). */
export const MAX_PACKAGE_BYTES = 512 * 1024 * 1024;

/** Input of {@link genFile}. */
export interface GenFileInput {
  /** Requested `format` (any alias). */
  format: string;
  /** Method called, e.g. "getLayer" (first part of file names). */
  method: string;
  /** The request's arguments as parsed (var, iso3, by, wkt, ids, pal, ...), for names and README. */
  args: Record<string, unknown>;
  /** Summary table, for csv, dta, rds. */
  table?: TableResult;
  /** Per-cell result, for json, tif, asc, grd, plot, hist. */
  cells?: CellResult;
  /** Catalog records of every var and by code. */
  meta: VarRecord[];
  /** The URL the request was sent to, for the README's curl command and datapackage homepage. */
  requestUrl?: string;
  /** Creation time (default now); fixed in tests for golden files. */
  now?: Date;
  /** Bundle version, written as the package version. */
  version?: string;
  /** Country outlines for plot (GeoJSON FeatureCollection, e.g. `basemap/countries.geojson`). */
  basemap?: Basemap;
  /** Admin-1 outlines for plot (e.g. `basemap/admin1.geojson`), drawn when a `by` code is an admin-1 layer; skipped when absent. */
  admin1?: Basemap;
  /** Admin-2 outlines for plot (`basemap/admin2.geojson`), drawn when a `by` code is an admin-2 layer; skipped when absent. */
  admin2?: Basemap;
  /** SVG-to-PNG renderer for plot and hist (see {@link createResvgRasterizer}). */
  rasterize?: Rasterizer;
  /** Size limit in bytes (default {@link MAX_PACKAGE_BYTES}). */
  maxBytes?: number;
}

/** Result of {@link genFile}. */
export interface GenFileResult {
  /** Files of the session, in listing order. */
  files: GeneratedFile[];
  /** Graphics (plot, hist), one per var. */
  graphics: Graphic[];
  /** Name of the session's ZIP. */
  zipName: string;
}

/**
 * Estimated bytes the files of a request need in memory (uncompressed size of the data
 * files), computed before writing.
 */
export function estimateBytes(format: FileFormat, table?: TableResult, cells?: CellResult): number {
  if (TABULAR.has(format) && table) {
    const per = format === 'csv' ? 14 : 9;
    return 4096 + table.rows.length * Math.max(1, table.columns.length) * per;
  }
  if (PER_CELL.has(format) && cells) {
    const nCells = cells.grid.width * cells.grid.height;
    const layers = Math.max(1, cells.layers.length);
    switch (format) {
      case 'json':
        // key properties (ISO3, ADM0_NAME, by labels) are text of about 30 bytes each
        return 4096 + countSelected(cells) * (110 + 22 * layers + 30 * ((cells.keys?.length ?? 0) + (cells.keys?.length ? 1 : 0)));
      case 'asc':
        return 4096 + nCells * layers * 12;
      case 'plot':
        return 4096 + nCells * layers * 6;
      default:
        return 4096 + nCells * layers * 8;
    }
  }
  return 4096;
}

function fileOf(name: string, bytes: Uint8Array | string): GeneratedFile {
  const ext = name.includes('.') ? (name.split('.').pop() as string) : name;
  return { name, mediaType: MEDIA_TYPES[ext] ?? 'application/octet-stream', bytes: typeof bytes === 'string' ? utf8(bytes) : bytes };
}

function recordOf(meta: VarRecord[], code: string): VarRecord | undefined {
  return meta.find((m) => m.varCode === code);
}

function layerLabel(rec: VarRecord | undefined, code: string): string {
  return rec ? `${code}: ${rec.varLabel}${rec.unit ? ` (${rec.unit})` : ''}` : code;
}

/** Class coding of a class layer for the README: the classes present in the selection, in index order. */
function classCoding(code: string, classes: ClassEntry[], index: Int32Array): ClassCoding {
  const present = new Set<number>();
  for (const k of index) if (k >= 0) present.add(k);
  return { code, classes: classes.map((c, k) => ({ index: k, value: Number(c.value), label: String(c.label) })).filter((c) => present.has(c.index)) };
}

/** The `meta.csv` resource of datapackage.json. */
const META_CSV_RESOURCE: PackageInfo['dataFiles'][number] = {
  name: 'meta.csv',
  mediaType: 'text/csv',
  format: 'csv',
  description: 'Catalog records of the variables.',
  columns: ['code', 'label', 'description', 'type', 'unit', 'version', 'aggFormula', 'period', 'category', 'subcategory', 'item', 'source', 'contact', 'downloadedOn', 'citation'].map((n) => ({ name: n, role: 'value' as const, label: n, unit: '', type: 'string' as const })),
};

function dataLabel(method: string, codes: RequestCodes): string {
  return `${PRODUCER} ${method}: ${codes.vars.join(', ')}${codes.by.length ? ` by ${codes.by.join(', ')}` : ''} in ${codes.area.join(', ')}`;
}

/**
 * Generates the files (and graphics) of a session for a file `format`.
 * @param input format, request, results and catalog records
 * @param opts abort signal; progress in files written
 * @returns files in listing order, graphics, and the ZIP name
 * @throws IndapiError BAD_FORMAT unknown format; EMPTY_SELECTION a per-cell format whose
 *   result selects no cell; TOO_LARGE when {@link estimateBytes} exceeds the limit (the
 *   message states the size); BAD_ARGUMENT unknown `pal`; INTERNAL when the result the
 *   format needs is missing or plot/hist lack a rasterizer; ABORTED
 */
export async function genFile(input: GenFileInput, opts: CallOptions = {}): Promise<GenFileResult> {
  const format = normalizeFormat(input.format);
  const codes = requestCodes(input.args);
  const zipName = zipFileName(codes, String(input.format));
  const now = input.now ?? new Date();
  const meta = input.meta.length ? input.meta : (input.table?.meta ?? input.cells?.meta ?? []);
  const { signal, onProgress } = opts;
  throwIfAborted(signal);
  if (format === 'data.table') return { files: [], graphics: [], zipName };

  if (TABULAR.has(format) && !input.table) throw new IndapiError('INTERNAL', `genFile: format '${format}' needs the summary table.`);
  if (PER_CELL.has(format)) {
    if (!input.cells) throw new IndapiError('INTERNAL', `genFile: format '${format}' needs the per-cell result.`);
    if (countSelected(input.cells) === 0 || input.cells.grid.width * input.cells.grid.height === 0) {
      throw new IndapiError('EMPTY_SELECTION', `The request selects no cells, so there is nothing to write as ${format}: check the iso3 codes, the by filter or the WKT shape.`, { format });
    }
  }
  const limit = input.maxBytes ?? MAX_PACKAGE_BYTES;
  const need = estimateBytes(format, input.table, input.cells);
  if (need > limit) {
    const mb = (x: number) => `${Math.ceil(x / (1024 * 1024))} MB`;
    throw new IndapiError('TOO_LARGE', `The ${format} files of this request would need about ${mb(need)} of memory, more than the limit of ${mb(limit)}: request fewer variables or a smaller area.`, { needBytes: need, limitBytes: limit });
  }

  const base = dataFileBase(input.method, codes);
  const files: GeneratedFile[] = [];
  const graphics: Graphic[] = [];
  const info: PackageInfo = { base, format, method: input.method, args: input.args, meta, dataFiles: [], requestUrl: input.requestUrl, now, version: input.version };
  const progress = (done: number, total: number) => onProgress?.(done, total);

  if (TABULAR.has(format) || format === 'json') {
    let data: GeneratedFile;
    if (format === 'json') {
      const cells = input.cells as CellResult;
      if (zonalJson(input.args) && (cells.keys?.length ?? 0) > 1) {
        // the engine says whether it pooled the countries (one block for all selected cells);
        // from an engine that predates `selection`, summaries per country
        const pooled = cells.selection?.pooled ?? false;
        data = fileOf(`${base}.geojson`, writeGeoJsonZonal(cells, { pooled, signal }));
        info.geojson = 'zonal';
        info.dataFiles.push({ name: data.name, mediaType: data.mediaType, format: 'geojson', description: `GeoJSON (RFC 7946) FeatureCollection. ${zonalDescription(pooled)} Properties: ${pooled ? 'ISO3 (the countries of the cells), ' : 'ISO3, ADM0_NAME, '}the by codes (labels), CELLS, then the summary values.` });
      } else {
        data = fileOf(`${base}.geojson`, writeGeoJson(cells, signal));
        info.geojson = 'cells';
        info.dataFiles.push({ name: data.name, mediaType: data.mediaType, format: 'geojson', description: `GeoJSON (RFC 7946) FeatureCollection. ${CELL_POINTS_DESCRIPTION} Properties: CELL5M, X, Y, the keys (ISO3, ADM0_NAME), then the values.` });
      }
    } else {
      const table = input.table as TableResult;
      const label = dataLabel(input.method, codes);
      if (format === 'csv') data = fileOf(`${base}.csv`, writeCsv(table));
      else if (format === 'dta') data = fileOf(`${base}.dta`, writeDta(table, { dataLabel: label, timeStamp: now }));
      else if (format === 'rda') data = fileOf(`${base}.rda`, writeRda(table, { dataLabel: label, timeStamp: dtaTimeStamp(now) }, rObjectName(base)));
      else data = fileOf(`${base}.rds`, writeRds(table, { dataLabel: label, timeStamp: dtaTimeStamp(now) }));
      info.dataFiles.push({ name: data.name, mediaType: data.mediaType, format, columns: table.columns });
    }
    progress(1, 6);
    throwIfAborted(signal);
    info.dataFiles.push(META_CSV_RESOURCE);
    const names = [data.name, 'meta.csv', 'README.md', 'datapackage.json', 'DESCRIPTION', 'terms.html'];
    files.push(
      data,
      fileOf('meta.csv', metaCsv(meta, now)),
      fileOf('README.md', readmeText(info, names)),
      fileOf('datapackage.json', JSON.stringify(dataPackageJson(info), null, 2) + '\n'),
      fileOf('DESCRIPTION', descriptionText(info, names)),
      fileOf('terms.html', termsHtml(info)),
    );
    progress(6, 6);
    return { files, graphics, zipName };
  }

  const cells = input.cells as CellResult;
  const geo = windowGeo(cells.grid);
  const total = cells.layers.length + 1;

  if (format === 'plot' || format === 'hist') {
    const rasterize = input.rasterize ?? defaultGraphics.rasterize;
    if (!rasterize) throw new IndapiError('INTERNAL', `genFile: format '${format}' needs a rasterizer (configureGraphics / createResvgRasterizer) to draw PNG.`);
    const bm = input.basemap ?? defaultGraphics.basemap;
    const basemap = typeof bm === 'function' ? await bm() : bm;
    // plot with by: a zonal map (hist never gets the by domains, see cellQueryArgs).
    const by = format === 'plot' ? codes.by.map((code) => ({ code, rec: recordOf(meta, code) })) : [];
    let admin1: Basemap | undefined;
    if (by.some((b) => isAdmin1Code(b.code))) {
      const a1 = input.admin1 ?? defaultGraphics.admin1;
      admin1 = typeof a1 === 'function' ? await a1().catch(() => undefined) : a1;
    }
    let admin2: Basemap | undefined;
    if (by.some((b) => isAdmin2Code(b.code))) {
      const a2 = input.admin2 ?? defaultGraphics.admin2;
      admin2 = typeof a2 === 'function' ? await a2().catch(() => undefined) : a2;
    }
    for (const [k, layer] of cells.layers.entries()) {
      throwIfAborted(signal);
      const rec = recordOf(meta, layer.code);
      const svg =
        format === 'plot'
          ? renderPlot({ cells, layer, rec, basemap, admin1, admin2, by, pal: typeof input.args.pal === 'string' ? input.args.pal : undefined, now })
          : await renderHist({ cells, layer, rec, now });
      const png = await rasterize(svg, signal);
      graphics.push({ svg, png });
      const b = dataFileBase(input.method, codes, [layer.code]);
      // Named after the kind of graphic too, so plot and hist packages unzip side by side.
      files.push(fileOf(`${b}-${format}.svg`, svg), fileOf(`${b}-${format}.png`, png));
      progress(k + 1, cells.layers.length);
    }
    return { files, graphics, zipName };
  }

  info.classLayers = [];
  if (format === 'grd') {
    const bands: GrdBand[] = cells.layers.map((layer) => {
      const values = maskedValues(layer, cells.mask);
      if (layer.type !== 'class') return { name: layer.code, values };
      const { classes, index } = classIndices(layer, cells.mask);
      info.classLayers?.push(classCoding(layer.code, classes, index));
      return { name: layer.code, values, classes: classes.map((c) => ({ value: Number(c.value), label: String(c.label) })) };
    });
    const { grd, gri } = writeGrd(geo, bands, now);
    files.push(fileOf(`${base}.grd`, grd), fileOf(`${base}.gri`, gri));
    progress(cells.layers.length, total);
  } else {
    for (const [k, layer] of cells.layers.entries()) {
      throwIfAborted(signal);
      const rec = recordOf(meta, layer.code);
      const b = dataFileBase(input.method, codes, [layer.code]);
      const description = layer.code;
      const md: Record<string, string> = { CODE: layer.code, LABEL: layerLabel(rec, layer.code) };
      if (codes.by.length) md.VALUES = `summary of each cell's group by ${codes.by.join(', ')} (a zonal map: the group's value repeats over its cells), not the cell's own value`;
      const n = geo.width * geo.height;
      if (layer.type === 'class') {
        const { classes, index } = classIndices(layer, cells.mask);
        const names = classes.map((c) => String(c.label));
        const colors = classColors(classes, rec);
        const rat = classes.map((c, k) => ({ index: k, value: Number(c.value), label: String(c.label) }));
        info.classLayers?.push(classCoding(layer.code, classes, index));
        if (format === 'tif') {
          const byte = classes.length <= 255;
          const data = byte ? new Uint8Array(n) : new Uint16Array(n);
          const nd = byte ? 255 : 65535;
          for (let i = 0; i < n; i++) data[i] = index[i] < 0 ? nd : index[i];
          const tif = writeGeoTiff({ width: geo.width, height: geo.height, data, sampleType: byte ? 'Byte' : 'UInt16', xmin: geo.xmin, ymax: geo.ymax, cellSize: geo.cellSize, noData: nd, palette: byte ? colors.map((c) => c ?? '#bebebe') : undefined, description: md.LABEL });
          files.push(fileOf(`${b}.tif`, tif), fileOf(`${b}.tfw`, worldFile(geo.xmin, geo.ymax, geo.cellSize)), fileOf(`${b}.tif.aux.xml`, pamXml([{ description, noData: nd, categories: names, rat, metadata: md }])));
        } else {
          const vals = Float64Array.from(index, (x) => (x < 0 ? NaN : x));
          files.push(fileOf(`${b}.asc`, ascText(geo, vals, -9999, true)), fileOf(`${b}.prj`, ESRI_PRJ_WGS84), fileOf(`${b}.asc.aux.xml`, pamXml([{ description, noData: -9999, categories: names, colors, rat, metadata: md }])));
        }
      } else {
        const values = maskedValues(layer, cells.mask);
        const unit = rec?.unit || undefined;
        if (format === 'tif') {
          const data = new Float32Array(n);
          for (let i = 0; i < n; i++) data[i] = Number.isNaN(values[i]) ? -9999 : values[i];
          const tif = writeGeoTiff({ width: geo.width, height: geo.height, data, sampleType: 'Float32', xmin: geo.xmin, ymax: geo.ymax, cellSize: geo.cellSize, noData: -9999, description: md.LABEL });
          files.push(fileOf(`${b}.tif`, tif), fileOf(`${b}.tfw`, worldFile(geo.xmin, geo.ymax, geo.cellSize)), fileOf(`${b}.tif.aux.xml`, pamXml([{ description, unit, noData: -9999, metadata: md }])));
        } else {
          files.push(fileOf(`${b}.asc`, ascText(geo, values, -9999)), fileOf(`${b}.prj`, ESRI_PRJ_WGS84), fileOf(`${b}.asc.aux.xml`, pamXml([{ description, unit, noData: -9999, metadata: md }])));
        }
      }
      progress(k + 1, total);
    }
  }
  // datapackage.json resources: the rasters (tif, asc, grd + gri), then meta.csv
  const zonalNote = codes.by.length ? ` With by, each cell holds the summary of its group (${codes.by.join(', ')}), not its own value.` : '';
  for (const f of files) {
    const ext = f.name.split('.').pop() as string;
    if (!['tif', 'asc', 'grd', 'gri'].includes(ext) || f.name.endsWith('.aux.xml')) continue;
    const what: Record<string, string> = {
      tif: 'GeoTIFF raster (EPSG:4326, 5-arc-minute cells); world file .tfw and GDAL side-car .tif.aux.xml alongside.',
      asc: 'ESRI ASCII grid (EPSG:4326, 5-arc-minute cells); .prj and GDAL side-car .asc.aux.xml alongside.',
      grd: 'R raster package header (.grd) of the bands in the .gri file.',
      gri: 'R raster package data (.gri, band interleaved by line) described by the .grd header.',
    };
    info.dataFiles.push({ name: f.name, mediaType: f.mediaType, format: ext, description: what[ext] + zonalNote });
  }
  info.dataFiles.push(META_CSV_RESOURCE);
  const names = [...files.map((f) => f.name), 'meta.csv', 'README.md', 'datapackage.json', 'DESCRIPTION'];
  files.push(
    fileOf('meta.csv', metaCsv(meta, now)),
    fileOf('README.md', readmeText(info, names)),
    fileOf('datapackage.json', JSON.stringify(dataPackageJson(info), null, 2) + '\n'),
    fileOf('DESCRIPTION', descriptionText(info, names)),
  );
  progress(total, total);
  return { files, graphics, zipName };
}

/** Files stored without recompression in the ZIP (already compressed). */
const STORED = /\.(png|tif|rds|rda|zip|gz)$/i;

/**
 * Builds a ZIP archive of files with jszip (DEFLATE, level 6; already-compressed files
 * stored), reporting progress in percent (0..100).
 * @param files the session's files, in order
 * @param opts signal aborts generation (the stream is paused); progress in percent
 * @param date modification time of the entries (default now)
 * @returns the archive bytes (media type application/zip)
 * @throws IndapiError ABORTED
 */
export async function zipFiles(files: GeneratedFile[], opts: CallOptions = {}, date: Date = new Date()): Promise<Uint8Array> {
  const { signal, onProgress } = opts;
  throwIfAborted(signal);
  const zip = new JSZip();
  for (const f of files) zip.file(f.name, f.bytes, { binary: true, date, compression: STORED.test(f.name) ? 'STORE' : 'DEFLATE' });
  const helper = zip.generateInternalStream({ type: 'uint8array', compression: 'DEFLATE', compressionOptions: { level: 6 }, streamFiles: false });
  return new Promise<Uint8Array>((resolve, reject) => {
    const onAbort = () => {
      helper.pause();
      reject(new IndapiError('ABORTED', 'The request was aborted.'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    helper
      .accumulate((m) => onProgress?.(m.percent, 100))
      .then((b) => {
        onProgress?.(100, 100);
        resolve(b);
      }, reject)
      .finally(() => signal?.removeEventListener('abort', onAbort));
  });
}
