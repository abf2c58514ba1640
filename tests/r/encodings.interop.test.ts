/**
 * Interop: the request encodings of OpenCPU's own R client (tests/r/encodings.R, the curl
 * package as `ocpu_post_json`, `ocpu_post_encoded`, `ocpu_post_multipart` and
 * `ocpu_post_rds` send them) against the Node server: every answer equals the JSON call's,
 * and bad R objects answer 400 naming what was wrong. Needs Rscript with curl and jsonlite
 * (Debian r-cran-curl, r-cran-jsonlite; installed by .ci/run).
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
  dir = mkdtempSync(path.join(os.tmpdir(), 'indapi3-r-enc-'));
  srv = await startServer({ port: 0, host: '127.0.0.1', sessionDir: dir, dataDir: bundleDir(), log: false });
});
afterAll(async () => {
  await srv?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('tests/r/encodings.R: application/rds (v2, v3, gzip, little-endian), multipart and url-encoded calls answer as the JSON call does', async () => {
  const { stdout } = await promisify(execFile)('Rscript', [path.join(__dirname, 'encodings.R'), `http://127.0.0.1:${srv.port}`], { timeout: 180_000 }).catch((e) => {
    throw new Error(`Rscript failed:\n${e.stderr || e.message}`);
  });
  const out = JSON.parse(stdout.trim().split('\n').at(-1)!);
  expect(out).toEqual({ indapi: expect.any(Number), getLayer: 7, category: expect.any(Number), catchment: 3, bad: 8 });
  expect(out.indapi).toBeGreaterThan(1);
});
