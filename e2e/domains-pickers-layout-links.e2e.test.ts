/**
 * The app (issue 11): continuous layers as their own domain, charts of many
 * units, the combobox pickers and focus, the phone layout, links that reproduce the view
 * and Back, the wide panel and number formats, choropleth hover, and area totals.
 * Screenshots go to test-results/screenshots/.
 */
import { describe, expect, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type Started } from './helpers';
import { addChip, jumpTo, mapPoint, settle, shot, still, waitChoropleth, waitMap, openApp, serverAndBrowser } from './app-helpers';

let srv: Started;
let browser: Browser;

serverAndBrowser((s, b) => { srv = s; browser = b; });

async function open(hash = '', ctxOpts: Parameters<Browser['newContext']>[0] = {}): Promise<{ ctx: BrowserContext; page: Page; errors: string[] }> {
  return openApp(browser, srv.url + hash, { viewport: { width: 1440, height: 900 }, ...ctxOpts });
}

type Box = { x: number; y: number; width: number; height: number };
const intersects = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
/** Lower bound of an interval as the UI writes it: "up to 0 m" (-Infinity), "500-1,000 m", "-500 to -100 m", "over 6,000 m". */
const readLower = (l: string) => (/^up to /.test(l) ? -Infinity : Number(/^(?:over )?(-?[\d,.]+)/.exec(l)![1].replace(/,/g, '')));

async function summarise(page: Page, minRows = 2, timeout = 90_000) {
  await page.locator('button.item[data-code]').first().waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Summarise', exact: true }).click();
  const res = page.locator('[data-testid="summary-result"]');
  await expect.poll(() => res.locator('tbody tr').count(), { timeout }).toBeGreaterThanOrEqual(minRows);
  return res;
}

/** Axis labels of a chart in screen reading order. */
async function axisLabels(page: Page, scope = '[data-testid="summary-result"]') {
  const svg = page.locator(`${scope} .chart svg`).first();
  await svg.waitFor({ timeout: 30_000 });
  return svg.locator('.role-axis-label text').evaluateAll((ts) => ts
    .map((t) => ({ t: t.textContent ?? '', r: (t as SVGGraphicsElement).getBoundingClientRect() }))
    .sort((a, b) => Math.round(a.r.top) - Math.round(b.r.top) || a.r.left - b.r.left)
    .map((x) => x.t));
}

describe('domains, pickers, phone layout, links, panel width, hover, area totals', () => {
  test('item 3: a continuous layer as its own domain: interval categories in interval order, labelled key column first, labelled total', async () => {
    const { ctx, page, errors } = await open('#v=ELEVATION&vars=ELEVATION,AREA_TOTAL&iso=KEN&by=ELEVATION');
    const res = await summarise(page, 5);
    const heads = await res.locator('thead th .h-label').allTextContents();
    expect(heads.join('|')).not.toContain('ELEVATION_by');
    expect(heads[0]).toMatch(/interval/i);
    await expect.poll(() => res.locator('tbody tr').first().locator('td').first().textContent()).toBe('Kenya (total)');
    // the chart's categories are the intervals as people read them ("up to 0 m", "0-200 m"), in interval order
    const isCat = (l: string) => / m$/.test(l) && /^(up to |over |-?[\d,.]+(-| to ))/.test(l);
    await expect.poll(async () => (await axisLabels(page)).filter(isCat).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(5);
    const cats = (await axisLabels(page)).filter(isCat);
    expect(cats).toEqual([...cats].sort((a, b) => readLower(a) - readLower(b)));
    await shot(page, 'r2-03-ken-elevation-by-elevation');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  test('item 4: 759 units by admin-1: top 25 readable bars of M, labelled with their country, never shared', async () => {
    const { ctx, page, errors } = await open('#v=ELEVATION&by=ADM1_NAME_ALT');
    const res = await summarise(page, 700, 120_000);
    const cap = res.locator('.chart figcaption');
    await expect.poll(() => cap.textContent(), { timeout: 30_000 }).toMatch(/top 25 of \d+/);
    const m = Number(/top 25 of (\d+)/.exec((await cap.textContent())!)![1]);
    expect(m).toBeGreaterThan(700);
    expect(await cap.textContent()).toContain(`all ${m} in the table`);
    const svg = res.locator('.chart svg').first();
    await expect.poll(() => svg.locator('.mark-rect path').count(), { timeout: 30_000 }).toBe(25);
    const labels = (await axisLabels(page)).filter((l) => /\([A-Z]{3}\)$/.test(l));
    expect(labels.length).toBe(25);
    expect(new Set(labels).size).toBe(25);
    // bars are readable: at least 8 px thick
    const h = await svg.locator('.mark-rect path').evaluateAll((ps) => Math.min(...ps.map((p) => (p as SVGGraphicsElement).getBoundingClientRect().height)));
    expect(h).toBeGreaterThanOrEqual(8);
    expect(await res.locator('tbody tr').count()).toBeGreaterThan(700);
    await shot(page, 'r2-04-ssa-adm1-top25');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  test('item 5: the pickers add on Enter only; focus stays where the user is', async () => {
    const { ctx, page } = await open('#v=ELEVATION');
    await page.locator('button.item[data-code="ELEVATION"]').waitFor({ timeout: 30_000 });
    const panel = page.locator('#panel-summary');
    const countries = panel.locator('fieldset.chips', { hasText: 'Countries or regions' });
    const input = page.getByRole('combobox', { name: 'Add to Countries or regions' });
    await input.focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
    await still(page);
    expect(await countries.locator('.chip').count()).toBe(0);
    expect(await page.evaluate(() => location.hash)).not.toContain('iso=');
    await input.fill('Kenya');
    await page.keyboard.press('Enter');
    await expect.poll(() => countries.locator('.chip').allTextContents()).toEqual([expect.stringContaining('Kenya')]);
    const inputName = await input.evaluate((e) => e.getAttribute('aria-label') ?? e.id);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.id)).toBe(inputName);
    const focusIsBody = () => page.evaluate(() => document.activeElement === document.body || document.activeElement === null);
    await panel.getByRole('button', { name: '+ by province (ADM1)' }).click();
    await expect.poll(() => page.evaluate(() => location.hash)).toContain('by=ADM1_NAME_ALT');
    await expect.poll(focusIsBody).toBe(false);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('sum-by-input');
    await addChip(page, 'Countries or regions', 'Tanzania');
    await panel.getByRole('button', { name: /^Remove Kenya/ }).click();
    await expect.poll(() => countries.locator('.chip').count()).toBe(1);
    await expect.poll(focusIsBody).toBe(false);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toMatch(/^Remove United Republic of Tanzania/);
    await page.getByRole('button', { name: 'Summarise', exact: true }).click();
    await page.locator('[data-testid="summary-result"] tbody tr').first().waitFor({ timeout: 60_000 });
    await still(page);
    expect(await focusIsBody()).toBe(false);
    await shot(page, 'r2-05-combobox');
    await ctx.close();
  });

  test('item 6: phone 390x844: nothing overlaps, legend collapsed, catalog reachable first', async () => {
    const { ctx, page, errors } = await open('#v=ELEVATION&iso=KEN', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await waitMap(page);
    await page.locator('[data-testid="sw-status"][data-ready="1"]').waitFor({ timeout: 60_000 });
    const box = async (sel: string) => (await page.locator(sel).first().boundingBox())!;
    expect(intersects(await box('[data-testid="sw-status"]'), await box('h1 .sub'))).toBe(false);
    expect(intersects(await box('[data-testid="sw-status"]'), await box('h1'))).toBe(false);
    // the legend starts collapsed, and stays clear of the attribution
    const legend = page.locator('details[aria-label="Legend"]');
    expect(await legend.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    expect(intersects(await box('details[aria-label="Legend"]'), await box('.maplibregl-ctrl-attrib'))).toBe(false);
    // a picked place and the hover read-out side by side, never on top of each other
    const p = await mapPoint(page, 36.82, -1.29);
    await page.mouse.click(p.x, p.y);
    await expect.poll(() => page.locator('[data-testid="picked"]').textContent(), { timeout: 20_000 }).toContain('Kenya');
    await page.mouse.move(p.x + 5, p.y + 5);
    await expect.poll(() => page.locator('[data-testid="hover-info"]').textContent(), { timeout: 20_000 }).toContain('CELL5M');
    expect(intersects(await box('[data-testid="picked"]'), await box('[data-testid="hover-info"]'))).toBe(false);
    await shot(page, 'r2-06-phone-map');
    // scrolled to the tools: the status does not float over the tab bar
    await page.locator('.tabs').scrollIntoViewIfNeeded();
    expect(intersects(await box('[data-testid="sw-status"]'), await box('.tabs'))).toBe(false);
    // the catalog is reachable from the first screen
    await page.evaluate(() => window.scrollTo(0, 0));
    const catBtn = page.getByRole('button', { name: 'Catalog', exact: true });
    expect((await catBtn.boundingBox())!.y).toBeLessThan(844);
    await catBtn.click();
    const search = page.getByLabel('Search indicators');
    await search.waitFor({ state: 'visible' });
    const sb = (await search.boundingBox())!;
    expect(sb.y).toBeGreaterThanOrEqual(0);
    expect(sb.y + sb.height).toBeLessThan(844);
    await shot(page, 'r2-06-phone-catalog');
    await search.fill('distance coast');
    await page.locator('button.item[data-code="DIST_COAST"]').click();
    await expect.poll(() => page.evaluate(() => location.hash)).toContain('v=DIST_COAST');
    await expect.poll(() => search.isVisible()).toBe(false);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  test('item 7: a link reproduces results, map view and picked place; steps push history and Back returns', async () => {
    const { ctx, page, errors } = await open('#v=ELEVATION&iso=KEN&by=ADM1_NAME_ALT&run=summary&map=37.5,0.2,6&pick=36.82,-1.29');
    const res = page.locator('[data-testid="summary-result"]');
    await expect.poll(() => res.locator('tbody tr').count(), { timeout: 90_000 }).toBeGreaterThan(5);
    await waitMap(page);
    await settle(page);
    const view = await page.evaluate(() => { const m = (window as any).__indapiMap; const c = m.getCenter(); return { lon: c.lng, lat: c.lat, z: m.getZoom() }; });
    expect(view.lon).toBeCloseTo(37.5, 2);
    expect(view.lat).toBeCloseTo(0.2, 2);
    expect(view.z).toBeCloseTo(6, 2);
    await expect.poll(() => page.locator('[data-testid="picked"]').textContent(), { timeout: 20_000 }).toContain('Kenya');
    // the map view follows into the URL
    await jumpTo(page, 38, 1, 5);
    await expect.poll(() => page.evaluate(() => location.hash), { timeout: 5_000 }).toContain('map=38');
    // two steps, then Back twice
    await page.getByRole('tab', { name: 'Compare' }).click();
    await expect.poll(() => page.evaluate(() => location.hash)).toContain('panel=compare');
    await page.getByLabel('Search indicators').fill('distance coast');
    await page.locator('button.item[data-code="DIST_COAST"]').click();
    await expect.poll(() => page.evaluate(() => location.hash)).toContain('v=DIST_COAST');
    await page.goBack();
    await expect.poll(() => page.evaluate(() => location.hash)).toContain('v=ELEVATION');
    expect(await page.evaluate(() => location.hash)).toContain('panel=compare');
    await expect.poll(() => page.getByRole('tab', { name: 'Compare' }).getAttribute('aria-selected')).toBe('true');
    await page.goBack();
    await expect.poll(() => page.getByRole('tab', { name: 'Summaries' }).getAttribute('aria-selected')).toBe('true');
    expect(await page.evaluate(() => location.hash)).not.toContain('panel=compare');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  test('item 9: the panel widens; the Compare table fits, shares decimals per column, reads km², never breaks codes', async () => {
    const { ctx, page, errors } = await open('#v=ELEVATION&vars=ELEVATION,AREA_TOTAL,DIST_COAST&panel=compare');
    await waitMap(page);
    await jumpTo(page, 37, 0, 5);
    const p = await mapPoint(page, 36.82, -1.29);
    await page.mouse.click(p.x, p.y);
    await expect.poll(() => page.locator('[data-testid="picked"]').textContent(), { timeout: 20_000 }).toContain('Kenya');
    await page.getByRole('button', { name: 'Find similar' }).click();
    const res = page.locator('[data-testid="compare-result"]');
    await expect.poll(() => res.locator('tbody tr').count(), { timeout: 60_000 }).toBeGreaterThan(3);
    const heads = (await res.locator('thead th .h-label').allTextContents()).join('|');
    expect(heads).toContain('km²');
    expect(heads).not.toContain('km2');
    await page.getByRole('button', { name: 'Widen panel' }).click();
    await expect.poll(async () => (await page.locator('aside.right').boundingBox())!.width).toBeGreaterThanOrEqual(600);
    const wrap = res.locator('.table-wrap');
    expect(await wrap.evaluate((w) => w.scrollWidth <= w.clientWidth + 1)).toBe(true);
    for (const c of ['ELEVATION', 'AREA_TOTAL', 'DIST_COAST', 'score']) {
      const texts = (await res.locator(`tbody td[data-col="${c}"]`).allTextContents()).filter((t) => /\d/.test(t));
      expect(texts.length).toBeGreaterThan(3);
      const decs = new Set(texts.map((t) => (t.split('.')[1] ?? '').length));
      expect(decs.size, `${c}: ${texts.slice(0, 8).join(' ')}`).toBe(1);
    }
    const style = await res.locator('td.num').first().evaluate((td) => getComputedStyle(td).fontVariantNumeric);
    expect(style).toContain('tabular-nums');
    // codes never break mid-word
    const broken = await res.locator('thead .h-code, tbody td').evaluateAll((es) => es.filter((e) => { const cs = getComputedStyle(e); return cs.overflowWrap === 'anywhere' || cs.wordBreak === 'break-all'; }).length);
    expect(broken).toBe(0);
    await shot(page, 'r2-09-compare-wide');
    await page.getByRole('button', { name: 'Narrow panel' }).click();
    await expect.poll(async () => (await page.locator('aside.right').boundingBox())!.width).toBeLessThan(600);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  test('item 10: hovering the choropleth reads the unit value drawn, as in the table', async () => {
    const { ctx, page, errors } = await open('#v=ELEVATION&iso=KEN&by=ADM1_NAME_ALT');
    const res = await summarise(page, 5);
    await waitMap(page);
    await waitChoropleth(page);
    const central = (await res.locator('tbody tr', { has: page.locator('td[data-col="ADM1_NAME_ALT"]', { hasText: /^Central$/ }) }).locator('td[data-col="ELEVATION"]').textContent())!.trim();
    const p = await mapPoint(page, 36.95, -0.45);
    await page.mouse.move(p.x, p.y);
    const info = page.locator('[data-testid="hover-info"]');
    await expect.poll(() => info.textContent(), { timeout: 20_000 }).toContain('Central');
    // the first value of the read-out is the unit's value drawn, as the table gives it
    await expect.poll(() => info.locator('dd').first().textContent(), { timeout: 20_000 }).toBe(`${central} m`);
    await shot(page, 'r2-10-choropleth-hover');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  test('item 11: a shape across borders gets a total row per shape; the chart has an indicator selector', async () => {
    const wkt = encodeURIComponent('POLYGON ((33 -2, 35 -2, 35 0.5, 33 0.5, 33 -2))');
    const { ctx, page, errors } = await open(`#v=ELEVATION&vars=ELEVATION,AREA_TOTAL&panel=areas&wkt=${wkt}`);
    await page.locator('button.item[data-code]').first().waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Summarise areas' }).click();
    const res = page.locator('[data-testid="areas-result"]');
    await expect.poll(() => res.locator('tbody tr[data-pinned]').count(), { timeout: 60_000 }).toBe(1);
    const total = res.locator('tbody tr[data-pinned]');
    expect(await total.textContent()).toMatch(/all countries/i);
    const num = (t: string | null) => Number(t!.replace(/,/g, ''));
    const per = res.locator('tbody tr:not([data-pinned])');
    expect(await per.count()).toBeGreaterThanOrEqual(2);
    const areas = (await per.locator('td[data-col="AREA_TOTAL"]').allTextContents()).map(num);
    const totalArea = num(await total.locator('td[data-col="AREA_TOTAL"]').textContent());
    expect(Math.abs(totalArea - areas.reduce((a, b) => a + b, 0)) / totalArea).toBeLessThan(0.001);
    const elevs = (await per.locator('td[data-col="ELEVATION"]').allTextContents()).map(num);
    const te = num(await total.locator('td[data-col="ELEVATION"]').textContent());
    expect(te).toBeGreaterThanOrEqual(Math.min(...elevs));
    expect(te).toBeLessThanOrEqual(Math.max(...elevs));
    // the chart: one indicator at a time, chosen in a selector
    const sel = res.getByRole('combobox', { name: 'Chart' });
    await sel.selectOption('AREA_TOTAL');
    await expect.poll(() => res.locator('.chart figcaption').textContent(), { timeout: 20_000 }).toContain('Cell area');
    await shot(page, 'r2-11-areas-total');
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
