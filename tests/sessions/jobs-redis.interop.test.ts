/**
 * Jobs on two Node server nodes sharing one Redis (`SESSION_STORE=redis://...`, Debian's
 * redis-server): a job accepted by node A is seen running by node B (`status` from the
 * shared records), cancelled by a DELETE sent to B (A stops at its engine's next progress
 * update and keeps no session), and a job finished on A is read whole from B.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Engine } from '../../src/core/api';
import { openNodeRuntime } from '../../src/node/bundle-runtime';
import { startServer, type RunningServer } from '../../src/node/server';
import { bundleDir } from '../contract/backend';
import { Gate } from '../contract/jobs-cases';
import { startRedis, stopRedis, type TestRedis } from './redis-server.fixture';

let redis: TestRedis | undefined;
let a: RunningServer, b: RunningServer;
const gate = new Gate();
const R = '/ocpu/library/indapi3/R';
const BODY = JSON.stringify({ var: 'ELEVATION', domains: { a: 'POLYGON((34 0.2, 34.9 0.2, 34.9 1, 34 1, 34 0.2))' } });
const on = (s: RunningServer, p: string, init?: RequestInit) => fetch(`http://127.0.0.1:${s.port}${p}`, init);

beforeAll(async () => {
  redis = await startRedis();
  const engine: Engine = gate.wrap((await openNodeRuntime(bundleDir())).engine);
  a = await startServer({ port: 0, host: '127.0.0.1', engine, sessionStore: redis.url, log: false });
  b = await startServer({ port: 0, host: '127.0.0.1', engine, sessionStore: redis.url, log: false });
}, 120_000);
afterAll(async () => {
  await a?.close();
  await b?.close();
  await stopRedis(redis);
});

async function statusOn(s: RunningServer, key: string): Promise<{ state: string; progress: number }> {
  const r = await on(s, `/ocpu/tmp/${key}/status`);
  expect(r.status).toBe(200);
  return r.json();
}

async function until(s: RunningServer, key: string, ok: (x: { state: string; progress: number }) => boolean): Promise<{ state: string; progress: number }> {
  const end = Date.now() + 90_000;
  for (;;) {
    const x = await statusOn(s, key);
    if (ok(x)) return x;
    if (Date.now() > end) throw new Error(`never: ${JSON.stringify(x)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function submit(s: RunningServer): Promise<string> {
  const r = await on(s, `${R}/classify`, { method: 'POST', headers: { 'Content-Type': 'application/json', Prefer: 'respond-async' }, body: BODY });
  expect(r.status).toBe(202);
  return r.headers.get('x-ocpu-session')!;
}

test('a job on node A: running seen from B, cancelled from B, no session anywhere', async () => {
  gate.reset();
  const returned = gate.returned;
  const key = await submit(a);
  expect(await until(b, key, (x) => x.state === 'running' && x.progress > 0)).toMatchObject({ state: 'running', progress: 0.25 });
  const del = await on(b, `/ocpu/tmp/${key}/`, { method: 'DELETE' });
  expect(del.status).toBe(200);
  expect(await del.json()).toMatchObject({ state: 'cancelled' });
  gate.release();
  for (let i = 0; i < 500 && gate.returned === returned; i++) await new Promise((r) => setTimeout(r, 10));
  expect(gate.returned).toBe(returned + 1);
  // A saw the cancel at its engine's progress; whatever it had stored is removed
  await until(a, key, (x) => x.state === 'cancelled');
  for (let i = 0; i < 10; i++) {
    for (const s of [a, b]) expect((await on(s, `/ocpu/tmp/${key}/R/.val/json`)).status).toBe(404);
    await new Promise((r) => setTimeout(r, 20));
  }
});

test('a job finished on A is done and whole on B', async () => {
  gate.release();
  const key = await submit(a);
  expect(await until(b, key, (x) => x.state === 'done' || x.state === 'failed')).toMatchObject({ state: 'done', progress: 1 });
  const fromB = await on(b, `/ocpu/tmp/${key}/R/.val/json`);
  expect(fromB.status).toBe(200);
  const rows = await fromB.json();
  expect(rows.length).toBe(1);
  expect(rows[0].name).toBe('a');
});
