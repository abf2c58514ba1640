/**
 * Features users of MAPPR/TABLR expect (issue 11, second list): the table builder with
 * engine totals and CSV/XLSX downloads, uploaded shapes (GeoJSON, zipped shapefile, KML),
 * place-name search, map export as PNG. Screenshots go to test-results/screenshots/.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { unzipSync, strFromU8, zipSync } from 'fflate';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import Papa from 'papaparse';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startServer, type Started, axeViolations } from './helpers';
import { launch, settle, shot, waitMap, openApp } from './app-helpers';
import { decodePng } from './png';

let srv: Started;
let browser: Browser;
const OUT = 'test-results/features';

/** Serious and critical axe violations of the page, as "rule: target" lines. */
const axe = (page: Page): Promise<string[]> => axeViolations(page);

beforeAll(async () => {
  srv = await startServer();
  browser = await launch();
  mkdirSync(OUT, { recursive: true });
});
afterAll(async () => { await browser?.close(); await srv?.stop(); });

async function open(hash = '', viewport = { width: 1440, height: 900 }): Promise<{ ctx: BrowserContext; page: Page; errors: string[] }> {
  return openApp(browser, srv.url + hash, { viewport, acceptDownloads: true });
}

/** Kenya's AREA_TOTAL from the HTTP API (getLayer, no domain). */
async function kenyaArea(): Promise<number> {
  const r = await fetch(`${srv.url}ocpu/library/indapi3/R/getLayer/json`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ var: 'AREA_TOTAL', iso3: 'KEN' }) });
  const rows = await r.json() as Array<Record<string, unknown>>;
  return Number(rows[0].AREA_TOTAL);
}

async function buildTable(page: Page) {
  const panel = page.locator('#panel-table');
  await page.locator('button.item[data-code]').first().waitFor({ timeout: 30_000, state: 'attached' });
  await panel.getByLabel('Indicator in the cells').selectOption('AREA_TOTAL');
  await panel.getByTestId('table-row').selectOption('ADM1_NAME_ALT');
  await panel.getByTestId('table-col').selectOption('ELEV_ZONE');
  await panel.getByRole('button', { name: 'Build table' }).click();
  await panel.locator('[data-testid="pivot-table"] tbody tr').nth(3).waitFor({ timeout: 90_000 });
  return panel;
}

const close = (a: number, b: number, tol: number) => Math.abs(a - b) <= tol;

describe('table builder', () => {
  test('Kenya ADM1 x ELEV_ZONE, AREA_TOTAL: cells add up to the row and column totals, the total is getLayer KEN; CSV', async () => {
    const { ctx, page, errors } = await open('#v=AREA_TOTAL&iso=KEN&panel=table');
    const panel = await buildTable(page);
    await waitMap(page);
    await shot(page, 'features-table-1440');
    expect(await axe(page)).toEqual([]);
    const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), panel.getByRole('button', { name: 'Download CSV' }).click()]);
    const text = readFileSync((await dl.path())!, 'utf8');
    writeFileSync(join(OUT, dl.suggestedFilename()), text);
    const g = Papa.parse<string[]>(text.trim(), { skipEmptyLines: true }).data;
    expect(g[0][0]).toBe('ADM1_NAME_ALT');
    expect(g[0].at(-1)).toBe('Total');
    const cols = g[0].slice(1, -1);
    expect(cols).toContain('< 200 m');
    expect(cols.indexOf('< 200 m')).toBeLessThan(cols.indexOf('200-500 m')); // class-table order, not text order
    const body = g.slice(1, -1), tot = g.at(-1)!;
    expect(body.map((r) => r[0])).toContain('Rift Valley');
    expect(tot[0]).toBe('Total');
    const n = (s: string) => (s === '' ? 0 : Number(s));
    // AREA_TOTAL is a sum: each row's cells add up to the row total (rounded to 0.01 km² each)
    for (const r of body) expect(close(r.slice(1, -1).reduce((s, v) => s + n(v), 0), Number(r.at(-1)), 0.01 * cols.length + 0.01)).toBe(true);
    for (let j = 1; j <= cols.length; j++) expect(close(body.reduce((s, r) => s + n(r[j]), 0), Number(tot[j]), 0.01 * body.length + 0.01)).toBe(true);
    expect(close(body.reduce((s, r) => s + Number(r.at(-1)), 0), Number(tot.at(-1)), 0.01 * body.length + 0.01)).toBe(true);
    expect(Number(tot.at(-1))).toBe(await kenyaArea());
    expect(errors).toEqual([]);
    await ctx.close();
  });

  test('a mean: totals are the engine\'s means, not sums; XLSX with the same figures', async () => {
    const { ctx, page, errors } = await open('#v=ELEVATION&iso=KEN&panel=table');
    const panel = page.locator('#panel-table');
    await page.locator('button.item[data-code]').first().waitFor({ timeout: 30_000, state: 'attached' });
    await panel.getByLabel('Indicator in the cells').selectOption('ELEVATION');
    await panel.getByRole('button', { name: 'Build table' }).click();
    await panel.locator('[data-testid="pivot-table"] tbody tr').nth(3).waitFor({ timeout: 90_000 });
    const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), panel.getByRole('button', { name: 'Download XLSX' }).click()]);
    const bytes = readFileSync((await dl.path())!);
    writeFileSync(join(OUT, dl.suggestedFilename()), bytes);
    expect(dl.suggestedFilename()).toMatch(/\.xlsx$/);
    const z = unzipSync(new Uint8Array(bytes));
    expect(Object.keys(z)).toContain('xl/worksheets/sheet1.xml');
    const shared = [...strFromU8(z['xl/sharedStrings.xml']).matchAll(/<si><t[^>]*>([^<]*)<\/t><\/si>/g)].map((m) => m[1].replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'));
    const sheet = strFromU8(z['xl/worksheets/sheet1.xml']);
    const rows = [...sheet.matchAll(/<row [^>]*>(.*?)<\/row>/g)].map((m) => [...m[1].matchAll(/<c r="([A-Z]+)\d+"([^>]*?)(?:\/>|>(?:<f>[^<]*<\/f>)?<v>([^<]*)<\/v><\/c>)/g)]
      .map((c) => (c[3] === undefined ? '' : /t="s"/.test(c[2]) ? shared[Number(c[3])] : Number(c[3]))));
    expect(rows[0][0]).toBe('ADM1_NAME_ALT');
    const last = rows.at(-1)!;
    expect(last[0]).toBe('Total');
    // Kenya's mean elevation from the API equals the table's total; the total is not the sum of the row totals
    const r = await fetch(`${srv.url}ocpu/library/indapi3/R/getLayer/json`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ var: 'ELEVATION', iso3: 'KEN' }) });
    const mean = Number((await r.json() as Array<Record<string, unknown>>)[0].ELEVATION);
    expect(last.at(-1)).toBe(mean);
    const rowTotals = rows.slice(1, -1).map((x) => Number(x.at(-1)));
    expect(rowTotals.reduce((s, v) => s + v, 0)).toBeGreaterThan(mean * 2);
    expect(Math.min(...rowTotals)).toBeLessThanOrEqual(mean);
    expect(Math.max(...rowTotals)).toBeGreaterThanOrEqual(mean);
    // read back with openpyxl (Debian python3-openpyxl, installed by .ci/run): required, never skipped
    const out = execFileSync('/usr/bin/python3', ['-c', `import openpyxl,sys\nws=openpyxl.load_workbook(sys.argv[1]).worksheets[0]\nprint([c.value for c in list(ws.rows)[-1]][-1])`, join(OUT, dl.suggestedFilename())], { encoding: 'utf8' });
    expect(Number(out.trim())).toBe(mean);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  test('distribution: Kenya ELEVATION in 10 bars, the first bin starting at the minimum getLayer gives', async () => {
    const { ctx, page, errors } = await open('#v=ELEVATION&iso=KEN&panel=table');
    await page.locator('button.item[data-code]').first().waitFor({ timeout: 30_000, state: 'attached' });
    const panel = page.locator('#panel-table');
    await panel.getByTestId('table-value').selectOption('ELEVATION');
    await panel.getByRole('button', { name: 'Show distribution of ELEVATION' }).click();
    const svg = panel.locator('[data-testid="hist-result"] .chart svg').first();
    await svg.waitFor({ timeout: 60_000 });
    await expect.poll(() => svg.locator('.mark-rect path').count(), { timeout: 30_000 }).toBe(10);
    const r = await fetch(`${srv.url}ocpu/library/indapi3/R/getLayer/json`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ var: 'ELEVATION', iso3: 'KEN', stats: ['min'] }) });
    const row = (await r.json() as Array<Record<string, number>>)[0];
    const labels = await svg.locator('.role-axis-label text').allTextContents();
    expect(labels.some((l) => l.startsWith(`${row.ELEVATION_min} –`))).toBe(true);
    await panel.locator('[data-testid="hist-result"]').scrollIntoViewIfNeeded();
    await shot(page, 'features-histogram-1440');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  test('phone 390x844: the table builder is reachable and readable', async () => {
    const { ctx, page, errors } = await open('#v=AREA_TOTAL&iso=KEN&panel=table', { width: 390, height: 844 });
    await buildTable(page);
    await page.locator('[data-testid="table-result"]').scrollIntoViewIfNeeded();
    await shot(page, 'features-table-390');
    expect(errors).toEqual([]);
    await ctx.close();
  });
});

/** Fixture shapes (made up): a square over Nairobi and one over Mount Kenya, with a line that is left out. */
const FIXTURE = {
  type: 'FeatureCollection',
  features: [
    { type: 'Feature', properties: { name: 'Fixture Nairobi square' }, geometry: { type: 'Polygon', coordinates: [[[36.6, -1.45], [37.0, -1.45], [37.0, -1.15], [36.6, -1.15], [36.6, -1.45]]] } },
    { type: 'Feature', properties: { name: 'Fixture Mt Kenya square' }, geometry: { type: 'Polygon', coordinates: [[[37.1, -0.35], [37.5, -0.35], [37.5, 0.05], [37.1, 0.05], [37.1, -0.35]]] } },
    { type: 'Feature', properties: { name: 'Fixture road' }, geometry: { type: 'LineString', coordinates: [[36.8, -1.3], [37.3, -0.1]] } },
  ],
};

/** A zipped shapefile of the fixture in UTM 37S (EPSG:32737), written by ogr2ogr (gdal-bin). */
function fixtureShapefileZip(): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'shp-'));
  writeFileSync(join(dir, 'in.geojson'), JSON.stringify({ ...FIXTURE, features: FIXTURE.features.slice(0, 2) }));
  mkdirSync(join(dir, 'out'));
  execFileSync('ogr2ogr', ['-f', 'ESRI Shapefile', '-t_srs', 'EPSG:32737', join(dir, 'out', 'fixture_squares.shp'), join(dir, 'in.geojson')]);
  const files: Record<string, Uint8Array> = {};
  for (const f of readdirSync(join(dir, 'out'))) files[f] = readFileSync(join(dir, 'out', f));
  expect(Object.keys(files)).toContain('fixture_squares.prj');
  return Buffer.from(zipSync(files));
}

async function summariseAreas(page: Page) {
  const panel = page.locator('#panel-areas');
  await panel.getByRole('button', { name: 'Summarise areas' }).click();
  const res = panel.locator('[data-testid="areas-result"]');
  await expect.poll(() => res.locator('tbody tr').count(), { timeout: 90_000 }).toBeGreaterThanOrEqual(2);
  return res;
}

describe('upload shapes', () => {
  test('GeoJSON through the file input: two polygons kept, the line left out, summarised like drawn shapes', async () => {
    const { ctx, page, errors } = await open('#v=ELEVATION&panel=areas');
    await page.locator('button.item[data-code]').first().waitFor({ timeout: 30_000, state: 'attached' });
    const panel = page.locator('#panel-areas');
    await panel.getByLabel(/Upload shapes/).setInputFiles({ name: 'fixture-squares.geojson', mimeType: 'application/geo+json', buffer: Buffer.from(JSON.stringify(FIXTURE)) });
    const msg = panel.locator('[data-testid="upload-msg"]');
    await expect.poll(() => msg.textContent(), { timeout: 20_000 }).toContain('Added 2 shapes');
    expect(await msg.textContent()).toContain('1 line feature left out');
    expect(await panel.locator('textarea').inputValue()).toMatch(/^GEOMETRYCOLLECTION \(POLYGON \(\(36\.6 -1\.45/);
    const res = await summariseAreas(page);
    const text = await res.textContent();
    expect(text).toMatch(/Kenya/);
    // Mount Kenya's square is higher than Nairobi's (mean elevation, m); rows named by the features' `name` (issue 17 item 2)
    const vals = await res.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
    const elev = (k: string) => Number(vals.find((r) => r[0].startsWith(k))!.find((c, i) => i > 0 && /^[\d,]+$/.test(c))!.replace(/,/g, ''));
    expect(elev('Fixture Mt Kenya square')).toBeGreaterThan(elev('Fixture Nairobi square'));
    await waitMap(page);
    await shot(page, 'features-upload-geojson-1440');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  test('zipped shapefile in UTM 37S dropped on the map: reprojected from its .prj to EPSG:4326', async () => {
    const zip = fixtureShapefileZip();
    const { ctx, page, errors } = await open('#v=ELEVATION&panel=summary');
    await page.locator('button.item[data-code]').first().waitFor({ timeout: 30_000, state: 'attached' });
    await page.evaluate((b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], 'fixture_squares.zip', { type: 'application/zip' }));
      document.querySelector('main.centre')!.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, zip.toString('base64'));
    const panel = page.locator('#panel-areas');
    await expect.poll(() => panel.isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => panel.locator('[data-testid="upload-msg"]').textContent(), { timeout: 20_000 }).toContain('Added 2 shapes from fixture_squares.zip');
    await expect.poll(() => panel.locator('textarea').inputValue(), { timeout: 10_000 }).toMatch(/^GEOMETRYCOLLECTION/);
    const wkt = await panel.locator('textarea').inputValue();
    const nums = [...wkt.matchAll(/-?\d+\.?\d*/g)].map((m) => Number(m[0]));
    const xs = nums.filter((_, i) => i % 2 === 0), ys = nums.filter((_, i) => i % 2 === 1);
    expect(Math.min(...xs)).toBeCloseTo(36.6, 3);
    expect(Math.max(...xs)).toBeCloseTo(37.5, 3);
    expect(Math.min(...ys)).toBeCloseTo(-1.45, 3);
    expect(Math.max(...ys)).toBeCloseTo(0.05, 3);
    await summariseAreas(page);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  test('KML, and clear errors: too large, no polygons, projected GeoJSON, unsupported', async () => {
    const { ctx, page, errors } = await open('#v=ELEVATION&panel=areas', { width: 390, height: 844 });
    await page.locator('button.item[data-code]').first().waitFor({ timeout: 30_000, state: 'attached' });
    const panel = page.locator('#panel-areas');
    const input = panel.getByLabel(/Upload shapes/);
    const kml = `<?xml version="1.0" encoding="UTF-8"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document><Placemark><name>Fixture KML square</name><Polygon><outerBoundaryIs><LinearRing><coordinates>36.6,-1.45 37.0,-1.45 37.0,-1.15 36.6,-1.15 36.6,-1.45</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark></Document></kml>`;
    await input.setInputFiles({ name: 'fixture.kml', mimeType: 'application/vnd.google-earth.kml+xml', buffer: Buffer.from(kml) });
    await expect.poll(() => panel.locator('[data-testid="upload-msg"]').textContent(), { timeout: 20_000 }).toContain('Added 1 shape from fixture.kml');
    // the message and the text area are two state updates: wait on the text area itself
    await expect.poll(() => panel.locator('textarea').inputValue(), { timeout: 20_000 }).toBe('POLYGON ((36.6 -1.45, 37 -1.45, 37 -1.15, 36.6 -1.15, 36.6 -1.45))');
    await panel.locator('[data-testid="upload"]').scrollIntoViewIfNeeded();
    await shot(page, 'features-upload-kml-390');
    const err = panel.locator('[data-testid="upload-error"]');
    await input.setInputFiles({ name: 'big.geojson', mimeType: 'application/geo+json', buffer: Buffer.alloc(11 * 1024 * 1024, 32) });
    await expect.poll(() => err.textContent(), { timeout: 20_000 }).toMatch(/11\.0 MB; files up to 10 MB/);
    await input.setInputFiles({ name: 'lines.geojson', mimeType: 'application/geo+json', buffer: Buffer.from(JSON.stringify({ type: 'LineString', coordinates: [[36, -1], [37, -1]] })) });
    await expect.poll(() => err.textContent(), { timeout: 20_000 }).toMatch(/No polygons or points/);
    await input.setInputFiles({ name: 'utm.geojson', mimeType: 'application/geo+json', buffer: Buffer.from(JSON.stringify({ type: 'Point', coordinates: [260000, 9850000] })) });
    await expect.poll(() => err.textContent(), { timeout: 20_000 }).toMatch(/not in EPSG:4326/);
    await input.setInputFiles({ name: 'table.csv', mimeType: 'text/csv', buffer: Buffer.from('x,y\n1,2\n') });
    await expect.poll(() => err.textContent(), { timeout: 20_000 }).toMatch(/unsupported format/);
    // the shapes read before stay
    expect(await panel.locator('textarea').inputValue()).toMatch(/^POLYGON/);
    expect(errors).toEqual([]);
    await ctx.close();
  });
});

describe('place search and labels', () => {
  for (const [name, viewport] of [['1440', { width: 1440, height: 900 }], ['390', { width: 390, height: 844 }]] as const) {
    test(`type "Nairobi", Enter: the map centre is within 0.1 degree of Nairobi; labels drawn (${name})`, async () => {
      const { ctx, page, errors } = await open('#v=ELEVATION', viewport);
      await waitMap(page);
      const box = page.getByRole('combobox', { name: 'Find a place' });
      await box.click();
      await box.fill('Nairobi');
      await page.getByRole('listbox', { name: 'Places' }).getByRole('option').first().waitFor({ timeout: 10_000 });
      expect(await page.getByRole('listbox', { name: 'Places' }).getByRole('option').first().textContent()).toContain('KEN');
      await box.press('Enter');
      await expect.poll(async () => page.evaluate(() => { const c = (window as any).__indapiMap.getCenter(); return Math.hypot(c.lng - 36.81667, c.lat + 1.28333); }), { timeout: 10_000 }).toBeLessThan(0.1);
      await settle(page);
      await expect.poll(() => page.locator('.place-label[data-name="Nairobi"]').count(), { timeout: 10_000 }).toBe(1);
      expect(await page.locator('.place-label').count()).toBeGreaterThan(0);
      await shot(page, `features-place-search-${name}`);
      expect(await axe(page)).toEqual([]);
      expect(errors).toEqual([]);
      await ctx.close();
    });
  }
});

describe('map export', () => {
  for (const [name, viewport] of [['1440', { width: 1440, height: 900 }], ['390', { width: 390, height: 844 }]] as const) {
    test(`Save map: a decodable PNG of the map's size with legend and attribution (${name})`, async () => {
      const { ctx, page, errors } = await open('#v=ELEVATION&map=37.5,0.3,5', viewport);
      await waitMap(page);
      await page.locator('.place-label').first().waitFor({ timeout: 20_000 });
      const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.getByRole('button', { name: 'Save map' }).click()]);
      const bytes = readFileSync((await dl.path())!);
      const file = join(OUT, `map-${name}.png`);
      writeFileSync(file, bytes);
      mkdirSync('test-results/screenshots', { recursive: true });
      writeFileSync(`test-results/screenshots/features-map-export-${name}.png`, bytes);
      expect(dl.suggestedFilename()).toBe('map-ELEVATION.png');
      const img = decodePng(new Uint8Array(bytes));
      const size = await page.evaluate(() => { const c = (window as any).__indapiMap.getCanvas(); return { w: c.width, h: c.height }; });
      expect([img.width, img.height]).toEqual([size.w, size.h]);
      // the map is drawn (many colours), and the legend box (white) sits at the bottom left
      const colours = new Set<number>();
      for (let i = 0; i < img.data.length; i += 4 * 97) colours.add((img.data[i] << 16) | (img.data[i + 1] << 8) | img.data[i + 2]);
      expect(colours.size).toBeGreaterThan(20);
      const px = (x: number, y: number) => { const o = (y * img.width + x) * 4; return [img.data[o], img.data[o + 1], img.data[o + 2]]; };
      const [r, g, b] = px(14, img.height - 60);
      expect(r + g + b).toBeGreaterThan(700);
      expect(errors).toEqual([]);
      await ctx.close();
    });
  }
});
