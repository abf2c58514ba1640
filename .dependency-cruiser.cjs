// Import cycles: none anywhere (issue 27). Run by `npm run lint` (after ESLint) and probed by
// tests/lint/cycles.test.ts. Type-only imports are edges too (`tsPreCompilationDeps`): a type
// that two modules share lives in a leaf module both import (e.g. src/contract/method-types.ts,
// src/core/formats/types.ts), never in one of them.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
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
