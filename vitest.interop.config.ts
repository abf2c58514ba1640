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
    // Two files at once (Vitest's default is one on a 2-core machine: cores - 1): the tier waits on
    // R, GDAL, Redis and haproxy child processes much of the time (0.9 cores on average alone).
    // Each file starts its servers on free ports and writes into its own temp dirs. 376 s with one
    // on an idle machine; with two, 491 s with three other engineers' builds and tests beside it.
    maxWorkers: 2,
    // expect.poll waits on state; its 1-s default is too short on a loaded machine.
    expect: { poll: { timeout: 20_000, interval: 50 } },
  },
});
