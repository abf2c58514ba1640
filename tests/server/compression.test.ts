/**
 * Compression in the Node server: built files precompressed (`.br`/`.gz` beside them),
 * API JSON/CSV and bundle text gzipped on the fly when the client takes it, never a COG,
 * a range answer, a tiny body or a binary format.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createServerFetch } from '../../src/node/server';

const BUNDLE = path.resolve('tests/engine/fixtures/bundle');
let tmp: string;
let handle: (r: Request) => Promise<Response>;
const js = 'console.log(' + JSON.stringify('made-up script '.repeat(300)) + ');\n';

beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'indapi3-compress-'));
  const dist = path.join(tmp, 'dist');
  mkdirSync(path.join(dist, 'assets'), { recursive: true });
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>x</title>');
  writeFileSync(path.join(dist, 'assets', 'app.js'), js);
  writeFileSync(path.join(dist, 'assets', 'app.js.br'), brotliCompressSync(js));
  handle = createServerFetch({ distDir: dist, dataDir: BUNDLE, sessionDir: path.join(tmp, 'sessions') });
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const get = (p: string, headers: Record<string, string> = {}, init: RequestInit = {}) => handle(new Request(`http://x${p}`, { headers, ...init }));

test('a built script is sent precompressed (brotli) with Vary and its length', async () => {
  const r = await get('/assets/app.js', { 'accept-encoding': 'gzip, br' });
  expect(r.headers.get('content-encoding')).toBe('br');
  expect(r.headers.get('vary')).toMatch(/accept-encoding/i);
  expect(Number(r.headers.get('content-length'))).toBe((await r.arrayBuffer()).byteLength);
});

test('API JSON is gzipped on the fly when accepted, plain otherwise', async () => {
  const body = "var=c('ELEVATION','SLOPE','TRI','AREA_LAND','DIST_COAST')&by=c('ADM1_NAME_ALT','ELEV_ZONE')";
  const post = (ae?: string) => get('/ocpu/library/indapi3/R/indapi/json', { 'Content-Type': 'application/x-www-form-urlencoded', ...(ae ? { 'accept-encoding': ae } : {}) }, { method: 'POST', body });
  const plain = await post();
  expect(plain.status).toBe(201);
  expect(plain.headers.get('content-encoding')).toBeNull();
  const text = await plain.text();
  expect(text.length).toBeGreaterThan(1024);
  const gz = await post('gzip, deflate, br');
  expect(gz.headers.get('content-encoding')).toBe('gzip');
  expect(gz.headers.get('vary')).toMatch(/accept-encoding/i);
  expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(text);
});

test('bundle CSV without a variant is gzipped; COGs and range answers never are', async () => {
  const csv = await get('/data/vi.csv', { 'accept-encoding': 'gzip' });
  expect(csv.headers.get('content-encoding')).toBe('gzip');
  const cog = await get('/data/cog/ELEVATION.tif', { 'accept-encoding': 'gzip, br' });
  expect(cog.headers.get('content-encoding')).toBeNull();
  expect(Number(cog.headers.get('content-length'))).toBe((await cog.arrayBuffer()).byteLength);
  const part = await get('/data/vi.csv', { 'accept-encoding': 'gzip', range: 'bytes=0-99' });
  expect(part.status).toBe(206);
  expect(part.headers.get('content-encoding')).toBeNull();
  expect((await part.arrayBuffer()).byteLength).toBe(100);
});

test('tiny bodies are not compressed', async () => {
  const r = await get('/config.json', { 'accept-encoding': 'gzip' });
  expect(r.headers.get('content-encoding')).toBeNull();
});
