/**
 * "Available offline" means available (issue 23, item 3): a fresh profile opens a summary
 * link, the summary shows, the header says "Available offline" (`data-ready="1"`), the
 * network goes, the page reloads: the catalog, the summary and the map layer that was on
 * screen are all there, from this device. Nothing else is waited for between the ready
 * signal and the reload (no look into the caches), so the signal alone must be true.
 *
 * Before the fix, about 1 run in 4 (more under load) said "Cannot load the catalog: Offline:
 * vi.csv is not stored on this device" (the ready signal did not wait for the precache of the
 * bundle's small files) or "cog/ELEVATION.tif is not stored on this device" on the map (it did
 * not wait for the map's raster worker to read again, through the service worker, what it had
 * read before the service worker controlled the page).
 *
 * Runs the scenario `OFFLINE_READY_RUNS` times (default 2, each a fresh profile), every second
 * run on a "slow connection" (see {@link once}); the diagnostic loop of the issue is
 * `OFFLINE_READY_RUNS=10` with `stress-ng --cpu 2` beside.
 */
import { describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { type Started } from './helpers';
import { serverAndBrowser, settle } from './app-helpers';

const LINK = '#v=ELEVATION&vars=ELEVATION&iso=KEN&by=ADM1_NAME_ALT&run=summary';
const RUNS = Math.max(1, Number(process.env.OFFLINE_READY_RUNS) || 2);

/**
 * One run on a fresh profile; returns '' when everything shown online was shown offline, else
 * what went wrong. `slow`: the service worker's own downloads of the catalog (its precache of
 * the small files) and of the mapped COG (the ranges it caches) are held until the page says
 * "Available offline" or 4 s have passed since the first was held, as on a slow connection:
 * a signal set before they are stored is then caught every time.
 */
async function once(browser: Browser, url: string, slow: boolean): Promise<string> {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const page = await ctx.newPage();
    const ready = page.locator('[data-testid="sw-status"][data-ready="1"]');
    if (slow) {
      let release: Promise<unknown> | undefined;
      await ctx.route(/\/data\/(vi\.csv|cog\/ELEVATION\.tif)$/, async (route) => {
        if (!route.request().serviceWorker()) return route.continue();
        await (release ??= Promise.race([ready.waitFor({ timeout: 0 }).catch(() => undefined), new Promise((r) => setTimeout(r, 4000))]));
        await route.continue().catch(() => undefined); // offline by now: the request fails, as it would
      });
    }
    await page.goto(url + LINK);
    const body = page.locator('[data-testid="summary-result"] tbody');
    await body.locator('tr').first().waitFor({ timeout: 120_000 });
    const online = await body.textContent();
    await page.waitForFunction(() => document.body.dataset.mapRendered === '1', undefined, { timeout: 120_000 });
    await ready.waitFor({ timeout: 180_000 });
    await ctx.setOffline(true);
    await page.reload();
    const err = page.locator('.msg.error[role="alert"]');
    // settled: the summary is back and the map drew, or an error is shown
    await expect.poll(async () => (await err.count()) > 0 || ((await body.locator('tr').count()) > 0 && (await page.evaluate(() => document.body.dataset.mapRendered === '1'))), { timeout: 120_000 }).toBe(true);
    // the map's progressive drawing has read the finer level too (or failed, which shows an error)
    if (!(await err.count())) await settle(page);
    if (await err.count()) return (await err.allTextContents()).join(' | ');
    const offline = await body.textContent();
    if (offline !== online) return `summary differs offline: ${offline?.slice(0, 80)}`;
    return '';
  } finally {
    await ctx.close();
  }
}

describe('the "Available offline" signal', () => {
  let srv: Started;
  let browser: Browser;
  serverAndBrowser((s, b) => { srv = s; browser = b; }, { LOG: '0' });

  test(`${RUNS} fresh profiles: once the header says "Available offline", a reload offline shows the catalog, the summary and the map`, async () => {
    const failures: string[] = [];
    for (let i = 0; i < RUNS; i++) {
      const why = await once(browser, srv.url, i % 2 === 1);
      if (why) failures.push(`run ${i + 1}: ${why}`);
      if (process.env.OFFLINE_READY_RUNS) console.log(`run ${i + 1}/${RUNS}: ${why || 'ok'}`);
    }
    expect(failures).toEqual([]);
  }, 200_000 * RUNS);
});
