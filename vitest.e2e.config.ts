import { defineConfig } from 'vitest/config';

/** End-to-end tests: Node server + Debian Chromium driven by playwright-core. */
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
