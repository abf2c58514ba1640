/**
 * Integration contract between the engine (src/core/engine), the writers
 * (src/core/formats), the HTTP contract (src/contract) and the app (src/app, workers).
 * Owners implement these; changing a shape needs every user updated in the same change.
 */
import type { CatchmentArgs, CatchmentResult } from './catchment';
export type { CatchmentArgs, CatchmentBand, CatchmentCoverage, CatchmentOrigin, CatchmentResult, CatchmentSource, Neighbours, SourceCoverage } from './catchment';
import type { GridDef } from '../grid';
import type { ClassEntry, GetLayerArgs, Row, SelectionUsed, TableResult, VarRecord, ZonalArgs } from '../types';
export type { ByArg, ColumnInfo, GetLayerArgs, Row, SelectionUsed, TableResult, ZonalArgs } from '../types';

/** Options every async API takes. */
export interface CallOptions {
  /** Aborts the call; an abort never leaves a poisoned cache entry. */
  signal?: AbortSignal;
  /** Progress callback, `done` and `total` in arbitrary units (cells, tiles, bytes). */
  onProgress?: (done: number, total: number) => void;
}

/** One row of the category listing (spec 2.1). */
export interface CategoryRow {
  category: string;
  subcategory: string;
  item: string;
  code: string;
  label: string;
}

/** One layer of a per-cell result. */
export interface CellLayer {
  /** Catalog code. */
  code: string;
  /** Continuous values or class values. */
  type: 'continuous' | 'class';
  /**
   * One value per window cell, row-major, north row first; NaN = no data / not selected.
   * For class layers: the raster class value (see `classes`). With `by`, each cell carries
   * its group's summary (a zonal map); a cell without a key in some `by` dimension carries
   * the summary of that dimension's NA group.
   */
  values: Float64Array;
  /** Class table for class layers. */
  classes?: ClassEntry[];
  /**
   * Class layers whose values are ids users join on (a catchment's 1-based `source_id`):
   * the tif/asc writers write the values themselves instead of 0-based class indices, so
   * every format holds the same id as the CSV and meta.csv.
   */
  valuesAreIds?: boolean;
}

/** A per-cell result (collapse = false) on a window of the bundle grid, for rasters and GeoJSON. */
export interface CellResult {
  /** The window as its own grid (same lattice, clipped to the selected cells' bounding box). */
  grid: GridDef;
  /** 1 where the cell is selected, row-major. */
  mask: Uint8Array;
  /** One layer per var, in request order. */
  layers: CellLayer[];
  /**
   * Per-cell key layers (the domain of each cell), in output order: first `ISO3` (class layer:
   * the ISO3 raster value, `classes` = the ISO3 class table with labels and names), then one
   * layer per `by` code in request order. A class `by` is a class layer whose values are the
   * raster class values and whose `classes` are that code's class table entries (only the kept
   * classes when a class filter is given). A continuous `by` is a `type: 'class'` layer whose
   * values are the 1-based interval index, with `classes` = the intervals as
   * `{ value: index, label: "(a,b]" }`. `code` is the row field name (the code, or
   * `<CODE>_by` when the code is also a `var`). NaN where a cell has no key (not selected,
   * no-data class, or outside every interval: R's NA group, whose summary such cells carry in
   * `layers`). Absent from engines that predate it.
   */
  keys?: CellLayer[];
  /** Catalog records of every var and by code involved. */
  meta: VarRecord[];
  /** The selection the engine used (absent from engines that predate it). */
  selection?: SelectionUsed;
}

/** A generated file of a session. */
export interface GeneratedFile {
  /** File name, no folders, e.g. "getLayer-ELEVATION-ADM1_NAME_ALT-KEN.csv". */
  name: string;
  /** Media type, e.g. "text/csv". */
  mediaType: string;
  /** Contents. */
  bytes: Uint8Array;
}

/** A drawn graphic of a session (plot, hist): both renderings. */
export interface Graphic {
  /** SVG document text. */
  svg: string;
  /** PNG bytes. */
  png: Uint8Array;
}

/** Arguments of getLayerWKT. */
export interface GetLayerWktArgs extends GetLayerArgs {
  /** WKT in EPSG:4326: POINT, MULTIPOINT, POLYGON, MULTIPOLYGON, GEOMETRYCOLLECTION of those. */
  wkt: string;
  /**
   * Default false: per polygon, the cells whose centre is inside (weight 1); a polygon covering
   * no cell centre takes coverage-fraction weights. true: coverage-fraction weights everywhere.
   */
  exact?: boolean;
  /**
   * Default false. true: a shape that crosses borders also gets one row of its own summary over
   * all its cells (no ISO3 or ADM0_NAME: the whole shape, as a row without `by` fields is a
   * country's), placed before its per-country rows; sums and weighted means are computed from
   * the cells, never averaged from the countries' summaries.
   */
  totals?: boolean;
}

/** Arguments of `category`: patterns (case-insensitive regular expressions) and the nested form. */
export interface CategoryArgs {
  q?: string[];
  /** Nested by category and subcategory (R `as.list = TRUE`). */
  asList?: boolean;
}

/** Result of `category`: the rows, or (asList) nested by category and subcategory. */
export type CategoryResult = CategoryRow[] | Record<string, Record<string, CategoryRow[]>>;

/** Arguments of `describe`: codes and/or patterns (neither: every record). */
export interface DescribeArgs {
  var?: string[];
  q?: string[];
}

/** Result of `describe`: full catalog records, identifier element named `Code`. */
export type DescribeResult = Record<string, string>[];

/** Arguments of `classify`: summaries over custom domains (with the zonal operations' arguments). */
export interface ClassifyArgs extends ZonalArgs {
  var: string[];
  /** A GeoJSON FeatureCollection (object) or a named list of WKT strings, as sent (read by the engine). */
  domains: unknown;
  /** Feature property naming each domain (default the feature id, else its position). */
  key?: string;
  exact?: boolean;
  stats?: string[];
  /** Years of the series in `var`, as {@link GetLayerArgs.year}. */
  year?: number[];
  /** Change between two years, as {@link GetLayerArgs.change}. */
  change?: 'diff' | 'pct';
}

/** Arguments of `similar`: units ranked by similarity to unit `x`. */
export interface SimilarArgs {
  /** The reference: a CELL5M id (by 0), a unit code or name (by 1, 2). */
  x: string | number;
  var: string[];
  /** Unit level: 0 cells, 1 first-level, 2 second-level units. */
  by?: number;
  iso3?: string[];
  /** One year of the series in `var` (absent: the latest year every series holds). */
  year?: number[];
}

/** Result of the main query (`getLayer`): the rows, or (asList) `{ meta, data }`. */
export type LayerResult = Row[] | { meta: Record<string, string>[]; data: Row[] };

/**
 * Arguments of the contract's `indapi` and `genFile`: the main query, over areas or `wkt`
 * shapes, and what to write (`format`, `pal`; `dir` is accepted and ignored).
 */
export interface IndapiArgs extends GetLayerArgs {
  /** Output format as sent (any spelling the format registry accepts); absent: the table. */
  format?: string;
  /** ColorBrewer palette for `format = "plot"`. */
  pal?: string;
  /** Accepted for compatibility, ignored with a warning. */
  dir?: string;
}

/** Arguments of the contract's `catchment`: the engine's, and a file `format`. */
export interface CatchmentCallArgs extends CatchmentArgs {
  format?: string;
}

/**
 * A request normalised once, at the entry of the writers (`genFile` of src/core/formats) and
 * of the package use case (src/core/package), by `queryValue` (src/core/args.ts): the codes
 * read by the one list reader, `iso3` upper-cased once. Writers name files and describe
 * packages from it and from the selection the engine used, never from the raw arguments.
 */
export interface QueryValue {
  /** `var` codes, in request order. */
  vars: string[];
  /** `by` codes (keys of the object form; `similar`'s unit level as text). */
  by: string[];
  /** `iso3` codes, upper-cased; empty when not sent. */
  iso3: string[];
  /** The area part of file names: the iso3 codes, else `CELLS` (ids), `WKT` (wkt), `SSA`. */
  area: string[];
  /** WKT of the shapes, when the request has them. */
  wkt?: string;
  /** `collapse` as sent (false: one row per cell). */
  collapse?: boolean;
  /** ColorBrewer palette of plots (`pal`). */
  pal?: string;
}

/** The engine: every data method of the service, pure over injected I/O. */
export interface Engine {
  /** Catalog records, in catalog order. */
  catalog(opts?: CallOptions): Promise<VarRecord[]>;
  /** Category listing (spec E4). @throws IndapiError NO_MATCH when patterns match nothing */
  category(args: CategoryArgs, opts?: CallOptions): Promise<CategoryResult>;
  /** Full metadata records, identifier element named `Code`. */
  describe(args: DescribeArgs, opts?: CallOptions): Promise<DescribeResult>;
  /**
   * The main query, collapsed (rows) or as { meta, data }, as the JSON output gives it.
   * Each variable's catalog formula (`aggFunR`) is evaluated per group as R evaluates it:
   * `sum(x, na.rm = TRUE)` over a group whose cells are all NA is 0 (R); where R gives NA,
   * NaN or ±Inf (mean of nothing, 0/0, x/0, a weighted.mean with an NA weight) the field is
   * absent. Groups with no selected cell give no row.
   */
  getLayer(args: GetLayerArgs, opts?: CallOptions): Promise<LayerResult>;
  /** The main query as a table with column info, for writers. */
  getLayerTable(args: GetLayerArgs, opts?: CallOptions): Promise<TableResult>;
  /** The main query per cell (collapse = false) on a window, for rasters, GeoJSON and maps. */
  getLayerCells(args: GetLayerArgs | GetLayerWktArgs, opts?: CallOptions): Promise<CellResult>;
  /** Summaries over WKT shapes, per ISO3 and per feature. */
  getLayerWKT(args: GetLayerWktArgs, opts?: CallOptions): Promise<TableResult>;
  /** Summaries over custom domains (GeoJSON FeatureCollection or named WKT list). */
  classify(args: ClassifyArgs, opts?: CallOptions): Promise<TableResult>;
  /** Units ranked by similarity to unit `x`. */
  similar(args: SimilarArgs, opts?: CallOptions): Promise<TableResult>;
  /** The whole catalog as CSV (E9). */
  catalogCsv(opts?: CallOptions): Promise<string>;
  /**
   * Travel-time catchment: bands of travel time from source points over a friction layer,
   * each summarised like an area (see src/core/catchment/query.ts). Optional: engines that
   * predate it (and test fakes) lack it, and the contract answers 400 then.
   */
  catchment?(args: CatchmentArgs, opts?: CallOptions): Promise<CatchmentResult>;
}
