/**
 * Offline from the first visit (issue 17): a fresh profile opens a summary link, the summary
 * is computed (by the engine worker, which started before the service worker controlled the
 * page), the app says it is available offline, the network goes (CDP), the page reloads, and
 * the same summary is there again, from this device. Before the fix the reload said
 * "Offline: cog/ISO3.tif is not stored on this device": the engine's range reads of the
 * first visit were never cached. The service worker's registration is held (in the page) until
 * the summary is shown, so the summary is always computed before the service worker controls
 * the page, as on a slow connection, whatever the machine's speed. Screenshots of the offline summary at 1440x900 and 390x844
 * go to test-results/screenshots/.
 */
import { describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { type Started } from './helpers';
import { waitSynced } from './offline-helpers';
import { settle, shot, waitMap, serverAndBrowser } from './app-helpers';

const LINK = '#v=ELEVATION&vars=ELEVATION&iso=KEN&by=ADM1_NAME_ALT&run=summary';

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
      } finally {
        await ctx.close();
      }
    }, 300_000);
  }
});
