/**
 * A national series in the app, on one page: the year control plays (Space) and steps (arrows),
 * the link keeps the year, the map's legend says it is a national value on the country
 * outlines, and the Summaries draw Nigeria's PWT_POP line (68 years, 1950-2017, as pwt9.1); a
 * Summaries run over the years 2000:2017 (link key yrs=) gives Nigeria's 18 rows with a year column.
 * Then offline (the service worker synced), the same page: End and the arrows move the change
 * map's and the year map's legend, the link follows, the chart stays.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launch } from './app-helpers';
import { startServer, type Started } from './helpers';
import { waitSynced } from './offline-helpers';

let srv: Started;
let browser: Browser;
beforeAll(async () => {
  srv = await startServer();
  browser = await launch();
});
afterAll(async () => { await browser?.close(); await srv?.stop(); });

test('a national series: year control, change map link, line chart per country', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${srv.url}#v=PWT_POP&vars=PWT_POP&iso=NGA,ERI&year=2016`);
  const value = page.locator('[data-testid=year-value]');
  await value.waitFor({ timeout: 60_000 });
  await expect.poll(() => value.textContent(), { timeout: 30_000 }).toBe('2016');
  await expect.poll(() => page.locator('.series-legend').textContent(), { timeout: 30_000 }).toContain('National value, no variation within the country');
  const slider = page.locator('[data-testid=year-control] input');
  await slider.focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => value.textContent()).toBe('2017');
  await expect.poll(() => page.evaluate(() => location.hash)).toContain('year=2017');
  await page.keyboard.press('Space'); // at the last year: plays from the first
  await expect.poll(() => value.textContent(), { timeout: 20_000 }).toBe('1951');
  await page.keyboard.press('Space');
  await page.selectOption('.change-row select', 'pct');
  await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/chg=pct&yfrom=1950/);
  const chart = page.locator('[data-testid=series-chart]');
  await chart.waitFor({ timeout: 60_000 });
  expect(await chart.locator('g[data-iso3=NGA] circle').count()).toBe(68); // pwt9.1: NGA 1950-2017
  expect(await chart.locator('g[data-iso3=ERI] circle').count()).toBe(0); // no Eritrea in PWT 9.1
  expect(await chart.locator('g[data-iso3=NGA] circle title').last().textContent()).toBe('Nigeria 2017: 190.886 million people');
  // Summaries over a range of years: the long result, one row per country and year
  await page.selectOption('[data-testid=sum-years-kind]', 'range');
  await page.selectOption('[data-testid=sum-year-from]', '2000');
  await expect.poll(() => page.evaluate(() => decodeURIComponent(location.hash))).toContain('yrs=2000:2017');
  await page.getByRole('button', { name: 'Summarise', exact: true }).click();
  const res = page.locator('[data-testid="summary-result"]');
  await expect.poll(() => res.locator('tbody tr', { hasText: 'NGA' }).count(), { timeout: 60_000 }).toBe(18);
  expect(await res.locator('thead th').evaluateAll((ths) => ths.map((t) => (t as HTMLElement).dataset.col))).toContain('year');
  // each year once, written plainly (no digit grouping)
  const years = await res.locator('tbody tr', { hasText: 'NGA' }).locator('td[data-col="year"]').allTextContents();
  expect([...years].sort()).toEqual(Array.from({ length: 18 }, (_, i) => String(2000 + i)));

  // Offline, the same page: the year control still moves the change map and the year's map by keyboard
  await waitSynced(page);
  await page.context().setOffline(true);
  try {
    const title = page.locator('.series-legend summary h3');
    const countries = page.locator('.series-legend details p.muted', { hasText: ' countries · ' });
    await slider.focus();
    await page.keyboard.press('End');
    await expect.poll(() => value.textContent()).toBe('1950–2017');
    await expect.poll(() => title.textContent()).toBe('Change (%) of Population (PWT 9.1), 1950–2017 (%)');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => title.textContent()).toBe('Change (%) of Population (PWT 9.1), 1950–2016 (%)');
    await page.selectOption('.change-row select', '');
    await expect.poll(() => title.textContent()).toBe('Population (PWT 9.1), 2016 (million people)');
    await slider.focus();
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => title.textContent()).toBe('Population (PWT 9.1), 2015 (million people)');
    await expect.poll(() => value.textContent()).toBe('2015');
    await expect.poll(() => page.evaluate(() => location.hash)).toContain('year=2015');
    // PWT 9.1 has 46 of the 49 countries of the grid (no ERI, SOM, SSD) in 2015
    expect(await countries.textContent()).toMatch(/^46 countries · /);
    expect(await chart.locator('g[data-iso3=NGA] circle').count()).toBe(68);
  } finally {
    await page.context().setOffline(false);
  }
}, 300_000);
