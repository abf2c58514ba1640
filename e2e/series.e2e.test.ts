/**
 * A national series in the app, on one page: the year control plays (Space) and steps (arrows),
 * the link keeps the year, the map's legend says it is a national value on the country
 * outlines, and the Summaries draw Nigeria's PWT_POP line (68 years, 1950-2017, as pwt9.1); a
 * Summaries run over the years 2000:2017 (link key yrs=) gives Nigeria's 18 rows with a year column,
 * its bar chart one year (the latest, then the year control's) and says which.
 * Then offline (the service worker synced), the same page: End and the arrows move the change
 * map's and the year map's legend, the link follows, the chart stays. Online again, the Download
 * panel's long CSV of the result over the years equals the API's.
 *
 * A gridded series made by the ingest CLI from three FIXTURE rasters (a second server on that
 * bundle): the catalog shows it, the year control steps and plays its three years (the value
 * under a point changes), and the change map (diff and %) reads the change at a known cell; offline
 * (the service worker kept the bundle) the slider moves the change map to a pair of years not drawn
 * before; at 390 x 844 (same page) the control is one line with a button that unfolds the change
 * choice, and the keyboard still moves it; back at 1440 x 900 it is as on a desktop.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import type { Browser } from 'playwright-core';
import JSZip from 'jszip';
import { launch, mapPoint, settle, shot, waitMap } from './app-helpers';
import { axeViolations, startServer, type Started } from './helpers';
import { waitSynced } from './offline-helpers';
import { main as ingestCli } from '../src/node/ingest/cli';

/** The fixture rasters' years (k = 0, 1, 2) and grid: 24 x 24 CELL5M cells (1/12 degree), 36E..38E, 2S..0 (Kenya). */
const FX_YEARS = [2000, 2005, 2010];
const FX_N = 24;
/** The fixture's value at column c, row r (from its north-west corner) of year k: a formula, no random values. */
const fxValue = (k: number, c: number, r: number) => (c + 1) * (k + 1) + r;
/** A fixture cell's centre, degrees. */
const fxCentre = (c: number, r: number): [number, number] => [36 + (c + 0.5) / 12, -(r + 0.5) / 12];

let srv: Started;
let fx: Started;
let fxDir: string;
let browser: Browser;

/** A copy of the embedded bundle plus the series FIXTURE_NDVI, ingested from three rasters written by gdal_translate. */
async function fixtureBundle(): Promise<string> {
  fxDir = mkdtempSync(join(tmpdir(), 'series-e2e-'));
  const bundle = join(fxDir, 'bundle');
  cpSync(existsSync('dist/data/manifest.json') ? 'dist/data' : 'public/data', bundle, { recursive: true });
  mkdirSync(join(fxDir, 'years'));
  for (const [k, y] of FX_YEARS.entries()) {
    const lines = [`ncols ${FX_N}`, `nrows ${FX_N}`, 'xllcorner 36', 'yllcorner -2', `cellsize ${1 / 12}`, 'NODATA_value -1'];
    for (let r = 0; r < FX_N; r++) lines.push(Array.from({ length: FX_N }, (_, c) => fxValue(k, c, r)).join(' '));
    writeFileSync(join(fxDir, `fx_${y}.asc`), lines.join('\n') + '\n');
    execFileSync('gdal_translate', ['-q', '-a_srs', 'EPSG:4326', join(fxDir, `fx_${y}.asc`), join(fxDir, 'years', `FIXTURE_NDVI_${y}.tif`)]);
  }
  writeFileSync(join(fxDir, 'ndvi.yaml'), 'varCode: FIXTURE_NDVI\nvarLabel: Fixture NDVI (formula)\ntype: continuous\nunit: index\naggFunR: mean(FIXTURE_NDVI, na.rm=TRUE)\ndec: 1\n');
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    const rc = await ingestCli(['--raster', join(fxDir, 'years'), '--record', join(fxDir, 'ndvi.yaml'), '--out', bundle]);
    if (rc !== 0) throw new Error(`ingest failed: ${err.mock.calls.map((c) => String(c[0])).join('')}`);
  } finally { err.mockRestore(); }
  return bundle;
}

beforeAll(async () => {
  const bundle = await fixtureBundle();
  [srv, fx] = await Promise.all([startServer(), startServer({ DATA_DIR: bundle })]);
  browser = await launch();
}, 180_000);
afterAll(async () => {
  await browser?.close(); await srv?.stop(); await fx?.stop();
  if (fxDir) rmSync(fxDir, { recursive: true, force: true });
});

test('a national series: year control, change map link, line chart per country', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${srv.url}#v=PWT_POP&vars=PWT_POP&iso=NGA,ERI&year=2016`);
  const value = page.locator('[data-testid=year-value]');
  await value.waitFor({ timeout: 60_000 });
  await expect.poll(() => value.textContent(), { timeout: 30_000 }).toBe('2016');
  // a national series has no cells to draw: the live map (land, outlines, choropleth) replaces the preview
  await waitMap(page, 120_000);
  expect(await page.locator('[data-testid=map-preview]').count()).toBe(0);
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
  // the bar chart (and the map) of a result over several years show one year and say which: the latest here
  // (the year control shows 1951, which the result does not hold); the table keeps every year
  const barTitle = res.locator('figcaption', { hasText: ' by ' });
  await expect.poll(() => barTitle.textContent(), { timeout: 30_000 }).toMatch(/, 2017$/);

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
    await expect.poll(() => barTitle.textContent()).toMatch(/, 2016$/); // the chart follows the year control's year
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
    await expect.poll(() => barTitle.textContent()).toMatch(/, 2015$/);
    expect(await res.locator('tbody tr', { hasText: 'NGA' }).count()).toBe(18);
  } finally {
    await page.context().setOffline(false);
  }

  // the Download panel's long CSV of the result over the years equals the API's for the request its README reproduces
  await page.getByRole('tab', { name: 'Download' }).click();
  const panel = page.locator('#panel-download');
  await panel.locator('input[name="dl-format"][value="csv"]').check({ timeout: 60_000 });
  expect(await panel.locator('input[name="dl-layout"][value="long"]').isChecked()).toBe(true);
  await panel.getByRole('button', { name: 'Build and save ZIP' }).click();
  const link = panel.locator('[data-testid="download-result"] a[download]');
  await link.waitFor({ timeout: 120_000 });
  const zip = await JSZip.loadAsync(Buffer.from(await link.evaluate(async (a) => {
    const b = new Uint8Array(await (await fetch((a as HTMLAnchorElement).href)).arrayBuffer());
    let t = '';
    for (let i = 0; i < b.length; i += 0x8000) t += String.fromCharCode(...b.subarray(i, i + 0x8000));
    return btoa(t);
  }), 'base64'));
  const dataName = Object.keys(zip.files).find((n) => n.endsWith('.csv') && n !== 'meta.csv')!;
  const csv = await zip.file(dataName)!.async('string');
  const body = /R\/indapi" -H 'Content-Type: application\/json' -d '(\{[^']*\})'/.exec(await zip.file('README.md')!.async('string'))![1];
  expect(JSON.parse(body)).toMatchObject({ var: ['PWT_POP'], year: Array.from({ length: 18 }, (_, i) => 2000 + i), format: 'csv' });
  const api = await fetch(`${srv.url}ocpu/library/indapi3/R/indapi`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
  expect(api.status).toBe(201);
  const file = (await api.text()).split('\n').find((l) => l.endsWith(`/files/${dataName}`));
  expect(file, `the API's session lists ${dataName}`).toBeDefined();
  const apiCsv = await (await fetch(new URL(file!, srv.url))).text();
  expect(csv).toBe(apiCsv);
  expect(csv.split('\n')[0]).toMatch(/"?year"?/);
  expect(csv.trim().split('\n').filter((l) => l.includes('NGA'))).toHaveLength(18); // long: one row per country and year
}, 300_000);

test('a gridded series ingested from three rasters: the catalog lists it, the slider plays it, the change map reads the change', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${fx.url}#v=FIXTURE_NDVI_2000`);
  await waitMap(page, 120_000);
  const row = page.locator('.catalog-list [data-code="FIXTURE_NDVI_2000"]');
  await expect.poll(() => row.locator('.badge.series').textContent(), { timeout: 30_000 }).toContain('Series 2000–2010');
  const value = page.locator('[data-testid=year-value]');
  await expect.poll(() => value.textContent(), { timeout: 30_000 }).toBe('2000');
  // the value under a known cell (column 5, row 7 of the fixture), read by hover, year by year
  const [c, r] = [5, 7];
  const hoverValue = page.locator('[data-testid="hover-value"]');
  const hover = async () => {
    await settle(page);
    const { x, y } = await mapPoint(page, ...fxCentre(c, r));
    await page.mouse.move(x - 3, y); await page.mouse.move(x, y);
  };
  await page.evaluate(() => new Promise<void>((res) => { const m = (window as any).__indapiMap; m.once('idle', () => res()); m.jumpTo({ center: [37, -1], zoom: 7 }); }));
  await hover();
  await expect.poll(() => hoverValue.textContent(), { timeout: 30_000 }).toBe(`${fxValue(0, c, r).toFixed(1)} index`);
  const slider = page.locator('[data-testid=year-control] input');
  await slider.focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => value.textContent()).toBe('2005');
  await expect.poll(() => page.evaluate(() => location.hash)).toContain('v=FIXTURE_NDVI_2005');
  await hover();
  await expect.poll(() => hoverValue.textContent(), { timeout: 30_000 }).toBe(`${fxValue(1, c, r).toFixed(1)} index`);
  await slider.focus();
  await page.keyboard.press('Space'); // plays: 2005 -> 2010, then stops at the last year
  await expect.poll(() => value.textContent(), { timeout: 20_000 }).toBe('2010');
  await expect.poll(() => page.locator('[data-testid=year-control] button.play').getAttribute('aria-pressed'), { timeout: 20_000 }).toBe('false');
  await hover();
  await expect.poll(() => hoverValue.textContent(), { timeout: 30_000 }).toBe(`${fxValue(2, c, r).toFixed(1)} index`);
  // the change map, 2000-2010: diff in the layer's unit, then % change
  const legend = page.locator('.legend', { has: page.locator('h3', { hasText: 'Change' }) }).first();
  await page.selectOption('.change-row select', 'diff');
  await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/chg=diff&yfrom=2000/);
  await expect.poll(() => value.textContent()).toBe('2000–2010');
  await expect.poll(() => legend.locator('h3').textContent(), { timeout: 30_000 }).toContain('Change of Fixture NDVI (formula), 2000–2010');
  await hover();
  const diff = fxValue(2, c, r) - fxValue(0, c, r);
  await expect.poll(() => hoverValue.textContent(), { timeout: 30_000 }).toBe(`${diff.toFixed(1)} index`);
  await page.selectOption('.change-row select', 'pct');
  await expect.poll(() => legend.locator('h3').textContent(), { timeout: 30_000 }).toContain('Change (%) of Fixture NDVI (formula), 2000–2010');
  expect(await legend.textContent()).toContain('% change');
  await hover();
  const pct = (100 * diff) / fxValue(0, c, r);
  await expect.poll(() => hoverValue.textContent(), { timeout: 30_000 }).toBe(`${pct.toFixed(1)} % change`);

  // Offline, the same page (the service worker keeps this small bundle whole after the first map): the
  // year control moves the gridded change map, drawn from the kept COGs; then the phone's folded control
  await waitSynced(page);
  await expect.poll(() => page.getByTestId('sw-status').textContent(), { timeout: 180_000 }).toContain('Everything available offline');
  const fold = page.getByTestId('year-fold');
  const changeRow = page.locator('.change-row');
  await page.context().setOffline(true);
  try {
    await slider.focus();
    await page.keyboard.press('ArrowLeft'); // 2010 -> 2005: the change 2000-2005, not computed before
    await expect.poll(() => value.textContent()).toBe('2000–2005');
    await expect.poll(() => legend.locator('h3').textContent(), { timeout: 30_000 }).toContain('Change (%) of Fixture NDVI (formula), 2000–2005');
    await hover();
    const pct05 = (100 * (fxValue(1, c, r) - fxValue(0, c, r))) / fxValue(0, c, r);
    await expect.poll(() => hoverValue.textContent(), { timeout: 30_000 }).toBe(`${pct05.toFixed(1)} % change`);
    expect(await page.locator('[data-testid=map-error]').count()).toBe(0);

    // a 390 x 844 phone, same page: the control folds to one line, "2000–2010 change" and a button to unfold
    await page.setViewportSize({ width: 390, height: 844 });
    await fold.waitFor({ timeout: 30_000 });
    expect(await fold.getAttribute('aria-expanded')).toBe('false');
    expect(await fold.textContent()).toBe('change ▸');
    expect(await changeRow.isVisible()).toBe(false);
    await slider.focus();
    await page.keyboard.press('End'); // the keyboard still works folded
    await expect.poll(() => value.textContent()).toBe('2000–2010');
    await expect.poll(() => page.evaluate(() => location.hash)).toContain('v=FIXTURE_NDVI_2010');
    expect(await page.evaluate(() => location.hash)).toMatch(/chg=pct&yfrom=2000/); // the link keeps the change
    await settle(page);
    // one line (the play button's height and the box's padding), about 6 % of the map where it was 24 % (146 px high)
    const box = await page.locator('.legend.year-box').boundingBox();
    const map = await page.evaluate(() => { const m = (window as any).__indapiMap.getContainer().getBoundingClientRect(); return { width: m.width, height: m.height }; });
    expect(box!.height).toBeLessThanOrEqual(48);
    expect((box!.width * box!.height) / (map!.width * map!.height)).toBeLessThan(0.1);
    await shot(page, 'series-change-phone');
    expect(await axeViolations(page, '.legend.year-box')).toEqual([]); // folded: named, expanded state, controls
    await fold.click();
    expect(await fold.getAttribute('aria-expanded')).toBe('true');
    expect(await changeRow.isVisible()).toBe(true);
    expect(await changeRow.locator('select').first().inputValue()).toBe('pct');
    expect(await axeViolations(page, '.legend.year-box')).toEqual([]);
    await fold.click();
    expect(await changeRow.isVisible()).toBe(false);
  } finally {
    await page.context().setOffline(false);
  }
  // back on a desktop: no fold, the change choice shown as before
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect.poll(() => fold.count()).toBe(0);
  expect(await changeRow.isVisible()).toBe(true);
  await settle(page);
  await shot(page, 'series-change-1440');
  await page.close();
}, 420_000);
