import { defineConfig } from 'vitest/config';
import { INTEROP } from './vitest.config.ts';

/** Interop tier: the project's outputs read by R, GDAL, pandas and curl (see vitest.config.ts). */
export default defineConfig({
  test: {
    include: INTEROP,
    exclude: ['**/node_modules/**'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // expect.poll waits on state; its 1-s default is too short on a loaded machine.
    expect: { poll: { timeout: 20_000, interval: 50 } },
  },
});
