import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import jsdoc from 'eslint-plugin-jsdoc';

const nodeBuiltins = ['fs', 'path', 'os', 'crypto', 'http', 'https', 'zlib', 'stream', 'child_process', 'url', 'buffer', 'util', 'worker_threads'];
const nodeBuiltinPaths = nodeBuiltins.flatMap((m) => [m, `node:${m}`]);

// The pure core runs in a browser page, a Web Worker, a service worker and Node: it sees only the
// globals all of them share (ECMAScript plus web-standard APIs such as TextDecoder, AbortSignal,
// DOMException, URL, fetch, console, setTimeout). Browser storage and navigator are left out too.
const coreGlobals = Object.fromEntries(Object.entries(globals['shared-node-browser'])
  .filter(([name]) => !['localStorage', 'sessionStorage', 'Storage', 'navigator', 'Navigator'].includes(name)));
// TypeScript turns `no-undef` off (tsc resolves names, and tsconfig loads both DOM and Node types),
// so the globals core must not use are named: every browser or Node global outside the shared set.
const coreForbiddenGlobals = [...new Set([...Object.keys(globals.browser), ...Object.keys(globals.node)])]
  .filter((name) => !(name in coreGlobals) && !(name in globals.builtin))
  .map((name) => ({ name, message: 'src/core is pure: no browser or Node globals; inject what it needs through an interface.' }));

/** A worker implementation (anything under workers/ but its message types, workers/protocol/). */
const workerImpl = { regex: '(^|/)workers/(?!protocol/)', message: 'Import only the message types, workers/protocol/*; start a worker by URL.' };

export default tseslint.config(
  { ignores: ['dist/**', 'dist-*/**', 'bench-out/**', 'node_modules/**', 'public/**', 'test-results/**', '.cache/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Every exported function, class, interface, type and constant carries a TSDoc comment.
    files: ['src/**/*.{ts,tsx}', 'workers/**/*.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { jsdoc },
    rules: {
      'jsdoc/require-jsdoc': ['error', {
        publicOnly: true,
        require: { FunctionDeclaration: true, ClassDeclaration: true, ArrowFunctionExpression: true },
        contexts: ['TSInterfaceDeclaration', 'TSTypeAliasDeclaration', 'ExportNamedDeclaration > VariableDeclaration'],
      }],
    },
  },
  {
    // Layering: the pure core imports no DOM framework, no Node built-in, and nothing above it,
    // and sees neither browser nor Node globals.
    files: ['src/core/**/*.ts'],
    ignores: ['src/core/**/*.test.ts'],
    languageOptions: { globals: coreGlobals },
    rules: {
      'no-restricted-imports': ['error', {
        paths: [...nodeBuiltinPaths, 'react', 'react-dom', 'maplibre-gl', 'hono'],
        patterns: ['**/app/**', '**/ui/**', '**/node/**', '**/contract/**', '**/workers/**', 'node:*'],
      }],
      'no-restricted-globals': ['error', ...coreForbiddenGlobals],
    },
  },
  {
    // The contract handler runs in a service worker too: Fetch API only.
    files: ['src/contract/**/*.ts'],
    ignores: ['src/contract/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [...nodeBuiltinPaths, 'react', 'react-dom', 'maplibre-gl'],
        patterns: ['**/app/**', '**/ui/**', '**/node/**', '**/workers/**', 'node:*'],
      }],
    },
  },
  {
    // UI components depend on core (and the worker message types) only, never on the app shell.
    files: ['src/ui/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/app/**', '**/node/**', 'node:*'] }, workerImpl] }] },
  },
  {
    // The app shell starts workers by URL; it imports only their message types.
    files: ['src/app/**/*.{ts,tsx}'],
    ignores: ['src/app/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/node/**', 'node:*'] }, workerImpl] }] },
  },
  {
    // Workers run in the browser over core and the contract: nothing of the app, the UI or Node.
    files: ['workers/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [...nodeBuiltinPaths, 'react', 'react-dom'],
        patterns: ['**/src/app/**', '**/src/ui/**', '**/src/node/**', 'node:*'],
      }],
    },
  },
  {
    // The Node server, ingest and export run over core and the contract, never the browser app.
    files: ['src/node/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: ['react', 'react-dom', 'maplibre-gl'],
        patterns: ['**/app/**', '**/ui/**', '**/workers/**'],
      }],
    },
  },
);
