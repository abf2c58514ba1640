/** The `getLayerWKT` method: indicators summarised over WKT shapes, per country. */
import type { GetLayerWktArgs } from '../../core/api';
import { A_TOTALS, A_ASLIST, A_BY, A_DIGLAB, A_EXACT, A_ISO3, A_STATS, A_VAR, A_WKT, A_ZONAL, A_YEAR, A_CHANGE, layerArgsOf, tableValue } from './common';
import { defineMethod } from './types';

/** `getLayerWKT(var, wkt, iso3 = "SSA", by = NULL, exact = FALSE, stats = NULL, as.list = FALSE, dig.lab = 3, totals = FALSE)`. */
export const getLayerWKT = defineMethod({
  name: 'getLayerWKT',
  title: 'Summarise indicators over WKT shapes',
  description: 'Summarises indicators over the cells of points, lines of points or polygons given as WKT, per country (ISO3).',
  args: [A_VAR, { ...A_WKT, required: true, default: undefined }, A_ISO3, A_BY, A_EXACT, A_STATS, A_ASLIST, A_DIGLAB, ...A_ZONAL, A_YEAR, A_CHANGE, A_TOTALS],
  details: [
    'A point selects the cell that contains it; a polygon the cells whose centres fall inside (weight 1); a polygon that covers no cell centre, every cell it covers weighted by the covered fraction (so a thin sliver never counts whole cells); with `exact = TRUE` every polygon weights the cells by the covered fraction. Weighted sums are sum(fraction x value), means are weighted by the fraction.',
  ],
  value: 'A table with one row per country touched (and per `by` group); with `totals = TRUE` also one row per shape that crosses borders, its whole-shape summary with ISO3 NA; or `list(meta, data)`.',
  examples: [
    `curl {base}/ocpu/library/indapi3/R/getLayerWKT/json -d "var='ELEVATION'&wkt='POINT(36.82 -1.29)'"`,
  ],
  typed: (b): GetLayerWktArgs => ({ ...layerArgsOf(b, true), wkt: b.wkt }),
  async run(ctx, a) {
    return { value: tableValue(await ctx.engine.getLayerWKT(a, { signal: ctx.signal, onProgress: ctx.onProgress }), a.asList === true) };
  },
});
