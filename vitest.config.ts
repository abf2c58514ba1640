import { defineConfig } from 'vitest/config';

/** Unit, contract and interop tests (Node). End-to-end browser tests live in e2e/. */
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'workers/**/*.test.ts', 'tests/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
