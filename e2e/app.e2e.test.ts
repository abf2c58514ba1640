/**
 * The map app on the real bundle, as a person uses it: find an indicator, map it, read
 * cells, summarise by province, draw an area, compare units, download files, call the API,
 * share the URL, go offline. Screenshots go to test-results/screenshots/.
 */
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import JSZip from 'jszip';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type Started } from './helpers';
import { mkdirSync } from 'node:fs';
import { addChip, jumpTo, mapPoint, settle, shot, still, waitChoropleth, waitMap, openApp, serverAndBrowser } from './app-helpers';
import { decodePng } from './png';
import { cellId, pointToColRow, SSA_GRID } from '../src/core/grid';

let srv: Started;
let browser: Browser;

serverAndBrowser((s, b) => { srv = s; browser = b; });

async function open(hash = '', ctxOpts: Parameters<Browser['newContext']>[0] = {}): Promise<{ ctx: BrowserContext; page: Page; errors: string[] }> {
  return openApp(browser, srv.url + hash, { viewport: { width: 1440, height: 900 }, acceptDownloads: true, ...ctxOpts });
}

describe('the map app on the bundle', () => {
  test('catalog search, indicator card and the map of the chosen indicator', async () => {
    const { ctx, page, errors } = await open();
    await expect(page.locator('h1').first().textContent()).resolves.toContain('indapi3');
    await page.getByLabel('Search indicators').fill('distance coast');
    const item = page.locator('button.item[data-code="DIST_COAST"]');
    await item.waitFor({ timeout: 30_000 });
    const count = await page.locator('#catalog-count').textContent();
    expect(count).toMatch(/^\d+ of \d+ indicators$/);
    await item.click();
    await expect.poll(() => page.evaluate(() => location.hash)).toContain('v=DIST_COAST');
    const card = page.locator('article.card');
    await expect.poll(() => card.textContent()).toContain('DIST_COAST');
    const cardText = (await card.textContent())!;
    for (const k of ['Unit', 'Period', 'Source', 'Licence', 'Citation', 'Aggregation']) expect(cardText).toContain(k);
    // the tree (virtual, ARIA tree): Agroecology > Terrain lists its records at level 3
    await page.getByLabel('Search indicators').fill('');
    const tree = page.getByRole('tree', { name: 'Indicator categories' });
    const agro = tree.locator('[role="treeitem"][aria-level="1"]', { hasText: 'Agroecology' });
    if ((await agro.getAttribute('aria-expanded')) !== 'true') await agro.click();
    const terrain = tree.locator('[role="treeitem"][aria-level="2"]', { hasText: 'Terrain' });
    if ((await terrain.getAttribute('aria-expanded')) !== 'true') await terrain.click();
    await expect.poll(() => tree.locator('button.item[data-code="ELEV_ZONE"]').getAttribute('aria-level')).toBe('3');
    expect(await tree.locator('button.item[data-code="SLOPE"]').isVisible()).toBe(true);
    await waitMap(page);
    await expect.poll(() => page.locator('.legend li').count()).toBeGreaterThan(2);
    await shot(page, '01-catalog-map-dist-coast');
    // opacity slider: the raster layer follows and the URL keeps it
    await page.getByRole('slider', { name: 'Opacity' }).fill('0.4');
    await expect.poll(() => page.evaluate(() => (window as any).__indapiMap.getPaintProperty('raster', 'raster-opacity'))).toBe(0.4);
    expect(await page.evaluate(() => location.hash)).toContain('op=0.4');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  test('hover reads the value, CELL5M, country and ADM1 of the cell under the pointer', async () => {
    const { ctx, page } = await open('#v=ELEVATION&op=1');
    await waitMap(page);
    await jumpTo(page, 36.82, -1.29, 8);
    const lon = 36.82, lat = -1.29;
    const p = await mapPoint(page, lon, lat);
    await page.mouse.move(p.x, p.y);
    const info = page.locator('[data-testid="hover-info"]');
    await expect.poll(() => info.textContent(), { timeout: 20_000 }).toContain('CELL5M');
    const [col, row] = pointToColRow(SSA_GRID, lon, lat)!;
    await expect.poll(() => info.textContent(), { timeout: 20_000 }).toContain(String(cellId(SSA_GRID, col, row)));
    await expect.poll(() => info.textContent(), { timeout: 20_000 }).toContain('KEN');
    const text = (await info.textContent())!;
    expect(text).toMatch(/Value\s*[\d,]+(\.\d+)?\s*m/);
    expect(text).toMatch(/ADM1\s*\S+/);
    expect(text).not.toMatch(/ADM1\s*—/);
    await shot(page, '02-hover-nairobi-z8');
    // keyboard: Enter on the focused map reads and picks the cell at the centre
    await page.mouse.move(5, 5);
    await page.locator('canvas.maplibregl-canvas').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('[data-testid="picked"]').textContent(), { timeout: 20_000 }).toContain('Kenya');
    await ctx.close();
  });

  test('map accuracy: every sampled screen pixel shows the cell that contains it (placement within a quarter cell)', async () => {
    const { ctx, page } = await open('#v=ELEVATION&op=1');
    await waitMap(page);
    await jumpTo(page, 36.9, -0.9, 9); // a cell is ~30 px wide at zoom 9
    // A test palette over the real ELEVATION values: 1-m intervals with 7 cycling colours,
    // so neighbouring cells nearly always differ; drawn through the app's tile protocol.
    await page.evaluate(async () => {
      const m = (window as any).__indapiMap;
      const r = (window as any).__indapiRaster;
      const rec = { varCode: 'ELEVATION', type: 'continuous', dec: 0, classBreaks: '', classColors: '', classLabels: '' };
      const breaks = Array.from({ length: 6001 }, (_, i) => i - 500);
      await r.styleCog('test:accuracy', rec, breaks, ['#ff0000', '#00ff00', '#0000ff', '#ffff00', '#ff00ff', '#00ffff', '#000000']);
      for (const l of m.getStyle().layers) if (l.id !== 'ocean') m.setLayoutProperty(l.id, 'visibility', 'none');
      m.addSource('acc', { type: 'raster', tiles: ['indapi://test%3Aaccuracy/{z}/{x}/{y}'], tileSize: 256 });
      m.addLayer({ id: 'acc', type: 'raster', source: 'acc', paint: { 'raster-resampling': 'nearest', 'raster-fade-duration': 0 } });
      await new Promise<void>((res) => m.once('idle', () => res()));
    });
    // sample points: cell centres and points 0.3 cell from the centre (0.2 cell inside the edges)
    const samples = await page.evaluate(async () => {
      const m = (window as any).__indapiMap;
      const r = (window as any).__indapiRaster;
      const rect = m.getCanvas().getBoundingClientRect();
      const out: Array<{ x: number; y: number; rgba: number }> = [];
      const c = 1 / 12;
      for (let i = 0; i < 12; i++) for (let j = 0; j < 8; j++) for (const [dx, dy] of [[0, 0], [0.3, 0.3], [-0.3, -0.3], [0.3, -0.3], [-0.3, 0.3]]) {
        const lon = (Math.floor((36.55 + i * c) * 12) + 0.5 + dx) / 12;
        const lat = (Math.floor((-1.2 + j * c) * 12) + 0.5 + dy) / 12;
        const q = m.project([lon, lat]);
        if (q.x < 5 || q.y < 5 || q.x > rect.width - 5 || q.y > rect.height - 5) continue;
        if (document.elementFromPoint(rect.left + q.x, rect.top + q.y) !== m.getCanvas()) continue; // under a panel
        out.push({ x: Math.floor(rect.left + q.x), y: Math.floor(rect.top + q.y), rgba: await r.colorAt('test:accuracy', lon, lat) });
      }
      return out;
    });
    expect(samples.length).toBeGreaterThan(200);
    const img = decodePng(await page.screenshot());
    let bad = 0;
    for (const s of samples) {
      const k = (s.y * img.width + s.x) * 4;
      const want = [s.rgba & 255, (s.rgba >>> 8) & 255, (s.rgba >>> 16) & 255];
      if (Math.abs(img.data[k] - want[0]) > 8 || Math.abs(img.data[k + 1] - want[1]) > 8 || Math.abs(img.data[k + 2] - want[2]) > 8) bad++;
    }
    expect(bad).toBe(0);
    await ctx.close();
  });

  test('summary by province for a country: sortable table, chart and choropleth; bad breaks keep the result', async () => {
    const { ctx, page } = await open('#v=ELEVATION&iso=KEN&by=ADM1_NAME_ALT');
    await page.getByRole('button', { name: 'Summarise', exact: true }).click();
    const res = page.locator('[data-testid="summary-result"]');
    await res.waitFor({ timeout: 60_000 });
    const rows = res.locator('tbody tr');
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBeGreaterThan(5);
    // one country: the constant country columns give way to a note; headers carry label, unit and code
    const headers = await res.locator('thead th').evaluateAll((ths) => ths.map((t) => (t as HTMLElement).dataset.col));
    expect(headers).toEqual(['ADM1_NAME_ALT', 'ELEVATION']);
    expect(await res.locator('[data-testid="table-note"]').textContent()).toBe('Kenya (KEN)');
    expect(await res.locator('thead th[data-col="ELEVATION"]').textContent()).toBe('Elevation (ETOPO5) (m)ELEVATION');
    await res.locator('.chart svg').first().waitFor({ timeout: 30_000 });
    expect(await res.locator('.chart svg').first().textContent()).toContain('Elevation (ETOPO5) (m)');
    await expect.poll(() => page.locator('details[aria-label="Choropleth legend"] li').count(), { timeout: 20_000 }).toBeGreaterThan(1);
    expect(await page.locator('details[aria-label="Choropleth legend"] h3').textContent()).toBe('Elevation (ETOPO5) (m) by province');
    // the choropleth is opaque: its colours are the legend's
    await expect.poll(() => page.evaluate(() => (window as any).__indapiMap.getPaintProperty('choropleth', 'fill-opacity'))).toBe(1);
    // sort by the value column, descending
    const elevBtn = res.locator('thead th[data-col="ELEVATION"] button');
    await elevBtn.click();
    await elevBtn.click();
    const vals = (await res.locator('tbody tr:not([data-pinned]) td[data-col="ELEVATION"]').allTextContents()).map((t) => Number(t.replace(/,/g, '')));
    expect(vals.length).toBeGreaterThan(5);
    for (let i = 1; i < vals.length; i++) expect(vals[i]).toBeLessThanOrEqual(vals[i - 1]);
    // the country's overall row reads as its total and stays on top in both sort orders; the chart leaves it out
    await expect.poll(() => rows.first().locator('td[data-col="ADM1_NAME_ALT"]').textContent()).toBe('Kenya (total)');
    expect(await res.locator('tbody tr[data-pinned]').count()).toBe(1);
    await elevBtn.click();
    expect(await rows.first().getAttribute('data-pinned')).toBe('1');
    await res.locator('thead th[data-col="ADM1_NAME_ALT"] button').click();
    expect(await rows.first().getAttribute('data-pinned')).toBe('1');
    expect(await rows.nth(1).locator('td[data-col="ADM1_NAME_ALT"]').textContent()).toBe('Central');
    expect(await res.locator('.chart svg').first().textContent()).not.toMatch(/total|\ball\b/);
    await elevBtn.click();
    await elevBtn.click();
    await waitMap(page);
    await waitChoropleth(page);
    await shot(page, '03-summary-ken-adm1-choropleth');
    const n = await rows.count();
    // new inputs: the old choropleth and its legend go, the table says it is out of date
    await addChip(page, 'Countries or regions', 'TZA');
    await expect.poll(() => page.locator('details[aria-label="Choropleth legend"]').count()).toBe(0);
    await expect.poll(() => page.evaluate(() => (window as any).__indapiMap.getPaintProperty('choropleth', 'fill-opacity'))).toBe(0);
    await page.locator('[data-testid="summary-stale"]').waitFor();
    // bad input: an unknown code stays an in-place message and the table remains
    await page.getByRole('textbox', { name: /Breaks/ }).count().then((c) => expect(c).toBe(0));
    await page.evaluate(() => { location.hash = '#v=ELEVATION&iso=KEN&by=ADM1_NAME_ALT,DIST_COAST'; });
    await page.getByRole('textbox', { name: /Breaks for DIST_COAST/ }).fill('100, 5');
    await page.getByRole('button', { name: 'Summarise', exact: true }).click();
    await expect.poll(() => page.locator('[role="alert"]').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('increasing numbers')]));
    expect(await rows.count()).toBe(n);
    // edited breaks: the intervals follow them, and the URL keeps them
    await page.getByRole('textbox', { name: /Breaks for DIST_COAST/ }).fill('0, 100, 300, 2000');
    await expect.poll(() => page.evaluate(() => location.hash)).toContain('brk.DIST_COAST=0%2C100%2C300%2C2000');
    await page.getByRole('button', { name: 'Summarise', exact: true }).click();
    // the UI writes the interval as people read it (issue 23 item 4); R's cut() label is the cell's tooltip
    await expect.poll(() => res.locator('tbody').textContent(), { timeout: 60_000 }).toMatch(/100-300 km/);
    expect(await res.locator('td[title^="(100,300] "]').count()).toBeGreaterThan(0);
    await ctx.close();
  });

  test('docs/screenshot.png: Kenya ELEVATION by ADM1, table, chart and choropleth', async () => {
    const { ctx, page, errors } = await open('#v=ELEVATION&iso=KEN&by=ADM1_NAME_ALT');
    await page.locator('button.item[data-code="ELEVATION"]').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Summarise', exact: true }).click();
    const res = page.locator('[data-testid="summary-result"]');
    await expect.poll(() => res.locator('tbody tr').count(), { timeout: 60_000 }).toBeGreaterThan(5);
    await res.locator('.chart svg').first().waitFor({ timeout: 30_000 });
    await waitMap(page);
    await waitChoropleth(page);
    const p = await mapPoint(page, 36.95, -0.45); // Central province
    await page.mouse.move(p.x, p.y);
    await expect.poll(() => page.locator('[data-testid="hover-info"]').textContent(), { timeout: 20_000 }).toContain('Central');
    await page.locator('[data-testid="summary-result"] .table-wrap').evaluate((w) => w.scrollIntoView({ block: 'end' }));
    await settle(page);
    mkdirSync('docs', { recursive: true });
    await page.screenshot({ path: 'docs/screenshot.png' });
    expect(errors).toEqual([]);
    await ctx.close();
  });

  test('1280x720: the by-province table keeps its key column and values in view; the choropleth follows the charted indicator', async () => {
    const { ctx, page, errors } = await open('#v=ELEVATION&vars=ELEVATION,DIST_PLACE50K&iso=COD&by=ADM1_NAME_ALT', { viewport: { width: 1280, height: 720 } });
    await page.getByRole('button', { name: 'Summarise', exact: true }).click();
    const res = page.locator('[data-testid="summary-result"]');
    await expect.poll(() => res.locator('tbody tr').count(), { timeout: 60_000 }).toBeGreaterThan(5);
    await waitChoropleth(page);
    const wrap = res.locator('.table-wrap');
    await wrap.scrollIntoViewIfNeeded();
    const box = (await wrap.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(1280);
    // the key column and the first value column are fully inside the table's box; headers wrap, not cut
    for (const c of ['ADM1_NAME_ALT', 'ELEVATION']) {
      const th = (await res.locator(`thead th[data-col="${c}"]`).boundingBox())!;
      expect(th.x).toBeGreaterThanOrEqual(box.x - 1);
      expect(th.x + th.width).toBeLessThanOrEqual(box.x + box.width + 1);
    }
    const cut = await res.locator('thead th .h-label').evaluateAll((ls) => ls.filter((l) => l.scrollWidth > l.clientWidth + 1).length);
    expect(cut).toBe(0);
    expect(await res.locator('tbody tr').nth(1).locator('td[data-col="ELEVATION"]').evaluate((td) => getComputedStyle(td).textAlign)).toBe('right');
    // scrolled sideways, the key column stays in place
    const key0 = (await res.locator('tbody tr').nth(1).locator('td').first().boundingBox())!;
    await wrap.evaluate((w) => { w.scrollLeft = w.scrollWidth; });
    const key1 = (await res.locator('tbody tr').nth(1).locator('td').first().boundingBox())!;
    expect(Math.abs(key1.x - key0.x)).toBeLessThan(1);
    await shot(page, '03c-summary-cod-1280');
    // the chart's indicator drives the choropleth and its legend
    const pairs = () => page.evaluate(() => JSON.stringify((window as any).__indapiMap.getPaintProperty('choropleth', 'fill-color')));
    const before = await pairs();
    await res.getByRole('combobox', { name: 'Chart' }).selectOption('DIST_PLACE50K');
    await expect.poll(() => page.locator('details[aria-label="Choropleth legend"] h3').textContent(), { timeout: 20_000 }).toContain('Distance to a place of 50k+ people');
    await expect.poll(pairs).not.toBe(before);
    expect(await page.locator('details[aria-label="Choropleth legend"] h3').textContent()).toContain('(km)');
    // the chart is drawn again at the page's next idle moment (src/ui/BarChart.tsx idleMoment): wait for it
    await expect.poll(() => res.locator('.chart svg').first().textContent(), { timeout: 20_000 }).toContain('(km)');
    await settle(page);
    await shot(page, '03d-summary-cod-chart-dist');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  test('two countries by elevation zone: class order in table and chart, grouped (never stacked) bars', async () => {
    const { ctx, page, errors } = await open('#v=ELEVATION&iso=ETH,KEN&by=ELEV_ZONE');
    await page.getByRole('button', { name: 'Summarise', exact: true }).click();
    const res = page.locator('[data-testid="summary-result"]');
    await expect.poll(() => res.locator('tbody tr').count(), { timeout: 60_000 }).toBeGreaterThan(8);
    const order = ['< 200 m', '200-500 m', '500-1000 m', '1000-1500 m', '1500-2000 m', '2000-3000 m', '>= 3000 m'];
    // zones of a country's rows; the NA row (cells without a zone) is not a class and has no bar
    const zones = (c: string) => res.locator('tbody tr:not([data-pinned])', { hasText: c }).locator('td[data-col="ELEV_ZONE"]').allTextContents().then((z) => z.filter((x) => !x.startsWith('NA (')));
    const ethZones = () => zones('ETH');
    // The class order arrives with the class table (asynchronously): wait for it.
    await expect.poll(async () => { const z = await ethZones(); return JSON.stringify(z) === JSON.stringify(order.filter((o) => z.includes(o))); }, { timeout: 30_000 }).toBe(true);
    const eth = await ethZones();
    expect(eth.length).toBeGreaterThan(4);
    // sorting by the class column keeps the class order
    await res.locator('thead th[data-col="ELEV_ZONE"] button').click();
    const sorted = (await res.locator('tbody tr:not([data-pinned]) td[data-col="ELEV_ZONE"]').allTextContents()).filter((z) => !z.startsWith('NA ('));
    expect([...new Set(sorted)]).toEqual(order.filter((z) => sorted.includes(z)));
    // the chart: one bar per country and zone, all from the zero line (side by side, not stacked)
    const svg = res.locator('.chart svg').first();
    await svg.waitFor({ timeout: 30_000 });
    await expect.poll(() => svg.locator('.mark-rect path').count()).toBe(eth.length + (await zones('KEN')).length);
    const lefts = await svg.locator('.mark-rect path').evaluateAll((ps) => ps.map((p) => Math.round((p as SVGGraphicsElement).getBoundingClientRect().left)));
    expect(Math.max(...lefts) - Math.min(...lefts)).toBeLessThanOrEqual(1);
    // Axis labels in reading order on screen (top to bottom, then left to right), whatever the DOM order.
    const labels = await svg.locator('.role-axis-label text').evaluateAll((ts) => ts
      .map((t) => ({ t: t.textContent ?? '', r: (t as SVGGraphicsElement).getBoundingClientRect() }))
      .sort((a, b) => Math.round(a.r.top) - Math.round(b.r.top) || a.r.left - b.r.left)
      .map((x) => x.t));
    expect(labels.filter((l) => order.includes(l))).toEqual(order.filter((z) => labels.includes(z)));
    await shot(page, '03e-summary-eth-ken-elev-zone');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  test('summary indicators: the last chip can be removed, and nothing runs without one; the region hint', async () => {
    const { ctx, page } = await open('#v=ELEVATION');
    await page.locator('button.item[data-code="ELEVATION"]').waitFor({ timeout: 30_000 });
    const panel = page.locator('#panel-summary');
    expect(await panel.textContent()).toContain('No domain: one row for the region');
    await panel.getByRole('button', { name: /^Remove Elevation/ }).click();
    await expect.poll(() => panel.locator('.chips').first().locator('.chip').count()).toBe(0);
    expect(await panel.textContent()).toContain('Choose at least one indicator');
    expect(await page.evaluate(() => location.hash)).toContain('vars=');
    await panel.getByRole('button', { name: 'Summarise', exact: true }).click();
    await expect.poll(() => panel.locator('[role="alert"]').textContent()).toBe('Choose at least one indicator.');
    expect(await panel.locator('.progress').count()).toBe(0);
    expect(await panel.locator('[data-testid="summary-result"]').count()).toBe(0);
    // the choice survives a reload
    await page.reload();
    await page.locator('button.item[data-code="ELEVATION"]').waitFor({ timeout: 30_000 });
    expect(await page.locator('#panel-summary .chips').first().locator('.chip').count()).toBe(0);
    await addChip(page, 'Countries or regions', 'KEN');
    await expect.poll(() => panel.textContent()).toContain('No domain: one row per country');
    await ctx.close();
  });

  test('no data: a missing value (CPV has no life expectancy: 0/0 in the catalog formula) reads "no data" with a note; an empty result keeps the previous table', async () => {
    const { ctx, page } = await open('#v=PN14_LIFEEXP&vars=PN14_LIFEEXP,AREA_LAND&iso=KEN,CPV');
    await page.locator('button.item[data-code="PN14_LIFEEXP"]').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Summarise', exact: true }).click();
    const res = page.locator('[data-testid="summary-result"]');
    await expect.poll(() => res.locator('tbody tr').count(), { timeout: 60_000 }).toBe(2);
    const cpv = res.locator('tbody tr', { hasText: 'CPV' });
    expect(await cpv.locator('td[data-col="PN14_LIFEEXP"]').textContent()).toBe('no data');
    expect(Number((await cpv.locator('td[data-col="AREA_LAND"]').textContent())!.replace(/,/g, ''))).toBeGreaterThan(0);
    expect(await res.locator('[role="status"]').allTextContents()).toEqual(['No data for PN14_LIFEEXP in CPV.']);
    // a result with no value at all: the message, and the previous table stays
    await page.evaluate(() => { location.hash = '#v=PN14_LIFEEXP&iso=CPV'; });
    await page.getByRole('button', { name: 'Summarise', exact: true }).click();
    await expect.poll(() => page.locator('[data-testid="summary-empty"]').textContent(), { timeout: 60_000 }).toContain('No data for PN14_LIFEEXP in CPV');
    expect(await page.locator('[data-testid="summary-empty"]').textContent()).toContain('previous result is kept');
    expect(await res.locator('tbody tr').count()).toBe(2);
    await shot(page, '03b-summary-no-data');
    await ctx.close();
  });

  test('an unknown code in a shared URL gets a message; the rest of the URL state applies', async () => {
    const { ctx, page } = await open('#v=NOT_A_CODE&iso=KEN,XXX&by=ADM1_NAME_ALT');
    await expect.poll(() => page.locator('.banner[role="alert"]').textContent(), { timeout: 30_000 }).toContain('NOT_A_CODE');
    expect(await page.locator('.banner[role="alert"]').textContent()).toContain('XXX');
    const chips = await page.locator('.chips .chip span').allTextContents();
    expect(chips.join(' ')).toContain('Kenya');
    expect(chips.join(' ')).toContain('ADM1_NAME_ALT');
    await expect.poll(() => page.evaluate(() => location.hash)).toContain('v=ELEVATION'); // a bad indicator falls back to the default map
    await page.waitForFunction(() => { const m = (window as any).__indapiMap; return !!m && m.loaded() && !!m.querySourceFeatures('countries').length; }, undefined, { timeout: 30_000 });
    await shot(page, '04-bad-url-code');
    // the message stays through the clean-up of the URL, and goes once the user changes the inputs
    await expect.poll(() => page.evaluate(() => location.hash)).not.toContain('NOT_A_CODE');
    await still(page);
    expect(await page.locator('.banner[role="alert"]').count()).toBe(1);
    await addChip(page, 'Countries or regions', 'TZA');
    await expect.poll(() => page.locator('.banner[role="alert"]').count()).toBe(0);
    await ctx.close();
  });

  test('draw a polygon with the mouse, summarise it; invalid WKT is reported in place and the result stays', async () => {
    const { ctx, page } = await open('#v=ELEVATION&panel=areas');
    await waitMap(page);
    await jumpTo(page, 37, -1, 6);
    await page.getByRole('button', { name: 'Draw polygon' }).click();
    const pts: Array<[number, number]> = [[36.5, -1.5], [37.5, -1.5], [37.5, -0.5], [36.5, -0.5]];
    // distinct vertices of the polygon being drawn (terra-draw's snapshot)
    const placed = () => page.evaluate(() => {
      const poly = ((window as any).__indapiDraw.getSnapshot() as any[]).find((f) => f.geometry.type === 'Polygon');
      return poly ? new Set((poly.geometry.coordinates[0] as number[][]).map((c) => c.join())).size : 0;
    });
    for (const [i, [lo, la]] of pts.entries()) {
      const q = await mapPoint(page, lo, la);
      await page.mouse.move(q.x, q.y, { steps: 4 });
      await page.mouse.down(); await page.mouse.up();
      await expect.poll(placed, { timeout: 10_000 }).toBe(i + 1); // the click was taken before the next one
    }
    const first = await mapPoint(page, pts[0][0], pts[0][1]);
    await page.mouse.move(first.x, first.y, { steps: 4 });
    await page.mouse.down(); await page.mouse.up();
    const ta = page.getByRole('textbox', { name: /WKT/ });
    await expect.poll(() => ta.inputValue(), { timeout: 10_000 }).toMatch(/^POLYGON \(\(36\.5\d* -1\.5/);
    await expect.poll(() => page.evaluate(() => location.hash)).toContain('wkt=POLYGON');
    await page.getByRole('checkbox', { name: /Exact/ }).check();
    await page.getByRole('button', { name: 'Summarise areas' }).click();
    const res = page.locator('[data-testid="areas-result"]');
    await res.waitFor({ timeout: 60_000 });
    await expect.poll(() => res.locator('tbody tr').count()).toBeGreaterThan(0);
    expect((await res.textContent())!).toContain('KEN');
    await shot(page, '05-areas-drawn-polygon');
    // add a point: the shapes become a collection, summarised per feature
    await page.getByRole('button', { name: 'Add point' }).click();
    const pt = await mapPoint(page, 37.8, -1.2);
    await page.mouse.move(pt.x, pt.y, { steps: 4 });
    await page.mouse.down(); await page.mouse.up();
    await expect.poll(() => ta.inputValue(), { timeout: 10_000 }).toMatch(/^GEOMETRYCOLLECTION \(POLYGON .*POINT \(37\.8\d* -1\.2/);
    await page.getByRole('button', { name: 'Add point' }).click(); // stop adding points
    await page.getByRole('button', { name: 'Summarise areas' }).click();
    await expect.poll(() => res.locator('tbody tr').count(), { timeout: 60_000 }).toBeGreaterThan(1);
    const feats = await res.locator('tbody tr td:first-child').allTextContents();
    expect(new Set(feats)).toEqual(new Set(['1', '2']));
    // one bar per shape, labelled as the shapes are numbered on the map; shapes fit in view
    await expect.poll(() => res.locator('.chart svg').first().textContent(), { timeout: 20_000 }).toContain('2 · Kenya');
    expect(await res.locator('.chart svg').first().textContent()).toContain('1 · Kenya');
    expect(await page.locator('.maplibregl-marker.area-label').allTextContents()).toEqual(['1', '2']);
    // the area's data package
    await page.getByRole('tab', { name: 'Download' }).click();
    await page.getByRole('radio', { name: /csv/ }).check();
    const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 90_000 }), page.getByRole('button', { name: 'Build and save ZIP' }).click()]);
    expect(dl.suggestedFilename()).toBe('ELEVATION-WKT.csv.zip');
    const zip = await JSZip.loadAsync(readFileSync((await dl.path())!));
    const csvName = Object.keys(zip.files).find((n) => n.startsWith('getLayerWKT-') && n.endsWith('.csv'))!;
    expect(csvName).toBeTruthy();
    expect((await zip.file(csvName)!.async('string')).split('\n')[0]).toContain('ELEVATION');
    await page.getByRole('tab', { name: 'Areas' }).click();
    await ta.fill('POLYGON((36 -1, 37 -1, 37 0 36 0, 36 -1))');
    await expect.poll(() => page.locator('#wkt-err').textContent()).toMatch(/column \d+/);
    expect(await res.locator('tbody tr').count()).toBeGreaterThan(0);
    await shot(page, '06-areas-bad-wkt');
    await ctx.close();
  });

  test('compare: similar ADM1 units to a clicked unit, as a ranked list and on the map', async () => {
    const { ctx, page } = await open('#v=ELEVATION&vars=ELEVATION,DIST_COAST&panel=compare');
    await waitMap(page);
    await jumpTo(page, 37, 0, 5);
    const p = await mapPoint(page, 36.82, -1.29);
    await page.mouse.click(p.x, p.y);
    await expect.poll(() => page.locator('[data-testid="picked"]').textContent(), { timeout: 20_000 }).toContain('Kenya');
    await page.getByRole('button', { name: 'Find similar' }).click();
    const res = page.locator('[data-testid="compare-result"]');
    await res.waitFor({ timeout: 60_000 });
    await expect.poll(() => res.locator('tbody tr').count()).toBeGreaterThan(3);
    const firstRow = await res.locator('tbody tr').first().textContent();
    expect(firstRow).toContain('KE-110'); // the reference ranks first
    await waitChoropleth(page);
    await shot(page, '07-compare-similar-adm1');
    // cells: the clicked cell ranks first, the ranks are drawn as a raster layer
    await page.getByRole('radio', { name: 'Cells' }).check();
    await page.getByRole('button', { name: 'Find similar' }).click();
    await expect.poll(() => res.textContent(), { timeout: 60_000 }).toContain('cells ranked');
    const [col, row] = pointToColRow(SSA_GRID, 36.82, -1.29)!;
    expect(await res.locator('tbody tr').first().textContent()).toContain(String(cellId(SSA_GRID, col, row)));
    await expect.poll(() => page.locator('details.legend h3').first().textContent()).toContain('Similarity');
    await waitMap(page);
    expect(await page.evaluate(() => (window as any).__indapiMap.getPaintProperty('choropleth', 'fill-opacity'))).toBe(0); // the ADM1 ranks do not hide the cell ranks
    await settle(page);
    await shot(page, '07b-compare-similar-cells');
    await ctx.close();
  });

  test('downloads: a CSV package and a histogram as the spec ZIP, contents checked; images shown', async () => {
    const { ctx, page } = await open('#v=ELEVATION&iso=KEN&by=ADM1_NAME_ALT&panel=download');
    await page.getByRole('radio', { name: /csv/ }).check();
    const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 90_000 }), page.getByRole('button', { name: 'Build and save ZIP' }).click()]);
    expect(dl.suggestedFilename()).toBe('ELEVATION-ADM1_NAME_ALT-KEN.csv.zip');
    const zip = await JSZip.loadAsync(readFileSync((await dl.path())!));
    const names = Object.keys(zip.files);
    expect(names).toEqual(expect.arrayContaining(['meta.csv', 'README.md', 'datapackage.json', 'DESCRIPTION', 'terms.html']));
    const csvName = names.find((n) => n.endsWith('.csv') && n !== 'meta.csv')!;
    const csv = await zip.file(csvName)!.async('string');
    expect(csv.split('\n')[0]).toContain('ADM1_NAME_ALT');
    expect(csv.trim().split('\n').length).toBeGreaterThan(5);
    await page.getByRole('radio', { name: /hist/ }).check();
    const [dl2] = await Promise.all([page.waitForEvent('download', { timeout: 120_000 }), page.getByRole('button', { name: 'Build and save ZIP' }).click()]);
    expect(dl2.suggestedFilename()).toMatch(/\.hist\.zip$/);
    const z2 = await JSZip.loadAsync(readFileSync((await dl2.path())!));
    expect(Object.keys(z2.files).some((n) => n.endsWith('.png'))).toBe(true);
    await page.locator('[data-testid="download-result"] img').first().waitFor();
    await shot(page, '08-download-hist');
    await ctx.close();
  });

  test('API panel: curl and httr snippets of the query, runnable in the page', async () => {
    const { ctx, page } = await open('#v=ELEVATION&iso=KEN');
    await page.getByRole('button', { name: 'Summarise', exact: true }).click();
    await page.locator('[data-testid="summary-result"]').waitFor({ timeout: 60_000 });
    await page.getByRole('tab', { name: 'API' }).click();
    const panel = page.locator('#panel-api');
    // the panel's code may still be loading (panels other than the open one load after the first map)
    await expect.poll(() => panel.textContent(), { timeout: 30_000 }).toContain('curl -sS -X POST');
    expect(await panel.textContent()).toContain('library(httr)');
    await page.waitForFunction(() => !!navigator.serviceWorker?.controller, undefined, { timeout: 30_000 }).catch(() => undefined);
    await panel.getByRole('button', { name: 'Run here' }).click();
    const out = page.locator('[data-testid="api-output"]');
    await out.waitFor({ timeout: 60_000 });
    expect(await out.textContent()).toMatch(/HTTP 20[01]/);
    expect(await out.textContent()).toContain('"ELEVATION"');
    expect(await out.textContent()).toMatch(/\/tmp\/[^/\s]+\/R\/\.val/);
    await shot(page, '09-api-panel');
    await ctx.close();
  });

  test('long work runs in a worker and can be cancelled; the page stays responsive', async () => {
    // 14 indicators over the whole region by admin-1 x elevation zone, read cold: long enough to cancel
    const { ctx, page } = await open('#v=ELEVATION&vars=ELEVATION,SLOPE,TRI,DIST_COAST,PN14_POP,AREA_LAND,DIST_PLACE20K,DIST_PLACE50K,DIST_PLACE100K,DIST_PLACE500K,PLACES_POP,AREA_WATER,LAND_SHARE,AREA_TOTAL&by=ADM1_NAME_ALT,ELEV_ZONE');
    await page.locator('button.item[data-code="ELEVATION"]').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Summarise', exact: true }).click();
    const prog = page.locator('#panel-summary .progress');
    await prog.waitFor({ timeout: 30_000 });
    // the main thread is free while the query runs: the search box answers typing (its speed: bench/app.ts)
    await page.getByLabel('Search indicators').fill('slope');
    expect(await page.getByLabel('Search indicators').inputValue()).toBe('slope');
    // cancel at once (a screenshot first would give a fast machine time to finish the query)
    // a click event, not a pointer gesture: the progress bar redraws as blocks arrive, and on a
    // loaded machine Playwright's wait for a still target can outlast the query
    await prog.getByRole('button', { name: 'Cancel' }).dispatchEvent('click', undefined, { timeout: 30_000 });
    await prog.waitFor({ state: 'detached', timeout: 30_000 });
    await shot(page, '11-long-work-cancelled');
    expect(await page.locator('[data-testid="summary-result"]').count()).toBe(0);
    expect(await page.locator('#panel-summary [role="alert"]').count()).toBe(0);
    await expect.poll(() => page.getByRole('button', { name: 'Summarise', exact: true }).isEnabled()).toBe(true);
    await ctx.close();
  });

  test('API panel runs a comparison against the in-page service', async () => {
    const { ctx, page } = await open('#v=ELEVATION&panel=compare');
    await waitMap(page);
    await jumpTo(page, 37, 0, 5);
    const p = await mapPoint(page, 36.82, -1.29);
    await page.mouse.click(p.x, p.y);
    await expect.poll(() => page.locator('[data-testid="picked"]').textContent(), { timeout: 20_000 }).toContain('Kenya');
    await page.getByRole('button', { name: 'Find similar' }).click();
    await page.locator('[data-testid="compare-result"]').waitFor({ timeout: 60_000 });
    await page.getByRole('tab', { name: 'API' }).click();
    const panel = page.locator('#panel-api');
    await expect.poll(() => panel.textContent(), { timeout: 30_000 }).toContain('/library/indapi3/R/similar/json');
    await page.waitForFunction(() => !!navigator.serviceWorker?.controller, undefined, { timeout: 30_000 });
    await panel.getByRole('button', { name: 'Run here' }).click();
    const out = page.locator('[data-testid="api-output"]');
    await out.waitFor({ timeout: 60_000 });
    expect(await out.textContent()).toMatch(/HTTP 20[01]/);
    expect(await out.textContent()).toContain('KE-110');
    await ctx.close();
  });

  test('offline: after a first visit the app, the map and the queries used work with no network', async () => {
    const { ctx, page } = await open('#v=ELEVATION');
    await waitMap(page);
    await page.waitForFunction(() => !!navigator.serviceWorker?.controller, undefined, { timeout: 60_000 });
    await page.locator('[data-testid="sw-status"][data-ready="1"]').waitFor({ timeout: 60_000 });
    // let the precache of the small bundle files finish (COGs are cached as they are used)
    await page.waitForFunction(async () => { const m = await (await fetch('./data/manifest.json')).json(); const keys = (await (await caches.open('indapi3-files')).keys()).map((r) => r.url.split('/').pop()); return m.files.filter((f: any) => !f.path.endsWith('.tif')).every((f: any) => keys.includes(f.sha256)); }, undefined, { timeout: 120_000, polling: 1000 });
    // use the map and the summary once online (the map's tiles are cached from a controlled load: reload once)
    await page.reload();
    await waitMap(page);
    await page.evaluate(() => { location.hash = '#v=ELEVATION&iso=RWA&by=ADM1_NAME_ALT'; });
    await page.getByRole('button', { name: 'Summarise', exact: true }).click();
    await expect.poll(() => page.locator('[data-testid="summary-result"] tbody tr').count(), { timeout: 60_000 }).toBeGreaterThan(2);
    await ctx.setOffline(true);
    await page.reload();
    await expect(page.locator('h1').first().textContent()).resolves.toContain('indapi3');
    await waitMap(page);
    await page.evaluate(() => { location.hash = '#v=ELEVATION&iso=RWA&by=ADM1_NAME_ALT'; });
    await page.getByRole('button', { name: 'Summarise', exact: true }).click();
    await expect.poll(() => page.locator('[data-testid="summary-result"] tbody tr').count(), { timeout: 60_000 }).toBeGreaterThan(2);
    await waitChoropleth(page);
    await shot(page, '10-offline-summary');
    await ctx.close();
  });
});

test('keyboard: the tool tabs move with the arrow keys', async () => {
  const { ctx, page } = await open();
  await expect(page.locator('h1').first().textContent()).resolves.toContain('indapi3');
  const names = await page.getByRole('tab').allTextContents();
  expect(names.length).toBeGreaterThanOrEqual(5);
  await page.getByRole('tab', { name: names[0] }).focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe(names[1]);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe(names[names.length - 1]);
  await ctx.close();
});
