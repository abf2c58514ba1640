/**
 * What a MAPPR/TABLR user tripped on (issue 17, defects 1, 2, 6, 7, 8, 9, 11, 12, 13): share
 * links of built tables, names of uploaded shapes, legend and map kept consistent on a failed
 * layer switch, choropleths of summaries by country, typing right after Enter under CPU load,
 * one indicator search everywhere, one current error message, progress of long runs, interval
 * labels as the API writes them. Screenshots at 1440x900 and 390x844 go to
 * test-results/screenshots/links-uploads-*.png; axe-core runs on the panels touched.
 */
import { describe, expect, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type Started, axeViolations } from './helpers';
import { openApp, shot, waitMap, serverAndBrowser } from './app-helpers';

let srv: Started;
let browser: Browser;
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const VIEWPORTS = [['desktop', DESKTOP], ['phone', PHONE]] as const;

serverAndBrowser((s, b) => { srv = s; browser = b; });

/** Serious and critical axe violations of the page. */
const axe = (page: Page): Promise<string[]> => axeViolations(page);

async function open(hash: string, viewport: { width: number; height: number } = DESKTOP): Promise<{ ctx: BrowserContext; page: Page; errors: string[] }> {
  const phone = viewport.width < 900;
  return openApp(browser, srv.url + hash, { viewport, ...(phone ? { isMobile: true, hasTouch: true } : {}) });
}

/** Waits until the catalog is listed (the app's codes are known). */
async function ready(page: Page): Promise<void> {
  await page.locator('button.item[data-code]').first().waitFor({ timeout: 60_000, state: 'attached' });
}

/** Opens a tab of the tools panel. */
async function tab(page: Page, name: string): Promise<void> {
  await page.getByRole('tab', { name, exact: true }).click();
}

/** The location hash as parameters. */
async function hashParams(page: Page): Promise<URLSearchParams> {
  return new URLSearchParams((await page.evaluate(() => location.hash)).slice(1));
}

describe('1. a built table and the charted indicator are in the link', () => {
  for (const [name, viewport] of VIEWPORTS) {
    test(`the Table link opens the same table (${name})`, async () => {
      const { ctx, page } = await open('#v=ELEVATION&iso=KEN&panel=table', viewport);
      await ready(page);
      const panel = page.locator('#panel-table');
      await panel.getByTestId('table-value').selectOption('AREA_TOTAL');
      await panel.getByTestId('table-row').selectOption('ADM1_NAME_ALT');
      await panel.getByTestId('table-col').selectOption('ELEV_ZONE');
      await panel.getByRole('button', { name: 'Build table' }).click();
      await panel.locator('[data-testid="pivot-table"] tbody tr').nth(2).waitFor({ timeout: 90_000 });
      const caption = await panel.locator('[data-testid="pivot-table"] caption').textContent();
      const p = await hashParams(page);
      expect([p.get('tv'), p.get('tr'), p.get('tc'), p.get('iso'), p.get('run'), p.get('panel')]).toEqual(['AREA_TOTAL', 'ADM1_NAME_ALT', 'ELEV_ZONE', 'KEN', 'table', 'table']);
      const link = await page.evaluate(() => location.hash);
      await ctx.close();

      const b = await open(link, viewport);
      const panel2 = b.page.locator('#panel-table');
      await panel2.locator('[data-testid="pivot-table"] tbody tr').nth(2).waitFor({ timeout: 90_000 });
      expect(await panel2.locator('[data-testid="pivot-table"] caption').textContent()).toBe(caption);
      expect(await panel2.getByTestId('table-value').inputValue()).toBe('AREA_TOTAL');
      await shot(b.page, `links-uploads-1-table-link-${name}`);
      expect(await axe(b.page)).toEqual([]);
      await b.ctx.close();
    });
  }

  test('the summary chart\'s indicator is in the link', async () => {
    const { ctx, page } = await open('#v=ELEVATION&vars=ELEVATION,AREA_TOTAL&iso=KEN&by=ADM1_NAME_ALT&run=summary');
    const panel = page.locator('#panel-summary');
    await panel.getByTestId('summary-result').waitFor({ timeout: 90_000 });
    await panel.getByLabel('Chart').selectOption('AREA_TOTAL');
    await expect.poll(async () => (await hashParams(page)).get('y')).toBe('AREA_TOTAL');
    const link = await page.evaluate(() => location.hash);
    await ctx.close();
    const b = await open(link);
    await b.page.locator('#panel-summary [data-testid="summary-result"]').waitFor({ timeout: 90_000 });
    expect(await b.page.locator('#panel-summary').getByLabel('Chart').inputValue()).toBe('AREA_TOTAL');
    await b.ctx.close();
  });
});

/** Made-up fixture shapes around Nairobi with a name and a code per feature. */
const FIXTURE = {
  type: 'FeatureCollection',
  features: [
    ['Fixture West', 'W1', 36.6], ['Fixture Centre', 'C2', 36.8], ['Fixture East', 'E3', 37.0],
  ].map(([name, code, x]) => ({
    type: 'Feature', properties: { fid: 1, name, code },
    geometry: { type: 'Polygon', coordinates: [[[x, -1.4], [(x as number) + 0.15, -1.4], [(x as number) + 0.15, -1.2], [x, -1.2], [x, -1.4]]] },
  })),
};

describe('2. uploaded shapes keep their names', () => {
  for (const [name, viewport] of VIEWPORTS) {
    test(`rows named by the features' name property, another property chosen, names in the link (${name})`, async () => {
      const { ctx, page } = await open('#v=ELEVATION&panel=areas', viewport);
      await ready(page);
      const panel = page.locator('#panel-areas');
      await panel.locator('input[type="file"]:not([data-testid="bulk-file"])').setInputFiles({ name: 'fixture-shapes.geojson', mimeType: 'application/geo+json', buffer: Buffer.from(JSON.stringify(FIXTURE)) });
      await panel.getByTestId('upload-msg').waitFor({ timeout: 30_000 });
      await panel.getByRole('button', { name: 'Summarise areas' }).click();
      const table = panel.getByRole('table', { name: /Area summary table/ });
      await table.getByRole('cell', { name: 'Fixture East', exact: true }).first().waitFor({ timeout: 90_000 });
      for (const n of ['Fixture West', 'Fixture Centre']) expect(await table.getByRole('cell', { name: n, exact: true }).count()).toBeGreaterThan(0);
      const key = panel.getByLabel('Name the uploaded shapes by');
      expect(await key.inputValue()).toBe('name');
      expect(await key.locator('option').allTextContents()).toEqual(expect.arrayContaining(['fid', 'name', 'code']));
      await key.selectOption('code');
      await table.getByRole('cell', { name: 'C2', exact: true }).first().waitFor({ timeout: 10_000 });
      await shot(page, `links-uploads-2-upload-names-${name}`);
      expect(await axe(page)).toEqual([]);
      expect(JSON.parse((await hashParams(page)).get('fn') ?? '[]')).toEqual(['W1', 'C2', 'E3']);
      const link = await page.evaluate(() => location.hash);
      await ctx.close();
      const b = await open(link, viewport);
      await b.page.locator('#panel-areas').getByRole('table', { name: /Area summary table/ }).getByRole('cell', { name: 'E3', exact: true }).first().waitFor({ timeout: 90_000 });
      await b.ctx.close();
    });
  }
});

describe('8. typing right after Enter under CPU load', () => {
  test('6x CPU throttling: every character typed after a chip is added stays; the next Enter adds the next country', async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const { ctx, page } = await open('#v=ELEVATION');
      await ready(page);
      await waitMap(page);
      const cdp = await ctx.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
      const input = page.getByRole('combobox', { name: 'Add to Countries or regions', exact: true });
      await input.click();
      await page.keyboard.type('Kenya');
      await page.getByRole('listbox', { name: 'Countries or regions', exact: true }).getByRole('option').first().waitFor({ timeout: 30_000 });
      await page.keyboard.press('Enter');
      await page.keyboard.type('Tanzania');
      await expect.poll(() => input.inputValue(), { timeout: 30_000 }).toBe('Tanzania');
      await page.getByRole('listbox', { name: 'Countries or regions', exact: true }).getByRole('option', { name: /Tanzania/ }).first().waitFor({ timeout: 30_000 });
      await page.keyboard.press('Enter');
      const chips = page.getByRole('list', { name: 'Countries or regions: chosen' }).locator('li.chip');
      await expect.poll(() => chips.evaluateAll((els) => els.map((e) => e.getAttribute('data-value'))), { timeout: 30_000 }).toEqual(['KEN', 'TZA']);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      if (attempt === 0) await shot(page, 'links-uploads-8-chips-desktop');
      await ctx.close();
    }
  });
});

describe('8b. typing at 45 ms a key right after Enter on a busy machine (issue 23)', () => {
  test('"Kenya", Enter, "Tanzania" typed at once: the box holds "Tanzania" alone and the next Enter adds it, 3 tries', async () => {
    const { ctx, page } = await open('#v=ELEVATION');
    try {
      await ready(page);
      const input = page.getByRole('combobox', { name: 'Add to Countries or regions', exact: true });
      const chips = page.getByRole('list', { name: 'Countries or regions: chosen' }).locator('li.chip');
      for (let attempt = 0; attempt < 3; attempt++) {
        await input.click();
        await page.keyboard.type('Kenya', { delay: 45 });
        await page.keyboard.press('Enter');
        await page.keyboard.type('Tanzania', { delay: 45 });
        await expect.poll(() => input.inputValue(), { timeout: 30_000 }).toBe('Tanzania');
        await page.keyboard.press('Enter');
        await expect.poll(() => chips.evaluateAll((els) => els.map((e) => e.getAttribute('data-value'))), { timeout: 30_000 }).toEqual(['KEN', 'TZA']);
        expect(await input.inputValue()).toBe('');
        for (const n of [/^Remove .*Kenya/, /^Remove .*Tanzania/]) await page.getByRole('button', { name: n }).first().click();
        await expect.poll(() => chips.count()).toBe(0);
      }
    } finally {
      await ctx.close();
    }
  });
});

describe('9. indicator pickers search as the catalog does', () => {
  for (const [name, viewport] of VIEWPORTS) {
    test(`"distance town" finds the same indicators, in the same order, in the catalog, Summaries, Table and Compare layers (${name})`, async () => {
      const { ctx, page } = await open('#v=ELEVATION', viewport);
      await ready(page);
      if (viewport.width < 900) await page.getByRole('button', { name: 'Catalog', exact: true }).click();
      await page.getByLabel('Search indicators').fill('distance town');
      const catalogHits = page.locator('.catalog button.item[data-code]');
      await catalogHits.first().waitFor({ timeout: 10_000 });
      const codes = await catalogHits.evaluateAll((els) => els.map((e) => e.getAttribute('data-code')));
      expect(codes.length).toBeGreaterThan(0);
      if (viewport.width < 900) await page.keyboard.press('Escape');
      if (viewport.width < 900) await page.getByRole('button', { name: 'Close', exact: true }).click().catch(() => undefined);

      // Summaries: the Indicators picker lists them in the catalog's order
      const input = page.getByRole('combobox', { name: 'Add to Indicators' });
      await input.fill('distance town');
      const opts = page.getByRole('listbox', { name: 'Indicators' }).getByRole('option');
      await opts.first().waitFor({ timeout: 10_000 });
      const pick = (await opts.allTextContents()).map((t) => /\(([A-Z0-9_]+)\)\s*$/.exec(t)?.[1]);
      expect(pick).toEqual(codes.filter((c) => c !== 'ELEVATION'));
      await shot(page, `links-uploads-9-search-summary-${name}`);
      await input.fill('');

      // Table: the find box narrows the cells' list to the same hits
      await tab(page, 'Table');
      const tpanel = page.locator('#panel-table');
      await tpanel.getByTestId('table-find').fill('distance town');
      await expect.poll(() => tpanel.getByTestId('table-value').locator('option').evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value))).toEqual(codes);
      expect(await tpanel.getByTestId('table-value').inputValue()).toBe(codes[0]);
      expect(await axe(page)).toEqual([]);

      // Compare layers: the second-layer picker
      await page.getByRole('button', { name: 'Compare layers' }).click();
      const cmp = page.locator('#cmp-v2-input');
      await cmp.fill('distance town');
      const copts = page.locator('[data-testid="compare-bar"] [role="listbox"] [role="option"]');
      await copts.first().waitFor({ timeout: 10_000 });
      const cpick = (await copts.allTextContents()).map((t) => /\(([A-Z0-9_]+)\)\s*$/.exec(t)?.[1]);
      expect(cpick).toEqual(codes.filter((c) => c !== 'ELEVATION'));
      await ctx.close();
    });
  }
});

describe('13. interval labels: readable in the UI, R cut() labels in the API', () => {
  for (const [name, viewport] of VIEWPORTS) {
    test(`a summary by ELEVATION intervals shows "500-1,000 m", the API "(500,1e+03]" (R cut, dig.lab 3) (${name})`, async () => {
      const api = await fetch(`${srv.url}ocpu/library/indapi3/R/getLayer/json`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ var: 'AREA_TOTAL', iso3: 'KEN', by: 'ELEVATION' }) });
      const apiLabels = ((await api.json()) as Array<Record<string, unknown>>).map((r) => r.ELEVATION).filter((x): x is string => typeof x === 'string');
      expect(apiLabels).toContain('(500,1e+03]');
      const { ctx, page } = await open('#v=ELEVATION&vars=AREA_TOTAL&iso=KEN&by=ELEVATION&run=summary', viewport);
      const panel = page.locator('#panel-summary');
      await panel.getByTestId('summary-result').waitFor({ timeout: 90_000 });
      const table = panel.getByRole('table', { name: /Summary table/ });
      // the UI writes intervals as people read them (issue 23 item 4); R's label is the cell's tooltip
      const cell = table.getByRole('cell', { name: '500-1,000 m', exact: true });
      await cell.waitFor({ timeout: 10_000 });
      expect(await cell.getAttribute('title')).toContain('(500,1e+03]');
      expect(await table.getByRole('cell', { name: '(500,1e+03]', exact: true }).count()).toBe(0);
      for (const l of apiLabels) expect(await table.locator(`td[title^="${l} "]`).count()).toBe(1);
      expect(await panel.locator('svg').first().textContent()).toContain('500-1,000 m');
      await shot(page, `links-uploads-13-intervals-${name}`);
      await ctx.close();
    });
  }
});

describe('6. a failed layer switch keeps legend and map consistent', () => {
  for (const [name, viewport] of VIEWPORTS) {
    test(`offline, a layer never viewed: the old map keeps its own legend and a clear message says why (${name})`, async () => {
      const ctx = await browser.newContext({ viewport, serviceWorkers: 'block', ...(viewport.width < 900 ? { isMobile: true, hasTouch: true } : {}) });
      const page = await ctx.newPage();
      await page.goto(`${srv.url}#v=ELEVATION`);
      await ready(page);
      await waitMap(page);
      const title = page.locator('.overlay.bl details.legend[aria-label="Legend"] h3');
      await expect.poll(() => title.textContent()).toContain('Elevation');
      await ctx.setOffline(true);
      // switch the mapped layer through the URL, as a Back step or a link would
      await page.evaluate(() => { location.hash = '#v=DIST_COAST'; });
      const err = page.getByTestId('map-error');
      await err.waitFor({ timeout: 60_000 });
      const text = await err.textContent();
      expect(text).toContain('DIST_COAST');
      expect(text).toContain('still shows Elevation');
      expect(await title.textContent()).toContain('Elevation');
      expect(await title.textContent()).not.toContain('coast');
      // the card, the catalog's selection and the link name the layer on the map, not the one that failed (issue 23)
      await expect.poll(() => page.locator('#card-title').textContent()).toContain('Elevation');
      expect(await page.locator('#card-title').textContent()).not.toContain('coast');
      expect(await page.evaluate(() => new URLSearchParams(location.hash.slice(1)).get('v'))).toBe('ELEVATION');
      expect(await err.textContent()).toContain('DIST_COAST'); // the message stays
      await shot(page, `links-uploads-6-layer-switch-failed-${name}`);
      await ctx.close();
    });
  }
});

describe('7. summaries by country get a choropleth and a named, value-ordered chart', () => {
  for (const [name, viewport] of VIEWPORTS) {
    test(`by ISO3: country outlines coloured, bars named and largest first (${name})`, async () => {
      const api = await fetch(`${srv.url}ocpu/library/indapi3/R/getLayer/json`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ var: 'AREA_TOTAL', iso3: ['KEN', 'TZA', 'UGA'], by: 'ISO3' }) });
      const rows = (await api.json()) as Array<Record<string, unknown>>;
      const expected = rows.filter((r) => r.total !== 1).sort((a, b) => Number(b.AREA_TOTAL) - Number(a.AREA_TOTAL)).map((r) => String(r.ADM0_NAME));
      expect(expected).toHaveLength(3);
      const { ctx, page } = await open('#v=ELEVATION&vars=AREA_TOTAL&iso=KEN,TZA,UGA&by=ISO3&run=summary', viewport);
      await page.locator('#panel-summary [data-testid="summary-result"]').waitFor({ timeout: 90_000 });
      await page.waitForFunction(() => { const m = (window as any).__indapiMap; try { return !!m && m.getLayer('choropleth')?.source === 'countries' && m.getPaintProperty('choropleth', 'fill-opacity') > 0; } catch { return false; } }, undefined, { timeout: 30_000 });
      const fill = JSON.stringify(await page.evaluate(() => (window as any).__indapiMap.getPaintProperty('choropleth', 'fill-color')));
      for (const c of ['KEN', 'TZA', 'UGA']) expect(fill).toContain(`"${c}"`);
      await page.locator('details.legend[aria-label="Choropleth legend"]').waitFor({ state: 'attached' });
      const labels = page.locator('#panel-summary .chart svg .role-axis-label text');
      await expect.poll(async () => (await labels.allTextContents()).filter((t) => expected.includes(t)), { timeout: 30_000 }).toEqual(expected);
      expect((await labels.allTextContents()).some((t) => t === 'KEN')).toBe(false);
      await shot(page, `links-uploads-7-country-choropleth-${name}`);
      expect(await axe(page)).toEqual([]);
      await ctx.close();
    });
  }
});

describe('11. one current message', () => {
  for (const [name, viewport] of VIEWPORTS) {
    test(`Areas: after a run error, a WKT parse error and Summarise, only the parse error shows (${name})`, async () => {
      const { ctx, page } = await open('#v=ELEVATION&panel=areas', viewport);
      await ready(page);
      const panel = page.locator('#panel-areas');
      const wkt = panel.getByRole('textbox', { name: /WKT/ });
      await wkt.fill('POINT (-100 40)'); // outside the grid: an error of the run
      await panel.getByRole('button', { name: 'Summarise areas' }).click();
      await panel.getByTestId('areas-run-error').waitFor({ timeout: 60_000 });
      await wkt.fill('POLYGON ((36 -1.5, 37.5 -1.5');
      await panel.locator('#wkt-err.msg.error').waitFor({ timeout: 10_000 });
      await panel.getByRole('button', { name: 'Summarise areas' }).click();
      const alerts = panel.locator('[role="alert"]');
      await expect.poll(() => alerts.count()).toBe(1);
      expect(await alerts.first().getAttribute('id')).toBe('wkt-err');
      await shot(page, `links-uploads-11-wkt-one-message-${name}`);
      expect(await axe(page)).toEqual([]);
      await ctx.close();
    });
  }

  test('a bad code in a link: the banner alone, no API error worded for R', async () => {
    const { ctx, page } = await open('#v=ELEVATION&vars=NOPE_CODE&iso=KEN&run=summary');
    await page.getByRole('alert').filter({ hasText: 'NOPE_CODE' }).first().waitFor({ timeout: 60_000 });
    await page.locator('#panel-summary [data-testid="summary-result"]').waitFor({ timeout: 90_000 });
    expect(await page.locator('#panel-summary .msg.error').count()).toBe(0);
    expect(await page.locator('body').textContent()).not.toContain('describe()');
    await shot(page, 'links-uploads-11-bad-code-desktop');
    await ctx.close();
  });
});

/** Records in window.__seen whether an element matching `sel` was ever in the page (installed before the app starts). */
function watchFor(sel: string): string {
  return `(() => { window.__seen = false; const check = () => { if (document.querySelector(${JSON.stringify(sel)})) window.__seen = true; };
    new MutationObserver(check).observe(document, { childList: true, subtree: true }); })();`;
}

describe('12. progress while long layers are drawn', () => {
  for (const [name, viewport] of VIEWPORTS) {
    test(`the second layer of Compare layers shows progress until it is drawn (${name})`, async () => {
      const ctx = await browser.newContext({ viewport, ...(viewport.width < 900 ? { isMobile: true, hasTouch: true } : {}) });
      await ctx.addInitScript(watchFor('[data-testid="compare-progress"] [role="status"]'));
      const page = await ctx.newPage();
      await page.goto(`${srv.url}#v=ELEVATION&cmp=split&v2=DIST_COAST`);
      await page.getByTestId('compare-second').waitFor({ timeout: 60_000 });
      await page.waitForFunction(() => (window as any).__seen === true, undefined, { timeout: 60_000 });
      await page.getByTestId('compare-progress').waitFor({ state: 'detached', timeout: 90_000 });
      await shot(page, `links-uploads-12-compare-drawn-${name}`);
      await ctx.close();
    });
  }

  test('similar cells show progress until the map has drawn them', async () => {
    const ctx = await browser.newContext({ viewport: DESKTOP });
    await ctx.addInitScript(watchFor('[data-testid="cells-progress"] [role="status"]'));
    const page = await ctx.newPage();
    await page.goto(`${srv.url}#v=ELEVATION&vars=ELEVATION&iso=KEN&pick=36.8,-1.3&panel=compare`);
    await ready(page);
    await waitMap(page);
    const panel = page.locator('#panel-compare');
    await panel.getByText(/Reference: .*cell|Reference: .+\(/).first().waitFor({ timeout: 30_000 }).catch(() => undefined);
    await panel.getByRole('radio', { name: 'Cells' }).check();
    await panel.getByRole('button', { name: 'Find similar' }).click();
    await page.waitForFunction(() => (window as any).__seen === true, undefined, { timeout: 90_000 });
    await page.getByTestId('cells-progress').waitFor({ state: 'detached', timeout: 120_000 });
    await page.locator('.overlay.bl details.legend[aria-label="Legend"] h3', { hasText: 'Similarity' }).waitFor({ timeout: 30_000 });
    await shot(page, 'links-uploads-12-similar-cells-desktop');
    await ctx.close();
  });
});
