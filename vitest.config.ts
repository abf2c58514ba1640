import { defineConfig } from 'vitest/config';

/**
 * Test tiers (`npm test` runs all three, scripts/run-tests.mjs):
 * - unit (this config, `npm run test:unit`): fast, pure, in Node; needs no R, GDAL, Python or curl;
 * - interop (`npm run test:interop`, vitest.interop.config.ts): against the real readers and
 *   clients (R, GDAL, pandas, curl): files under `tests/interop/` or named `*.interop.test.ts`;
 * - end-to-end (`npm run test:e2e`, vitest.e2e.config.ts): the built app in Chromium, `e2e/`.
 */
export const INTEROP = ['tests/interop/**/*.test.ts', '**/*.interop.test.ts'];

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'workers/**/*.test.ts', 'tests/**/*.test.ts', 'scripts/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...INTEROP],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two files at once (Vitest's default on a 2-core machine is one: cores - 1): 195 s with two,
    // beside other engineers' work, against 239 s with one on an idle machine.
    maxWorkers: 2,
    // expect.poll waits on state; its 1-s default is too short on a loaded machine.
    expect: { poll: { timeout: 20_000, interval: 50 } },
  },
});
