/**
 * The contract cases (tests/contract/cases.ts) against the SERVICE WORKER: Chromium loads
 * the built app from the Node server, the service worker takes over, and every case is
 * sent with `fetch` from the page, so the worker (not the server) answers. Then: sessions
 * survive a reload (IndexedDB), and what was used once works offline, including range
 * requests answered from the service worker's block cache.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startServer, type Started } from './helpers';
import { perLayerMode } from './offline-helpers';
import { CASES, type CaseResponse } from '../tests/contract/cases';
import { runCase, type SendRequest, type Transport } from '../tests/contract/run-case';
import { bundleDir } from '../tests/contract/backend';

let srv: Started;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let sessions: string;
let origin: string;

async function swReady(p: Page): Promise<void> {
  await p.evaluate(async () => {
    if (!navigator.serviceWorker.controller) {
      await navigator.serviceWorker.register('./sw.js');
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) {
        await new Promise<void>((resolve) => navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true }));
      }
    }
  });
}

/** Sends a request with fetch from the page (answered by the service worker). */
async function pageSend(r: SendRequest): Promise<CaseResponse> {
  const out = await page.evaluate(async (r) => {
    const fromB64 = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const body = typeof r.body === 'object' && r.body ? ('base64' in r.body ? fromB64(r.body.base64) : 'q=' + 'a'.repeat(r.body.fill)) : (r.body as string | undefined);
    const res = await fetch(r.url, { method: r.method, headers: r.headers, body, redirect: r.redirect });
    const headers: Record<string, string> = {};
    res.headers.forEach((v, k) => (headers[k] = v));
    const bytes = new Uint8Array(await res.arrayBuffer());
    let bin = '';
    for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return { status: res.status, headers, body: btoa(bin), url: res.url, redirected: res.redirected };
  }, r);
  return { ...out, body: new Uint8Array(Buffer.from(out.body, 'base64')) };
}

beforeAll(async () => {
  sessions = mkdtempSync(path.join(os.tmpdir(), 'indapi3-e2e-sessions-'));
  srv = await startServer({ DATA_DIR: bundleDir(), SESSION_DIR: sessions, LOG: '0' });
  origin = srv.url.replace(/\/$/, '');
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  context = await browser.newContext();
  // the offline case checks the per-layer path of large bundles (unused COGs fail clearly): the
  // embedded bundle is not kept whole by default here (the "Free all" preference, src/app/keep-all.ts)
  await perLayerMode(context);
  page = await context.newPage();
  await page.goto(srv.url);
  await swReady(page);
});
afterAll(async () => {
  await browser?.close();
  await srv?.stop();
  rmSync(sessions, { recursive: true, force: true });
});

const transport = (): Transport => ({ origin, seesRedirects: false, send: pageSend });

test('the page is controlled by the service worker, which answers the contract', async () => {
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${origin}/sw.js`);
  const r = await pageSend({ method: 'POST', url: `${origin}/ocpu/library/indapi3/R/category`, headers: {}, redirect: 'follow' });
  expect(r.status).toBe(201);
  const key = r.headers['x-ocpu-session'];
  const info = await pageSend({ method: 'GET', url: `${origin}/ocpu/tmp/${key}/info`, headers: {}, redirect: 'follow' });
  expect(new TextDecoder().decode(info.body)).toContain('Runtime: service worker');
  // The Node server never saw this session: it lives in the browser.
  expect((await fetch(`${origin}/ocpu/tmp/${key}/`)).status).toBe(404);
});

describe('contract cases in the service worker', () => {
  for (const c of CASES) test(c.name, () => runCase(transport(), c));
});

test('the in-page service answers bodies R wrote (serialize and saveRDS, application/rds) as the JSON call', async () => {
  // The bytes come from R here and now: serialize() (format 3) and a gzip saveRDS() file (format 2).
  const r = "a <- list(var = c('ELEVATION', 'AREA_TOTAL'), iso3 = factor(c('KEN', 'UGA')), by = list(ELEVATION = c(0, 500, 1500))); " +
    "f <- tempfile(); saveRDS(a, f, version = 2); cat(paste(serialize(a, NULL), collapse = ''), paste(readBin(f, 'raw', file.size(f)), collapse = ''))";
  const { stdout } = await promisify(execFile)('Rscript', ['-e', r]);
  const [plain, gz] = stdout.trim().split(' ');
  const answers = await page.evaluate(async ({ plain, gz }) => {
    const url = '/ocpu/library/indapi3/R/getLayer/json';
    const hex = (h: string) => Uint8Array.from(h.match(/../g)!, (x) => parseInt(x, 16));
    const post = async (type: string, body: BodyInit) => {
      const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': type }, body });
      return { status: res.status, text: await res.text() };
    };
    const json = JSON.stringify({ var: ['ELEVATION', 'AREA_TOTAL'], iso3: ['KEN', 'UGA'], by: { ELEVATION: [0, 500, 1500] } });
    return [await post('application/json', json), await post('application/rds', hex(plain)), await post('application/rds', hex(gz))];
  }, { plain, gz });
  expect(gz.startsWith('1f8b')).toBe(true);
  for (const a of answers) expect(a.status, a.text).toBe(201);
  const want = JSON.parse(answers[0].text);
  expect(want.some((row: any) => row.ELEVATION_by === '(500,1.5e+03]')).toBe(true);
  expect(JSON.parse(answers[1].text)).toEqual(want);
  expect(JSON.parse(answers[2].text)).toEqual(want);
});

test('sessions survive a reload (IndexedDB)', async () => {
  const r = await pageSend({ method: 'POST', url: `${origin}/ocpu/library/indapi3/R/describe/json`, headers: { 'Content-Type': 'application/json' }, body: '{"var": "ELEVATION"}', redirect: 'follow' });
  expect(r.status).toBe(201);
  const key = r.headers['x-ocpu-session'];
  await page.reload();
  await swReady(page);
  const v = await pageSend({ method: 'GET', url: `${origin}/ocpu/tmp/${key}/R/.val/json`, headers: {}, redirect: 'follow' });
  expect(v.status).toBe(200);
  expect(JSON.parse(new TextDecoder().decode(v.body))[0].Code).toBe('ELEVATION');
});

test('after use, the app, the bundle (ranges from the block cache) and the contract work offline; unused COGs fail clearly', async () => {
  const progress = await page.evaluate(
    () =>
      new Promise<any>((resolve) => {
        navigator.serviceWorker.addEventListener('message', (e) => {
          if (e.data?.type === 'bundle-progress' && (e.data.complete || e.data.error)) resolve(e.data);
        });
        navigator.serviceWorker.controller!.postMessage({ type: 'PRECACHE' });
      }),
  );
  expect(progress.error).toBeUndefined();
  expect(progress.complete).toBe(true);
  expect(progress.done).toBe(progress.total);
  // The precache holds the small files only, never a COG.
  expect(await page.evaluate(async () => (await (await caches.open('indapi3-pinned')).keys()).length)).toBe(0);

  // Use the data online: a range of ELEVATION.tif, and the contract call (the worker's engine reads through the cache).
  const range = () => page.evaluate(async () => {
    const r = await fetch('./data/cog/ELEVATION.tif', { headers: { Range: 'bytes=0-7' } });
    const b = new Uint8Array(await r.arrayBuffer());
    return { status: r.status, range: r.headers.get('content-range'), cache: r.headers.get('x-indapi3-cache'), len: b.length, magic: [b[0], b[1], b[2], b[3]] };
  });
  const body = "var='ELEVATION'&iso3='KEN'";
  const indapi = () => pageSend({ method: 'POST', url: `${origin}/ocpu/library/indapi3/R/indapi/json`, headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body, redirect: 'follow' });
  const first = await range();
  expect(first.status).toBe(206);
  expect((await indapi()).status).toBe(201);

  await context.setOffline(true);
  try {
    // The browser is offline: everything below comes from the service worker's caches.
    const ranged = await range();
    expect(ranged.status).toBe(206);
    expect(ranged.cache).toBe('hit');
    expect(ranged.range).toMatch(/^bytes 0-7\/\d+$/);
    expect(ranged.len).toBe(8);
    expect(ranged.magic).toEqual([0x49, 0x49, 0x2a, 0x00]); // little-endian TIFF
    const call = await indapi();
    expect(call.status).toBe(201);
    expect(JSON.parse(new TextDecoder().decode(call.body))[0].ISO3).toBe('KEN');
    // A COG never read: 503 with a clear message from the contract too.
    const unused = await pageSend({ method: 'POST', url: `${origin}/ocpu/library/indapi3/R/indapi/json`, headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: "var='SLOPE'&iso3='KEN'", redirect: 'follow' });
    expect(unused.status).toBe(503);
    expect(new TextDecoder().decode(unused.body)).toMatch(/cog\/SLOPE\.tif is not stored on this device/);
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.outerHTML.length)).toBeGreaterThan(100);
    expect(await page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
  } finally {
    await context.setOffline(false);
  }
});
