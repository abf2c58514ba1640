/**
 * The Node server beyond the contract: the app at `/`, the bundle at `/data/` with range
 * requests and ETags, and graceful shutdown of the command-line entry.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startServer, type RunningServer } from '../../src/node/server';
import { createFakeEngine, fakeGenFile } from './fake-engine.fixture';

let tmp: string;
let srv: RunningServer;
let base: string;
const bytes = Uint8Array.from({ length: 1000 }, (_, i) => i % 251);

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'indapi3-srv-'));
  mkdirSync(path.join(tmp, 'dist', 'assets'), { recursive: true });
  mkdirSync(path.join(tmp, 'data', 'cog'), { recursive: true });
  writeFileSync(path.join(tmp, 'dist', 'index.html'), '<!doctype html><h1>indapi3 fixture shell</h1>');
  writeFileSync(path.join(tmp, 'dist', 'assets', 'app-1234.js'), 'console.log(1)');
  writeFileSync(path.join(tmp, 'data', 'cog', 'FIXTURE.tif'), bytes);
  writeFileSync(path.join(tmp, 'data', 'manifest.json'), '{"name":"fixture","version":"0.0.1"}');
  srv = await startServer({
    port: 0,
    host: '127.0.0.1',
    distDir: path.join(tmp, 'dist'),
    dataDir: path.join(tmp, 'data'),
    sessionDir: path.join(tmp, 'sessions'),
    engine: createFakeEngine(),
    genFile: fakeGenFile,
    log: false,
  });
  base = `http://127.0.0.1:${srv.port}`;
});
afterAll(async () => {
  await srv?.close();
  rmSync(tmp, { recursive: true, force: true });
});

test('the app shell at / and client routes; immutable assets', async () => {
  const r = await fetch(`${base}/`);
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/text\/html/);
  expect(await r.text()).toContain('indapi3 fixture shell');
  const route = await fetch(`${base}/explore`);
  expect(route.status).toBe(200);
  expect(await route.text()).toContain('fixture shell');
  const asset = await fetch(`${base}/assets/app-1234.js`);
  expect(asset.headers.get('cache-control')).toContain('immutable');
  expect((await fetch(`${base}/missing.js`)).status).toBe(404);
  expect((await fetch(`${base}/..%2f..%2fetc/passwd`)).status).toBe(400);
});

test('the bundle at /data/ answers range requests and conditional requests', async () => {
  const whole = await fetch(`${base}/data/cog/FIXTURE.tif`);
  expect(whole.status).toBe(200);
  expect(whole.headers.get('accept-ranges')).toBe('bytes');
  expect(new Uint8Array(await whole.arrayBuffer())).toEqual(bytes);
  const etag = whole.headers.get('etag')!;
  const part = await fetch(`${base}/data/cog/FIXTURE.tif`, { headers: { Range: 'bytes=100-199' } });
  expect(part.status).toBe(206);
  expect(part.headers.get('content-range')).toBe('bytes 100-199/1000');
  expect(new Uint8Array(await part.arrayBuffer())).toEqual(bytes.slice(100, 200));
  const again = await fetch(`${base}/data/cog/FIXTURE.tif`, { headers: { 'If-None-Match': etag } });
  expect(again.status).toBe(304);
  const bad = await fetch(`${base}/data/cog/FIXTURE.tif`, { headers: { Range: 'bytes=5000-' } });
  expect(bad.status).toBe(416);
  expect((await fetch(`${base}/data/nope.tif`)).status).toBe(404);
  expect((await fetch(`${base}/data/cog/FIXTURE.tif`, { method: 'POST', body: 'x' })).status).toBe(405);
});

test('a session survives a server restart (sessions on disk)', async () => {
  const r = await fetch(`${base}/ocpu/library/indapi3/R/category/json`, { method: 'POST' });
  expect(r.status).toBe(201);
  const key = r.headers.get('x-ocpu-session')!;
  await srv.close();
  srv = await startServer({ port: 0, host: '127.0.0.1', distDir: path.join(tmp, 'dist'), dataDir: path.join(tmp, 'data'), sessionDir: path.join(tmp, 'sessions'), engine: createFakeEngine(), log: false });
  base = `http://127.0.0.1:${srv.port}`;
  const v = await fetch(`${base}/ocpu/tmp/${key}/R/.val/json`);
  expect(v.status).toBe(200);
  expect((await v.json()).map((x: any) => x.code)).toContain('ELEVATION');
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as any).port;
      s.close(() => resolve(p));
    });
  });
}

test('the command-line server starts on PORT/HOST and exits cleanly on SIGTERM', async () => {
  const port = await freePort();
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/node/server.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DIST_DIR: path.join(tmp, 'dist'), DATA_DIR: path.join(tmp, 'data'), SESSION_DIR: path.join(tmp, 's2') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const t0 = Date.now();
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() - t0 > 30_000) throw new Error(`server did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const code = await new Promise<number | null>((resolve) => {
    proc.once('exit', (c) => resolve(c));
    proc.kill('SIGTERM');
  });
  expect(code).toBe(0);
  expect(out).toContain(`listening on http://127.0.0.1:${port}/`);
  expect(out).toMatch(/GET \/ 200/);
  expect(out).toContain('SIGTERM: closing');
});
