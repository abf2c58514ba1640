/**
 * Shapes shared by the catalog, the engine, the writers, the contract and the app.
 * Owners may extend these types; changing a field's meaning needs every user updated.
 */

/** One record of the variable inventory `public/data/vi.csv` (all fields are text in the CSV). */
export interface VarRecord {
  /** Indicator code, e.g. "ELEVATION". Unique. */
  varCode: string;
  /** Short label, may carry a year, e.g. "Elevation (ETOPO5)". */
  varLabel: string;
  /** Longer title. */
  varTitle: string;
  /** Description, including the method used to compute it on the grid. */
  varDesc: string;
  /** Unit, e.g. "m", "km", "km2", "people", "" for classes. */
  unit: string;
  /** "continuous" or "class". */
  type: 'continuous' | 'class';
  /** Decimals to round summaries to. */
  dec: number;
  /** Aggregation formula in the original's R form, parsed never evaluated, e.g. "sum(AREA_LAND, na.rm=TRUE)". */
  aggFunR: string;
  /** Pipe-separated default interval breaks (continuous) or class values (class). */
  classBreaks: string;
  /** Pipe-separated legend labels, one per interval/class. */
  classLabels: string;
  /** Pipe-separated colours (#rrggbb), one per interval/class. */
  classColors: string;
  /** Category. */
  cat1: string;
  /** Subcategory. */
  cat2: string;
  /** Item. */
  cat3: string;
  /** First year the data refer to. */
  year: string;
  /** Last year the data refer to. */
  yearEnd: string;
  /**
   * Series stem when the record is one year (`year`) of a series or a whole national series
   * (optional column of vi.csv; empty or absent: not a series). See src/core/series.
   */
  series?: string;
  /** Full source description(s). */
  sources: string;
  /** Short source name. */
  sourceMini: string;
  /** Contact / owner. */
  owner: string;
  /** Citation. */
  citation: string;
  /** Licence of the source data (SPDX id or name). */
  license: string;
  /** Version of this record. */
  version: string;
  /** Publication date of this record (ISO 8601). */
  published: string;
  /** Sample type of the COG: Float32, Int16, UInt16, Byte. */
  dataType: string;
  /** No-data value of the COG. */
  noData: string;
  /** For class layers: path of the value-to-label table relative to the bundle root, e.g. "classes/ISO3.csv". */
  classTable: string;
}

/** One row of a class table `public/data/classes/<varCode>.csv`: raster value to label. */
export interface ClassEntry {
  /** Raster value (integer). */
  value: number;
  /** Label written in results, e.g. "KEN" or "Nairobi". */
  label: string;
  /** Optional colour #rrggbb. */
  color?: string;
  /** Any further columns of the table (e.g. name, iso3, code). */
  [extra: string]: string | number | undefined;
}

/** One country or region code accepted as `iso3` (a row of `public/data/iso.csv`). */
export interface IsoEntry {
  /** ISO 3166-1 alpha-3 code or region code (SSA, EAF, MAF, SAF, WAF). */
  code: string;
  /** English name. */
  name: string;
  /** "country" or "region". */
  type: 'country' | 'region';
  /** For regions: member ISO3 codes. For countries: [code]. */
  members: string[];
  /** Bounding box of the code's cells, degrees: [xmin, ymin, xmax, ymax]. */
  bboxDeg: [number, number, number, number];
}

/**
 * A value in a result row: text for keys and classes, number for summaries, null only for a
 * `by` key of R's NA group (cells outside every interval or without a class: `cut()` gives NA).
 */
export type Cell = string | number | null;
/**
 * One result row (spec part 2.3). Absent fields are missing (values, and the `by` keys of an
 * overall row, which carries `total: 1`); a `by` key is null in the NA group's row.
 */
export type Row = Record<string, Cell>;

/**
 * The `by` argument: a list of codes, or an object mapping a continuous code to custom
 * increasing breaks (or a class code to a list of classes to keep); `null` keeps a code's default
 * grouping (class as is, continuous at its catalog breaks) beside codes with custom breaks.
 */
export type ByArg = string[] | Record<string, Array<number | string> | null>;

/**
 * Arguments of the zonal operations named in `stats` (src/core/engine/zonal.ts), shared by the
 * main query, `getLayerWKT` and `classify`.
 */
export interface ZonalArgs {
  /** Weight layer code of `weighted_mean`, `weighted_sum`, `weighted_frac` (R `weights`), e.g. "POP_MODEL". */
  weights?: string;
  /** Quantile probabilities 0..1 of `quantile` (R `q`); default 0.1, 0.25, 0.5, 0.75, 0.9. */
  q?: number[];
  /** `quantile_type`: "7" (R type 7, default) or "weighted" (coverage-weighted). */
  quantileType?: string;
  /** `histogram` bins: one count (default 10) or increasing edges. */
  bins?: number[];
  /** `histogram` range c(min, max) of a bin count (default each zone's min and max). */
  range?: number[];
}

/** Arguments of the main query (getLayer / indapi). */
export interface GetLayerArgs extends ZonalArgs {
  /** Indicator codes; de-duplicated. */
  var: string[];
  /** Country or region codes; default ["SSA"]. */
  iso3?: string[];
  /** Domains to summarise by. */
  by?: ByArg;
  /** CELL5M ids to restrict to (then `iso3` is ignored). */
  ids?: number[];
  /**
   * How the `iso3` codes' cells are summarised: true, one pool over the union of their cells;
   * false, one block per country. Default: per country for country codes, one pool for a
   * region, ids or a geometry; several codes with a region among them give one block per code.
   */
  pooled?: boolean;
  /**
   * A geometry (WKT, EPSG:4326) whose cells are selected (then `iso3` is ignored); with
   * `collapse: false` one row per cell it touches (`exact` or not, unweighted).
   */
  wkt?: string;
  /** With `wkt`: cells by exact coverage (true) or by their centres (false, default). */
  exact?: boolean;
  /** Default true: one row per group; false: one row per cell. */
  collapse?: boolean;
  /** Default false: rows only; true: { meta, data }. */
  asList?: boolean;
  /** Optional extra statistics per var (count, sum, mean, min, max, sd, p10.., majority, minority, hist). */
  stats?: string[];
  /**
   * Significant digits of interval labels of continuous `by` codes, R `cut(dig.lab =)`: a whole
   * number 1..12, default 3 as R (`(500,1e+03]`); R raises it until adjacent labels differ.
   */
  digLab?: number;
  /**
   * Years of the series in `var` (whole numbers; R `2000`, `c(2000, 2017)`, `2000:2017`):
   * one row per unit and year with a `year` column. Absent: the latest year every series holds
   * (src/core/engine/years.ts).
   */
  year?: number[];
  /** With exactly two `year`s: one row per unit with the change, to - from (`diff`) or 100 * (to - from) / from (`pct`). */
  change?: 'diff' | 'pct';
}

/** A column of a summary table, in output order. */
export interface ColumnInfo {
  /** Column name as written in rows (a code, or ISO3, ADM0_NAME, CELL5M, X, Y, a stat name like "ELEVATION_sd"). */
  name: string;
  /** "key": grouping/identity column; "value": a summarised indicator or statistic. */
  role: 'key' | 'value';
  /** Catalog code the column derives from, when it does. */
  code?: string;
  /** Human label. */
  label: string;
  /** Unit ("" when none). */
  unit: string;
  /** Value type in rows. */
  type: 'string' | 'number' | 'integer';
  /** Decimals the numbers were rounded to. */
  dec?: number;
  /** For class columns: the classes in order (labels as written in rows), for factors / value labels. */
  classes?: ClassEntry[];
}

/** A summary table: the main query's collapsed result, with what writers need. */
export interface TableResult {
  /** Rows as the JSON output gives them (spec 2.3); absent fields are missing. */
  rows: Row[];
  /** Columns in output order (union over rows). */
  columns: ColumnInfo[];
  /** Catalog records of every var and by code involved. */
  meta: VarRecord[];
  /**
   * `similar` only: units (or cells) left out of the ranking because an indicator has no value
   * there, absent when none was. `reason` is a sentence for display, e.g.
   * "3 of 48 first-level units left out: no value of PN14_POP (3)."
   */
  leftOut?: { count: number; of: number; reason: string };
  /** The selection the engine used (absent from engines that predate it). */
  selection?: SelectionUsed;
}

/** The selection a query used (the engine's answer, so callers need not rebuild it from the arguments). */
export interface SelectionUsed {
  /** The countries or regions selected (upper case; empty with ids or a geometry). */
  iso3: string[];
  /** True: one pool over the selected cells; false: blocks per country (or per requested code). */
  pooled: boolean;
  /** The selection was by CELL5M ids. */
  ids: boolean;
  /** The selection was by a geometry (WKT). */
  wkt: boolean;
}
