/**
 * Areas, many polygons: a GeoPackage made by GDAL (`ogr2ogr`, from fixture squares over Kenya
 * and Uganda) uploaded on one page, summarised as one job in the engine worker: the progress
 * bar (with Cancel) appears, the virtualised table lists one row per shape, the shapes are on
 * the map coloured with a legend, and the table is saved as a GeoPackage ZIP. The same page
 * checks the Statistics picker: statistics and weights from the link, a quantile added with
 * its `q`, their columns (labelled with units) in the table and in the saved GeoPackage, and
 * the package README's account of the `feature` column. Screenshots at
 * 1440x900 and 390x844: test-results/screenshots/bulk-upload-*.png.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSZip from 'jszip';
import { expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Started } from './helpers';
import { addChip, openApp, serverAndBrowser, shot } from './app-helpers';

let srv: Started;
let browser: Browser;
serverAndBrowser((s, b) => { srv = s; browser = b; });

/** Fixture: a 10 x 6 grid of 0.5-degree squares (made-up shapes) from 33.5E, -2.5N, named "sq-<n>". */
function fixtureGpkg(): Buffer {
  const features = [];
  for (let j = 0; j < 6; j++) {
    for (let i = 0; i < 10; i++) {
      const x = 33.5 + i * 0.5, y = -2.5 + j * 0.5;
      features.push({ type: 'Feature', properties: { name: `sq-${j * 10 + i + 1}` }, geometry: { type: 'Polygon', coordinates: [[[x, y], [x + 0.5, y], [x + 0.5, y + 0.5], [x, y + 0.5], [x, y]]] } });
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'bulk-e2e-'));
  try {
    writeFileSync(join(dir, 'f.geojson'), JSON.stringify({ type: 'FeatureCollection', features }));
    execFileSync('ogr2ogr', ['-f', 'GPKG', join(dir, 'fixture-squares.gpkg'), join(dir, 'f.geojson'), '-nln', 'squares'], { stdio: 'pipe' });
    return readFileSync(join(dir, 'fixture-squares.gpkg'));
  } finally { rmSync(dir, { recursive: true, force: true }); }
}

test('a GeoPackage of 60 polygons: statistics picker, progress, virtualised table, choropleth with legend, GeoPackage download', async () => {
  const { ctx, page, errors } = await openApp(browser, `${srv.url}#v=ELEVATION&panel=areas&st=stdev,weighted_mean&wt=POP_MODEL`, { viewport: { width: 1440, height: 900 }, acceptDownloads: true });
  const bulk = page.getByTestId('bulk');
  await bulk.getByTestId('bulk-file').setInputFiles({ name: 'fixture-squares.gpkg', mimeType: 'application/geopackage+sqlite3', buffer: fixtureGpkg() });
  await expect.poll(() => bulk.getByTestId('bulk-read').textContent(), { timeout: 60_000 }).toMatch(/^60 shapes in fixture-squares\.gpkg/);
  // the statistics of the link, the weights from the catalog's people layers; a quantile added with its q
  const stats = page.getByTestId('areas-stats');
  expect(await stats.locator('.chip').evaluateAll((l) => l.map((e) => e.getAttribute('data-value')))).toEqual(['stdev', 'weighted_mean']);
  expect(await stats.getByTestId('areas-weights').inputValue()).toBe('POP_MODEL');
  await addChip(page, 'Statistics', 'Quantiles');
  await stats.getByTestId('areas-q').fill('0.5, 0.9');
  await expect.poll(() => page.evaluate(() => new URLSearchParams(location.hash.slice(1)).get('st') + ' ' + new URLSearchParams(location.hash.slice(1)).get('q'))).toBe('stdev,weighted_mean,quantile 0.5,0.9');
  // the progress row may be short-lived: an observer notes it from before the click
  await page.evaluate(() => {
    const w = window as unknown as { __sawProgress: boolean };
    w.__sawProgress = false;
    const look = () => { if (document.querySelector('[data-testid="bulk"] progress') && [...document.querySelectorAll('[data-testid="bulk"] button')].some((b) => b.textContent === 'Cancel')) w.__sawProgress = true; };
    new MutationObserver(look).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  await bulk.getByRole('button', { name: 'Summarise 60 shapes' }).click();
  const table = bulk.getByTestId('bulk-table');
  await table.waitFor({ timeout: 120_000 });
  expect(await page.evaluate(() => (window as unknown as { __sawProgress: boolean }).__sawProgress)).toBe(true);
  expect(await table.getAttribute('data-rows')).toBe('60');
  // virtualised: fewer rows in the page than in the table
  const drawn = await table.locator('[role="rowgroup"].vtable-body [role="row"]').count();
  expect(drawn).toBeGreaterThan(5);
  expect(drawn).toBeLessThan(60);
  await table.getByRole('cell', { name: 'sq-1', exact: true }).waitFor();
  const header = (c: string) => table.locator(`[role="columnheader"][title="${c}"]`).textContent();
  expect(await header('ELEVATION_stdev')).toBe('Elevation (ETOPO5) (stdev) (m)');
  expect(await header('ELEVATION_weighted_mean')).toMatch(/^Elevation \(ETOPO5\) \(weighted_mean\) \(m\)$/);
  expect(await header('ELEVATION_q90')).toBe('Elevation (ETOPO5) (quantile 0.9) (m)');
  // the shapes on the map, coloured, and the legend
  await expect.poll(() => page.evaluate(() => {
    const m = (window as any).__indapiMap;
    const src = m?.getSource('upload-choro');
    return m?.getLayer('upload-choro-fill') && src ? m.queryRenderedFeatures({ layers: ['upload-choro-fill'] }).filter((f: any) => f.properties.color).length : 0;
  }), { timeout: 30_000 }).toBeGreaterThan(0);
  const legend = page.getByTestId('upload-legend');
  await legend.waitFor();
  expect(await legend.locator('li').count()).toBeGreaterThan(1);
  await shot(page, 'bulk-upload-desktop');
  // saved as a GeoPackage ZIP through the package builder
  await bulk.locator('input[name="bulk-format"][value="gpkg"]').check();
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 120_000 }), bulk.getByTestId('bulk-save').click()]);
  const zip = await JSZip.loadAsync(readFileSync((await download.path())!));
  const gpkgName = Object.keys(zip.files).find((n) => n.endsWith('.gpkg'))!;
  const bytes = await zip.file(gpkgName)!.async('uint8array');
  expect(new TextDecoder().decode(bytes.subarray(0, 15))).toBe('SQLite format 3');
  for (const c of ['ELEVATION_stdev', 'ELEVATION_weighted_mean', 'ELEVATION_q50']) expect(Buffer.from(bytes).includes(c)).toBe(true);
  const readme = await zip.file(Object.keys(zip.files).find((n) => n.endsWith('README.md'))!)!.async('string');
  expect(readme).toMatch(/`feature` is the shape's number: its position, from 1/);
  expect(readme).toContain('"weights": "POP_MODEL"');
  await bulk.getByTestId('bulk-saved').waitFor();
  await page.setViewportSize({ width: 390, height: 844 });
  await legend.waitFor();
  await shot(page, 'bulk-upload-phone');
  expect(errors).toEqual([]);
  await ctx.close();
});
