/**
 * Headers and sockets of the Node server (issue 16, items 4 and 5): security headers on the
 * app and the API, `Location` from PUBLIC_URL and never from a forged `Host`, session HTML
 * and SVG served as sandboxed downloads, socket limits from the environment, and the ZIP of
 * a session built once (HEAD answered from its kept size).
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, test } from 'vitest';
import type { GenFile } from '../../src/contract/methods';
import { startServer, type RunningServer } from '../../src/node/server';
import { createFakeEngine, fakeGenFile } from '../contract/fake-engine.fixture';

let tmp: string;
let srv: RunningServer;
let pub: RunningServer;
let base: string;
const R = '/ocpu/library/indapi3/R';
const enc = new TextEncoder();

/** The fixture writers, plus an HTML page (like terms.html) and an SVG file; counts the files written. */
const genFile: GenFile = async (input, opts) => {
  const out = await fakeGenFile(input, opts);
  return {
    ...out,
    files: [
      ...out.files,
      { name: 'terms.html', mediaType: 'text/html; charset=utf-8', bytes: enc.encode('<script>alert(1)</script>') },
      { name: 'map.svg', mediaType: 'image/svg+xml', bytes: enc.encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>') },
    ],
  };
};

const saved = { ...process.env };
beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'indapi3-hard-'));
  mkdirSync(path.join(tmp, 'dist'), { recursive: true });
  mkdirSync(path.join(tmp, 'data'), { recursive: true });
  writeFileSync(path.join(tmp, 'dist', 'index.html'), '<!doctype html><h1>fixture shell</h1>');
  writeFileSync(path.join(tmp, 'data', 'manifest.json'), '{"name":"fixture","version":"0.0.1"}');
  process.env.HEADERS_TIMEOUT_S = '7';
  process.env.REQUEST_TIMEOUT_S = '33';
  process.env.MAX_CONNECTIONS = '55';
  process.env.MAX_CONNECTIONS_PER_CLIENT = '40';
  const common = { port: 0, host: '127.0.0.1', distDir: path.join(tmp, 'dist'), dataDir: path.join(tmp, 'data'), engine: createFakeEngine(), genFile, log: false as const };
  srv = await startServer({ ...common, sessionDir: path.join(tmp, 's1') });
  pub = await startServer({ ...common, sessionDir: path.join(tmp, 's2'), publicUrl: 'https://data.example.org/indapi/' });
  base = `http://127.0.0.1:${srv.port}`;
});
afterAll(async () => {
  await srv?.close();
  await pub?.close();
  rmSync(tmp, { recursive: true, force: true });
  for (const k of ['HEADERS_TIMEOUT_S', 'REQUEST_TIMEOUT_S', 'MAX_CONNECTIONS', 'MAX_CONNECTIONS_PER_CLIENT']) if (saved[k] === undefined) delete process.env[k];
});

/** A raw HTTP request with any Host header (fetch does not let a Host be set). */
function raw(port: number, method: string, p: string, host: string, body?: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path: p, headers: { Host: host, 'Content-Type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

test('security headers on the app, the API and the bundle', async () => {
  const app = await fetch(`${base}/`);
  expect(app.headers.get('x-content-type-options')).toBe('nosniff');
  const csp = app.headers.get('content-security-policy')!;
  for (const d of ["script-src 'self' 'wasm-unsafe-eval'", "worker-src 'self' blob:", "img-src 'self' data: blob:", "frame-ancestors 'self'"]) expect(csp).toContain(d);
  expect(app.headers.get('referrer-policy')).toBeTruthy();
  const api = await fetch(`${base}/ocpu/library/indapi3/R/`);
  expect(api.headers.get('x-content-type-options')).toBe('nosniff');
  expect(api.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  expect(api.headers.get('referrer-policy')).toBe('no-referrer');
  const data = await fetch(`${base}/data/manifest.json`);
  expect(data.headers.get('x-content-type-options')).toBe('nosniff');
});

test('Location never echoes a forged Host; PUBLIC_URL names the public origin', async () => {
  const body = JSON.stringify({ var: 'ELEVATION', iso3: 'KEN' });
  const forged = await raw(srv.port, 'POST', `${R}/getLayer`, 'evil.example', body);
  expect(forged.status).toBe(201);
  expect(String(forged.headers.location)).not.toContain('evil.example');
  expect(String(forged.headers.location)).toMatch(new RegExp(`^http://localhost:${srv.port}/ocpu/tmp/x0[0-9a-f]{32}/$`));
  const own = await raw(srv.port, 'GET', '/ocpu', `127.0.0.1:${srv.port}`);
  expect(own.headers.location).toBe(`http://127.0.0.1:${srv.port}/ocpu/`);
  const behindProxy = await raw(pub.port, 'POST', `${R}/getLayer`, 'evil.example', body);
  expect(String(behindProxy.headers.location)).toMatch(/^https:\/\/data\.example\.org\/indapi\/ocpu\/tmp\/x0[0-9a-f]{32}\/$/);
});

test('session HTML and SVG files are sandboxed downloads; the ZIP is built once and HEAD answers its size', async () => {
  const r = await fetch(`${base}${R}/genFile`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ var: 'ELEVATION', iso3: 'KEN', format: 'csv' }) });
  expect(r.status).toBe(201);
  const key = r.headers.get('x-ocpu-session')!;
  for (const f of ['terms.html', 'map.svg']) {
    const res = await fetch(`${base}/ocpu/tmp/${key}/files/${f}`);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${f}"`);
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
  }
  const get = await fetch(`${base}/ocpu/tmp/${key}/zip`);
  const bytes = new Uint8Array(await get.arrayBuffer());
  expect(readdirSync(path.join(tmp, 's1', key))).toContain('session.zip');
  const head = await fetch(`${base}/ocpu/tmp/${key}/zip`, { method: 'HEAD' });
  expect(head.status).toBe(200);
  expect(Number(head.headers.get('content-length'))).toBe(bytes.byteLength);
  const again = new Uint8Array(await (await fetch(`${base}/ocpu/tmp/${key}/zip`)).arrayBuffer());
  expect(again).toEqual(bytes);
});

test('socket limits come from HEADERS_TIMEOUT_S, REQUEST_TIMEOUT_S and MAX_CONNECTIONS', () => {
  expect(srv.server.headersTimeout).toBe(7000);
  expect(srv.server.requestTimeout).toBe(33_000);
  expect(srv.server.maxConnections).toBe(55);
  expect(srv.server.listenerCount('connection')).toBeGreaterThan(0); // the per-client cap (40)
});

describe('slow clients (issue 25 item 8)', () => {
  let slow: RunningServer;
  beforeAll(async () => {
    slow = await startServer({ port: 0, host: '127.0.0.1', distDir: path.join(tmp, 'dist'), dataDir: path.join(tmp, 'data'), engine: createFakeEngine(), genFile, log: false, sessionDir: path.join(tmp, 's3'), socket: { headersTimeoutMs: 1000, requestTimeoutMs: 2000, maxConnectionsPerClient: 3 } });
  });
  afterAll(() => slow?.close(100));

  /** Opens a socket to the slow server; resolves when connected. */
  const open = () => new Promise<Socket>((resolve, reject) => {
    const s = connect(slow.port, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
  /** Milliseconds from now until the server ends the socket. */
  const closedAfter = (s: Socket) => {
    const t0 = performance.now();
    return new Promise<number>((resolve) => {
      s.on('data', () => undefined);
      s.once('close', () => resolve(performance.now() - t0));
    });
  };

  it('closes a socket trickling its headers once HEADERS_TIMEOUT_S has passed, not at the next 30 s check', async () => {
    const s = await open();
    const done = closedAfter(s);
    s.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const drip = setInterval(() => s.writable && s.write('X-Slow: 1\r\n'), 200);
    const ms = await done;
    clearInterval(drip);
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(4000);
  });

  it('closes a socket whose declared body never comes once REQUEST_TIMEOUT_S has passed', async () => {
    const s = await open();
    const done = closedAfter(s);
    s.write(`POST ${R}/describe HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`);
    const ms = await done;
    expect(ms).toBeGreaterThanOrEqual(1900);
    expect(ms).toBeLessThan(5000);
  });

  it('caps the connections of one client address; the others still get through', async () => {
    const held = await Promise.all([open(), open(), open()]);
    const extra = await open();
    expect(await closedAfter(extra)).toBeLessThan(1000); // destroyed as it is accepted
    held[0].destroy();
    await expect.poll(async () => (await fetch(`http://127.0.0.1:${slow.port}/config.json`).catch(() => null))?.status, { timeout: 5000 }).toBe(200);
    for (const h of held) h.destroy();
  });
});

describe('app CSP and online basemaps', () => {
  it('allows the tile hosts of the offered basemaps for fetch and images, and nothing else', async () => {
    const { appCsp } = await import('../../src/node/hardening');
    const csp = appCsp(undefined, ['https://Tile.Example.org/{z}/{x}/{y}.png', 'https://tile.example.org/other/{z}/{x}/{y}.png', 'not a url']);
    const dir = (name: string) => csp.split('; ').find((d) => d.startsWith(name + ' '))!;
    expect(dir('connect-src')).toBe("connect-src 'self' data: blob: https://tile.example.org");
    expect(dir('img-src')).toBe("img-src 'self' data: blob: https://tile.example.org");
    expect(dir('script-src')).toBe("script-src 'self' 'wasm-unsafe-eval'");
    expect(appCsp()).not.toContain('example.org');
  });
});
