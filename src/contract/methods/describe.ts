/** The `describe` method: the full catalog records of indicators. */
import type { DescribeArgs } from '../../core/api';
import { compact } from './common';
import { defineMethod } from './types';

/** `describe(var = NULL, q = NULL)`. */
export const describe = defineMethod({
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
    `curl {base}/ocpu/library/indapi3/R/describe/json -d "var='ELEVATION'"`,
    `curl {base}/ocpu/library/indapi3/data/vi/csv`,
  ],
  typed: (b): DescribeArgs => compact({ var: b.var, q: b.q }),
  async run(ctx, a) {
    return { value: await ctx.engine.describe(a, { signal: ctx.signal }) };
  },
});
