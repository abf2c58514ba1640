/** The `category` method: the catalog as category, subcategory, item, code and label. */
import type { CategoryArgs } from '../../core/api';
import { A_ASLIST, compact } from './common';
import { defineMethod } from './types';

/** `category(q = NULL, as.list = FALSE)`. */
export const category = defineMethod({
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
    `curl -X POST {base}/ocpu/library/indapi3/R/category/json`,
    `curl {base}/ocpu/library/indapi3/R/category/json -H 'Content-Type: application/json' -d '{"q": "elevation"}'`,
    `httr::POST("{base}/ocpu/library/indapi3/R/category/json", body = list(q = "distance", as.list = TRUE), encode = "json")`,
  ],
  typed: (b): CategoryArgs => compact({ q: b.q, asList: b['as.list'] }),
  async run(ctx, a) {
    return { value: await ctx.engine.category(a, { signal: ctx.signal }) };
  },
});
