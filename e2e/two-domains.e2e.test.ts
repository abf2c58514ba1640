/**
 * Summaries by two domains answer the question asked (issue 23 item 4): Cell area in Ethiopia
 * by ADM1_NAME_ALT and ELEVATION with breaks 0, 1500, 6000: one bar per province and interval
 * (Somali's bar above 1,500 m is its area above 1,500 m, as the API gives), intervals written as
 * people read them ("up to 1,500 m", "1,500-6,000 m") with R's cut() labels in the tooltips (the
 * API keeps them), each unit's share of its total as a toggle, and the map one interval at a time.
 */
import { describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { type Started } from './helpers';
import { mapPoint, openApp, serverAndBrowser, shot, waitChoropleth } from './app-helpers';
import { decodePng } from './png';

let srv: Started;
let browser: Browser;
serverAndBrowser((s, b) => { srv = s; browser = b; });
const LINK = '#v=ELEVATION&vars=AREA_TOTAL&iso=ETH&by=ADM1_NAME_ALT,ELEVATION&brk.ELEVATION=0,1500,6000&run=summary';

describe('Summaries by two domains', () => {
  test('ETH cell area by province x ELEVATION intervals: grouped bars, readable intervals, shares, one interval on the map', async () => {
    const api = await fetch(`${srv.url}ocpu/library/indapi3/R/getLayer/json`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ var: 'AREA_TOTAL', iso3: 'ETH', by: { ADM1_NAME_ALT: ['Somali'], ELEVATION: [0, 1500, 6000] } }) });
    const rows = (await api.json()) as Array<Record<string, unknown>>;
    const somaliHigh = rows.find((r) => r.ADM1_NAME_ALT === 'Somali' && r.ELEVATION === '(1.5e+03,6e+03]')!.AREA_TOTAL as number;
    expect(rows.some((r) => r.ELEVATION === '(0,1.5e+03]')).toBe(true); // the API keeps R's labels
    const { ctx, page, errors } = await openApp(browser, srv.url + LINK, { viewport: { width: 1440, height: 900 } });
    const result = page.getByTestId('summary-result');
    await result.waitFor({ timeout: 90_000 });
    const table = page.getByRole('table', { name: /Summary table/ });
    const cell = table.getByRole('cell', { name: '1,500-6,000 m', exact: true }).first();
    await cell.waitFor();
    expect(await cell.getAttribute('title')).toContain('(1.5e+03,6e+03]');
    expect(await table.getByRole('cell', { name: 'up to 1,500 m', exact: true }).count()).toBeGreaterThan(5);
    expect(await table.getByRole('cell', { name: '(0,1.5e+03]', exact: true }).count()).toBe(0);
    // one bar per province and interval; Somali's bar above 1,500 m is the API's figure
    const bars = page.locator('[data-testid="summary-result"] figure.chart path[aria-label]');
    await expect.poll(() => bars.count(), { timeout: 30_000 }).toBeGreaterThan(11);
    const labels = await bars.evaluateAll((ps) => ps.map((p) => p.getAttribute('aria-label') ?? ''));
    const somali = labels.filter((l) => /Somali/.test(l));
    expect(somali).toHaveLength(2);
    const high = somali.find((l) => l.includes('1,500-6,000 m'))!;
    expect(Number(/Cell area \(km²\): ([\d.]+)k/.exec(high)![1]) * 1000).toBeCloseTo(somaliHigh, -1);
    expect(await page.locator('[data-testid="summary-result"] figure.chart svg').textContent()).toContain('up to 1,500 m');
    // the map: one interval at a time, named in the legend
    await waitChoropleth(page);
    const legend = page.locator('details.legend h3').filter({ hasText: 'by province' });
    await expect.poll(() => legend.textContent()).toContain('up to 1,500 m');
    await page.getByTestId('summary-map-slice').selectOption('(1.5e+03,6e+03]');
    await expect.poll(() => legend.textContent()).toContain('1,500-6,000 m');
    // only that interval's cells are painted, in one red over the units, the others transparent (said in the legend)
    const choroLegend = page.locator('details.legend[aria-label="Choropleth legend"] li');
    await expect.poll(() => choroLegend.allTextContents()).toContain('the cells 1,500-6,000 m (only these are in it)');
    await expect.poll(() => page.evaluate(() => { const ids = (window as any).__indapiMap.getStyle().layers.map((l: { id: string }) => l.id); return ids.indexOf('raster') > ids.indexOf('choropleth'); })).toBe(true);
    await page.evaluate(() => new Promise<void>((res) => { const m = (window as any).__indapiMap; m.once('idle', () => res()); m.jumpTo({ center: [40, 8.5], zoom: 5 }); }));
    // red pixels of a 15 x 15 px box around a place (place names and dots are drawn over the cells)
    const redAround = async (lon: number, lat: number) => {
      const p = await mapPoint(page, lon, lat);
      const img = decodePng(await page.screenshot());
      let n = 0;
      for (let dy = -7; dy <= 7; dy++) for (let dx = -7; dx <= 7; dx++) {
        const k = ((Math.round(p.y) + dy) * img.width + Math.round(p.x) + dx) * 4;
        if (img.data[k] > 150 && img.data[k + 1] < 90 && img.data[k + 2] < 90) n++;
      }
      return n;
    };
    // the highlands west of Addis Ababa (above 2,000 m) red; Gode in the Somali lowlands (about 300 m) none
    await expect.poll(() => redAround(38.2, 9.2), { timeout: 30_000 }).toBeGreaterThan(100);
    expect(await redAround(43.56, 5.95)).toBe(0);
    // outside the summary's units none: the Eritrean highlands south-west of Asmara (70 of the 81 cells
    // within 4 cells are 1,500-6,000 m in cog/ELEVATION.tif, all ERI in cog/ISO3.tif, the nearest ETH cell
    // 6 cells away: gdal_translate -of XYZ), on the map's canvas, not under a box
    const eri = await mapPoint(page, 38.625, 15.125);
    expect(await page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.tagName, [eri.x, eri.y])).toBe('CANVAS');
    expect(await redAround(38.625, 15.125)).toBe(0);
    await shot(page, 'two-domains-interval-cells-1440');
    // shares of each unit's total: a column, the bars in %, the map in %; a unit's shares add to 100
    await page.getByTestId('summary-share').check();
    await expect.poll(() => legend.textContent()).toContain('Share (%)');
    const shareCol = table.locator('td[data-col="AREA_TOTAL_pct_of_unit"]');
    await expect.poll(() => shareCol.count()).toBeGreaterThan(20);
    const somaliShares = await table.locator('tr', { hasText: 'Somali' }).locator('td[data-col="AREA_TOTAL_pct_of_unit"]').allTextContents();
    expect(somaliShares.map(Number).reduce((a, b) => a + b, 0)).toBeCloseTo(100, 0);
    await expect.poll(() => page.locator('[data-testid="summary-result"] figure.chart figcaption').first().textContent()).toContain("% of the unit's total");
    await shot(page, 'two-domains-eth-elevation');
    // by country (ISO3 x the same intervals, Ethiopia and Kenya; same page, one more run): the interval's
    // cells are painted inside the summary's countries (the highlands west of Addis Ababa: 25 of 25 cells
    // ETH, value 15 in cog/ISO3.tif, above 1,500 m) and none in Eritrea (value 14) outside it
    await page.getByTestId('summary-share').uncheck();
    await page.evaluate(() => { location.hash = '#v=ELEVATION&vars=AREA_TOTAL&iso=ETH,KEN&by=ISO3,ELEVATION&brk.ELEVATION=0,1500,6000&run=summary'; });
    const run = page.locator('#panel-summary').getByRole('button', { name: 'Summarise', exact: true });
    const runsBefore = Number(await run.getAttribute('data-runs'));
    await page.locator('#panel-summary').getByRole('button', { name: '+ by province (ADM1)' }).waitFor(); // the link's domains are the panel's (ADM1_NAME_ALT left)
    await run.click();
    await expect.poll(() => run.getAttribute('data-runs'), { timeout: 60_000 }).toBe(String(runsBefore + 1));
    const byCountry = page.locator('details.legend h3').filter({ hasText: 'by country' });
    await byCountry.waitFor({ timeout: 90_000 });
    await page.getByTestId('summary-map-slice').selectOption('(1.5e+03,6e+03]');
    await expect.poll(() => byCountry.textContent()).toContain('1,500-6,000 m');
    await expect.poll(() => choroLegend.allTextContents()).toContain('the cells 1,500-6,000 m (only these are in it)');
    await page.evaluate(() => new Promise<void>((res) => { const m = (window as any).__indapiMap; m.once('idle', () => res()); m.jumpTo({ center: [40, 8.5], zoom: 5 }); }));
    await expect.poll(() => redAround(38.2, 9.2), { timeout: 30_000 }).toBeGreaterThan(100);
    expect(await redAround(38.625, 15.125)).toBe(0);
    await shot(page, 'two-domains-by-country-interval-cells-1440');
    expect(errors).toEqual([]);
    await ctx.close();
  }, 180_000);

  test('Table builder, ETH cell area by ADM1 x ELEVATION intervals: readable headers; row, column and total percentages with consistent totals', async () => {
    const { ctx, page, errors } = await openApp(browser, `${srv.url}#v=AREA_TOTAL&iso=ETH&panel=table&tv=AREA_TOTAL&tr=ADM1_NAME_ALT&tc=ELEVATION&run=table`, { viewport: { width: 1440, height: 900 } });
    const table = page.getByTestId('pivot-table');
    await table.locator('tr.total-row').first().waitFor({ timeout: 120_000 });
    // column headers: the catalog's intervals as people read them, R's label as the tooltip
    const heads = await table.locator('thead tr').nth(1).locator('th').evaluateAll((ths) => ths.map((t) => [t.textContent, t.getAttribute('title')]));
    expect(heads).toContainEqual(['1,500-2,000 m', '(1.5e+03,2e+03]']);
    const nums = (sel: string) => table.locator(sel).evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.textContent === '—' ? 0 : Number(td.textContent!.replace(/[ %,]/g, ''))))));
    const check = async (view: string, want: (rows: number[][], total: number[]) => void) => {
      await page.getByTestId('table-view').getByLabel(view, { exact: true }).check();
      await expect.poll(() => table.locator('caption').textContent()).toContain('%');
      want(await nums('tbody tr:not(.total-row)'), (await nums('tbody tr.total-row'))[0]);
    };
    const add = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    await check('Row %', (rows, total) => {
      for (const r of rows) { expect(add(r.slice(0, -1))).toBeCloseTo(100, 0); expect(r[r.length - 1]).toBe(100); }
      expect(add(total.slice(0, -1))).toBeCloseTo(100, 0);
    });
    await check('Column %', (rows, total) => {
      for (let j = 0; j < total.length - 1; j++) if (total[j]) expect(add(rows.map((r) => r[j]))).toBeCloseTo(100, 0);
      expect(add(rows.map((r) => r[r.length - 1]))).toBeCloseTo(100, 0);
    });
    await check('% of total', (rows, total) => {
      expect(add(rows.flatMap((r) => r.slice(0, -1)))).toBeCloseTo(100, 0);
      expect(total[total.length - 1]).toBe(100);
    });
    await shot(page, 'two-domains-table-percent');
    expect(errors).toEqual([]);
    await ctx.close();
  }, 180_000);
});
