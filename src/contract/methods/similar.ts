/** The `similar` method: units ranked by their similarity to a reference unit. */
import type { SimilarArgs } from '../../core/api';
import { SIMILAR_PACKAGE } from '../../core/package/kinds';
import { A_ISO3, A_VAR, A_YEAR, compact } from './common';
import { defineMethod } from './types';

/** `similar(x, var, by = 0, iso3 = "SSA")`. */
export const similar = defineMethod({
  name: 'similar',
  title: 'Rank areas by similarity',
  description: 'Ranks units (cells, first- or second-level administrative units) by their similarity to a reference unit across indicators.',
  args: [
    { name: 'x', type: 'scalar', required: true, doc: 'The reference unit: a CELL5M cell id (by = 0), a first-level unit code or name (by = 1), e.g. "KEN.02" or "Eastern", or a second-level unit code or name (by = 2; a name shared by several units is an error listing their codes).' },
    A_VAR,
    { name: 'by', type: 'int', default: '0', doc: 'Unit level: 0 cells, 1 first-level administrative units (regions), 2 second-level units (districts; not in the embedded bundle, only in ingested data).' },
    A_ISO3,
    { ...A_YEAR, doc: 'One year of the series in `var` (NULL: the latest year every series in `var` holds); units are ranked on the values of that year. Several years are an error (400 naming `year`).' },
  ],
  details: [
    'Numeric variables are centred and scaled (R `scale()`: sample standard deviation over the ranked units) on their unrounded values; class variables score 0 where equal to the reference and 1 otherwise. The score is the sum of absolute differences from the reference: lower is more similar; rows are sorted by score.',
    'A unit (or cell) with no value of some indicator is left out of the ranking: a missing value never makes a unit similar. How many were left out, and for which indicators, is said in the session\'s warnings. A reference without a value of some indicator is an error naming it.',
    'by = 2 needs second-level unit layers (ADM2_CODE_ALT or ADM2_NAME_ALT, e.g. in an ingested bundle); without them it is an error (400). Units are identified by their whole key (country, first-level unit, unit): rows carry ISO3, ADM1_NAME_ALT and the unit code and name.',
  ],
  value: 'A table of units (keys, values), their `score` and `rank`, most similar first.',
  examples: [
    `curl {base}/ocpu/library/indapi3/R/similar/json -H 'Content-Type: application/json' -d '{"x": "Eastern", "var": ["ELEVATION", "DIST_COAST"], "by": 1, "iso3": "KEN"}'`,
  ],
  typed: (b): SimilarArgs => compact({ x: b.x, var: b.var, by: b.by, iso3: b.iso3, year: b.year }),
  // no `format` argument (as the original): the app saves a ranking in the table formats
  package: SIMILAR_PACKAGE,
  async run(ctx, a) {
    const t = await ctx.engine.similar(a, { signal: ctx.signal, onProgress: ctx.onProgress });
    return { value: t.rows, warnings: t.leftOut ? [t.leftOut.reason] : undefined };
  },
});
