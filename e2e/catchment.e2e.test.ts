/**
 * The Catchment tool (issue 19) in Chromium: a link with a picked place and the Catchment panel
 * computes the walking catchment in the engine worker, lists one row per band (cells, area,
 * PN14_POP) with charts, draws the bands on the map with a legend, offers the catchment
 * downloads and API snippet; choosing a place in the place search moves the source; after the
 * first run it works offline (reload offline, other bands); the phone layout (390 x 844) shows
 * the same. Screenshots: test-results/screenshots/catchment-*.png.
 */
import { describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { type Started } from './helpers';
import { openApp, shot, waitMap, serverAndBrowser } from './app-helpers';
import { waitSynced } from './offline-helpers';

let srv: Started;
let browser: Browser;
const NAIROBI = '#v=ELEVATION&panel=catchment&pick=36.82,-1.29&vars=PN14_POP&map=36.8,-1.3,7';

serverAndBrowser((s, b) => { srv = s; browser = b; });

/** Waits for the band table and returns the band label of each body row. */
async function bandRows(page: Page, n: number): Promise<string[]> {
  const rows = page.locator('[data-testid="catchment-result"] tbody tr');
  await expect.poll(() => rows.count(), { timeout: 90_000 }).toBe(n);
  return (await rows.allTextContents()).map((t) => /^[[(][^\]]*\]/.exec(t)?.[0] ?? t);
}

describe('Catchment panel', () => {
  test('desktop: a link computes the bands, draws them, offers downloads and the API snippet; a place from the search moves the source; offline afterwards', async () => {
    const { ctx, page, errors } = await openApp(browser, srv.url + NAIROBI, { viewport: { width: 1440, height: 900 } });
    await waitMap(page);
    const rows = await bandRows(page, 4);
    expect(rows).toEqual(['[0,60]', '(60,120]', '(120,240]', '(240,480]']);
    await expect.poll(() => page.locator('.legend h3').first().textContent(), { timeout: 30_000 }).toContain('Travel time');
    await expect.poll(() => page.locator('.legend li').allTextContents()).toEqual(['[0,60] min', '(60,120] min', '(120,240] min', '(240,480] min', 'Beyond the last band, or unreachable']);
    expect(await page.locator('[data-testid="catchment-result"] svg').count()).toBeGreaterThanOrEqual(2);
    await shot(page, 'catchment-desktop');
    // downloads and the API snippet follow the run
    await page.getByRole('tab', { name: 'Download' }).click();
    await expect.poll(() => page.locator('#panel-download').textContent()).toContain('travel-time raster');
    await page.getByRole('tab', { name: 'API' }).click();
    await expect.poll(() => page.locator('#panel-api').textContent()).toContain('R/catchment');
    // a place from the search becomes the source
    await page.getByRole('tab', { name: 'Catchment' }).click();
    const search = page.getByRole('combobox').first();
    await search.fill('Kampala');
    await search.press('Enter');
    await expect.poll(() => page.locator('[data-testid="catchment-source"]').textContent(), { timeout: 30_000 }).toMatch(/^32\.5\d\d, 0\.3\d\d$/);
    await expect.poll(() => page.url()).toMatch(/pick=32\.5/);
    await bandRows(page, 4);
    // offline: other bands from Nairobi, once online (through the service worker), then after an offline reload
    await waitSynced(page);
    await page.evaluate((h) => { location.hash = h; }, NAIROBI.replace('&vars=', '&cm=0,120,480&vars='));
    expect(await bandRows(page, 2)).toEqual(['[0,120]', '(120,480]']);
    await ctx.setOffline(true);
    await page.reload();
    const off = await bandRows(page, 2);
    expect(off).toEqual(['[0,120]', '(120,480]']);
    await shot(page, 'catchment-offline');
    expect(errors).toEqual([]);
    await ctx.close();
  }, 300_000);

  test('phone 390 x 844: the panel, its table and the map legend fit', async () => {
    const { ctx, page, errors } = await openApp(browser, srv.url + NAIROBI, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await waitMap(page);
    await bandRows(page, 4);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.locator('[data-testid="catchment-result"]').scrollIntoViewIfNeeded();
    await shot(page, 'catchment-phone');
    expect(errors).toEqual([]);
    await ctx.close();
  }, 180_000);
});
