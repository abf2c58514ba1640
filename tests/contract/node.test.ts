/**
 * The contract cases against the Node server over HTTP (a real socket, plain fetch), with
 * sessions on disk in a temporary folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type RunningServer } from '../../src/node/server';
import { CASES } from './cases';
import { nodeTransport, runCase, type Transport } from './run-case';
import { contractBackend } from './backend';

let srv: RunningServer;
let t: Transport;
let dir: string;
const logs: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'indapi3-sessions-'));
  const backend = await contractBackend();
  srv = await startServer({ port: 0, host: '127.0.0.1', sessionDir: dir, ...backend, log: (l) => logs.push(l) });
  t = nodeTransport(`http://127.0.0.1:${srv.port}`);
});
afterAll(async () => {
  await srv?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('contract cases on the Node server', () => {
  for (const c of CASES) test(c.name, () => runCase(t, c));
});

test('the server logs one line per request and keeps serving after bad input', async () => {
  const before = logs.length;
  const r = await fetch(`${t.origin}/ocpu/library/indapi3/R/`);
  expect(r.status).toBe(200);
  await r.text();
  expect(logs.length).toBe(before + 1);
  expect(logs.at(-1)).toMatch(/^\d{4}-\d\d-\d\dT.* GET \/ocpu\/library\/indapi3\/R\/ 200 /);
});
