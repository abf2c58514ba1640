/** The `getLayer` method: the main query, indicators summarised over countries or regions (and `by`). */
import type { GetLayerArgs } from '../../core/api';
import { A_ASLIST, A_BY, A_COLLAPSE, A_DIGLAB, A_IDS, A_ISO3, A_STATS, A_VAR, A_ZONAL, A_YEAR, A_CHANGE, layerArgsOf } from './common';
import { defineMethod } from './types';

/** `getLayer(var, iso3 = "SSA", by = NULL, ids = NULL, collapse = TRUE, as.list = FALSE, stats = NULL, dig.lab = 3)`. */
export const getLayer = defineMethod({
  name: 'getLayer',
  title: 'Query and summarise indicators',
  description: 'Summarises indicators over countries or regions, optionally broken down by class or interval variables (`by`).',
  args: [A_VAR, A_ISO3, A_BY, A_IDS, A_COLLAPSE, A_ASLIST, A_STATS, A_DIGLAB, ...A_ZONAL, A_YEAR, A_CHANGE],
  details: [
    'Every code in `var` and `by` must be in the catalog. Each variable is summarised with its own aggregation formula (sum, mean, weighted mean, dominant class, ...); numbers are rounded to the indicator\'s decimals.',
    'Continuous `by` variables are cut into right-closed intervals labelled as R `cut()` labels them (`dig.lab = 3`: `(500,1e+03]`, `(0.5,1.12]`). Cells outside every interval or with no value, and cells without a class of a class `by`, form R\'s NA group: a row whose key is null (JSON null, NA in files), after the other rows, so the rows by domain add up to the overall row. A class `var` with a continuous `by` gives the dominant class per interval.',
    'Rows of a single country carry ISO3 and ADM0_NAME. With `by`, the overall row of each country or pool has no `by` field and carries `total: 1`; the other rows have no `total`.',
    'Several `iso3` codes: countries only give one block of rows per country; with a region among them (`SSA` too) each code gives its own block, the region\'s rows pooling its members and carrying its code and name (`ISO3: "EAF"`, `ADM0_NAME: "Eastern Africa"`); blocks in code order. Rows by a unit layer (ADM1_*, ADM2_*) carry the unit\'s own ISO3 and ADM0_NAME (and ADM1_NAME_ALT for second-level units), sorted by ISO3, ADM1 name, then unit; in a region\'s block too.',
    'A code that is both a `var` and a `by` keeps its name for the summarised value; its key field is `<CODE>_by` (as R\'s make.unique would rename one of two equal names, with a suffix that is a valid name in R, Stata and Python).',
  ],
  value: 'A table (rows as JSON objects), or `list(meta, data)` with `as.list = TRUE`.',
  examples: [
    `curl {base}/ocpu/library/indapi3/R/getLayer/json -H 'Content-Type: application/json' -d '{"var": ["ELEVATION"], "iso3": "KEN", "by": ["ADM1_NAME_ALT"]}'`,
  ],
  typed: (b): GetLayerArgs => layerArgsOf(b),
  async run(ctx, a) {
    return { value: await ctx.engine.getLayer(a, { signal: ctx.signal, onProgress: ctx.onProgress }) };
  },
});
