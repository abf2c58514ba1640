/**
 * The format registry: one {@link FormatSpec} record per download `format` (name, the
 * original's aliases, what input it is written from, media type, label, size estimate and
 * writer). Every surface reads it: the contract and the files worker (through
 * `buildPackage`, src/core/package), the writers' {@link genFile}, the Download panel's
 * list. A format is added by writing its writer and adding one entry to {@link FORMATS}.
 *
 * This module is light (no writer code): each entry imports its writer on first use, so
 * the app can list the formats without loading them.
 */
import type { CellResult, TableResult } from '../api';
import { IndapiError } from '../errors';
import { countSelected } from './raster';
import type { FormatSpec, FormatWriter } from './types';

export type { FormatInput, FormatSpec, FormatWriter, GenFileInput, GenFileResult, WriterInput } from './types';

/** Default limit of {@link estimateBytes} (bytes): 512 MiB, what a browser tab can hold twice (files + ZIP). */
export const MAX_PACKAGE_BYTES = 512 * 1024 * 1024;

/** Table bytes: 4 KiB of side files plus `per` bytes a value. */
const tableBytes = (per: number) => (t?: TableResult) => (t ? 4096 + t.rows.length * Math.max(1, t.columns.length) * per : 4096);
/** Raster bytes: 4 KiB plus `per` bytes a cell and layer of the window. */
const gridBytes = (per: number) => (_t?: TableResult, c?: CellResult) => (c ? 4096 + c.grid.width * c.grid.height * Math.max(1, c.layers.length) * per : 4096);
/** GeoJSON points or polygons: about 110 bytes a feature, 22 a value, 30 a key property (ISO3, ADM0_NAME, by labels). */
function geojsonBytes(_t?: TableResult, c?: CellResult): number {
  if (!c) return 4096;
  const keys = c.keys?.length ?? 0;
  return 4096 + countSelected(c) * (110 + 22 * Math.max(1, c.layers.length) + 30 * (keys + (keys ? 1 : 0)));
}

/** The per-cell query without `by`: each cell's own values (hist; json with `collapse = FALSE`). */
function withoutBy<T extends { by?: unknown }>(args: T): T {
  const { by: _by, ...rest } = args;
  return rest as T;
}

/** Lazy writer: imports `load()` on first use and calls its writer for `name`. */
function lazy(load: () => Promise<{ write: (name: string) => FormatWriter }>, name: string): FormatWriter {
  return async (input, opts) => (await load()).write(name)(input, opts);
}
const tabular = () => import('./writers/tabular');
const rasters = () => import('./writers/raster');
const graphics = () => import('./writers/graphics');

/**
 * The formats of `getLayer`, `getLayerWKT`, `indapi` and `genFile` (and, those written from
 * the table, of `similar`), in the Download panel's order.
 */
export const FORMATS: readonly FormatSpec[] = [
  { name: 'csv', aliases: ['xls', 'xlsx'], input: 'table', mediaType: 'text/csv', label: 'CSV table', estimateBytes: tableBytes(14), write: lazy(tabular, 'csv') },
  { name: 'dta', aliases: ['stata'], input: 'table', mediaType: 'application/x-stata-dta', label: 'Stata 14+ (.dta, format 118)', estimateBytes: tableBytes(9), write: lazy(tabular, 'dta') },
  { name: 'rds', aliases: [], input: 'table', mediaType: 'application/octet-stream', label: 'R data frame (.rds)', estimateBytes: tableBytes(9), write: lazy(tabular, 'rds') },
  { name: 'rda', aliases: ['rdata'], input: 'table', mediaType: 'application/octet-stream', label: 'R workspace (.rda, load())', estimateBytes: tableBytes(9), write: lazy(tabular, 'rda') },
  {
    name: 'json', aliases: ['geojson'], input: 'cells', mediaType: 'application/geo+json', label: 'GeoJSON (units as polygons with by, else cell points)',
    estimateBytes: geojsonBytes, cellArgs: (a) => (a.collapse === false ? withoutBy(a) : a), write: lazy(tabular, 'json'),
  },
  { name: 'tif', aliases: ['tiff', 'geotiff', 'geotif'], input: 'cells', mediaType: 'image/tiff', label: 'GeoTIFF raster', estimateBytes: gridBytes(8), write: lazy(rasters, 'tif') },
  { name: 'asc', aliases: ['ascii'], input: 'cells', mediaType: 'application/x-ascii-grid', label: 'ESRI ASCII grid', estimateBytes: gridBytes(12), write: lazy(rasters, 'asc') },
  { name: 'grd', aliases: ['grid'], input: 'cells', mediaType: 'application/octet-stream', label: 'R raster (.grd/.gri)', estimateBytes: gridBytes(8), write: lazy(rasters, 'grd') },
  { name: 'plot', aliases: [], input: 'table+cells', mediaType: 'image/png', label: 'Map image (SVG + PNG)', estimateBytes: gridBytes(6), write: lazy(graphics, 'plot') },
  { name: 'hist', aliases: [], input: 'table+cells', mediaType: 'image/png', label: 'Histogram image (SVG + PNG)', estimateBytes: gridBytes(8), cellArgs: withoutBy, write: lazy(graphics, 'hist') },
  {
    name: 'gpkg', aliases: ['geopackage'], input: 'table', mediaType: 'application/geopackage+sqlite3', label: 'GeoPackage (units as polygons, cells as points; QGIS, ArcGIS)',
    estimateBytes: tableBytes(40), write: lazy(() => import('./writers/gpkg'), 'gpkg'),
  },
  {
    name: 'data.table', aliases: ['datatable'], input: 'none', mediaType: 'application/json', label: 'The table itself (no file)',
    estimateBytes: () => 4096, write: async () => ({ files: [] }),
  },
];

/** Formats refused with their own message. */
const UNSUPPORTED: Record<string, string> = { nc: 'netCDF', netcdf: 'netCDF' };

/**
 * The one normalisation of a `format` value: trimmed (spaces, tabs, new lines), lower-cased.
 * @param format the value as sent (a string; anything else is stringified)
 */
export function formatKey(format: unknown): string {
  return String(format).trim().toLowerCase();
}

/**
 * The spec of a `format` in a list of specs, by name or alias, or undefined.
 * @param format the value as sent (any case, surrounding white space ignored)
 * @param specs the list to search (default {@link FORMATS})
 */
export function findFormat(format: unknown, specs: readonly FormatSpec[] = FORMATS): FormatSpec | undefined {
  const k = formatKey(format);
  return specs.find((s) => s.name === k || s.aliases.includes(k));
}

/**
 * The spec of a `format`: name or alias (case-insensitive, trimmed). Every surface resolves
 * formats here, so none falls back silently.
 * @param format the value as sent
 * @param specs the list to search (default {@link FORMATS})
 * @param unknown message for a format not in the list (default the original's "'x' is not a recognized format.")
 * @throws IndapiError BAD_FORMAT (HTTP 400) naming the format; for nc|netcdf, which this version does not write
 */
export function resolveFormat(format: unknown, specs: readonly FormatSpec[] = FORMATS, unknown?: (format: string) => string): FormatSpec {
  const spec = findFormat(format, specs);
  if (spec) return spec;
  const f = String(format);
  if (!unknown && UNSUPPORTED[formatKey(f)]) {
    throw new IndapiError('BAD_FORMAT', `'${f}' (netCDF) is not supported in this version: use tif, asc or grd for rasters.`, { format: f, arg: 'format' });
  }
  throw new IndapiError('BAD_FORMAT', unknown ? unknown(f) : `'${f}' is not a recognized format.`, { format: f, arg: 'format' });
}

/** Normalised format names of {@link FORMATS}. */
export type FileFormat = 'csv' | 'dta' | 'rds' | 'rda' | 'json' | 'tif' | 'asc' | 'grd' | 'plot' | 'hist' | 'data.table' | (string & {});

/**
 * Normalises a `format` argument (see {@link resolveFormat}): the original's aliases
 * tif|tiff|geotiff|geotif, geojson|json, grd|grid, rds, rda|rdata, dta|stata, asc|ascii,
 * csv|xls|xlsx, plot, hist, data.table|datatable, and every format of {@link FORMATS}.
 * @throws IndapiError BAD_FORMAT "'<format>' is not a recognized format." for anything else
 */
export function normalizeFormat(format: string): FileFormat {
  return resolveFormat(format).name;
}

/** True when the format is written from the per-cell result. @throws IndapiError BAD_FORMAT */
export function needsCells(format: string): boolean {
  return resolveFormat(format).input.includes('cells');
}

/**
 * Arguments of the per-cell query (`Engine.getLayerCells`) that a format needs: `hist`
 * describes each variable's own cell values, so the `by` domains are dropped; so does `json`
 * with `collapse = FALSE`. Every other format keeps them.
 * @param format a format name or alias
 * @param args the query arguments as sent
 */
export function cellQueryArgs<T extends { by?: unknown; collapse?: unknown }>(format: string, args: T): T {
  const spec = resolveFormat(format);
  return spec.cellArgs ? spec.cellArgs(args) : args;
}

/** Estimated bytes the files of a request need in memory (see {@link FormatSpec.estimateBytes}). @throws IndapiError BAD_FORMAT */
export function estimateBytes(format: string, table?: TableResult, cells?: CellResult): number {
  return resolveFormat(format).estimateBytes(table, cells);
}
