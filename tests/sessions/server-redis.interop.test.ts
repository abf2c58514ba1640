/**
 * A server node on the Redis session store (`SESSION_STORE=redis://...`): `/healthz`
 * follows Redis, calls that need it answer 503 with Retry-After while it is away, and the
 * node recovers by itself when it returns; SIGTERM-style close drains: running calls finish,
 * new ones and `/healthz` answer 503.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { executeCall, type MethodRunner } from '../../src/contract/run';
import { createServerFetch, openNodeRuntime, startServer } from '../../src/node/server';
import { startRedis, type TestRedis } from './redis-server.fixture';

const BUNDLE = path.resolve('tests/engine/fixtures/bundle');
let tmp: string;
let redis: TestRedis;
beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'indapi3-srv-redis-'));
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
const CALL = "var=c('ELEVATION','SLOPE')&by='ADM1_NAME_ALT'";

test('healthz, 503 with Retry-After while Redis is away, recovery without a restart', async () => {
  const handle = createServerFetch({ distDir: tmp, dataDir: BUNDLE, sessionDir: path.join(tmp, 's1'), sessionStore: redis.url, log: false });
  const get = (p: string) => handle(new Request(`http://127.0.0.1${p}`));
  const call = () => handle(new Request('http://127.0.0.1/ocpu/library/indapi3/R/indapi', { method: 'POST', headers: form, body: CALL }));
  await expect.poll(async () => (await get('/healthz')).status).toBe(200);
  const made = await call();
  expect(made.status).toBe(201);
  const key = made.headers.get('x-ocpu-session')!;
  expect((await get(`/ocpu/tmp/${key}/R/.val/json`)).status).toBe(200);

  await redis.stop();
  const h = await get('/healthz');
  expect(h.status).toBe(503);
  expect(await h.text()).toMatch(/^sessions: /m);
  const refused = await call();
  expect(refused.status).toBe(503);
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  const read = await get(`/ocpu/tmp/${key}/R/.val/json`);
  expect(read.status).toBe(503);
  expect(read.headers.get('retry-after')).toBeTruthy();

  await redis.start();
  await expect.poll(async () => (await get('/healthz')).status, { timeout: 30_000 }).toBe(200);
  const again = await call();
  expect(again.status).toBe(201);
  const key2 = again.headers.get('x-ocpu-session')!;
  expect((await get(`/ocpu/tmp/${key2}/R/.val/json`)).status).toBe(200);
});

test('healthz is 503 without a bundle; closing drains: new requests 503, the running call finishes', async () => {
  const bad = createServerFetch({ distDir: tmp, dataDir: path.join(tmp, 'no-bundle'), sessionDir: path.join(tmp, 's2'), log: false });
  const h = await bad(new Request('http://127.0.0.1/healthz'));
  expect(h.status).toBe(503);
  expect(await h.text()).toMatch(/^bundle: /m);

  // a runner that says when a call has started and holds it until the node is closing
  const { engine } = await openNodeRuntime(BUNDLE);
  let started!: () => void;
  const isRunning = new Promise<void>((r) => (started = r));
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const runner: MethodRunner = {
    async run(call, signal) {
      started();
      await held;
      return executeCall({ engine }, call, signal);
    },
  };
  const s = await startServer({ port: 0, host: '127.0.0.1', distDir: tmp, dataDir: BUNDLE, sessionStore: redis.url, sessionDir: path.join(tmp, 's3'), log: false, runner });
  const base = `http://127.0.0.1:${s.port}`;
  expect((await fetch(`${base}/healthz`)).status).toBe(200);
  const running = fetch(`${base}/ocpu/library/indapi3/R/indapi`, { method: 'POST', headers: form, body: CALL });
  await isRunning;
  const closed = s.close(20_000);
  const late = await fetch(`${base}/healthz`).then((r) => r.status, () => 'refused');
  expect([503, 'refused']).toContain(late); // a new request is never served once closing began
  release();
  const res = await running;
  expect(res.status).toBe(201);
  await closed;
  await expect(fetch(`${base}/healthz`)).rejects.toThrow();
});
