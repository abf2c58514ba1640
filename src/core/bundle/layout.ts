/**
 * The bundle's layout: where each file lives (paths relative to the bundle root; URLs made by
 * `bundleUrl`, src/core/io/url.ts), the manifest's type, parse and serialisation, the grid it
 * gives, and which files a device stores to work offline. The layout is described in the
 * README ("The data bundle").
 */
import { IndapiError } from '../errors';
import { gridFromManifest, SSA_GRID, type GridDef } from '../grid';

export { bundleUrl } from '../io/url';

/**
 * Path of a layer's COG relative to the bundle root: `cog/<code>.tif`. Sample types: class
 * layers Byte (no-data 255) or UInt16 (65535); continuous layers Float32 (no-data -9999; the
 * embedded bundle and bundles of earlier versions) or, as the table ingest writes them, stored
 * exactly (src/core/ingest/decimals.ts): Int16/Int32 integers value x 10^k with the GDAL scale
 * 10^-k in GDAL_METADATA (tag 42112; no-data the type's minimum), else Float32 or Float64 (no-data
 * NaN). Every reader decodes samples with src/core/cog/decode.ts.
 */
export function cogPath(code: string): string {
  return `cog/${code}.tif`;
}

/**
 * Path of a layer's values relative to the bundle root, the one way readers find a variable's
 * COG: `cog/<code>.tif`; with `year`, the file of that year of a gridded series,
 * `cog/<code>_<YYYY>.tif` (one single-band COG per year: a year's read touches that file's
 * blocks only; the catalog record of the year is `<code>_<YYYY>` with `series = <code>` and
 * `year = YYYY`, so a bundle made before series reads unchanged). National series have no COG
 * (see {@link NATIONAL_SERIES_PATH}).
 * @param code catalog code (`varCode`)
 * @param opts `year`: the year of a series (whole number)
 */
export function layerPath(code: string, opts: { year?: number } = {}): string {
  return opts.year === undefined ? cogPath(code) : cogPath(`${code}_${opts.year}`);
}

/**
 * Path of the national series' values: `series/national.csv`, long form
 * `series,ISO3,year,value,source` (one row per series, country and year the source gives; a
 * missing row is NA). Written by scripts/data/national_series.R; absent from older bundles.
 */
export const NATIONAL_SERIES_PATH = 'series/national.csv';
/** Path of the national series' catalog records: `series/vi.csv` (vi.csv's columns plus `series`). */
export const SERIES_CATALOG_PATH = 'series/vi.csv';
/** Path of the sources a national value's `source` names: `series/sources.csv` (source, name, license, citation). */
export const SERIES_SOURCES_PATH = 'series/sources.csv';

/** Path of a class layer's class table relative to the bundle root: `classes/<code>.csv`. */
export function classTablePath(code: string): string {
  return `classes/${code}.csv`;
}

/** A file of the bundle as its manifest lists it. */
export interface BundleFile {
  /** Path relative to the bundle root, e.g. `cog/ELEVATION.tif`. */
  path: string;
  /** File size in bytes. */
  bytes: number;
  /** Lower-case hex SHA-256 of the whole file. */
  sha256: string;
}

/** manifest.json: the bundle's identity, grid and files (the fields every reader uses; others are kept). */
export interface BundleManifest {
  /** Bundle name. */
  name: string;
  /** Bundle version (shown in the app, written into packages). */
  version: string;
  /** Creation date (ISO 8601), when given. */
  created?: string;
  /** The grid of every COG (EPSG:4326); SSA_GRID when absent. */
  grid?: Partial<GridDef>;
  /** Every file of the bundle but the manifest. */
  files: BundleFile[];
  /** Other fields of an ingested or newer bundle, kept as read. */
  [field: string]: unknown;
}

/**
 * Parses manifest.json.
 * @throws IndapiError IO when it is not JSON or not an object with a `files` list
 */
export function parseManifest(text: string): BundleManifest {
  let m: unknown;
  try {
    m = JSON.parse(text);
  } catch {
    throw new IndapiError('IO', 'manifest.json is not valid JSON.');
  }
  if (!m || typeof m !== 'object' || Array.isArray(m)) throw new IndapiError('IO', 'manifest.json is not an object.');
  const o = m as Record<string, unknown>;
  if (o.files !== undefined && !Array.isArray(o.files)) throw new IndapiError('IO', 'manifest.json: files is not a list.');
  return { ...o, name: String(o.name ?? ''), version: String(o.version ?? ''), files: (o.files as BundleFile[] | undefined) ?? [] } as BundleManifest;
}

/** manifest.json text of a manifest (two-space JSON, newline at the end). */
export function serialiseManifest(m: BundleManifest): string {
  return `${JSON.stringify(m, null, 2)}\n`;
}

/** The grid of a bundle: its manifest's when it gives one (width and cell size), else SSA_GRID. */
export function manifestGrid(m: BundleManifest | null): GridDef {
  return gridFromManifest(m?.grid, SSA_GRID);
}


/** Levels of the outlines a bundle may hold (`basemap/<level>.geojson`). */
export type OutlineLevel = 'countries' | 'admin1' | 'admin2';

/** Path of a level's outlines relative to the bundle root: `basemap/<level>.geojson`. */
export function outlinePath(level: OutlineLevel): string {
  return `basemap/${level}.geojson`;
}

/**
 * The files a device stores whole to work offline (the service worker's precache): every file
 * the manifest lists but the COGs (`.tif`), which are cached by range as they are read or kept
 * whole when the user keeps them offline.
 */
export function offlineFiles(m: Pick<BundleManifest, 'files'>): BundleFile[] {
  return m.files.filter((f) => !f.path.endsWith('.tif'));
}
