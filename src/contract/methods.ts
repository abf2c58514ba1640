/**
 * The methods of library `indapi3`, each with its R signature, its documentation (served
 * under `man/<method>/text|html` and `info`) and how it runs on the {@link Engine} and the
 * file writers. One table: the router, the argument checks and the docs all read it.
 */
import type { TableResult } from '../core/api';
import type { VarRecord } from '../core/types';
import type { ArgSpec } from './args';
import { CATCHMENT_METHOD } from './catchment-method';
import { wantsFiles, withFiles } from './package-files';
import { layerArgs } from '../core/package/layer-args';
import type { MethodSpec } from './method-types';

export type { GenFile, GenFileInput, GenFileOutput, MethodContext, MethodResult, MethodSpec } from './method-types';

function recordOf(r: VarRecord): Record<string, string> {
  return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v === undefined || v === null ? '' : String(v)]));
}

function tableValue(t: TableResult, asList: boolean): unknown {
  return asList ? { meta: t.meta.map(recordOf), data: t.rows } : t.rows;
}

const A_VAR: ArgSpec = { name: 'var', type: 'codes', required: true, doc: 'Indicator codes to query (character vector; one code may be a plain string). See `category()` for the codes.' };
const A_ISO3: ArgSpec = { name: 'iso3', type: 'strings', naAsCode: true, default: '"SSA"', doc: 'ISO 3166-1 alpha-3 country codes or region codes (SSA all of Africa south of the Sahara, EAF, MAF, SAF, WAF). One or several. `NA` (JSON `null`) is an unknown code, not the default.' };
const A_BY: ArgSpec = {
  name: 'by',
  type: 'by',
  default: 'NULL',
  doc: 'Domains to summarise by: variable codes (class variables group by class, continuous ones by their default intervals), or a list mapping one code to custom breaks (continuous, increasing numbers) or to the classes to keep (class variable), e.g. `list(ELEVATION = c(0, 500, 1000, 2000))`. In form-encoded requests use `c("A","B")` or JSON `["A","B"]`; `[\'A\',\'B\']` is not a literal and is refused.',
};
const A_IDS: ArgSpec = { name: 'ids', type: 'numbers', default: 'NULL', doc: 'CELL5M cell ids to restrict the query to (then `iso3` is ignored).' };
const A_COLLAPSE: ArgSpec = { name: 'collapse', type: 'bool', default: 'TRUE', doc: 'TRUE: one row per group; FALSE: one row per cell (CELL5M, X, Y, keys, values; with `by` each cell carries its group summary), also over the cells of `wkt` shapes.' };
const A_ASLIST: ArgSpec = { name: 'as.list', type: 'bool', default: 'FALSE', doc: 'TRUE returns `list(meta, data)`: the catalog records of the columns and the rows.' };
const A_STATS: ArgSpec = { name: 'stats', type: 'strings', default: 'NULL', doc: 'Extra statistics per variable: count, sum, mean, min, max, sd, p10, p25, p50, p75, p90, majority, minority.' };
const A_WKT: ArgSpec = { name: 'wkt', type: 'string', default: 'NULL', doc: 'WKT (EPSG:4326) of POINT, MULTIPOINT, POLYGON, MULTIPOLYGON or GEOMETRYCOLLECTION of those: summarise over these shapes instead of countries.' };
const A_EXACT: ArgSpec = { name: 'exact', type: 'bool', default: 'FALSE', doc: 'With `wkt`: FALSE counts, per polygon, the cells whose centre is inside (weight 1), and a polygon that covers no cell centre (a small shape, a thin sliver) weights the cells it covers by the covered fraction, so it never counts more area than it covers; TRUE weights every cell by the fraction of its area covered (planar, as exactextract).' };
const A_DIGLAB: ArgSpec = { name: 'dig.lab', type: 'int', default: '3', doc: 'Significant digits of the interval labels of continuous `by` codes, as R `cut(x, breaks, dig.lab = 3)`: a whole number from 1 to 12 (`(500,1e+03]` with 3, `(500,1000]` with 4); R raises it until adjacent labels differ.' };
const A_FORMAT: ArgSpec = {
  name: 'format',
  type: 'string',
  default: 'NULL',
  doc: 'Output: NULL or "data.table" return the table; "csv", "dta", "rds" (for `readRDS`), "rda" (alias "rdata": an RData file for `load`, one data.frame named after the file), "json" (GeoJSON: with `by` one polygon per group carrying its summary, else one point per cell carrying its values), "tif", "asc", "grd", "gpkg" (GeoPackage: the table with unit outlines, shapes or cell points) write files into the session (fetch them under `files/` or all at once under `zip`); "plot" draws maps, "hist" histograms with summary statistics (under `graphics/`).',
};
const A_PAL: ArgSpec = { name: 'pal', type: 'string', default: 'NULL', doc: 'ColorBrewer palette name for `format = "plot"` (default: the catalog colours).' };
const A_DIR: ArgSpec = { name: 'dir', type: 'string', default: 'NULL', doc: 'Accepted for compatibility and ignored (with a warning): files are kept in the session.' };

const E = (s: string) => s;

/** The methods, in the order `R/` lists them (alphabetical, as OpenCPU sorts). */
export const METHODS: MethodSpec[] = [
  CATCHMENT_METHOD,
  {
    name: 'category',
    title: 'List indicator categories, codes and labels',
    description: 'Lists the catalog as category, subcategory, item, code and label, optionally filtered by patterns.',
    args: [
      { name: 'q', type: 'strings', default: 'NULL', doc: 'Patterns (case-insensitive regular expressions) matched against categories, codes and labels. NULL lists everything.' },
      A_ASLIST,
    ],
    details: [
      'Rows are sorted by category, subcategory, item and code. A pattern that matches nothing is an error that suggests calling `category()` without `q`.',
      'With `as.list = TRUE` the rows are nested: an object keyed by category, each an object keyed by subcategory, each a table.',
    ],
    value: 'A table with columns category, subcategory, item, code, label (or the nested list).',
    examples: [
      E(`curl -X POST {base}/ocpu/library/indapi3/R/category/json`),
      E(`curl {base}/ocpu/library/indapi3/R/category/json -H 'Content-Type: application/json' -d '{"q": "elevation"}'`),
      E(`httr::POST("{base}/ocpu/library/indapi3/R/category/json", body = list(q = "distance", as.list = TRUE), encode = "json")`),
    ],
    async run(ctx, a) {
      return { value: await ctx.engine.category({ q: a.q as string[] | undefined, asList: a['as.list'] as boolean | undefined }, { signal: ctx.signal }) };
    },
  },
  {
    name: 'classify',
    title: 'Summarise indicators over custom domains',
    description: 'Summarises indicators over user-supplied domains: a GeoJSON FeatureCollection of polygons or points, or a named list of WKT shapes.',
    args: [
      A_VAR,
      { name: 'domains', type: 'json', required: true, doc: 'GeoJSON FeatureCollection (object, or its JSON text) or a named list of WKT strings, e.g. `list(a = "POLYGON((...))", b = "POINT(36.8 -1.3)")`.' },
      { name: 'key', type: 'string', default: 'NULL', doc: 'Feature property that names each domain (default: the feature id, else its position).' },
      A_EXACT,
      A_STATS,
    ],
    details: ['Each variable is summarised with its catalog aggregation formula over the cells of each domain (see `exact`).'],
    value: 'A table with one row per domain: the domain key and one column per variable (and statistic).',
    examples: [
      E(`curl {base}/ocpu/library/indapi3/R/classify/json -H 'Content-Type: application/json' -d '{"var": "ELEVATION", "domains": {"nairobi": "POINT(36.82 -1.29)", "box": "POLYGON((36 -2, 38 -2, 38 0, 36 0, 36 -2))"}}'`),
    ],
    async run(ctx, a) {
      const t = await ctx.engine.classify(
        { var: a.var as string[], domains: a.domains, key: a.key as string | undefined, exact: a.exact as boolean | undefined, stats: a.stats as string[] | undefined },
        { signal: ctx.signal },
      );
      return { value: t.rows };
    },
  },
  {
    name: 'describe',
    title: 'Full metadata records of indicators',
    description: 'Returns the complete catalog record of each selected indicator: label, code, unit, type, period, categories, sources, contact, description, citation, licence, version, aggregation formula (`AggFormula`, R, evaluated per unit as R evaluates it), the formula in plain words (`AggFormulaText`) and download date. The record element `Code` holds the indicator code.',
    args: [
      { name: 'var', type: 'codes', default: 'NULL', doc: 'Indicator codes to describe.' },
      { name: 'q', type: 'strings', default: 'NULL', doc: 'Patterns matched like `category(q)`; with neither argument every record is returned.' },
    ],
    details: ['The original service listed this method but its calls failed ("object not found"); here it works. All records are also available as one CSV file at `library/indapi3/data/vi/csv`.'],
    value: 'A table (list of records) with one row per indicator.',
    examples: [
      E(`curl {base}/ocpu/library/indapi3/R/describe/json -d "var='ELEVATION'"`),
      E(`curl {base}/ocpu/library/indapi3/data/vi/csv`),
    ],
    async run(ctx, a) {
      return { value: await ctx.engine.describe({ var: a.var as string[] | undefined, q: a.q as string[] | undefined }, { signal: ctx.signal }) };
    },
  },
  {
    name: 'genFile',
    title: 'Write query results to files',
    description: 'Runs the main query and writes the result as a data package in the requested format: the data file plus datapackage.json, DESCRIPTION, README.md, meta.csv and terms.html (rasters: the raster files with their .tfw/.prj and .aux.xml side-cars, meta.csv, README.md, datapackage.json and DESCRIPTION).',
    args: [A_VAR, A_ISO3, A_BY, { ...A_FORMAT, default: '"csv"', doc: 'File format: csv, dta, rds (readRDS), rda (RData for load(), alias rdata), json (GeoJSON), tif, asc, grd, gpkg (GeoPackage), or plot / hist for graphics. Case and surrounding spaces are ignored.' }, A_WKT, A_EXACT, A_IDS, A_PAL, A_DIR, A_DIGLAB],
    details: [
      'Tabular formats (csv, dta, rds, rda) hold the summary table; GeoJSON holds, with `by`, one polygon per group (the union of its cells) carrying the group summary, else one point per cell carrying its values; raster formats (tif, asc, grd) hold one value per cell (with `by`, the group summary: a zonal map).',
      'Fetch the files under the session path `files/<name>` or all in one archive at `zip`, named `<var>-<by>-<ISO3>.<format>.zip`.',
    ],
    value: 'The names of the generated files (character vector).',
    examples: [
      E(`curl {base}/ocpu/library/indapi3/R/genFile -d "var='ELEVATION'&iso3='KEN'&by='ADM1_NAME_ALT'&format='csv'"`),
    ],
    async run(ctx, a) {
      return withFiles(ctx, 'genFile', a, (a.format as string | undefined) ?? 'csv');
    },
  },
  {
    name: 'getLayer',
    title: 'Query and summarise indicators',
    description: 'Summarises indicators over countries or regions, optionally broken down by class or interval variables (`by`).',
    args: [A_VAR, A_ISO3, A_BY, A_IDS, A_COLLAPSE, A_ASLIST, A_STATS, A_DIGLAB],
    details: [
      'Every code in `var` and `by` must be in the catalog. Each variable is summarised with its own aggregation formula (sum, mean, weighted mean, dominant class, ...); numbers are rounded to the indicator\'s decimals.',
      'Continuous `by` variables are cut into right-closed intervals labelled as R `cut()` labels them (`dig.lab = 3`: `(500,1e+03]`, `(0.5,1.12]`). Cells outside every interval or with no value, and cells without a class of a class `by`, form R\'s NA group: a row whose key is null (JSON null, NA in files), after the other rows, so the rows by domain add up to the overall row. A class `var` with a continuous `by` gives the dominant class per interval.',
      'Rows of a single country carry ISO3 and ADM0_NAME. With `by`, the overall row of each country or pool has no `by` field and carries `total: 1`; the other rows have no `total`.',
      'Several `iso3` codes: countries only give one block of rows per country; with a region among them (`SSA` too) each code gives its own block, the region\'s rows pooling its members and carrying its code and name (`ISO3: "EAF"`, `ADM0_NAME: "Eastern Africa"`); blocks in code order. Rows by a unit layer (ADM1_*, ADM2_*) carry the unit\'s own ISO3 and ADM0_NAME (and ADM1_NAME_ALT for second-level units), sorted by ISO3, ADM1 name, then unit; in a region\'s block too.',
      'A code that is both a `var` and a `by` keeps its name for the summarised value; its key field is `<CODE>_by` (as R\'s make.unique would rename one of two equal names, with a suffix that is a valid name in R, Stata and Python).',
    ],
    value: 'A table (rows as JSON objects), or `list(meta, data)` with `as.list = TRUE`.',
    examples: [
      E(`curl {base}/ocpu/library/indapi3/R/getLayer/json -H 'Content-Type: application/json' -d '{"var": ["ELEVATION"], "iso3": "KEN", "by": ["ADM1_NAME_ALT"]}'`),
    ],
    async run(ctx, a) {
      return { value: await ctx.engine.getLayer(layerArgs(a), { signal: ctx.signal }) };
    },
  },
  {
    name: 'getLayerWKT',
    title: 'Summarise indicators over WKT shapes',
    description: 'Summarises indicators over the cells of points, lines of points or polygons given as WKT, per country (ISO3).',
    args: [A_VAR, { ...A_WKT, required: true, default: undefined }, A_ISO3, A_BY, A_EXACT, A_STATS, A_ASLIST, A_DIGLAB],
    details: [
      'A point selects the cell that contains it; a polygon the cells whose centres fall inside (weight 1); a polygon that covers no cell centre, every cell it covers weighted by the covered fraction (so a thin sliver never counts whole cells); with `exact = TRUE` every polygon weights the cells by the covered fraction. Weighted sums are sum(fraction x value), means are weighted by the fraction.',
    ],
    value: 'A table with one row per country touched (and per `by` group), or `list(meta, data)`.',
    examples: [
      E(`curl {base}/ocpu/library/indapi3/R/getLayerWKT/json -d "var='ELEVATION'&wkt='POINT(36.82 -1.29)'"`),
    ],
    async run(ctx, a) {
      const t = await ctx.engine.getLayerWKT({ ...layerArgs(a), wkt: a.wkt as string, exact: a.exact as boolean | undefined }, { signal: ctx.signal });
      return { value: tableValue(t, a['as.list'] === true) };
    },
  },
  {
    name: 'indapi',
    title: 'Main query method: query, summarise, aggregate over shapes, download',
    description: 'The main entry point. Queries indicators by country or region and domain (`by`), aggregates them over WKT shapes (`wkt`, via getLayerWKT), and writes downloadable files or graphics (`format`, via genFile).',
    args: [A_VAR, A_ISO3, A_BY, A_WKT, A_FORMAT, A_COLLAPSE, A_ASLIST, A_EXACT, A_IDS, A_STATS, A_PAL, A_DIR, A_DIGLAB],
    details: [
      'Without `format` (or with "data.table") the value is the summary table, as `getLayer()` gives it; `/json` returns it directly.',
      'With a file `format` the files are written into the session: the response (without `/json`) lists their paths, and `zip` gives them all. With "plot" or "hist" the session holds graphics (`graphics/1/png`, `graphics/1/svg`).',
      'With `wkt` the value has one row per country touched and per feature (as `getLayerWKT()` gives it); with `wkt` and `collapse = FALSE` one row per selected cell (CELL5M, X, Y, ISO3, ADM0_NAME, the `by` keys, the values), each cell once even when several features cover it; with `by` each cell carries the summary of its group over all selected cells (not weighted by `exact`).',
      'A `wkt` that selects no cell of the grid with data (e.g. a point in the sea) gives an empty table: `[]` from `/json`, a value with no rows. File and graphic formats have nothing to write then and answer 400 ("The query selects no cell with data."). Shapes outside the grid are an error (400) in both cases.',
      'Argument names are R names (`as.list`); an argument the method does not define is an error ("unused argument").',
      'Errors of the call (its arguments, the query) answer 400 text with the message, a blank line, `In call:` and the call, long values cut (strings after 200 characters, vectors after 20 elements, with `...`). Errors of the request itself (a body that is not JSON or not a JSON object, an application/rds body that is not a named list of data or holds an environment, a function or a call, an unsupported Content-Type, a body over the size limit) answer the message alone: no call was made. NULL (JSON null) of an argument whose default is not NULL is a value, not the default: `iso3 = NA` or `null` is an unknown country code (400).',
    ],
    value: 'The summary table; with a file format the names of the files; with plot / hist the summary table drawn.',
    examples: [
      E(`curl {base}/ocpu/library/indapi3/R/indapi/json -d "var='ELEVATION'&iso3='KEN'&by='ADM1_NAME_ALT'"`),
      E(`curl {base}/ocpu/library/indapi3/R/indapi -H 'Content-Type: application/json' -d '{"var": "ELEVATION", "iso3": "KEN", "format": "csv"}'`),
      E(`httr::POST("{base}/ocpu/library/indapi3/R/indapi/json", body = list(var = "ELEVATION", iso3 = "KEN", by = list(ELEVATION = c(0, 1000, 2000, 6000))), encode = "json")`),
    ],
    async run(ctx, a) {
      if (wantsFiles(a.format)) return withFiles(ctx, 'indapi', a, a.format);
      if (a.wkt !== undefined) {
        if (a.collapse === false) {
          // one row per cell the shapes touch (the engine's per-cell query over the geometry's cells,
          // by summaries over all of them, unweighted); shapes that select no cell give no row
          const v = await ctx.engine.getLayer({ ...layerArgs(a), wkt: a.wkt as string, exact: a.exact as boolean | undefined, collapse: false }, { signal: ctx.signal });
          const none = Array.isArray(v) ? v.length === 0 : (v as { data: unknown[] }).data.length === 0;
          return { value: none ? (a['as.list'] === true ? { meta: [], data: [] } : []) : v };
        }
        const t = await ctx.engine.getLayerWKT({ ...layerArgs(a), wkt: a.wkt as string, exact: a.exact as boolean | undefined }, { signal: ctx.signal });
        return { value: tableValue(t, a['as.list'] === true) };
      }
      return { value: await ctx.engine.getLayer(layerArgs(a), { signal: ctx.signal }) };
    },
  },
  {
    name: 'similar',
    title: 'Rank areas by similarity',
    description: 'Ranks units (cells, first- or second-level administrative units) by their similarity to a reference unit across indicators.',
    args: [
      { name: 'x', type: 'scalar', required: true, doc: 'The reference unit: a CELL5M cell id (by = 0), a first-level unit code or name (by = 1), e.g. "KEN.02" or "Eastern", or a second-level unit code or name (by = 2; a name shared by several units is an error listing their codes).' },
      A_VAR,
      { name: 'by', type: 'int', default: '0', doc: 'Unit level: 0 cells, 1 first-level administrative units (regions), 2 second-level units (districts; not in the embedded bundle, only in ingested data).' },
      A_ISO3,
    ],
    details: [
      'Numeric variables are centred and scaled (R `scale()`: sample standard deviation over the ranked units) on their unrounded values; class variables score 0 where equal to the reference and 1 otherwise. The score is the sum of absolute differences from the reference: lower is more similar; rows are sorted by score.',
      'A unit (or cell) with no value of some indicator is left out of the ranking: a missing value never makes a unit similar. How many were left out, and for which indicators, is said in the session\'s warnings. A reference without a value of some indicator is an error naming it.',
      'by = 2 needs second-level unit layers (ADM2_CODE_ALT or ADM2_NAME_ALT, e.g. in an ingested bundle); without them it is an error (400). Units are identified by their whole key (country, first-level unit, unit): rows carry ISO3, ADM1_NAME_ALT and the unit code and name.',
    ],
    value: 'A table of units (keys, values), their `score` and `rank`, most similar first.',
    examples: [
      E(`curl {base}/ocpu/library/indapi3/R/similar/json -H 'Content-Type: application/json' -d '{"x": "Eastern", "var": ["ELEVATION", "DIST_COAST"], "by": 1, "iso3": "KEN"}'`),
    ],
    async run(ctx, a) {
      const t = await ctx.engine.similar(
        { x: a.x as string | number, var: a.var as string[], by: a.by as number | undefined, iso3: a.iso3 as string[] | undefined },
        { signal: ctx.signal },
      );
      return { value: t.rows, warnings: t.leftOut ? [t.leftOut.reason] : undefined };
    },
  },
];

/** Methods by name. */
export const METHOD_BY_NAME: ReadonlyMap<string, MethodSpec> = new Map(METHODS.map((m) => [m.name, m]));
