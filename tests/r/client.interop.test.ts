/**
 * Interop: an R client (httr + jsonlite, tests/r/client.R) drives the Node server the way
 * users of the original OpenCPU service did. Needs Rscript with httr and jsonlite (Debian
 * r-cran-httr, r-cran-jsonlite; installed by .ci/run).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startServer, type RunningServer } from '../../src/node/server';
import { bundleDir } from '../contract/backend';

let srv: RunningServer;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'indapi3-r-'));
  srv = await startServer({ port: 0, host: '127.0.0.1', sessionDir: dir, dataDir: bundleDir(), log: false });
});
afterAll(async () => {
  await srv?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('tests/r/client.R (httr + jsonlite) passes against the Node server', async () => {
  const { stdout } = await promisify(execFile)('Rscript', [path.join(__dirname, 'client.R'), `http://127.0.0.1:${srv.port}`], { timeout: 120_000 }).catch((e) => {
    throw new Error(`Rscript failed:\n${e.stderr || e.message}`);
  });
  const out = JSON.parse(stdout.trim().split('\n').at(-1)!);
  expect(out.category).toBeGreaterThan(0);
  expect(out.rows).toBeGreaterThan(0);
  expect(out.rds).toBe(out.rows);
  expect(out.intervals.length).toBeGreaterThan(0);
  expect(out.zip).toContain('meta.csv');
  expect(out.methods).toEqual(['catchment', 'category', 'classify', 'describe', 'genFile', 'getLayer', 'getLayerWKT', 'indapi', 'similar']);
});
