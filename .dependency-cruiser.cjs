// Import cycles: none anywhere (issue 27). Run by `npm run lint` (after ESLint) and probed by
// tests/lint/cycles.test.ts. Type-only imports are edges too (`tsPreCompilationDeps`): a type
// that two modules share lives in a leaf module both import (e.g. src/contract/method-types.ts,
// src/core/formats/types.ts), never in one of them.

// The rooms of src/core from the base up (issue 27 item 5): a module may import its own room
// and rooms before it, never one after it. `errors`, `hash` (a text's 64-bit hash for keys), `types`, `grid`, `r` (the R vocabulary:
// formulas, `cut` and `round` labels), `api` (the Engine interface and the method types: api/index.ts,
// the catchment method's in api/catchment.ts) and `csv` (RFC 4180 and the formula-text
// rule) are the base every room may import; `index` (src/core/index.ts) is the consumers'
// entry. Colocated tests (*.test.ts) may import any room. Probed by tests/lint/core-order.test.ts,
// which also fails when a file or folder of src/core is in no room of CORE_ORDER.
const CORE_ORDER = ['errors', 'hash', 'types', 'grid', 'r', 'api', 'csv', 'io', 'wkt', 'area', 'args', 'map', 'cog', 'bundle',
  'catalog', 'ingest', 'formats', 'catchment', 'engine', 'package', 'runtime', 'index'];
/** Path pattern of a room: its folder or its file. */
const room = (r) => `(^|/)src/core/${r}(/|\\.ts$)`;
const coreOrder = CORE_ORDER.slice(0, -1).map((r, i) => ({
  name: `core-order-${r}`,
  severity: 'error',
  comment: `src/core/${r} may import only the rooms before it in CORE_ORDER (${CORE_ORDER.slice(0, i).join(', ') || 'none'}): move what both need into a lower room.`,
  from: { path: room(r), pathNot: '\\.test\\.ts$' },
  to: { path: CORE_ORDER.slice(i + 1).map(room) },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...coreOrder,
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules that import each other, directly or through others (type-only imports included). Move what both need into a module that both import.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|public)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] },
  },
};
