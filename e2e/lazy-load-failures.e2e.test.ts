/**
 * Parts of the app loaded on demand (the place search, the tool panels) whose code cannot be
 * downloaded: a phone that goes offline after the first map, before those chunks came, or a
 * connection that drops. Before, React unmounted the whole page on the failed import (a blank
 * screen, found by a CI run of the layer-switch test); now that part says why, the rest works,
 * and it loads on "Try again", by itself when the browser is back online, or when its panel is
 * opened.
 * Screenshots: test-results/screenshots/lazy-load-failed-*.png.
 */
import { describe, expect, test } from 'vitest';
import type { Browser, Route } from 'playwright-core';
import { type Started } from './helpers';
import { shot, waitMap, serverAndBrowser } from './app-helpers';

let srv: Started;
let browser: Browser;

serverAndBrowser((s, b) => { srv = s; browser = b; });

const VIEWPORTS = [
  ['desktop', { viewport: { width: 1440, height: 900 } }],
  ['phone', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }],
] as const;

describe('code loaded on demand that fails to download', () => {
  for (const [name, opts] of VIEWPORTS) {
    test(`the page stays; the place search and the panels say why, and load back online, on "Try again" or when opened (${name})`, async () => {
      const ctx = await browser.newContext({ ...opts, serviceWorkers: 'block' });
      const page = await ctx.newPage();
      const pageErrors: string[] = [];
      page.on('pageerror', (e) => pageErrors.push(String(e)));
      // the table builder's chunk fails as a dropped connection does, until the route is removed
      let tableTries = 0;
      const dropTable = (route: Route) => { tableTries++; return route.abort('connectionreset'); };
      await ctx.route(/\/assets\/TablePanel-[^/]*\.js$/, dropTable);
      await ctx.route(/\/assets\/DownloadPanel-[^/]*\.js$/, (route) => route.abort('connectionreset'));
      // the place search's chunk is held until the device is offline, then fails with it
      let offline!: () => void;
      const wentOffline = new Promise<void>((res) => { offline = res; });
      await ctx.route(/\/assets\/PlaceSearch-[^/]*\.js$/, async (route) => { await wentOffline; await route.abort('internetdisconnected'); });
      await page.goto(`${srv.url}#v=ELEVATION`);
      await waitMap(page);
      await ctx.setOffline(true);
      offline();
      await ctx.unroute(/\/assets\/PlaceSearch-[^/]*\.js$/);

      const placeFail = page.locator('.map-tools [data-testid="load-failed"]');
      await placeFail.waitFor({ timeout: 30_000 });
      expect(await placeFail.textContent()).toBe('Cannot load the place search (offline). Try again');
      // the page is there: the catalog, the map and its legend
      expect(await page.locator('button.item[data-code]').count()).toBeGreaterThan(0);
      expect(await page.locator('.overlay.bl details.legend h3').first().textContent()).toContain('Elevation');
      await shot(page, `lazy-load-failed-offline-${name}`);

      // back online: the place search loads by itself
      await ctx.setOffline(false);
      await page.getByRole('combobox', { name: /Find a place/ }).waitFor({ timeout: 30_000 });
      expect(await placeFail.count()).toBe(0);

      // the table builder: its chunk fails (connection reset), the panel says so, the others work
      const tableFail = page.locator('#panel-table [data-testid="load-failed"]');
      await expect.poll(() => tableFail.count()).toBe(1); // its try when back online failed too
      const before = tableTries;
      await page.getByRole('tab', { name: 'Table', exact: true }).click();
      await expect.poll(() => tableTries).toBe(before + 1); // opening the panel tried again
      await tableFail.waitFor({ timeout: 30_000 });
      expect(await tableFail.textContent()).toMatch(/Cannot load the table builder: its code could not be downloaded/);
      await shot(page, `lazy-load-failed-table-${name}`);
      // tried after the first map (unless offline already), when back online and when the tab was opened: not again and again
      expect(tableTries).toBeGreaterThanOrEqual(1);
      expect(tableTries).toBeLessThanOrEqual(3);
      // the connection is back: "Try again" loads it
      await ctx.unroute(/\/assets\/TablePanel-[^/]*\.js$/, dropTable);
      await tableFail.getByRole('button', { name: 'Try again' }).click();
      await page.locator('#panel-table').getByTestId('table-value').waitFor({ timeout: 30_000 });
      expect(await tableFail.count()).toBe(0);
      // the download panel failed hidden, in the same way; opening it tries again by itself
      await page.getByRole('tab', { name: 'Summaries', exact: true }).click();
      await page.locator('#panel-summary').getByRole('button', { name: 'Summarise', exact: true }).waitFor();
      expect(await page.locator('#panel-download [data-testid="load-failed"]').count()).toBe(1);
      await ctx.unroute(/\/assets\/DownloadPanel-[^/]*\.js$/);
      await page.getByRole('tab', { name: 'Download', exact: true }).click();
      await page.locator('#panel-download #dl-h').waitFor({ timeout: 30_000 });
      expect(await page.locator('#panel-download [data-testid="load-failed"]').count()).toBe(0);
      expect(pageErrors).toEqual([]);
      await ctx.close();
    });
  }
});
