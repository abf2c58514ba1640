/**
 * Offline updates: a new deployment (a changed service worker) is detected while the app
 * is open, the page shows an update prompt, and reloading through it activates the new
 * version. Runs the server on a copy of dist/ so the test can "deploy" a new sw.js.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { startServer, type Started } from './helpers';
import { launch, shot } from './app-helpers';

let srv: Started;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'indapi3-dist-'));
  const dist = process.env.DIST_DIR || 'dist';
  cpSync(dist, dir, { recursive: true, filter: (src) => !src.startsWith(path.resolve(dist, 'data')) && !src.startsWith(`${dist}/data`) });
  srv = await startServer({ DIST_DIR: dir, DATA_DIR: path.resolve('public/data'), LOG: '0' });
  browser = await launch();
});
afterAll(async () => { await browser?.close(); await srv?.stop(); if (dir) rmSync(dir, { recursive: true, force: true }); });

test('a new deployment shows an update prompt; reloading activates it', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await ctx.newPage();
  await page.goto(srv.url + '#v=ELEVATION');
  await page.waitForFunction(() => !!navigator.serviceWorker?.controller, undefined, { timeout: 60_000 });
  expect(await page.locator('[data-testid="update-banner"]').count()).toBe(0);
  const before = await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.active!.scriptURL);
  // deploy: a new service worker script
  appendFileSync(path.join(dir, 'sw.js'), `\n// redeployed ${Date.now()}\n`);
  await page.evaluate(async () => { await (await navigator.serviceWorker.getRegistration())!.update(); });
  const banner = page.locator('[data-testid="update-banner"]');
  await banner.waitFor({ timeout: 60_000 });
  expect(await banner.textContent()).toContain('new version');
  await shot(page, '11-update-prompt');
  const waitingId = await page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration())!.waiting);
  expect(waitingId).toBe(true);
  await Promise.all([page.waitForEvent('load', { timeout: 60_000 }), banner.getByRole('button', { name: 'Reload to update' }).click()]);
  await page.waitForFunction(() => !!navigator.serviceWorker?.controller, undefined, { timeout: 60_000 });
  const after = await page.evaluate(async () => { const r = (await navigator.serviceWorker.getRegistration())!; return { waiting: !!r.waiting, url: r.active!.scriptURL }; });
  expect(after.waiting).toBe(false);
  expect(after.url).toBe(before);
  expect(await page.locator('[data-testid="update-banner"]').count()).toBe(0);
  await ctx.close();
});
