/** The `classify` method: indicators summarised over user-supplied domains. */
import type { ClassifyArgs } from '../../core/api';
import { tablePackage } from '../../core/package/kinds';
import { A_EXACT, A_STATS, A_VAR, A_ZONAL, A_YEAR, A_CHANGE, compact, zonalArgsOf } from './common';
import { defineMethod } from './types';

/** `classify(var, domains, key = NULL, exact = FALSE, stats = NULL)`. */
export const classify = defineMethod({
  name: 'classify',
  title: 'Summarise indicators over custom domains',
  description: 'Summarises indicators over user-supplied domains: a GeoJSON FeatureCollection of polygons or points, or a named list of WKT shapes.',
  args: [
    A_VAR,
    { name: 'domains', type: 'json', required: true, doc: 'GeoJSON FeatureCollection (object, or its JSON text) or a named list of WKT strings, e.g. `list(a = "POLYGON((...))", b = "POINT(36.8 -1.3)")`.' },
    { name: 'key', type: 'string', default: 'NULL', doc: 'Feature property that names each domain (default: the feature id, else its position).' },
    A_EXACT,
    A_STATS,
    ...A_ZONAL,
    A_YEAR,
    A_CHANGE,
  ],
  details: [
    'Each variable is summarised with its catalog aggregation formula over the cells of each domain (see `exact`).',
    'Up to 10,000 domains in one call, all summarised in one pass: each domain\'s coverage (its cells and coverage fractions) is computed once and kept (a bounded cache keyed by a hash of the geometry), so another call over the same polygons, with other variables or statistics, reuses it. Zonal statistics in `stats` (frac, weighted_mean, quantile, histogram, ...) as in getLayer.',
  ],
  value: 'A table with one row per domain: the domain key and one column per variable (and statistic).',
  examples: [
    `curl {base}/ocpu/library/indapi3/R/classify/json -H 'Content-Type: application/json' -d '{"var": "ELEVATION", "domains": {"nairobi": "POINT(36.82 -1.29)", "box": "POLYGON((36 -2, 38 -2, 38 0, 36 0, 36 -2))"}}'`,
  ],
  typed: (b): ClassifyArgs => ({ ...compact({ var: b.var, key: b.key, exact: b.exact, stats: b.stats, ...zonalArgsOf(b), year: b.year, change: b.change as ClassifyArgs['change'] }), domains: b.domains }),
  // no `format` argument (as the original): the app saves an upload's computed table in the table formats
  package: tablePackage('classify'),
  async run(ctx, a) {
    return { value: (await ctx.engine.classify(a, { signal: ctx.signal, onProgress: ctx.onProgress })).rows };
  },
});
