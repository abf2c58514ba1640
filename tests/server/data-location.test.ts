/**
 * One bundle location setting for the Node server (DATA_DIR a folder or an http(s) URL):
 * /config.json tells the app where the bundle is, /data/ serves the folder or redirects to
 * the URL, the engine reads COGs by range requests from the URL, and a missing, partial or
 * range-less bundle answers a clear BAD_BUNDLE (502) message from the API.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startServer, type RunningServer } from '../../src/node/server';

const BUNDLE = path.resolve('tests/engine/fixtures/bundle');
let tmp: string;
const servers: RunningServer[] = [];
let folder: RunningServer;
let viaUrl: RunningServer;
let noRanges: Server;
let noRangesUrl: string;

async function start(dataDir: string): Promise<RunningServer> {
  const s = await startServer({ port: 0, host: '127.0.0.1', dataDir, distDir: path.join(tmp, 'dist'), sessionDir: path.join(tmp, 'sessions'), log: false });
  servers.push(s);
  return s;
}

const call = (s: RunningServer, body: string) =>
  fetch(`${s.url}ocpu/library/indapi3/R/indapi/json`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body });

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'indapi3-loc-'));
  folder = await start(BUNDLE);
  viaUrl = await start(`${folder.url}data`);
  // A host that ignores Range (answers 200 with the whole file).
  noRanges = createServer((req, res) => {
    try {
      res.writeHead(200).end(readFileSync(path.join(BUNDLE, new URL(req.url!, 'http://x').pathname)));
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => noRanges.listen(0, '127.0.0.1', r));
  noRangesUrl = `http://127.0.0.1:${(noRanges.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  for (const s of servers) await s.close(100);
  await new Promise<void>((r) => noRanges.close(() => r()));
  rmSync(tmp, { recursive: true, force: true });
});

test('a folder: /config.json points at ./data/ (ETag, 304) and the manifest is fetched conditionally', async () => {
  const c = await fetch(`${folder.url}config.json`);
  expect(c.status).toBe(200);
  expect(await c.json()).toEqual({ dataUrl: './data/' });
  expect((await fetch(`${folder.url}config.json`, { headers: { 'If-None-Match': c.headers.get('etag')! } })).status).toBe(304);
  const m = await fetch(`${folder.url}data/manifest.json`);
  expect(m.status).toBe(200);
  expect((await fetch(`${folder.url}data/manifest.json`, { headers: { 'If-None-Match': m.headers.get('etag')! } })).status).toBe(304);
});

test('a URL: /config.json names it, /data/ redirects there, and the API reads COGs by range requests from it', async () => {
  expect(await (await fetch(`${viaUrl.url}config.json`)).json()).toEqual({ dataUrl: `${folder.url}data/` });
  const r = await fetch(`${viaUrl.url}data/cog/ELEVATION.tif?x=1`, { redirect: 'manual' });
  expect(r.status).toBe(307);
  expect(r.headers.get('location')).toBe(`${folder.url}data/cog/ELEVATION.tif?x=1`);
  const args = "var='ELEVATION'&iso3='UGA'&by='ADM1_NAME_ALT'";
  const [a, b] = await Promise.all([call(folder, args), call(viaUrl, args)]);
  expect(b.status).toBe(201);
  expect(await b.json()).toEqual(await a.json());
  const info = await (await fetch(`${viaUrl.url}ocpu/tmp/${b.headers.get('x-ocpu-session')}/info`)).text();
  expect(info).toContain(`at ${folder.url}data/`);
});

test('bad input: a missing bundle, a partial one, a host without range support', async () => {
  const missing = await start(path.join(tmp, 'nothing-here'));
  const r1 = await call(missing, "var='ELEVATION'");
  expect(r1.status).toBe(502);
  expect(await r1.text()).toMatch(/There is no data bundle at .*nothing-here.*manifest\.json/);
  const missingUrl = await start(`${folder.url}nope/`);
  const r2 = await call(missingUrl, "var='ELEVATION'");
  expect(r2.status).toBe(502);
  expect(await r2.text()).toContain('There is no data bundle at');

  const partialDir = path.join(tmp, 'partial');
  cpSync(BUNDLE, partialDir, { recursive: true });
  rmSync(path.join(partialDir, 'cog', 'SLOPE.tif'));
  const partial = await start(partialDir);
  expect((await call(partial, "var='ELEVATION'&iso3='UGA'")).status).toBe(201);
  const r3 = await call(partial, "var='SLOPE'&iso3='UGA'");
  expect(r3.status).toBe(502);
  expect(await r3.text()).toContain('is partial: cog/SLOPE.tif is missing');

  const plain = await start(noRangesUrl);
  const r4 = await call(plain, "var='ELEVATION'&iso3='UGA'");
  expect(r4.status).toBe(502);
  expect(await r4.text()).toContain('must serve byte ranges');
});

test('online basemaps (issue 17): the basemaps option, else the built config.json\'s list, goes into /config.json', async () => {
  const osm = { id: 'osm', label: 'OpenStreetMap', tiles: ['https://tile.openstreetmap.org/{z}/{x}/{y}.png'], attribution: '© OpenStreetMap contributors' };
  const s = await startServer({ port: 0, host: '127.0.0.1', dataDir: BUNDLE, distDir: path.join(tmp, 'dist'), sessionDir: path.join(tmp, 'sessions'), log: false, basemaps: [osm] });
  servers.push(s);
  expect(await (await fetch(`${s.url}config.json`)).json()).toEqual({ dataUrl: './data/', basemaps: [osm] });
  const dist = mkdtempSync(path.join(tmp, 'dist-bm-'));
  writeFileSync(path.join(dist, 'config.json'), JSON.stringify({ dataUrl: './data/', basemaps: [osm] }));
  const t = await startServer({ port: 0, host: '127.0.0.1', dataDir: BUNDLE, distDir: dist, sessionDir: path.join(tmp, 'sessions'), log: false });
  servers.push(t);
  expect((await (await fetch(`${t.url}config.json`)).json()).basemaps).toEqual([osm]);
});
