import { defineConfig } from 'vitest/config';

/** End-to-end tests: Node server + Debian Chromium driven by playwright-core. */
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Two files at once: each starts its own server on a free port and its own Chromium, and
    // writes only into its own temp dirs; most of an e2e file's time is waiting on the page.
    fileParallelism: true,
    maxWorkers: 2,
    // A worker runs its next file without a fresh module graph (the e2e files share no module
    // state: each keeps its server and browser in its own variables): 5-9% less wall time on a
    // set of small files, the imports (playwright-core, the helpers) done once per worker.
    isolate: false,
    // expect.poll waits on state; its 1-s default is too short on a loaded CI machine
    // (a lazily started worker's first answer can take longer). A passing poll returns at once.
    expect: { poll: { timeout: 30_000, interval: 100 } },
  },
});
