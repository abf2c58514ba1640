/**
 * Table builder totals over several countries (issue 11, left out in the last round): the
 * "All selected" column/row/block holds the indicator's formula over every selected cell,
 * checked against the HTTP API (getLayer/json with the same selection: per country with
 * `iso3`, over the union with `ids`, and the grand total also with a class filter on ISO3),
 * read back from the CSV download; the histogram in km² (default) or cells. Screenshots at
 * 1440x900 and 390x844 go to test-results/screenshots/.
 */
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type Started, axeViolations } from './helpers';
import { shot, openApp, serverAndBrowser } from './app-helpers';

/** Serious and critical axe-core violations of the page, as "rule: target" lines. */
const axe = (page: Page): Promise<string[]> => axeViolations(page);

let srv: Started;
let browser: Browser;
const SEL = ['KEN', 'ETH'];

serverAndBrowser((s, b) => { srv = s; browser = b; });

async function open(hash: string, viewport = { width: 1440, height: 900 }): Promise<{ ctx: BrowserContext; page: Page; errors: string[] }> {
  return openApp(browser, srv.url + hash, { viewport, acceptDownloads: true });
}

type ApiRow = Record<string, unknown>;
async function api(args: object): Promise<ApiRow[]> {
  const r = await fetch(`${srv.url}ocpu/library/indapi3/R/getLayer/json`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(args) });
  expect(r.ok, `${r.status} ${r.ok ? "" : await r.clone().text()}`).toBe(true);
  return await r.json() as ApiRow[];
}
/** CELL5M ids of the selection, from the API's per-cell rows. */
async function selectionIds(): Promise<number[]> {
  return (await api({ var: ['AREA_TOTAL'], iso3: SEL, collapse: false })).map((r) => Number(r.CELL5M));
}

async function build(page: Page, value: string, row: string, col: string) {
  const panel = page.locator('#panel-table');
  await page.locator('button.item[data-code]').first().waitFor({ timeout: 30_000, state: 'attached' });
  await panel.getByTestId('table-value').selectOption(value);
  await panel.getByTestId('table-row').selectOption(row);
  await panel.getByTestId('table-col').selectOption(col);
  await panel.getByRole('button', { name: 'Build table' }).click();
  await panel.locator('[data-testid="pivot-table"] tr.total-row').first().waitFor({ timeout: 120_000 });
  return panel;
}

/** The pivot as text: header keys and, per tbody, its rows as [label, ...cells]. */
async function readPivot(page: Page) {
  return page.locator('[data-testid="pivot-table"]').evaluate((t) => ({
    head: [...t.querySelectorAll('thead tr:last-child th')].map((x) => x.textContent ?? ''),
    total: t.querySelector('thead tr:first-child th:last-child')?.textContent ?? '',
    blocks: [...t.querySelectorAll('tbody')].map((b) => ({
      iso3: b.getAttribute('data-iso3'), all: b.getAttribute('data-all') === '1',
      rows: [...b.querySelectorAll('tr:not(.block-head)')].map((r) => [...r.children].map((c) => c.textContent ?? '')),
    })),
  }));
}
/** A displayed number ("1,143", "—" for missing). */
const num = (s: string) => (s === '—' ? null : Number(s.replace(/,/g, '')));
/** The API row of an ELEV_ZONE group ("NA": R's NA group, key null), never the overall row. */
const zoneRow = (rows: ApiRow[], z: string) => rows.find((u) => u.total !== 1 && (u.ELEV_ZONE === null ? 'NA' : u.ELEV_ZONE) === z);
const val = (r: ApiRow | undefined, k: string) => (r && typeof r[k] === 'number' ? r[k] as number : null);

async function downloadCsv(page: Page): Promise<string[][]> {
  const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.locator('#panel-table').getByRole('button', { name: 'Download CSV' }).click()]);
  return Papa.parse<string[]>(readFileSync((await dl.path())!, 'utf8').trim(), { skipEmptyLines: true }).data;
}

describe('table builder totals over several countries', () => {
  test('ELEVATION (weighted mean) by ELEV_ZONE x country, Kenya and Ethiopia: the "All selected" column and the totals are the API\'s; CSV; km² histogram', async () => {
    const { ctx, page, errors } = await open(`#v=ELEVATION&iso=${SEL.join(',')}&panel=table`);
    await build(page, 'ELEVATION', 'ELEV_ZONE', 'ISO3');
    const p = await readPivot(page);
    expect(p.total).toBe('All selected');
    expect(p.blocks).toHaveLength(1);
    const countries = p.head;
    expect([...countries].sort()).toEqual([...SEL].sort());
    const rows = p.blocks[0].rows;
    const totalRow = rows.at(-1)!;
    expect(totalRow[0]).toBe('Total');
    // per-country totals: getLayer with iso3 = both countries (one row per country)
    const per = await api({ var: ['ELEVATION'], iso3: SEL });
    countries.forEach((c, i) => expect(num(totalRow[1 + i])).toBe(val(per.find((r) => r.ISO3 === c), 'ELEVATION')));
    // the "All selected" column: getLayer over the union of the cells (ids), by ELEV_ZONE
    const ids = await selectionIds();
    const union = await api({ var: ['ELEVATION'], ids, by: ['ELEV_ZONE'] });
    expect(num(totalRow.at(-1)!)).toBe(val(union[0], 'ELEVATION'));
    for (const r of rows.slice(0, -1)) expect([r[0], num(r.at(-1)!)]).toEqual([r[0], val(zoneRow(union, r[0]), 'ELEVATION')]);
    // the grand total by another route: a class filter on ISO3 (the overall row pools the kept cells)
    const filtered = await api({ var: ['ELEVATION'], by: { ISO3: SEL } });
    expect(num(totalRow.at(-1)!)).toBe(val(filtered.find((r) => r.total === 1), 'ELEVATION'));
    // a weighted mean over both is not the mean of the two countries' means
    const means = per.map((r) => r.ELEVATION as number);
    expect(Math.abs(num(totalRow.at(-1)!)! - (means[0] + means[1]) / 2)).toBeGreaterThan(50);
    // the CSV carries the same totals, labelled
    const g = await downloadCsv(page);
    expect(g[0][0]).toBe('ELEV_ZONE');
    expect(g[0].at(-1)).toBe('All selected');
    expect(g.at(-1)![0]).toBe('Total');
    expect(Number(g.at(-1)!.at(-1))).toBe(val(union[0], 'ELEVATION'));
    for (const r of g.slice(1, -1)) expect(r.at(-1) === '' ? null : Number(r.at(-1))).toBe(val(zoneRow(union, r[0]), 'ELEVATION'));
    await page.locator('[data-testid="table-result"]').scrollIntoViewIfNeeded();
    await shot(page, 'table-totals-country-1440');

    // the histogram: km² by default, cells on the toggle; the caption says which
    const panel = page.locator('#panel-table');
    await expect.poll(() => panel.getByRole('radio', { name: 'Area (km²)' }).isChecked()).toBe(true);
    await panel.getByRole('button', { name: 'Show distribution of ELEVATION' }).click();
    const hist = panel.locator('[data-testid="hist-result"]');
    const svg = hist.locator('.chart svg').first();
    await svg.waitFor({ timeout: 60_000 });
    await expect.poll(() => svg.locator('.mark-rect path').count(), { timeout: 30_000 }).toBe(10);
    await expect.poll(() => hist.textContent()).toMatch(/area per interval \(km²/);
    expect(await svg.textContent()).toContain('Area (km²)');
    await hist.scrollIntoViewIfNeeded();
    await shot(page, 'table-totals-hist-km2-1440');
    await panel.getByRole('radio', { name: 'Cells' }).check();
    await expect.poll(() => hist.textContent()).toMatch(/cells per interval/);
    await expect.poll(async () => (await hist.locator('.chart svg').first().textContent()) ?? '').toContain('Cells');
    expect(await axe(page)).toEqual([]);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  test('PN14_LIFEEXP (population-weighted ratio) by ADM1 x ELEV_ZONE: a block per country and the "All selected" block, as the API; CSV; phone layout', async () => {
    for (const viewport of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
      const { ctx, page, errors } = await open(`#v=PN14_LIFEEXP&iso=${SEL.join(',')}&panel=table`, viewport);
      await build(page, 'PN14_LIFEEXP', 'ADM1_NAME_ALT', 'ELEV_ZONE');
      const p = await readPivot(page);
      const zones = p.head;
      expect(p.blocks.map((b) => b.all ? 'all' : b.iso3).sort()).toEqual(['ETH', 'KEN', 'all']);
      const per = await api({ var: ['PN14_LIFEEXP'], iso3: SEL });
      for (const b of p.blocks.filter((x) => !x.all)) {
        const t = b.rows.at(-1)!;
        expect(num(t.at(-1)!)).toBe(val(per.find((r) => r.ISO3 === b.iso3), 'PN14_LIFEEXP'));
      }
      const all = p.blocks.find((b) => b.all)!;
      expect(all.rows.map((r) => r[0])).toEqual(['All selected total']); // the totals row only: units repeat the countries' rows
      const t = all.rows.at(-1)!;
      const union = await api({ var: ['PN14_LIFEEXP'], ids: await selectionIds(), by: ['ELEV_ZONE'] });
      expect(num(t.at(-1)!)).toBe(val(union[0], 'PN14_LIFEEXP'));
      zones.forEach((z, i) => expect([z, num(t[1 + i])]).toEqual([z, val(zoneRow(union, z), 'PN14_LIFEEXP')]));
      const g = await downloadCsv(page);
      expect(g[0].slice(0, 2)).toEqual(['ISO3', 'ADM1_NAME_ALT']);
      const last = g.at(-1)!;
      expect(last.slice(0, 2)).toEqual(['All selected', 'All selected total']);
      expect(Number(last.at(-1))).toBe(val(union[0], 'PN14_LIFEEXP'));
      expect(g.some((r) => r[1] === 'Kenya total' && Number(r.at(-1)) === val(per.find((x) => x.ISO3 === 'KEN'), 'PN14_LIFEEXP'))).toBe(true);
      await page.locator('[data-testid="pivot-table"] tbody[data-all="1"]').scrollIntoViewIfNeeded();
      await shot(page, `table-totals-blocks-${viewport.width}`);
      expect(await axe(page)).toEqual([]);
      expect(errors).toEqual([]);
      await ctx.close();
    }
  });
});
