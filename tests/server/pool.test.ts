/**
 * The method pool of the Node server (issue 16, item 1): calls that read the grid run on
 * worker threads, so a probe and a cheap call (`category`) are answered while a heavy call
 * holds its worker; the queue is bounded (503 with Retry-After when full, sized here by
 * POOL_THREADS=1 and POOL_QUEUE=1); a client that goes away aborts its running call; a
 * repeated call is answered from the result cache (result-cache.ts). The
 * workers are a fixture (pool-worker.fixture.mjs) that waits for the test's gate, so every
 * assertion is on order and state, never on durations.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { startServer, type RunningServer } from '../../src/node/server';
import { bundleDir } from '../contract/backend';

let srv: RunningServer;
let dir: string;
let base: string;
const state = new Int32Array(new SharedArrayBuffer(12)); // [0] gate, [1] calls taken, [2] calls aborted
const R = '/ocpu/library/indapi3/R';
const saved = { t: process.env.POOL_THREADS, q: process.env.POOL_QUEUE };

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'indapi3-pool-'));
  process.env.POOL_THREADS = '1';
  process.env.POOL_QUEUE = '1';
  srv = await startServer({
    port: 0,
    host: '127.0.0.1',
    sessionDir: dir,
    dataDir: bundleDir(),
    log: false,
    pool: { workerFile: path.join(__dirname, 'pool-worker.fixture.mjs'), workerData: { state: state.buffer } },
  });
  base = `http://127.0.0.1:${srv.port}`;
});
afterAll(async () => {
  Atomics.store(state, 0, 1);
  await srv?.close(1000);
  rmSync(dir, { recursive: true, force: true });
  process.env.POOL_THREADS = saved.t;
  process.env.POOL_QUEUE = saved.q;
  if (saved.t === undefined) delete process.env.POOL_THREADS;
  if (saved.q === undefined) delete process.env.POOL_QUEUE;
});

const post = (method: string, body: object, signal?: AbortSignal) =>
  fetch(`${base}${R}/${method}/json`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), signal });

test('a probe and a cheap call are answered while a heavy call holds the only worker; a full queue answers 503 with Retry-After', async () => {
  let heavyDone = false;
  const heavy = post('indapi', { var: 'ELEVATION' }).then((r) => {
    heavyDone = true;
    return r;
  });
  await vi.waitFor(() => expect(Atomics.load(state, 1)).toBe(1), { timeout: 30_000, interval: 20 });
  // The worker's thread is blocked: the event loop still answers.
  const probe = await fetch(`${base}/ocpu/`);
  expect(probe.status).toBe(200);
  const cheap = await post('category', { q: 'elevation' });
  expect(cheap.status).toBe(201);
  expect(heavyDone).toBe(false);
  // One call may wait (POOL_QUEUE=1); the next is refused at once (another call: the same one would join the first).
  const queued = post('getLayer', { var: 'ELEVATION' });
  await vi.waitFor(async () => {
    const busy = await post('getLayer', { var: 'ELEVATION', iso3: 'KEN' });
    expect(busy.status).toBe(503);
    expect(Number(busy.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await busy.text()).toMatch(/busy/);
  }, { timeout: 10_000, interval: 20 });
  expect(heavyDone).toBe(false);
  Atomics.store(state, 0, 1);
  Atomics.notify(state, 0);
  const h = await heavy;
  expect(h.status).toBe(201);
  expect(await h.json()).toEqual(['done']);
  expect((await queued).status).toBe(201);
  Atomics.store(state, 0, 0);
});

test('a client that goes away aborts its running call in the worker', async () => {
  const taken = Atomics.load(state, 1);
  const ac = new AbortController();
  const call = post('getLayer', { var: 'ELEVATION', iso3: 'UGA' }, ac.signal).catch((e) => e); // not asked before: not in the result cache
  await vi.waitFor(() => expect(Atomics.load(state, 1)).toBe(taken + 1), { timeout: 30_000, interval: 20 });
  ac.abort();
  await call;
  await vi.waitFor(() => expect(Atomics.load(state, 2)).toBe(1), { timeout: 30_000, interval: 20 });
  // The worker lives on and takes the next call (the same call: an aborted one is not cached).
  Atomics.store(state, 0, 1);
  const next = await post('getLayer', { var: 'ELEVATION', iso3: 'UGA' });
  expect(next.status).toBe(201);
  expect(Atomics.load(state, 1)).toBe(taken + 2);
});

test('a repeated call runs once in the pool; each caller still gets a session of its own with the same answer', async () => {
  Atomics.store(state, 0, 1);
  const taken = Atomics.load(state, 1);
  const a = await post('getLayer', { var: 'ELEVATION', iso3: 'TZA' });
  const b = await post('getLayer', { iso3: 'TZA', var: 'ELEVATION' }); // the same call, arguments in another order
  expect([a.status, b.status]).toEqual([201, 201]);
  expect(a.headers.get('x-ocpu-session')).not.toBe(b.headers.get('x-ocpu-session'));
  expect(await b.json()).toEqual(await a.json());
  expect(Atomics.load(state, 1)).toBe(taken + 1);
  for (const r of [a, b]) expect((await fetch(`${base}/ocpu/tmp/${r.headers.get('x-ocpu-session')}/R/.val/json`)).status).toBe(200);
});
