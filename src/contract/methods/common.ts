/**
 * What several methods share: the formal arguments common to the main query's methods (one
 * definition each, so their documentation is written once), the main query's arguments from
 * the bound ones, and the value of a table.
 */
import type { ByArg, GetLayerArgs, TableResult, ZonalArgs } from '../../core/api';
import type { VarRecord } from '../../core/types';
import type { ArgSpec } from '../args';
import { checkZonalArgs } from '../../core/engine';
import { layerArgs } from '../../core/package/layer-args';

/** Formal argument `var`: the indicator codes (required). */
export const A_VAR = { name: 'var', type: 'codes', required: true, doc: 'Indicator codes to query (character vector; one code may be a plain string). See `category()` for the codes.' } as const satisfies ArgSpec;
/** Formal argument `iso3`: countries or regions. */
export const A_ISO3 = { name: 'iso3', type: 'strings', naAsCode: true, default: '"SSA"', doc: 'ISO 3166-1 alpha-3 country codes or region codes (SSA all of Africa south of the Sahara, EAF, MAF, SAF, WAF). One or several. `NA` (JSON `null`) is an unknown code, not the default.' } as const satisfies ArgSpec;
/** Formal argument `by`: the domains to summarise by. */
export const A_BY = {
  name: 'by',
  type: 'by',
  default: 'NULL',
  doc: 'Domains to summarise by: variable codes (class variables group by class, continuous ones by their default intervals), or a list mapping one code to custom breaks (continuous, increasing numbers) or to the classes to keep (class variable), e.g. `list(ELEVATION = c(0, 500, 1000, 2000))`. In form-encoded requests use `c("A","B")` or JSON `["A","B"]`; `[\'A\',\'B\']` is not a literal and is refused.',
} as const satisfies ArgSpec;
/** Formal argument `ids`: CELL5M cell ids. */
export const A_IDS = { name: 'ids', type: 'numbers', default: 'NULL', doc: 'CELL5M cell ids to restrict the query to (then `iso3` is ignored).' } as const satisfies ArgSpec;
/** Formal argument `collapse`: one row per group or per cell. */
export const A_COLLAPSE = { name: 'collapse', type: 'bool', default: 'TRUE', doc: 'TRUE: one row per group; FALSE: one row per cell (CELL5M, X, Y, keys, values; with `by` each cell carries its group summary), also over the cells of `wkt` shapes.' } as const satisfies ArgSpec;
/** Formal argument `as.list`: `list(meta, data)`. */
export const A_ASLIST = { name: 'as.list', type: 'bool', default: 'FALSE', doc: 'TRUE returns `list(meta, data)`: the catalog records of the columns and the rows.' } as const satisfies ArgSpec;
/** Formal argument `stats`: extra statistics per variable. */
export const A_STATS = {
  name: 'stats',
  type: 'strings',
  default: 'NULL',
  doc: 'Extra statistics per variable, columns `<VAR>_<stat>`: count, sum, mean, min, max, sd (sample, R `sd()`), pNN (R `quantile(type = 7)`, e.g. p10, p25), majority, minority, hist; and the zonal operations (names as exactextract; f = the cell\'s coverage fraction, 1 for a whole cell): ' +
    'frac (class variables: share of each class, columns `<VAR>_frac_<class>`, summing to 1), weighted_frac (share of the `weights` layer in each class), weighted_mean = sum(f W x) / sum(f W) and weighted_sum = sum(f W x) over cells with both (need `weights`), ' +
    'variance = sum(f (x - m)^2) / sum(f) (population variance, R `Hmisc::wtd.var(x, f, method = "ML")`; whole cells `mean((x - mean(x))^2)`), stdev (its square root), cv (stdev / mean), ' +
    'quantile (at `q`, columns `<VAR>_q10`...; R `quantile(type = 7)` or `quantile_type = "weighted"`), variety (distinct values), valid_percent (100 x cells with a value / cells in the zone, coverage-weighted), nodata (coverage-weighted cells without a value), ' +
    'area_km2 (covered area on the WGS84 ellipsoid), histogram (coverage-weighted cells per bin of `bins` and `range`, right-closed as R `hist()`: one row per bin with `bin`, `<VAR>_bin_lower`, `<VAR>_bin_upper`, `<VAR>_histogram`). ' +
    'Each variable gets the operations that apply to it (frac and weighted_frac: class layers; weighted_mean, weighted_sum, variance, stdev, cv, quantile, histogram: continuous layers); an operation that applies to none of `var` is a 400 naming `stats` (e.g. frac with only continuous layers: they have no classes; for the share of a zone per interval use `by = list(<CODE> = c(<breaks>))` with AREA_TOTAL, or histogram).',
} as const satisfies ArgSpec;
/** Formal argument `weights`: the weight layer of the weighted zonal operations. */
export const A_WEIGHTS = { name: 'weights', type: 'string', default: 'NULL', doc: 'Weight layer code of `weighted_mean`, `weighted_sum` and `weighted_frac` in `stats` (a continuous indicator, e.g. "POP_MODEL"); needed by them, 400 naming `weights` when missing, unknown or a class variable.' } as const satisfies ArgSpec;
/** Formal argument `q`: quantile probabilities. */
export const A_Q = { name: 'q', type: 'numbers', default: 'c(0.1, 0.25, 0.5, 0.75, 0.9)', doc: 'Probabilities (0 to 1, at most 100) of the `quantile` statistic; columns `<VAR>_q<100 q>` (`q = 0.025` gives `_q2.5`).' } as const satisfies ArgSpec;
/** Formal argument `quantile_type`: R type 7 or coverage-weighted quantiles. */
export const A_QTYPE = {
  name: 'quantile_type',
  type: 'scalar',
  default: '7',
  doc: '7: R `quantile(x, q, type = 7)` over the zone\'s cells (f > 0), unweighted. "weighted": coverage-weighted, as `Hmisc::wtd.quantile(x, f, q)`: W = sum(f), h = 1 + (W - 1) q, v(t) = the smallest value whose cumulative weight reaches t, result = (1 - h mod 1) v(max(floor(h), 1)) + (h mod 1) v(min(floor(h) + 1, W)).',
} as const satisfies ArgSpec;
/** Formal argument `bins`: histogram bins. */
export const A_BINS = { name: 'bins', type: 'numbers', default: '10', doc: 'Bins of the `histogram` statistic: a count (1 to 1000) of equal bins over `range`, or increasing edges (at most 1001).' } as const satisfies ArgSpec;
/** Formal argument `range`: histogram range. */
export const A_RANGE = { name: 'range', type: 'numbers', default: 'NULL', doc: 'c(min, max) of the `histogram` bins when `bins` is a count (default each zone\'s own minimum and maximum); values outside are not counted.' } as const satisfies ArgSpec;
/** The zonal operations' arguments, in R order (after `stats` in each method's signature). */
export const A_ZONAL = [A_WEIGHTS, A_Q, A_QTYPE, A_BINS, A_RANGE] as const;
/** Formal argument `wkt`: shapes to summarise over. */
export const A_WKT = { name: 'wkt', type: 'string', default: 'NULL', doc: 'WKT (EPSG:4326) of POINT, MULTIPOINT, POLYGON, MULTIPOLYGON or GEOMETRYCOLLECTION of those: summarise over these shapes instead of countries.' } as const satisfies ArgSpec;
/** Formal argument `totals`: a row of the whole shape for shapes that cross borders. */
export const A_TOTALS = { name: 'totals', type: 'bool', default: 'FALSE', doc: 'With `wkt`: TRUE adds, for each shape that crosses borders, one row of the whole shape (ISO3 and ADM0_NAME NA) before its per-country rows, computed from its cells (sums and weighted means over all of them, never an average of the countries\' summaries), as the app\'s Areas panel shows it.' } as const satisfies ArgSpec;

/** Formal argument `exact`: coverage-fraction weights. */
export const A_EXACT = { name: 'exact', type: 'bool', default: 'FALSE', doc: 'With `wkt`: FALSE counts, per polygon, the cells whose centre is inside (weight 1), and a polygon that covers no cell centre (a small shape, a thin sliver) weights the cells it covers by the covered fraction, so it never counts more area than it covers; TRUE weights every cell by the fraction of its area covered (planar, as exactextract).' } as const satisfies ArgSpec;
/** Formal argument `dig.lab`: digits of interval labels. */
export const A_DIGLAB = { name: 'dig.lab', type: 'int', default: '3', doc: 'Significant digits of the interval labels of continuous `by` codes, as R `cut(x, breaks, dig.lab = 3)`: a whole number from 1 to 12 (`(500,1e+03]` with 3, `(500,1000]` with 4); R raises it until adjacent labels differ.' } as const satisfies ArgSpec;
/** Formal argument `year`: years of the series in `var`. */
export const A_YEAR = {
  name: 'year',
  type: 'numbers',
  default: 'NULL',
  doc: 'Years of the series in `var` (whole numbers: `2000`, `c(2000, 2017)`, `2000:2017`; JSON `[2000, 2017]`). Output is long: one row per unit and year, with a `year` column after the keys (blocks by year, increasing). NULL: the latest year every series in `var` holds. A year a series does not hold is an error (400) naming `year` and listing the years it holds; a unit without a value in a year it holds has NA there, never an interpolated value. Each year is summarised with the catalog formula (`aggFunR`). `year` or `change` on codes none of which is a series is an error (400 naming `year`), and codes that are not series cannot be mixed with series in one call. Outputs of one value per cell (rasters tif, asc, grd; per-cell GeoJSON; plot, hist) and `similar` take one year and no `change` (400 naming `year`). National series (`cat1` "National series": PWT_POP, PWT_RGDPE_PC, PWT_HC, GM_LIFE_EXP, GM_INFANT_MORT, WDI_TFR) are national values, no variation within the country.',
} as const satisfies ArgSpec;
/** Formal argument `change`: the change between two years. */
export const A_CHANGE = {
  name: 'change',
  type: 'string',
  default: 'NULL',
  doc: 'With exactly two `year`s (from, to): one row per unit with `year_from`, `year_to` and the change of each value, "diff" (to - from, in the unit of the indicator) or "pct" (100 * (to - from) / from, percent); NA where either year has no value (or from is 0 for "pct").',
} as const satisfies ArgSpec;
/** Formal argument `format`: the output (table, files, graphics). */
export const A_FORMAT = {
  name: 'format',
  type: 'string',
  default: 'NULL',
  doc: 'Output: NULL or "data.table" return the table; "csv", "dta", "rds" (for `readRDS`), "rda" (alias "rdata": an RData file for `load`, one data.frame named after the file), "json" (GeoJSON: with `by` one polygon per group carrying its summary, else one point per cell carrying its values), "tif", "asc", "grd", "gpkg" (GeoPackage: the table with unit outlines, shapes or cell points) write files into the session (fetch them under `files/` or all at once under `zip`); "plot" draws maps, "hist" histograms with summary statistics (under `graphics/`).',
} as const satisfies ArgSpec;
/** Formal argument `pal`: palette of plots. */
export const A_PAL = { name: 'pal', type: 'string', default: 'NULL', doc: 'ColorBrewer palette name for `format = "plot"` (default: the catalog colours).' } as const satisfies ArgSpec;
/** Formal argument `dir`: ignored (compatibility). */
export const A_DIR = { name: 'dir', type: 'string', default: 'NULL', doc: 'Accepted for compatibility and ignored (with a warning): files are kept in the session.' } as const satisfies ArgSpec;

/** The bound arguments of the main query (R names), as the methods that take them bind them. */
export interface BoundLayer {
  var: string[];
  iso3?: string[];
  by?: ByArg;
  ids?: number[];
  collapse?: boolean;
  'as.list'?: boolean;
  stats?: string[];
  'dig.lab'?: number;
  wkt?: string;
  exact?: boolean;
  year?: number[];
  change?: string;
  totals?: boolean;
  weights?: string;
  q?: number[];
  quantile_type?: string | number | boolean;
  bins?: number[];
  range?: number[];
}

/** The zonal operations' arguments ({@link ZonalArgs}) from the bound ones; those not sent left out. */
export function zonalArgsOf(a: Pick<BoundLayer, 'stats' | 'weights' | 'q' | 'quantile_type' | 'bins' | 'range'>): ZonalArgs {
  const { weights, q, quantileType, bins, range } = layerArgs({ ...a, var: [] });
  const z: ZonalArgs = compact({ weights, q, quantileType, bins, range });
  checkZonalArgs(a.stats, z); // 400 naming the argument before any work (the weights code is checked against the catalog later)
  return z;
}

/** `o` without its undefined members (an argument not sent stays absent, as before binding). */
export function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/**
 * The main query's arguments ({@link GetLayerArgs}) from the bound ones: the core's one mapping
 * of the R names (`layerArgs` of src/core/package/layer-args.ts, which the package builder uses
 * too): var, iso3, by, ids, collapse, `as.list`, stats, `dig.lab`, year, change (checked by the
 * engine), the zonal operations' arguments (checked here); with `shapes`, wkt, exact and totals
 * too. Arguments not sent are left out.
 * @throws IndapiError BAD_ARGUMENT naming a zonal argument that does not fit `stats`
 */
export function layerArgsOf(a: BoundLayer, shapes = false): GetLayerArgs {
  zonalArgsOf(a);
  return layerArgs(a as unknown as Record<string, unknown>, shapes);
}

/** The main query without its shapes (`wkt`, `exact`): the query by area. */
export function byArea(a: GetLayerArgs): GetLayerArgs {
  const { wkt: _w, exact: _e, totals: _t, ...q } = a as GetLayerArgs & { totals?: boolean };
  return q;
}

function recordOf(r: VarRecord): Record<string, string> {
  return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v === undefined || v === null ? '' : String(v)]));
}

/** A table as a method's value: its rows, or (R `as.list = TRUE`) `list(meta, data)`. */
export function tableValue(t: TableResult, asList: boolean): unknown {
  return asList ? { meta: t.meta.map(recordOf), data: t.rows } : t.rows;
}
