/**
 * A bundle update invalidates only the files whose sha256 changed (issue 10, item 1): the
 * service worker caches blocks of the COGs a summary reads; the bundle is then republished
 * with one COG replaced (fixture: a copy of the embedded bundle where ELEVATION.tif takes
 * the bytes of SLOPE.tif, manifest updated); after the worker sees the new manifest, the
 * blocks of that COG are gone, the others stay, and the page shows the update note.
 */
import { copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { startServer, type Started } from './helpers';
import { perLayerMode, storageStatus } from './offline-helpers';
import { launch } from './app-helpers';

let tmp: string;
let srv: Started;
let browser: Browser;

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'indapi3-upd-'));
  cpSync(path.resolve('public/data'), tmp, { recursive: true });
  srv = await startServer({ LOG: '0', DATA_DIR: tmp });
  browser = await launch();
});
afterAll(async () => { await browser?.close(); await srv?.stop(); rmSync(tmp, { recursive: true, force: true }); });

test('a new manifest drops only the cached blocks of the changed COG and tells the page', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  // The per-layer (on-demand) mode, whose block cache this test is about: with the embedded
  // bundle's keep-everything default, keeping ADM1_NAME_ALT whole after the first map takes its
  // blocks out of the recent list at a moment of its own, which raced the assertions below on a
  // loaded machine (the 'Free all' preference, as in offline-ondemand and offline-tiles).
  await perLayerMode(ctx);
  const page = await ctx.newPage();
  await page.goto(`${srv.url}#v=ELEVATION`);
  await page.waitForFunction(() => !!navigator.serviceWorker?.controller, undefined, { timeout: 60_000 });
  // The map's raster worker is swapped for a controlled one, which reads ELEVATION again through the cache: let it finish first.
  await page.waitForFunction(() => (window as any).__indapiRaster?.generation >= 1, undefined, { timeout: 60_000 });
  // Read ranges of two COGs through the service worker.
  for (const f of ['ELEVATION', 'ADM1_NAME_ALT']) {
    expect(await page.evaluate(async (u) => (await fetch(u, { headers: { Range: 'bytes=0-200000' } })).status, `./data/cog/${f}.tif`)).toBe(206);
  }
  const before = await storageStatus(page);
  const paths = (st: any) => st.recent.map((r: any) => `${r.path}@${r.sha256}`).sort();
  const m = JSON.parse(readFileSync(path.join(tmp, 'manifest.json'), 'utf8'));
  const sha = (p: string) => m.files.find((f: any) => f.path === p).sha256;
  expect(paths(before)).toEqual([`cog/ADM1_NAME_ALT.tif@${sha('cog/ADM1_NAME_ALT.tif')}`, `cog/ELEVATION.tif@${sha('cog/ELEVATION.tif')}`]);

  // Republish: ELEVATION.tif changes (bytes and sha256), everything else stays.
  copyFileSync(path.join(tmp, 'cog', 'SLOPE.tif'), path.join(tmp, 'cog', 'ELEVATION.tif'));
  const buf = readFileSync(path.join(tmp, 'cog', 'ELEVATION.tif'));
  const e = m.files.find((f: any) => f.path === 'cog/ELEVATION.tif');
  e.sha256 = createHash('sha256').update(buf).digest('hex');
  e.bytes = buf.length;
  writeFileSync(path.join(tmp, 'manifest.json'), JSON.stringify(m, null, 2));

  const note = page.getByTestId('update-banner');
  const progress = await page.evaluate(() => new Promise<any>((resolve) => {
    navigator.serviceWorker.addEventListener('message', (ev) => { if (ev.data?.type === 'bundle-progress' && (ev.data.complete || ev.data.error)) resolve(ev.data); });
    navigator.serviceWorker.controller!.postMessage({ type: 'PRECACHE' });
  }));
  expect(progress.error).toBeUndefined();
  await note.waitFor({ timeout: 30_000 });
  expect(await note.textContent()).toContain('new data bundle');
  const after = await storageStatus(page);
  expect(paths(after)).toEqual([`cog/ADM1_NAME_ALT.tif@${sha('cog/ADM1_NAME_ALT.tif')}`]);
  // The new ELEVATION bytes are read (and cached) under the new sha256.
  const head = await page.evaluate(async () => Array.from(new Uint8Array(await (await fetch('./data/cog/ELEVATION.tif', { headers: { Range: 'bytes=0-63' } })).arrayBuffer())));
  expect(head).toEqual(Array.from(buf.subarray(0, 64)));
  expect(paths(await storageStatus(page))).toContain(`cog/ELEVATION.tif@${e.sha256}`);
  await ctx.close();
});
