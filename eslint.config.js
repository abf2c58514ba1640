import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import jsdoc from 'eslint-plugin-jsdoc';

const nodeBuiltins = ['fs', 'path', 'os', 'crypto', 'http', 'https', 'zlib', 'stream', 'child_process', 'url', 'buffer', 'util', 'worker_threads'];

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
    // Layering: the pure core imports no DOM framework, no Node built-in, and nothing above it.
    files: ['src/core/**/*.ts'],
    ignores: ['src/core/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [...nodeBuiltins.flatMap((m) => [m, `node:${m}`]), 'react', 'react-dom', 'maplibre-gl', 'hono'],
        patterns: ['**/app/**', '**/ui/**', '**/node/**', '**/contract/**', '**/workers/**', 'node:*'],
      }],
    },
  },
  {
    // The contract handler runs in a service worker too: Fetch API only.
    files: ['src/contract/**/*.ts'],
    ignores: ['src/contract/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [...nodeBuiltins.flatMap((m) => [m, `node:${m}`]), 'react', 'react-dom', 'maplibre-gl'],
        patterns: ['**/app/**', '**/ui/**', '**/node/**', '**/workers/**', 'node:*'],
      }],
    },
  },
  {
    // UI components depend on core only, never on the app shell.
    files: ['src/ui/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['**/app/**', '**/node/**', 'node:*'] }] },
  },
);
