/**
 * Jobs (jobs-cases.ts) on the Node server over HTTP (the real one with its worker pool, so
 * progress crosses the thread; and one on the gated engine) and on the service worker's
 * handler: createHandler with the IndexedDB session store (fake-indexeddb) as workers/sw.ts
 * builds it, called with Requests directly.
 */
import 'fake-indexeddb/auto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import { createHandler } from '../../src/contract/handler';
import { createIdbSessionStore } from '../../src/contract/idb-sessions';
import type { Engine } from '../../src/core/api';
import { openNodeRuntime } from '../../src/node/bundle-runtime';
import { startServer, type RunningServer } from '../../src/node/server';
import { bundleDir } from './backend';
import { Gate, gatedCases, realEngineCases, type JobsTarget } from './jobs-cases';

const dirs: string[] = [];
const servers: RunningServer[] = [];
const tmp = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), 'indapi3-jobs-'));
  dirs.push(d);
  return d;
};
const overHttp = (s: RunningServer): JobsTarget => ({ origin: `http://127.0.0.1:${s.port}`, send: (r) => fetch(r) });

let engine: Engine;
beforeAll(async () => {
  engine = (await openNodeRuntime(bundleDir())).engine;
}, 120_000);
afterAll(async () => {
  for (const s of servers) await s.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('jobs on the Node server (worker pool)', () => {
  let t: JobsTarget;
  beforeAll(async () => {
    const s = await startServer({ port: 0, host: '127.0.0.1', sessionDir: tmp(), dataDir: bundleDir(), log: false, pool: { threads: 1 } });
    servers.push(s);
    t = overHttp(s);
  }, 120_000);
  realEngineCases(() => t);
});

describe('jobs on the Node server (gated engine)', () => {
  const gate = new Gate();
  let t: JobsTarget;
  beforeAll(async () => {
    const s = await startServer({ port: 0, host: '127.0.0.1', sessionDir: tmp(), engine: gate.wrap(engine), log: false, jobs: { concurrency: 1, maxJobs: 2 } });
    servers.push(s);
    t = overHttp(s);
  });
  gatedCases(() => t, gate);
});

describe("jobs on the service worker's handler (IndexedDB sessions)", () => {
  const origin = 'http://sw.test';
  let real: ((r: Request) => Promise<Response>) | undefined;
  realEngineCases(() => ({ origin, send: (real ??= createHandler({ engine, sessions: createIdbSessionStore({ dbName: 'jobs-real' }) })) }));
  const gate = new Gate();
  let send: ((r: Request) => Promise<Response>) | undefined;
  gatedCases(() => ({ origin, send: (send ??= createHandler({ engine: () => Promise.resolve(gate.wrap(engine)), sessions: createIdbSessionStore({ dbName: 'jobs-gated' }), jobs: { concurrency: 1, maxJobs: 2 } })) }), gate);
});
