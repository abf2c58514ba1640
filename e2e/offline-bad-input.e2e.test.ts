/**
 * Bad bundles in the browser (issue 10, "Bad input"): a bundle location with no bundle, a
 * COG whose bytes fail the manifest's sha256 (keep offline refuses it, nothing stored), a
 * COG whose size differs from the manifest and a missing one (range reads refused, no block
 * cached), a COG host on another origin that ignores ranges, and one without CORS. Each
 * gets a clear message; nothing corrupted is cached. Fixture bundles are copies of the
 * embedded bundle with files damaged on purpose.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startServer, type Started } from './helpers';
import { storageStatus } from './offline-helpers';
import { launch } from './app-helpers';

let tmp: string;
let browser: Browser;
const started: Started[] = [];
const hosts: Server[] = [];

async function serve(env: Record<string, string>): Promise<Started> {
  const s = await startServer({ LOG: '0', ...env });
  started.push(s);
  return s;
}

/** A static host on another origin that ignores Range (always 200 with the whole file); CORS optional. */
async function plainHost(dir: string, cors: boolean): Promise<string> {
  const h = createServer((req, res) => {
    const p = path.join(dir, decodeURIComponent(new URL(req.url!, 'http://x').pathname));
    const headers: Record<string, string> = cors ? { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': 'Range' } : {};
    if (req.method === 'OPTIONS') { res.writeHead(204, headers).end(); return; }
    try { res.writeHead(200, headers).end(readFileSync(p)); } catch { res.writeHead(404, headers).end(); }
  });
  await new Promise<void>((r) => h.listen(0, '127.0.0.1', r));
  hosts.push(h);
  return `http://127.0.0.1:${(h.address() as AddressInfo).port}/`;
}

async function controlled(page: Page): Promise<void> {
  await page.waitForFunction(() => !!navigator.serviceWorker?.controller, undefined, { timeout: 60_000 });
}

/** A range read through the service worker: status, error code header, text. */
function rangeRead(page: Page, url: string) {
  return page.evaluate(async (u) => {
    const r = await fetch(u, { headers: { Range: 'bytes=0-99' } });
    return { status: r.status, code: r.headers.get('x-indapi3-error'), text: r.status >= 400 ? await r.text() : '' };
  }, url);
}

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'indapi3-bad-'));
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  for (const s of started) await s.stop();
  for (const h of hosts) await new Promise<void>((r) => h.close(() => r()));
  rmSync(tmp, { recursive: true, force: true });
});

test('no bundle at the location: the app says so', async () => {
  const srv = await serve({ DATA_DIR: path.join(tmp, 'nothing-here') });
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto(srv.url);
  const banner = page.getByTestId('bundle-error');
  await banner.waitFor({ timeout: 60_000 });
  expect(await banner.textContent()).toMatch(/There is no data bundle at .*manifest\.json/);
  await ctx.close();
});

test('damaged files: keep offline refuses a sha256 mismatch, range reads refuse a wrong size or a missing file; nothing is cached from them', async () => {
  const dir = path.join(tmp, 'damaged');
  cpSync(path.resolve('public/data'), dir, { recursive: true });
  const slope = path.join(dir, 'cog', 'SLOPE.tif');
  const b = readFileSync(slope);
  b[b.length - 10] ^= 0xff; // same size, other bytes
  writeFileSync(slope, b);
  truncateSync(path.join(dir, 'cog', 'TRI.tif'), 5000);
  rmSync(path.join(dir, 'cog', 'DIST_COAST.tif'));
  const srv = await serve({ DATA_DIR: dir });
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto(srv.url);
  await controlled(page);

  const pin = await page.evaluate(() => new Promise<any>((resolve) => {
    navigator.serviceWorker.addEventListener('message', (e) => { if (e.data?.type === 'pin-progress' && e.data.id === 't' && (e.data.complete || e.data.error || e.data.cancelled)) resolve(e.data); });
    navigator.serviceWorker.controller!.postMessage({ type: 'PIN', id: 't', paths: ['cog/SLOPE.tif'] });
  }));
  expect(pin.complete).toBe(false);
  expect(pin.error).toMatch(/cog\/SLOPE\.tif fails its sha256 check/);
  expect((await storageStatus(page)).pins).toEqual([]);
  expect(await page.evaluate(async () => (await (await caches.open('indapi3-pinned')).keys()).length)).toBe(0);

  const tri = await rangeRead(page, './data/cog/TRI.tif');
  expect(tri.status).toBe(502);
  expect(tri.code).toBe('BAD_BUNDLE');
  expect(tri.text).toMatch(/cog\/TRI\.tif on the data host does not match the bundle manifest/);
  const gone = await rangeRead(page, './data/cog/DIST_COAST.tif');
  expect(gone.status).toBe(502);
  expect(gone.text).toMatch(/is partial: cog\/DIST_COAST\.tif is listed in its manifest but missing/);
  const recent = (await storageStatus(page)).recent.map((r: any) => r.path);
  expect(recent).not.toContain('cog/TRI.tif');
  expect(recent).not.toContain('cog/DIST_COAST.tif');
  await ctx.close();
});

test('a COG host on another origin: without range support, and without CORS', async () => {
  const withCors = await plainHost(path.resolve('public/data'), true);
  const srv = await serve({ DATA_DIR: withCors });
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto(srv.url);
  await controlled(page);
  expect(await page.evaluate(async () => (await (await fetch('./config.json')).json()).dataUrl)).toBe(withCors);
  const r = await rangeRead(page, `${withCors}cog/ELEVATION.tif`);
  expect(r.status).toBe(502);
  expect(r.text).toMatch(/with the whole file \(HTTP 200\): it must serve byte ranges/);
  expect((await storageStatus(page)).recent).toEqual([]);
  await ctx.close();

  const noCors = await plainHost(path.resolve('public/data'), false);
  const srv2 = await serve({ DATA_DIR: noCors });
  const ctx2 = await browser.newContext();
  const page2 = await ctx2.newPage();
  await page2.goto(srv2.url);
  const banner = page2.getByTestId('bundle-error');
  await banner.waitFor({ timeout: 60_000 });
  expect(await banner.textContent()).toContain(noCors);
  await controlled(page2);
  const r2 = await rangeRead(page2, `${noCors}cog/ELEVATION.tif`);
  expect(r2.status).toBe(503);
  expect(r2.text).toMatch(/does not allow CORS requests from this site/);
  expect(r2.text).toContain(new URL(noCors).origin);
  await ctx2.close();
});
