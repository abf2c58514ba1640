/**
 * Accessibility: axe-core (injected as axe.min.js) on every panel at 1440x900 and 390x844,
 * no serious or critical violations; a screenshot of each panel at both sizes goes to
 * test-results/screenshots/.
 */
import { expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { type Started, axeViolations, injectAxe } from './helpers';
import { shot, still, waitMap, serverAndBrowser } from './app-helpers';

let srv: Started;
let browser: Browser;

serverAndBrowser((s, b) => { srv = s; browser = b; });

/** Serious and critical axe violations of the page, as "rule: target" lines. */
const axe = (page: Page): Promise<string[]> => axeViolations(page);

const PANELS: Array<[string, string]> = [['summary', 'Summaries'], ['areas', 'Areas'], ['compare', 'Compare'], ['download', 'Download'], ['api', 'API']];

for (const [name, viewport] of [['desktop', { width: 1440, height: 900 }], ['phone', { width: 390, height: 844 }]] as const) {
  test(`axe: no serious or critical violations on any panel (${name} ${viewport.width}x${viewport.height})`, async () => {
    const ctx = await browser.newContext({ viewport, ...(name === 'phone' ? { isMobile: true, hasTouch: true } : {}) });
    const page = await ctx.newPage();
    await page.goto(`${srv.url}#v=ELEVATION&iso=KEN&by=ADM1_NAME_ALT`);
    await page.locator('button.item[data-code="ELEVATION"]').waitFor({ state: 'attached', timeout: 30_000 });
    await waitMap(page);
    await page.getByRole('button', { name: 'Summarise', exact: true }).click();
    await page.locator('[data-testid="summary-result"] .chart svg').first().waitFor({ timeout: 60_000 });
    const found: Record<string, string[]> = {};
    // every tab of the tool panel (others may add panels)
    const tabs = await page.getByRole('tab').evaluateAll((ts) => ts.map((t) => [t.getAttribute('aria-controls')!.replace(/^panel-/, ''), t.textContent ?? ''] as [string, string]));
    expect(tabs.map((t) => t[0])).toEqual(expect.arrayContaining(PANELS.map((p) => p[0])));
    for (const [id, label] of tabs) {
      await page.getByRole('tab', { name: label, exact: true }).click();
      await page.locator(`#panel-${id}`).waitFor({ state: 'visible' });
      await still(page);
      found[id] = await axe(page);
      await shot(page, `a11y-${name}-${id}`);
    }
    expect(found).toEqual(Object.fromEntries(tabs.map(([id]) => [id, []])));
    await ctx.close();
  });
}

test('phone 390x844, a catchment shown: no heading-order issue (any impact), and the band table scrolled into view keeps its header below the sticky tabs (issue 23)', async () => {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  try {
    const page = await ctx.newPage();
    await page.goto(`${srv.url}#v=ELEVATION&panel=catchment&pick=36.81667%2C-1.28333&cm=0%2C120%2C240%2C480`);
    await page.locator('[data-testid="catchment-result"] table tbody tr').first().waitFor({ timeout: 120_000 });
    await still(page);
    await injectAxe(page);
    const order = await page.evaluate(async () => ((await (window as any).axe.run(document, { runOnly: ['heading-order'] })).violations as Array<{ nodes: Array<{ html: string }> }>).flatMap((v) => v.nodes.map((n) => n.html)));
    expect(order).toEqual([]);
    // as keyboard focus or a link to the result would scroll it
    await page.locator('[data-testid="catchment-result"] .table-wrap').evaluate((e) => e.scrollIntoView({ block: 'start' }));
    await still(page);
    const [thTop, tabsBottom] = await page.evaluate(() => [document.querySelector('[data-testid="catchment-result"] thead th')!.getBoundingClientRect().top, document.querySelector('.tabs-bar')!.getBoundingClientRect().bottom]);
    expect(thTop).toBeGreaterThanOrEqual(tabsBottom);
    await shot(page, 'a11y-phone-catchment-table');
  } finally {
    await ctx.close();
  }
});
