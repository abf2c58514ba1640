/**
 * The app against the generated 750-indicator bundle (MADE-UP values on the real grid,
 * written by `npm run bench:bundle` into bench-out/bundle750, or BUNDLE750_DIR), beside the
 * embedded 25-indicator bundle in the same run (issue 10 items 4 and 5):
 * - budgets: first load transfers at most today's first load plus the larger catalog; memory
 *   of the page and its workers under 300 MB after 20 indicators viewed (the timing budgets,
 *   first map against the 25-indicator bundle and search per keystroke, are measured by the
 *   bench, `npx tsx bench/app.ts`: a test asserts no timing);
 * - a person's session: first load, search, summary of 10 indicators by ADM1, keep one
 *   category offline, go offline, the same summary again.
 * The bundle is generated when missing (./bundle750.ts: its size and time; `npm test` makes it
 * before the e2e tier).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startServer, type Started } from './helpers';
import { launch, shot } from './app-helpers';
import { firstLoad, type FirstLoad } from './catalog-helpers';
import { scaleMetrics, type ScaleMetrics } from '../bench/app';
import { ensureBundle750 } from './bundle750';
import { isUnpublished } from '../src/core/catalog';
import { parseVi } from '../src/core/bundle';
import type { VarRecord } from '../src/core/types';

let dir: string;
let srv25: Started;
let srv750: Started;
let browser: Browser;
let recs: VarRecord[];

beforeAll(async () => {
  dir = ensureBundle750();
  recs = parseVi(readFileSync(path.join(dir, 'vi.csv'), 'utf8'));
  srv25 = await startServer({ LOG: '0' });
  srv750 = await startServer({ LOG: '0', DATA_DIR: dir });
  browser = await launch();
}, 3_600_000);
afterAll(async () => { await browser?.close(); await srv25?.stop(); await srv750?.stop(); });

/** The ADM1 key layer of the bundle. */
const adm1 = () => ['ADM1_NAME_ALT', 'ADM1_CODE_ALT'].find((c) => recs.some((r) => r.varCode === c)) ?? recs.find((r) => r.type === 'class' && /ADM1/i.test(r.varCode))?.varCode;

/** The category of the fewest bytes with at least 10 continuous indicators, and 10 of them. */
function smallCategory(): { cat: string; codes: string[] } {
  const m = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { files: Array<{ path: string; bytes: number }> };
  const size = new Map(m.files.map((f) => [f.path, f.bytes]));
  const cats = new Map<string, VarRecord[]>();
  for (const r of recs) if (size.has(`cog/${r.varCode}.tif`)) cats.set(r.cat1 || 'Other', [...(cats.get(r.cat1 || 'Other') ?? []), r]);
  const ok = [...cats].filter(([, rs]) => rs.filter((r) => r.type === 'continuous').length >= 10)
    .map(([cat, rs]) => ({ cat, rs, bytes: rs.reduce((a, r) => a + (size.get(`cog/${r.varCode}.tif`) ?? 0), 0) }))
    .sort((a, b) => a.bytes - b.bytes);
  return { cat: ok[0].cat, codes: ok[0].rs.filter((r) => r.type === 'continuous').slice(0, 10).map((r) => r.varCode) };
}

async function summarise(page: Page): Promise<number> {
  await page.getByRole('tab', { name: 'Summaries' }).click();
  await page.getByRole('button', { name: 'Summarise', exact: true }).click();
  const rows = page.locator('[data-testid="summary-result"] tbody tr');
  await expect.poll(() => rows.count(), { timeout: 240_000, interval: 1000 }).toBeGreaterThan(2);
  return rows.count();
}

describe('the app with 750 indicators', () => {
  test('has the generated bundle: 750 records, made-up values', () => {
    expect(recs.length).toBeGreaterThanOrEqual(750);
    expect(adm1()).toBeTruthy();
  });

  test('size and memory budgets against the 25-indicator bundle, in the same run (issue 10 item 5)', async () => {
    // the small bundle's first load is the reference; its search timing and memory are the
    // bench's (bench/app.ts), which this test does not assert, so they are not measured here
    const small: FirstLoad = await firstLoad(browser, srv25.url);
    const large: ScaleMetrics = await scaleMetrics(browser, srv750.url, { search: false });
    console.log(JSON.stringify({ small: { beforeMapBytes: small.beforeMapBytes, catalogBytes: small.catalogBytes, beforeMapDataRequests: small.beforeMapDataRequests }, large }));
    expect(large.records).toBeGreaterThanOrEqual(750);
    // first load, up to the first map: the app and the catalog at most today's plus the larger
    // catalog (vi.csv, manifest.json), and no more bundle files fetched than on the small bundle (their
    // bytes, like the COG ranges, are each bundle's own data). After the first map the offline copy
    // fetches the bundle's small files by design; bench/app.ts reports the whole first visit.
    // (2 KB for response headers and the other small files, which differ between the two servers and
    // bundles: encodings, ETags, lengths. It was 4 KB for a day: the helper counted series/vi.csv, the
    // national series' records the engine reads after the first map, as catalog, which only the small
    // bundle has; the catalog is now the bundle root's vi.csv and manifest.json, e2e/catalog-helpers.ts)
    expect(large.beforeMapBytes).toBeLessThanOrEqual(small.beforeMapBytes + Math.max(0, large.catalogBytes - small.catalogBytes) + 2048);
    expect(large.beforeMapDataRequests).toBeLessThanOrEqual(small.beforeMapDataRequests);
    expect(large.viewed).toBe(20);
    expect(large.pageMB).toBeLessThan(300);
  }, 900_000);

  test('first load, search, summary of 10 indicators by ADM1, keep a category offline, offline summary', async () => {
    const { cat, codes } = smallCategory();
    const by = adm1()!;
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await ctx.newPage();
    try {
      await page.goto(srv750.url);
      await page.waitForFunction(() => document.body.dataset.mapRendered === '1', undefined, { timeout: 120_000 });
      await page.waitForFunction(() => !!navigator.serviceWorker?.controller, undefined, { timeout: 60_000 }).catch(() => page.reload());
      await page.waitForFunction(() => !!navigator.serviceWorker?.controller, undefined, { timeout: 60_000 });
      const listed = recs.filter((r) => !isUnpublished(r.published)).length; // helper layers are not listed
      expect(await page.locator('#catalog-count').textContent()).toBe(`${listed} of ${listed} indicators`);
      // search: a word of the made-up labels and a code
      const search = page.getByLabel('Search indicators');
      await search.fill(codes[0]);
      await expect.poll(() => page.locator('.catalog [role="option"]').first().getAttribute('data-code')).toBe(codes[0]);
      await search.fill('');
      // summary of 10 indicators by ADM1 over a country
      await page.evaluate(([v, by]) => { location.hash = `#v=${v.split(',')[0]}&vars=${v}&iso=KEN&by=${by}`; }, [codes.join(','), by]);
      const n = await summarise(page);
      expect(n).toBeGreaterThan(5);
      const headers = await page.locator('[data-testid="summary-result"] thead th').evaluateAll((ths) => ths.map((t) => (t as HTMLElement).dataset.col));
      for (const c of codes) expect(headers).toContain(c);
      await shot(page, 'scale750-summary');
      // keep the category offline (storage dialog)
      await page.getByTestId('storage-open').click();
      await page.getByTestId('keep-category').selectOption(cat);
      await page.getByRole('button', { name: /^Keep category offline/ }).click();
      await page.locator('[data-testid="pin-progress"][data-complete="1"]').waitFor({ timeout: 600_000 });
      await page.getByRole('button', { name: 'Close' }).click();
      // offline: the same summary again
      await ctx.setOffline(true);
      await page.reload();
      await page.locator('.catalog [data-code]').first().waitFor({ timeout: 60_000 });
      const n2 = await summarise(page);
      expect(n2).toBe(n);
      await shot(page, 'scale750-offline-summary');
    } finally {
      await ctx.close();
    }
  }, 1_200_000);
});
