/**
 * The contract's jobs (`Prefer: respond-async`, `tmp/<key>/status`, `DELETE tmp/<key>/`) as
 * one set of cases, run on the Node server over HTTP and on the service worker's handler
 * (the same createHandler with the IndexedDB session store) by tests/contract/jobs.test.ts.
 *
 * Two backends per transport: the real engine (the answer of a job equals the synchronous
 * call's; a failed run's message equals the synchronous 400), and the same engine behind a
 * {@link Gate} whose `classify` reports a quarter of its work and then waits for the test, so
 * "running", progress, cancel mid-way and the cap are observed on state, never on timing.
 */
import { expect, test } from 'vitest';
import type { Engine } from '../../src/core/api';

/** A transport: answers a Request (Node fetch to a server, or the handler called directly). */
export type Send = (req: Request) => Promise<Response>;

/** Where the cases run. */
export interface JobsTarget {
  origin: string;
  send: Send;
}

/** Holds `classify` of a wrapped engine until released; counts entries and returns. */
export class Gate {
  private open!: () => void;
  private opened = new Promise<void>((r) => (this.open = r));
  entered = 0;
  returned = 0;
  /** Lets every waiting (and later) call go on. */
  release(): void {
    this.open();
  }
  /** Re-arms the gate for the next case. */
  reset(): void {
    this.opened = new Promise<void>((r) => (this.open = r));
  }
  /** The engine with its `classify` gated: progress 1 of 4, wait (not watching the signal: a slow engine), then the real work (its own progress). */
  wrap(base: Engine): Engine {
    const classify: Engine['classify'] = async (args, o = {}) => {
      this.entered++;
      o.onProgress?.(1, 4);
      await this.opened;
      try {
        return await base.classify(args, { signal: o.signal, onProgress: o.onProgress });
      } finally {
        this.returned++;
      }
    };
    return new Proxy(base, { get: (t, k, r) => (k === 'classify' ? classify : Reflect.get(t, k, r)) });
  }
}

const R = '/ocpu/library/indapi3/R';
const ASYNC = { 'Content-Type': 'application/json', Prefer: 'respond-async' };
const JSONH = { 'Content-Type': 'application/json' };
/** Two named polygons in western Kenya (inside the real bundle and the engine's fixture bundle). */
const DOMAINS = { a: 'POLYGON((34 0.2, 34.9 0.2, 34.9 1, 34 1, 34 0.2))', b: 'POLYGON((34 -1.9, 34.9 -1.9, 34.9 -1.3, 34 -1.3, 34 -1.9))' };
const CLASSIFY = JSON.stringify({ var: 'ELEVATION', domains: DOMAINS });
/** A polygon in the North Atlantic: outside every bundle's grid, refused when the method runs (OUTSIDE_GRID), not when it is bound. */
const OUTSIDE = JSON.stringify({ var: 'ELEVATION', domains: { sea: 'POLYGON((-40 40, -39 40, -39 41, -40 41, -40 40))' } });

interface Status {
  state: string;
  progress: number;
  message: string;
  status?: number;
}

function req(t: JobsTarget, path: string, init: RequestInit = {}): Promise<Response> {
  return t.send(new Request(t.origin + path, init));
}

async function submit(t: JobsTarget, body: string, method = 'classify'): Promise<{ res: Response; key: string; status: Status }> {
  const res = await req(t, `${R}/${method}`, { method: 'POST', headers: ASYNC, body });
  const text = await res.text();
  expect(res.status, text).toBe(202);
  return { res, key: res.headers.get('x-ocpu-session')!, status: JSON.parse(text) };
}

async function status(t: JobsTarget, key: string): Promise<Status> {
  const r = await req(t, `/ocpu/tmp/${key}/status`);
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  return r.json();
}

/** Polls `status` until `until` holds (at most 90 s: a busy machine), keeping every answer seen. */
async function pollUntil(t: JobsTarget, key: string, until: (s: Status) => boolean): Promise<Status[]> {
  const seen: Status[] = [];
  const end = Date.now() + 90_000;
  for (;;) {
    const s = await status(t, key);
    seen.push(s);
    if (until(s)) return seen;
    if (Date.now() > end) throw new Error(`job ${key} never reached the state; last ${JSON.stringify(s)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const ORDER = ['queued', 'running', 'done'];

/** Cases on the real engine. */
export function realEngineCases(target: () => JobsTarget): void {
  test('Prefer: respond-async answers 202 with Location and X-ocpu-session; the job ends done and equals the synchronous call', async () => {
    const t = target();
    const { res, key, status: first } = await submit(t, CLASSIFY);
    expect(key).toMatch(/^x0[0-9a-f]{32}$/);
    expect(res.headers.get('location')).toBe(`${t.origin}/ocpu/tmp/${key}/`);
    expect(res.headers.get('preference-applied')).toBe('respond-async');
    expect(['queued', 'running', 'done']).toContain(first.state);
    const seen = await pollUntil(t, key, (s) => s.state !== 'queued' && s.state !== 'running');
    expect(seen.at(-1)).toMatchObject({ state: 'done', progress: 1 });
    // states only move forward, progress never goes back
    for (let i = 1; i < seen.length; i++) {
      expect(ORDER.indexOf(seen[i].state)).toBeGreaterThanOrEqual(ORDER.indexOf(seen[i - 1].state));
      expect(seen[i].progress).toBeGreaterThanOrEqual(seen[i - 1].progress);
    }
    const listing = await (await req(t, `/ocpu/tmp/${key}/`)).text();
    expect(listing).toContain('R/.val');
    const jobVal = await (await req(t, `/ocpu/tmp/${key}/R/.val/json`)).json();
    const sync = await req(t, `${R}/classify/json`, { method: 'POST', headers: JSONH, body: CLASSIFY });
    expect(sync.status).toBe(201);
    const syncVal = await sync.json();
    expect(jobVal).toEqual(syncVal);
    expect(jobVal.length).toBe(2);
    // source is the call as R source, as for a synchronous call
    expect(await (await req(t, `/ocpu/tmp/${key}/source`)).text()).toMatch(/^classify\(var = "ELEVATION"/);
  });

  test('a job whose method fails ends failed with the synchronous 400 message; argument errors answer 400 at once', async () => {
    const t = target();
    const { key } = await submit(t, OUTSIDE);
    const seen = await pollUntil(t, key, (s) => s.state === 'failed' || s.state === 'done');
    const last = seen.at(-1)!;
    expect(last.state).toBe('failed');
    expect(last.status).toBe(400);
    const sync = await req(t, `${R}/classify`, { method: 'POST', headers: JSONH, body: OUTSIDE });
    expect(sync.status).toBe(400);
    expect(last.message).toBe((await sync.text()).trimEnd());
    expect(last.message).toMatch(/outside the grid[\s\S]*In call:\nclassify\(/);
    // no session for a failed job; its resources say where the state is
    const r = await req(t, `/ocpu/tmp/${key}/R/.val/json`);
    expect(r.status).toBe(404);
    expect(await r.text()).toContain(`/ocpu/tmp/${key}/status`);
    // a bad argument is refused before any job starts
    const bad = await req(t, `${R}/classify`, { method: 'POST', headers: ASYNC, body: JSON.stringify({ var: 'ELEVATION', domains: DOMAINS, nonsense: 1 }) });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('x-ocpu-session')).toBeNull();
    expect(await bad.text()).toMatch(/nonsense/);
  });

  test('status of an unknown key answers 404; of a synchronous session, done', async () => {
    const t = target();
    const r = await req(t, `/ocpu/tmp/x0${'0'.repeat(32)}/status`);
    expect(r.status).toBe(404);
    const sync = await req(t, `${R}/classify`, { method: 'POST', headers: JSONH, body: CLASSIFY });
    expect(sync.status).toBe(201);
    const s = await status(t, sync.headers.get('x-ocpu-session')!);
    expect(s).toMatchObject({ state: 'done', progress: 1 });
    const del = await req(t, `/ocpu/tmp/${sync.headers.get('x-ocpu-session')}/`, { method: 'DELETE' });
    expect(del.status).toBe(409);
  });
}

/** Cases on the gated engine; the target's jobs run one at a time and at most two are held. */
export function gatedCases(target: () => JobsTarget, gate: Gate): void {
  test('status goes queued/running with the engine\'s progress, then done', async () => {
    const t = target();
    gate.reset();
    const { key } = await submit(t, CLASSIFY);
    const running = await pollUntil(t, key, (s) => s.state === 'running' && s.progress > 0);
    expect(running.at(-1)!.progress).toBeCloseTo(0.25, 5);
    gate.release();
    const seen = await pollUntil(t, key, (s) => s.state === 'done' || s.state === 'failed');
    expect(seen.at(-1)).toMatchObject({ state: 'done', progress: 1 });
    expect((await req(t, `/ocpu/tmp/${key}/R/.val/json`)).status).toBe(200);
  });

  test('DELETE cancels a running job: state cancelled, no session kept after the engine returns', async () => {
    const t = target();
    gate.reset();
    const returnedBefore = gate.returned;
    const { key } = await submit(t, CLASSIFY);
    await pollUntil(t, key, (s) => s.state === 'running' && s.progress > 0);
    const del = await req(t, `/ocpu/tmp/${key}/`, { method: 'DELETE' });
    expect(del.status).toBe(200);
    expect(await del.json()).toMatchObject({ state: 'cancelled', progress: 0.25 });
    gate.release();
    // the engine finishes its work (it did not watch the signal); the job must still keep nothing
    for (let i = 0; i < 200 && gate.returned === returnedBefore; i++) await new Promise((r) => setTimeout(r, 10));
    expect(gate.returned).toBe(returnedBefore + 1);
    for (let i = 0; i < 5; i++) {
      const r = await req(t, `/ocpu/tmp/${key}/`);
      expect(r.status).toBe(404);
      expect(await r.text()).toMatch(/job \(cancelled\)/);
    }
    expect(await status(t, key)).toMatchObject({ state: 'cancelled' });
    // cancelling again is a no-op
    expect((await req(t, `/ocpu/tmp/${key}`, { method: 'DELETE' })).status).toBe(200);
  });

  test('past the cap of jobs on a node the call answers 503 with Retry-After; a queued job can be cancelled', async () => {
    const t = target();
    gate.reset();
    const a = await submit(t, CLASSIFY);
    await pollUntil(t, a.key, (s) => s.state === 'running');
    const b = await submit(t, CLASSIFY);
    expect(b.status.state).toBe('queued');
    const c = await req(t, `${R}/classify`, { method: 'POST', headers: ASYNC, body: CLASSIFY });
    expect(c.status).toBe(503);
    expect(c.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await c.text()).toMatch(/Too many jobs/);
    const del = await req(t, `/ocpu/tmp/${b.key}/`, { method: 'DELETE' });
    expect(await del.json()).toMatchObject({ state: 'cancelled', progress: 0 });
    gate.release();
    expect((await pollUntil(t, a.key, (s) => s.state === 'done')).at(-1)!.state).toBe('done');
    expect(await status(t, b.key)).toMatchObject({ state: 'cancelled' });
  });
}
