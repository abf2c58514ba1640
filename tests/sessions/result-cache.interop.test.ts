/**
 * The result cache's shared second level in a real redis-server: a call computed on one node
 * is answered on another without computing it again; the key holds the bundle's identity
 * (its manifest), not its path; Redis away costs only the computation.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { CallOutput, MethodCall, MethodRunner } from '../../src/contract/run';
import { openRedis, type RedisConnection } from '../../src/node/redis-client';
import { cachedRunner, redisResultCache } from '../../src/node/result-cache';
import { bundleIdentity } from '../../src/node/shared-state';
import { startRedis, type TestRedis } from './redis-server.fixture';

let redis: TestRedis;
let conn: RedisConnection;
beforeAll(async () => {
  redis = await startRedis();
  conn = openRedis(redis.url);
  for (let i = 0; i < 400 && !conn.ready(); i++) await new Promise((r) => setTimeout(r, 50));
});
afterAll(async () => {
  await conn?.close();
  await redis?.stop();
});

const call = (v: string): MethodCall => ({ method: 'indapi', args: { var: v }, source: 'indapi()', requestUrl: 'http://x/ocpu/library/indapi3/R/indapi', now: '2026-01-01T00:00:00Z' });

/** A node's runner: counts its computations; outputs carry bytes (typed arrays must survive the round trip). */
function node() {
  let runs = 0;
  const runner: MethodRunner = {
    async run(c) {
      runs++;
      return { value: { v: c.args.var }, print: 'p', valueBytes: 10, files: [{ name: 'a.bin', mediaType: 'application/octet-stream', bytes: new Uint8Array([1, 2, 3, 250]) }] } satisfies CallOutput;
    },
  };
  return { runner, runs: () => runs };
}

test('a call computed on node A is answered on node B from Redis; another bundle is not', async () => {
  const shared = redisResultCache(conn, 60_000);
  const a = node();
  const b = node();
  const ra = cachedRunner(a.runner, { maxBytes: 1 << 20, bundleId: 'bundle-1', shared });
  const rb = cachedRunner(b.runner, { maxBytes: 1 << 20, bundleId: 'bundle-1', shared });
  const first = await ra.run(call('ELEVATION'), new AbortController().signal);
  await expect.poll(async () => (await conn.command<number>(['DBSIZE'])) > 0).toBe(true);
  const second = await rb.run(call('ELEVATION'), new AbortController().signal);
  expect(a.runs()).toBe(1);
  expect(b.runs()).toBe(0);
  expect(rb.stats().sharedHits).toBe(1);
  expect(second.value).toEqual(first.value);
  expect(second.files![0].bytes).toBeInstanceOf(Uint8Array);
  expect(Array.from(second.files![0].bytes)).toEqual([1, 2, 3, 250]);
  const c = node();
  const rc = cachedRunner(c.runner, { maxBytes: 1 << 20, bundleId: 'bundle-2', shared });
  await rc.run(call('ELEVATION'), new AbortController().signal);
  expect(c.runs()).toBe(1);
});

test('the bundle identity is the manifest, wherever the bundle is', async () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'indapi3-bundle-id-'));
  try {
    const src = path.resolve('tests/engine/fixtures/bundle');
    cpSync(src, path.join(tmp, 'b'), { recursive: true });
    const id = await bundleIdentity(src);
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    expect(await bundleIdentity(path.join(tmp, 'b'))).toBe(id);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('Redis away: the call is computed, no error', async () => {
  const shared = redisResultCache(conn, 60_000);
  const a = node();
  const ra = cachedRunner(a.runner, { maxBytes: 0, bundleId: 'bundle-3', shared });
  await redis.stop();
  const out = await ra.run(call('SLOPE'), new AbortController().signal);
  expect(out.value).toEqual({ v: 'SLOPE' });
  expect(a.runs()).toBe(1);
  await redis.start();
});
