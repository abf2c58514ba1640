/**
 * The shapes of the format registry: a download format's record ({@link FormatSpec}), a
 * writer's input and result. A leaf of src/core/formats: the registry (registry.ts) and the
 * writers (writers/*.ts) both import it, so no writer imports the registry that loads it.
 * Re-exported by registry.ts.
 */
import type { Geometry } from 'geojson';
import type { CallOptions, CellResult, GeneratedFile, Graphic, QueryValue, SelectionUsed, TableResult } from '../api';
import type { VarRecord } from '../types';
import type { Basemap, GraphicsDefaults, Rasterizer } from './graphics-config';

/** What a format is written from. */
export type FormatInput =
  /** the summary table (one row per group) */
  | 'table'
  /** the per-cell result (`collapse = FALSE` on the query's window) */
  | 'cells'
  /** both: graphics draw the cells and return the table as the value */
  | 'table+cells'
  /** nothing: the value itself, no file (`data.table`) */
  | 'none'
  /** the method's own result (`PackageInput.source`), e.g. a catchment's bands */
  | 'source';

/** Input of {@link genFile}: the request as the contract names it, read once at its entry into a {@link WriterInput}. */
export interface GenFileInput {
  /** Requested `format` (any spelling the registry accepts). */
  format: string;
  /** The formats to resolve `format` in (default {@link FORMATS}; e.g. a catchment's, src/core/catchment/formats.ts). */
  formats?: readonly FormatSpec[];
  /** Method called, e.g. "getLayer" (first part of file names). */
  method: string;
  /** The request's arguments as the contract names them (var, iso3, by, wkt, ids, collapse, pal, ...). */
  args: Record<string, unknown>;
  /** Summary table, for formats whose input is `table`. */
  table?: TableResult;
  /** Per-cell result, for formats whose input is `cells`. */
  cells?: CellResult;
  /** The method's own result, for formats whose input is `source` (e.g. a CatchmentResult). */
  source?: unknown;
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
  /** Admin-1 outlines for plot, drawn when a `by` code is an admin-1 layer; skipped when absent. */
  admin1?: Basemap;
  /** Admin-2 outlines for plot, drawn when a `by` code is an admin-2 layer; skipped when absent. */
  admin2?: Basemap;
  /**
   * The shapes a table's rows were summarised over when they are not WKT (an uploaded file's
   * polygons, EPSG:4326 degrees), the row's `feature` (1-based) indexing them: the gpkg
   * writer gives each row its shape.
   */
  shapes?: Geometry[];
  /** SVG-to-PNG renderer for plot and hist (see `createResvgRasterizer`). */
  rasterize?: Rasterizer;
  /** The runtime's graphics (src/core/runtime): renderer and outline loaders used when the fields above are not given. */
  graphics?: GraphicsDefaults;
  /** Size limit in bytes (default {@link MAX_PACKAGE_BYTES}). */
  maxBytes?: number;
  /**
   * The area part of file and ZIP names when the request names no area (default: the
   * `iso3` codes, `SSA`, `WKT` or `CELLS`); a catchment names its friction layer, e.g.
   * `catchment-PN14_POP-FRICTION_WALK.csv`, not `-SSA`.
   */
  nameArea?: string[];
}

/**
 * Input of a writer: {@link GenFileInput} with the request read once into its
 * {@link QueryValue} (codes, `iso3` upper-cased, wkt, collapse, pal) and the selection the
 * engine used; a writer reads those, never the raw arguments.
 */
export interface WriterInput extends Omit<GenFileInput, 'args'> {
  /** The request as a query value (`queryValue` of src/core/args.ts). */
  query: QueryValue;
  /** The selection the query used (from the table or the cells), when the engine reports it. */
  selection?: SelectionUsed;
  /**
   * The request as sent, only to be shown: the README's and datapackage.json's copy of it
   * and the commands that reproduce it. Never read for names or values (use `query`).
   */
  shownRequest: Readonly<Record<string, unknown>>;
}

/** Result of {@link genFile} and of a writer. */
export interface GenFileResult {
  /** Files of the session, in listing order. */
  files: GeneratedFile[];
  /** Graphics (plot, hist), one per var. */
  graphics: Graphic[];
  /** Name of the session's ZIP. */
  zipName: string;
}

/**
 * A writer: the files of one format. {@link genFile} checks its input before (the input the
 * spec names is present, the size under the limit, cells selected) and names the ZIP unless
 * the writer does (`zipName`).
 */
export type FormatWriter = (input: WriterInput, opts: CallOptions) => Promise<{ files: GeneratedFile[]; graphics?: Graphic[]; zipName?: string }>;

/** One download format. */
export interface FormatSpec {
  /** Normalised name (lower case), e.g. "tif"; what `normalizeFormat` returns. */
  name: string;
  /** Other accepted spellings (lower case), e.g. "geotiff". */
  aliases: readonly string[];
  /** What it is written from. */
  input: FormatInput;
  /** Media type of its data file. */
  mediaType: string;
  /** One line for pickers (the Download panel): what the files hold. */
  label: string;
  /** Uncompressed bytes its files need, estimated before writing (refused past the limit). */
  estimateBytes(table?: TableResult, cells?: CellResult): number;
  /** The per-cell query's arguments for this format (default: as sent). */
  cellArgs?<T extends { by?: unknown; collapse?: unknown }>(args: T): T;
  /** Writes the files (imports its code on first use). */
  write: FormatWriter;
}
