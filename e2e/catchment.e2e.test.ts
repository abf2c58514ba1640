/**
 * The Catchment tool (issue 19) in Chromium: a link with a picked place and the Catchment panel
 * computes the walking catchment in the engine worker, lists one row per band (cells, area,
 * PN14_POP) with charts, draws the bands on the map with a legend, offers the catchment
 * downloads and API snippet; choosing a place in the place search moves the source; after the
 * first run it works offline (reload offline, other bands); the phone layout (390 x 844) shows
 * the same. No stale answer (issue 23 item 5): a click in the sea removes the previous point's
 * table; a new point while one computes dims the old table under a line naming its point, the
 * replaced point's answer never shows, and Download names the point of the table on screen. Screenshots: test-results/screenshots/catchment-*.png.
 */
import { describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { type Started } from './helpers';
import { openApp, shot, waitMap, serverAndBrowser, jumpTo, mapPoint } from './app-helpers';
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

  test('no stale answer: a click in the sea removes the last table; a second point while the first computes; Download names the table on screen', async () => {
    const { ctx, page, errors } = await openApp(browser, srv.url + NAIROBI, { viewport: { width: 1440, height: 900 } });
    await waitMap(page);
    await bandRows(page, 4);
    const result = page.locator('[data-testid="catchment-result"]');
    expect(await result.getAttribute('data-for')).toBe('Catchment from 36.820, -1.290');
    // every state of the result block, as the page commits it (a MutationObserver misses none)
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as any).__resultStates = seen;
      new MutationObserver(() => {
        const el = document.querySelector('[data-testid="catchment-result"]');
        const s = el ? `${el.getAttribute('data-for')}|${el.getAttribute('data-old')}|${el.querySelector('[data-testid="result-old"]')?.textContent ?? ''}` : 'none';
        if (seen[seen.length - 1] !== s) seen.push(s);
      }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    // a click in the sea: the error, and no table (the old one is not left under the new "From:")
    await jumpTo(page, 40.2, -3.2, 7);
    const sea = await mapPoint(page, 41.2, -4.2);
    await page.mouse.click(sea.x, sea.y);
    await expect.poll(() => page.locator('#panel-catchment [role="alert"]').textContent(), { timeout: 60_000 }).toMatch(/cannot cross|sea/);
    expect(await page.locator('[data-testid="catchment-source"]').textContent()).toMatch(/^41\.\d+, -4\.\d+$/);
    expect(await result.count()).toBe(0);
    const states = await page.evaluate(() => (window as any).__resultStates as string[]);
    // while the sea point computed, the table was marked as Nairobi's
    expect(states.filter((x) => x !== 'none').every((x) => x.startsWith('Catchment from 36.820, -1.290|'))).toBe(true);
    expect(states[states.length - 1]).toBe('none');
    // Nairobi again (a table), then Kampala, and Mombasa as soon as Kampala is computing
    await page.evaluate((h) => { location.hash = h; }, NAIROBI);
    await bandRows(page, 4);
    await page.evaluate(() => new Promise<void>((res) => {
      const mo = new MutationObserver(() => {
        if (!document.querySelector('[data-testid="result-old"]')?.textContent?.includes('32.580')) return;
        mo.disconnect();
        location.hash = location.hash.replace(/pick=[^&]+/, 'pick=39.66,-4.04');
        res();
      });
      mo.observe(document.body, { subtree: true, childList: true, characterData: true });
      location.hash = location.hash.replace(/pick=[^&]+/, 'pick=32.58,0.32');
    }));
    await expect.poll(() => result.getAttribute('data-for'), { timeout: 90_000 }).toBe('Catchment from 39.660, -4.040');
    expect(await result.getAttribute('data-old')).toBe('0');
    const all = await page.evaluate(() => (window as any).__resultStates as string[]);
    expect(all.some((x) => x.includes('Old result, for Catchment from 36.820, -1.290. Computing Catchment from 39.660, -4.040'))).toBe(true);
    expect(all.some((x) => x.startsWith('Catchment from 32.580'))).toBe(false); // Kampala's answer never shows
    await page.getByRole('tab', { name: 'Download' }).click();
    await expect.poll(() => page.locator('#panel-download').textContent()).toContain('For: Catchment from 39.660, -4.040');
    expect(errors).toEqual([]);
    await ctx.close();
  }, 240_000);

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
