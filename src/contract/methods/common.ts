/**
 * What several methods share: the formal arguments common to the main query's methods (one
 * definition each, so their documentation is written once), the main query's arguments from
 * the bound ones, and the value of a table.
 */
import type { ByArg, GetLayerArgs, TableResult } from '../../core/api';
import type { VarRecord } from '../../core/types';
import type { ArgSpec } from '../args';

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
export const A_STATS = { name: 'stats', type: 'strings', default: 'NULL', doc: 'Extra statistics per variable: count, sum, mean, min, max, sd, p10, p25, p50, p75, p90, majority, minority.' } as const satisfies ArgSpec;
/** Formal argument `wkt`: shapes to summarise over. */
export const A_WKT = { name: 'wkt', type: 'string', default: 'NULL', doc: 'WKT (EPSG:4326) of POINT, MULTIPOINT, POLYGON, MULTIPOLYGON or GEOMETRYCOLLECTION of those: summarise over these shapes instead of countries.' } as const satisfies ArgSpec;
/** Formal argument `exact`: coverage-fraction weights. */
export const A_EXACT = { name: 'exact', type: 'bool', default: 'FALSE', doc: 'With `wkt`: FALSE counts, per polygon, the cells whose centre is inside (weight 1), and a polygon that covers no cell centre (a small shape, a thin sliver) weights the cells it covers by the covered fraction, so it never counts more area than it covers; TRUE weights every cell by the fraction of its area covered (planar, as exactextract).' } as const satisfies ArgSpec;
/** Formal argument `dig.lab`: digits of interval labels. */
export const A_DIGLAB = { name: 'dig.lab', type: 'int', default: '3', doc: 'Significant digits of the interval labels of continuous `by` codes, as R `cut(x, breaks, dig.lab = 3)`: a whole number from 1 to 12 (`(500,1e+03]` with 3, `(500,1000]` with 4); R raises it until adjacent labels differ.' } as const satisfies ArgSpec;
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
}

/** `o` without its undefined members (an argument not sent stays absent, as before binding). */
export function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/**
 * The main query's arguments ({@link GetLayerArgs}) from the bound ones: var, iso3, by, ids,
 * collapse, `as.list` (asList), stats, `dig.lab` (digLab); with `shapes`, wkt and exact too.
 * Arguments not sent are left out.
 */
export function layerArgsOf(a: BoundLayer, shapes = false): GetLayerArgs {
  const g: GetLayerArgs = { var: a.var, iso3: a.iso3, by: a.by, ids: a.ids, collapse: a.collapse, asList: a['as.list'], stats: a.stats, digLab: a['dig.lab'] };
  if (shapes) Object.assign(g, { wkt: a.wkt, exact: a.exact });
  return compact(g);
}

/** The main query without its shapes (`wkt`, `exact`): the query by area. */
export function byArea(a: GetLayerArgs): GetLayerArgs {
  const { wkt: _w, exact: _e, ...q } = a;
  return q;
}

function recordOf(r: VarRecord): Record<string, string> {
  return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v === undefined || v === null ? '' : String(v)]));
}

/** A table as a method's value: its rows, or (R `as.list = TRUE`) `list(meta, data)`. */
export function tableValue(t: TableResult, asList: boolean): unknown {
  return asList ? { meta: t.meta.map(recordOf), data: t.rows } : t.rows;
}
