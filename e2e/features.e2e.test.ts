/**
 * Features users of MAPPR/TABLR expect (issue 11, second list): the table builder with
 * engine totals and CSV/XLSX downloads, uploaded shapes (GeoJSON, zipped shapefile, KML),
 * place-name search, map export as PNG. Screenshots go to test-results/screenshots/.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { unzipSync, strFromU8 } from 'fflate';
import Papa from 'papaparse';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startServer, type Started } from './helpers';
import { launch, shot, waitMap } from './app-helpers';

let srv: Started;
let browser: Browser;
const OUT = 'test-results/features';

beforeAll(async () => {
  srv = await startServer();
  browser = await launch();
  mkdirSync(OUT, { recursive: true });
});
afterAll(async () => { await browser?.close(); await srv?.stop(); });

async function open(hash = '', viewport = { width: 1440, height: 900 }): Promise<{ ctx: BrowserContext; page: Page; errors: string[] }> {
  const ctx = await browser.newContext({ viewport, acceptDownloads: true });
  const page = await ctx.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(srv.url + hash);
  return { ctx, page, errors };
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
    await shot(page, 'features-table-1440');
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
    // python3 can read it when openpyxl is there (Debian python3-openpyxl)
    try { execFileSync('python3', ['-c', 'import openpyxl'], { stdio: 'ignore' }); } catch { expect(errors).toEqual([]); await ctx.close(); return; }
    const out = execFileSync('python3', ['-c', `import openpyxl,sys\nws=openpyxl.load_workbook(sys.argv[1]).worksheets[0]\nprint([c.value for c in list(ws.rows)[-1]][-1])`, join(OUT, dl.suggestedFilename())], { encoding: 'utf8' });
    expect(Number(out.trim())).toBe(mean);
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
