/**
 * The bundle format's one owner: where each file lives (paths relative to the bundle root,
 * URL-encoded in one place), the manifest's type and its parse and serialisation, and the
 * parsers of vi.csv, iso.csv and class tables (`classes/<code>.csv`; they live with the
 * catalog, re-exported here), and the writers of vi.csv, iso.csv and class tables (RFC 4180
 * via papaparse, `\n` line ends, a final newline). Engine, server, app, service worker and raster worker read the
 * bundle through these; the layout is described in the README ("The data bundle").
 */
import Papa from 'papaparse';
import { IndapiError } from '../errors';
import { FORMULA_TEXT, restoreFormulaText } from '../formats/csv';
import { gridFromManifest, SSA_GRID, type GridDef } from '../grid';
import type { ClassEntry } from '../types';

export { parseClassTable, parseIso, parseVi, type IsoRow } from '../catalog';

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

/**
 * RFC 4180 CSV text (papaparse): a header row, `\n` line ends, a final newline; `quoteAll`
 * quotes every field. Text a spreadsheet would run as a formula (`=HYPERLINK(...)`, `@SUM(1)`)
 * gets a leading `'` (OWASP CSV injection, see src/core/formats/csv.ts); the parsers here
 * and in the catalog take it off again.
 */
function csvText(fields: readonly string[], rows: ReadonlyArray<ReadonlyArray<string>>, quoteAll = false): string {
  return `${Papa.unparse({ fields: [...fields], data: rows.map((r) => [...r]) }, { newline: '\n', quotes: quoteAll, escapeFormulae: FORMULA_TEXT })}\n`;
}

/**
 * vi.csv text: the catalog records as rows of `fields` (a missing field is empty).
 * @param fields column order (varCode first by convention)
 * @param records records as text fields
 * @param opts `quoteAll`: quote every field, as the original service's vi.csv export did
 */
export function serialiseVi(fields: readonly string[], records: ReadonlyArray<Readonly<Record<string, string | undefined>>>, opts: { quoteAll?: boolean } = {}): string {
  return csvText(fields, records.map((r) => fields.map((f) => r[f] ?? '')), opts.quoteAll);
}

/**
 * vi.csv as text records, every column kept (for tools that add or replace records and must
 * keep fields this version does not know; the typed reader is `parseVi`).
 * @param text the file's text (a UTF-8 BOM is dropped)
 * @param name file name for messages
 * @returns the header's fields in order and one record per row
 * @throws IndapiError IO when the CSV cannot be parsed
 */
export function parseViRecords(text: string, name = 'vi.csv'): { fields: string[]; records: Array<Record<string, string>> } {
  const res = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true, transform: restoreFormulaText });
  const bad = res.errors.find((e) => e.type !== 'Delimiter');
  if (bad) throw new IndapiError('IO', `Cannot parse ${name}: ${bad.message} (row ${bad.row}).`);
  return { fields: res.meta.fields ?? [], records: res.data };
}

/**
 * Class table text (`classes/<code>.csv`): `value,label,color`, then `extras` columns.
 * @param table one entry per class value
 * @param extras further columns, in order
 */
export function serialiseClassTable(table: readonly ClassEntry[], extras: readonly string[] = []): string {
  const fields = ['value', 'label', 'color', ...extras];
  return csvText(fields, table.map((e) => fields.map((f) => (e[f] === undefined ? '' : String(e[f])))));
}

/** The columns of iso.csv, in order. */
export const ISO_FIELDS = ['code', 'name', 'type', 'members', 'xmin', 'ymin', 'xmax', 'ymax', 'cells'] as const;

/**
 * iso.csv text: one row per country or region, in {@link ISO_FIELDS} order (members `|`-separated,
 * extent in degrees, cells of the grid).
 */
export function serialiseIso(rows: ReadonlyArray<ReadonlyArray<string>>): string {
  return csvText(ISO_FIELDS, rows);
}
