/** Helpers of the offline end-to-end tests: the service worker's storage status, precache sync, summaries, keep offline. */
import { expect } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';

/** What the service worker stores (its `storage-status` answer to STORAGE_STATUS). */
export function storageStatus(page: Page): Promise<any> {
  return page.evaluate(() => new Promise((resolve) => {
    const on = (e: MessageEvent) => { if (e.data?.type === 'storage-status') { navigator.serviceWorker.removeEventListener('message', on); resolve(e.data); } };
    navigator.serviceWorker.addEventListener('message', on);
    navigator.serviceWorker.controller!.postMessage({ type: 'STORAGE_STATUS' });
  }));
}

/** Waits until the service worker controls the page, has precached the small files of the manifest, and holds the whole app shell. */
export async function waitSynced(page: Page): Promise<void> {
  await page.waitForFunction(() => !!navigator.serviceWorker?.controller, undefined, { timeout: 60_000 });
  await page.waitForFunction(async () => {
    const m = await (await fetch('./data/manifest.json')).json();
    const want = (m.files as Array<{ path: string; sha256: string }>).filter((f) => !f.path.endsWith('.tif')).map((f) => f.sha256);
    const keys = new Set((await (await caches.open('indapi3-files')).keys()).map((r) => r.url.split('/').pop()));
    return want.every((s) => keys.has(s));
  }, undefined, { timeout: 120_000, polling: 1000 });
  // ...and the rest of the app shell (lazy chunks such as the chart's vega), which the worker stores
  // after the bundle's small files: its OFFLINE_READY answer says when every one of them is in.
  await expect.poll(() => page.evaluate(() => new Promise<boolean>((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = (e) => resolve(e.data?.type === 'offline-ready' && e.data.complete === true);
    navigator.serviceWorker.controller!.postMessage({ type: 'OFFLINE_READY' }, [ch.port2]);
  })), { timeout: 120_000, interval: 1000 }).toBe(true);
}

/** Runs a summary from a link's inputs; returns the result table's text, or "ERROR <message>". */
export async function summarise(page: Page, hash: string): Promise<string> {
  await page.evaluate((h) => { location.hash = h; }, hash);
  const btn = page.getByRole('button', { name: 'Summarise', exact: true });
  // the panel has taken the link's indicators (the hash is applied), and no run is under way
  const want = (new URLSearchParams(hash.replace(/^#/, '')).get('vars') ?? new URLSearchParams(hash.replace(/^#/, '')).get('v') ?? '').split(',')[0];
  await expect.poll(async () => (await btn.getAttribute('data-running')) === '0' && ((await btn.getAttribute('data-vars')) ?? '').split(',').includes(want), { timeout: 120_000 }).toBe(true);
  const before = Number(await btn.getAttribute('data-runs'));
  await btn.click();
  // this run has settled: the count grew and nothing runs
  await expect.poll(async () => Number(await btn.getAttribute('data-runs')) > before && (await btn.getAttribute('data-running')) === '0', { timeout: 180_000 }).toBe(true);
  const body = page.locator('[data-testid="summary-result"] tbody');
  const err = page.locator('#panel-summary .msg.error');
  await expect.poll(async () => (await body.locator('tr').count()) > 2 || (await err.count()) > 0, { timeout: 30_000 }).toBe(true);
  return (await err.count()) ? `ERROR ${await err.first().textContent()}` : ((await body.textContent()) ?? '');
}

/**
 * Puts a context in the per-layer (on-demand) offline mode before any page loads: the 'Free all'
 * preference (`indapi3.keepAll = '0'`, src/app/keep-all.ts KEEP_ALL_PREF) a user who chose it
 * has. Tests of the block cache need it: with the embedded bundle's keep-everything default,
 * pinning a file after the first map drops its blocks from the recent list at a moment of its own.
 */
export async function perLayerMode(ctx: BrowserContext): Promise<void> {
  await ctx.addInitScript(() => { try { localStorage.setItem('indapi3.keepAll', '0'); } catch { /* storage off */ } });
}
