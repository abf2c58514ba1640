/** The `indapi` method: the main entry point (query, summaries over shapes, downloads). */
import type { IndapiArgs } from '../../core/api';
import { LAYER_PACKAGE } from '../../core/package/kinds';
import { wantsFiles, withFiles } from '../package-files';
import { A_TOTALS, A_ASLIST, A_BY, A_COLLAPSE, A_DIGLAB, A_DIR, A_EXACT, A_FORMAT, A_IDS, A_ISO3, A_PAL, A_STATS, A_VAR, A_WKT, A_ZONAL, A_YEAR, A_CHANGE, byArea, compact, layerArgsOf, tableValue } from './common';
import { defineMethod, type MethodContext, type MethodResult } from './types';

/** The main query's arguments of a call (without what to write). */
function query(a: IndapiArgs): IndapiArgs {
  const { format: _f, pal: _p, dir: _d, ...q } = a;
  return q;
}

/**
 * `indapi` over `wkt` shapes: per country and feature (as getLayerWKT), or with
 * `collapse = FALSE` one row per cell the shapes touch (the engine's per-cell query over the
 * geometry's cells, `by` summaries over all of them, unweighted); shapes that select no cell give no row.
 */
async function overShapes(ctx: MethodContext, a: IndapiArgs & { wkt: string }): Promise<MethodResult> {
  const q = { ...query(a), wkt: a.wkt };
  if (a.collapse === false) {
    const v = await ctx.engine.getLayer(q, { signal: ctx.signal, onProgress: ctx.onProgress });
    const none = Array.isArray(v) ? v.length === 0 : v.data.length === 0;
    return { value: none ? (a.asList === true ? { meta: [], data: [] } : []) : v };
  }
  return { value: tableValue(await ctx.engine.getLayerWKT(q, { signal: ctx.signal, onProgress: ctx.onProgress }), a.asList === true) };
}

/** `indapi(var, iso3 = "SSA", by = NULL, wkt = NULL, format = NULL, collapse = TRUE, as.list = FALSE, exact = FALSE, ids = NULL, stats = NULL, pal = NULL, dir = NULL, dig.lab = 3, totals = FALSE)`. */
export const indapi = defineMethod({
  name: 'indapi',
  title: 'Main query method: query, summarise, aggregate over shapes, download',
  description: 'The main entry point. Queries indicators by country or region and domain (`by`), aggregates them over WKT shapes (`wkt`, via getLayerWKT), and writes downloadable files or graphics (`format`, via genFile).',
  args: [A_VAR, A_ISO3, A_BY, A_WKT, A_FORMAT, A_COLLAPSE, A_ASLIST, A_EXACT, A_IDS, A_STATS, A_PAL, A_DIR, A_DIGLAB, ...A_ZONAL, A_YEAR, A_CHANGE, A_TOTALS],
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
    `curl {base}/ocpu/library/indapi3/R/indapi/json -d "var='ELEVATION'&iso3='KEN'&by='ADM1_NAME_ALT'"`,
    `curl {base}/ocpu/library/indapi3/R/indapi -H 'Content-Type: application/json' -d '{"var": "ELEVATION", "iso3": "KEN", "format": "csv"}'`,
    `httr::POST("{base}/ocpu/library/indapi3/R/indapi/json", body = list(var = "ELEVATION", iso3 = "KEN", by = list(ELEVATION = c(0, 1000, 2000, 6000))), encode = "json")`,
  ],
  typed: (b): IndapiArgs => compact({ ...layerArgsOf(b, true), format: b.format, pal: b.pal, dir: b.dir }),
  package: LAYER_PACKAGE,
  async run(ctx, a) {
    if (wantsFiles(a.format)) return withFiles(ctx, LAYER_PACKAGE, a, a.format);
    if (a.wkt !== undefined) return overShapes(ctx, { ...a, wkt: a.wkt });
    return { value: await ctx.engine.getLayer(byArea(query(a)), { signal: ctx.signal, onProgress: ctx.onProgress }) };
  },
});
