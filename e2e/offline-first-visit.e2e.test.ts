/**
 * Offline from the first visit (issue 17): a fresh profile opens a summary link, the summary
 * is computed (by the engine worker, which started before the service worker controlled the
 * page), the app says it is available offline, the network goes (CDP), the page reloads, and
 * the same summary is there again, from this device. Before the fix the reload said
 * "Offline: cog/ISO3.tif is not stored on this device": the engine's range reads of the
 * first visit were never cached. The service worker's registration is held (in the page) until
 * the summary is shown, so the summary is always computed before the service worker controls
 * the page, as on a slow connection, whatever the machine's speed. Screenshots of the offline summary at 1440x900 and 390x844
 * go to test-results/screenshots/. The embedded bundle is kept whole by default after the
 * first map ("Everything available offline"): offline, the desktop pass then runs a summary,
 * a table and a marketshed on layers the first visit never read, and builds a download.
 */
import { describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { type Started } from './helpers';
import { summarise, waitSynced } from './offline-helpers';
import { settle, shot, waitMap, serverAndBrowser } from './app-helpers';

const LINK = '#v=ELEVATION&vars=ELEVATION&iso=KEN&by=ADM1_NAME_ALT&run=summary';
const THREE = encodeURIComponent('[[36.82,-1.29,"Nairobi"],[34.76,-0.1,"Kisumu"],[39.67,-4.05,"Mombasa"]]');

/** Offline, layers never viewed on the first visit: a summary, a table, a marketshed and a download (all kept by default). */
async function everythingOffline(page: Page): Promise<void> {
  expect(await summarise(page, '#v=ELEVATION&vars=DIST_COAST,POP_MODEL&iso=TZA&by=ADM1_NAME_ALT')).not.toMatch(/^ERROR/);
  await page.evaluate(() => { location.hash = '#v=ELEVATION&iso=UGA&panel=table&run=table&tv=SLOPE&tr=ADM1_NAME_ALT&tc=ELEV_ZONE'; });
  await expect.poll(async () => (await page.locator('[data-testid="table-result"] tbody tr').count()) > 1 || (await page.locator('#panel-table .msg.error').count()) > 0, { timeout: 120_000 }).toBe(true);
  expect(await page.locator('#panel-table .msg.error').count()).toBe(0);
  await page.evaluate((h) => { location.hash = h; }, `#v=ELEVATION&panel=catchment&cm=0%2C60%2C120&src=${THREE}`);
  await expect.poll(() => page.getByTestId('catchment-answer').textContent(), { timeout: 120_000 }).toMatch(/^Within 2 h: Nairobi .* together .* people \(modelled\)\.$/);
  await page.getByRole('tab', { name: 'Download' }).click();
  const panel = page.locator('#panel-download');
  await panel.locator('input[name="dl-format"][value="csv"]').check();
  await panel.getByRole('button', { name: 'Build and save ZIP' }).click();
  await expect.poll(async () => ((await panel.locator('[role="alert"]').count()) ? 'ERROR' : ((await panel.locator('[data-testid="download-result"] p code').count()) ? await panel.locator('[data-testid="download-result"] p code').first().textContent() : '')), { timeout: 120_000 }).toMatch(/\.csv\.zip$/);
}

describe('offline from the first visit', () => {
  let srv: Started;
  let browser: Browser;
  serverAndBrowser((s, b) => { srv = s; browser = b; }, { LOG: '0' });

  for (const vp of [{ name: 'desktop', width: 1440, height: 900 }, { name: 'phone', width: 390, height: 844 }]) {
    test(`${vp.name}: a summary computed on the first visit is there offline after a reload`, async () => {
      const ctx = await browser.newContext({ viewport: { width: vp.width, height: vp.height } });
      try {
        const page = await ctx.newPage();
        await page.addInitScript(() => {
          const register = ServiceWorkerContainer.prototype.register;
          let go!: () => void;
          const held = new Promise<void>((res) => (go = res));
          (window as any).__releaseSw = go;
          ServiceWorkerContainer.prototype.register = function (this: ServiceWorkerContainer, ...a: Parameters<typeof register>) { return held.then(() => register.apply(this, a)); };
        });
        await page.goto(srv.url + LINK);
        const rows = page.locator('[data-testid="summary-result"] tbody tr');
        await rows.first().waitFor({ timeout: 120_000 });
        const online = await page.locator('[data-testid="summary-result"] tbody').textContent();
        expect(online).toContain('Nairobi');
        expect(await page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(false);
        await page.evaluate(() => (window as any).__releaseSw());
        // the person waits until the app says it is available offline, then loses the network
        await page.locator('[data-testid="sw-status"][data-ready="1"]').waitFor({ timeout: 120_000 });
        await waitSynced(page);
        // the embedded bundle is small: every layer is kept by default after the first map, and the header says so
        await expect.poll(() => page.getByTestId('sw-status').textContent(), { timeout: 180_000 }).toContain('Everything available offline');
        const cdp = await ctx.newCDPSession(page);
        await cdp.send('Network.enable');
        await cdp.send('Network.emulateNetworkConditions', { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
        await ctx.setOffline(true);
        await page.reload();
        const body = page.locator('[data-testid="summary-result"] tbody');
        const err = page.locator('#panel-summary .msg.error');
        await expect.poll(async () => ((await body.locator('tr').count()) > 0) || (await err.count()) > 0, { timeout: 120_000 }).toBe(true);
        expect(await err.count() ? await err.first().textContent() : '').toBe('');
        expect(await body.textContent()).toBe(online);
        await expect.poll(() => page.getByTestId('sw-status').textContent()).toContain('Offline');
        // the map viewed on the first visit draws again (tiles cached by the raster worker swap)
        await waitMap(page, 60_000);
        await settle(page);
        await shot(page, `offline-first-visit-${vp.name}`);
        if (vp.name === 'desktop') await everythingOffline(page);
      } finally {
        await ctx.close();
      }
    }, 300_000);
  }
});
