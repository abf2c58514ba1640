/**
 * The bundle format's one owner: where each file lives (paths relative to the bundle root,
 * URL-encoded in one place), the manifest's type and its parse and serialisation, and the
 * parsers of vi.csv, iso.csv and class tables (`classes/<code>.csv`; they live with the
 * catalog, re-exported here). Engine, server, app, service worker and raster worker read the
 * bundle through these; the layout is described in the README ("The data bundle").
 */
import { IndapiError } from '../errors';
import { gridFromManifest, SSA_GRID, type GridDef } from '../grid';

export { parseClassTable, parseIso, parseVi, type IsoRow } from '../catalog';

/** Path of a layer's COG relative to the bundle root: `cog/<code>.tif`. */
export function cogPath(code: string): string {
  return `cog/${code}.tif`;
}

/** Path of a class layer's class table relative to the bundle root: `classes/<code>.csv`. */
export function classTablePath(code: string): string {
  return `classes/${code}.csv`;
}

/**
 * Absolute URL of a bundle file: `base` (with or without a trailing slash) joined with the
 * relative path, each segment URL-encoded (`cog/A B.tif` -> `cog/A%20B.tif`).
 */
export function bundleUrl(base: string, rel: string): string {
  const path = rel.split('/').map(encodeURIComponent).join('/');
  return base.endsWith('/') ? base + path : `${base}/${path}`;
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
