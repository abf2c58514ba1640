/**
 * The catalog browser in the app on the embedded bundle: everyday words (issue 11 item 8),
 * keyboard use of the virtual tree and results list, ARIA positions, filters with counts,
 * and the card's "All fields".
 */
import { describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { type Started, axeViolations } from './helpers';
import { shot, serverAndBrowser } from './app-helpers';


/** Serious and critical axe violations inside the catalog, as "rule: target" lines. */
const axeCatalog = (page: Page): Promise<string[]> => axeViolations(page, '.catalog');

let srv: Started;
let browser: Browser;

serverAndBrowser((s, b) => { srv = s; browser = b; }, { LOG: '0' });

async function open(hash = '#v=ELEVATION'): Promise<Page> {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, serviceWorkers: 'block' });
  const page = await ctx.newPage();
  await page.goto(srv.url + hash);
  await page.locator('.catalog [data-code="ELEVATION"]').waitFor({ timeout: 30_000 });
  return page;
}

const resultCodes = (page: Page) => page.locator('.catalog [role="listbox"] [role="option"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-code')));

describe('catalog search and browser', () => {
  test('"town" and "city" find the places layers, "travel time" the distance layers (issue 11 item 8)', async () => {
    const page = await open();
    const search = page.getByLabel('Search indicators');
    for (const q of ['town', 'city']) {
      await search.fill(q);
      await expect.poll(() => resultCodes(page)).toEqual(expect.arrayContaining(['DIST_PLACE20K', 'DIST_PLACE50K', 'DIST_PLACE100K', 'DIST_PLACE500K', 'PLACES_N', 'PLACES_POP']));
      expect(await resultCodes(page)).not.toContain('ELEVATION');
    }
    // a hit found only through a synonym says so
    await search.fill('town');
    await expect.poll(() => page.locator('.catalog [data-code="PLACES_N"]').textContent()).toContain('related word');
    await search.fill('travel time');
    await expect.poll(() => resultCodes(page)).toEqual(expect.arrayContaining(['DIST_COAST', 'DIST_PLACE20K', 'DIST_PLACE50K', 'DIST_PLACE100K', 'DIST_PLACE500K']));
    expect(await resultCodes(page)).not.toContain('SLOPE');
    await shot(page, 'catalog-search-travel-time');
    await page.context().close();
  });

  test('keyboard: from the search box into the results, Home/End, Enter maps; positions for screen readers', async () => {
    const page = await open();
    const search = page.getByLabel('Search indicators');
    await search.fill('dist');
    const list = page.getByRole('listbox', { name: 'Search results' });
    await expect.poll(() => list.getByRole('option').count()).toBeGreaterThan(3);
    const n = await list.getByRole('option').count();
    const first = list.getByRole('option').first();
    expect(await first.getAttribute('aria-posinset')).toBe('1');
    expect(await first.getAttribute('aria-setsize')).toBe(String(n));
    await search.press('ArrowDown');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('listbox');
    const activeCode = () => page.evaluate(() => { const l = document.activeElement!; return document.getElementById(l.getAttribute('aria-activedescendant')!)?.getAttribute('data-code'); });
    const firstCode = await first.getAttribute('data-code');
    expect(await activeCode()).toBe(firstCode);
    await page.keyboard.press('End');
    const last = await activeCode();
    expect(last).toBe(await list.getByRole('option').last().getAttribute('data-code'));
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowDown');
    const second = await activeCode();
    expect(second).not.toBe(firstCode);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => location.hash)).toContain(`v=${second}`);
    await expect.poll(() => page.locator(`.catalog [data-code="${second}"]`).getAttribute('aria-selected')).toBe('true');
    // Enter in the search box maps the top hit
    await search.fill('coast');
    await search.press('Enter');
    await expect.poll(() => page.evaluate(() => location.hash)).toContain('v=DIST_COAST');
    await page.context().close();
  });

  test('the tree: levels, positions, expand and collapse by keyboard', async () => {
    const page = await open('#v=SLOPE');
    const tree = page.getByRole('tree', { name: 'Indicator categories' });
    const cats = tree.locator('[role="treeitem"][aria-level="1"]');
    const nCats = await cats.count();
    expect(nCats).toBeGreaterThan(3);
    expect(await cats.first().getAttribute('aria-setsize')).toBe(String(nCats));
    // the branch of the mapped indicator is open and it is selected
    const slope = tree.locator('[data-code="SLOPE"]');
    expect(await slope.getAttribute('aria-selected')).toBe('true');
    expect(await slope.getAttribute('aria-level')).toBe('3');
    const terrain = tree.locator('[role="treeitem"][aria-level="2"]', { hasText: 'Terrain' });
    expect(await terrain.getAttribute('aria-expanded')).toBe('true');
    // keyboard: focus the tree, go to the first category; ArrowRight opens a closed one, ArrowLeft closes it
    await tree.focus();
    await page.keyboard.press('Home');
    const act = () => page.evaluate(() => document.getElementById(document.activeElement!.getAttribute('aria-activedescendant')!));
    expect(await act().then(() => page.evaluate(() => document.getElementById(document.activeElement!.getAttribute('aria-activedescendant')!)!.getAttribute('aria-posinset')))).toBe('1');
    const closed = tree.locator('[role="treeitem"][aria-level="1"][aria-expanded="false"]').first();
    const name = (await closed.locator('.lbl').textContent())!;
    const pos = Number(await closed.getAttribute('aria-posinset'));
    // walk down to it
    for (let i = 0; i < 200; i++) {
      const cur = await page.evaluate(() => { const el = document.getElementById(document.activeElement!.getAttribute('aria-activedescendant')!)!; return `${el.getAttribute('aria-level')}:${el.getAttribute('aria-posinset')}`; });
      if (cur === `1:${pos}`) break;
      await page.keyboard.press('ArrowDown');
    }
    await page.keyboard.press('ArrowRight');
    const branch = tree.locator('[role="treeitem"][aria-level="1"]', { hasText: name });
    await expect.poll(() => branch.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => branch.getAttribute('aria-expanded')).toBe('false');
    expect(await axeCatalog(page)).toEqual([]); // the tree
    await page.context().close();
  });

  test('filters by type and category combine with the search, with counts', async () => {
    const page = await open();
    // the bundle's indicator count (it grows as layers are added): "N of N indicators" before filtering
    await expect.poll(() => page.locator('#catalog-count').textContent()).toMatch(/^(\d+) of \1 indicators$/);
    const all = Number((await page.locator('#catalog-count').textContent())!.split(' ')[0]);
    await page.locator('.catalog-filters summary').click();
    const typeClass = page.locator('.facet-type label', { hasText: 'class' });
    expect(await typeClass.locator('.n').textContent()).toBe('8');
    await typeClass.locator('input').check();
    await expect.poll(() => page.locator('#catalog-count').textContent()).toBe(`8 of ${all} indicators`);
    const codes = await resultCodes(page);
    expect(codes).toEqual(expect.arrayContaining(['ELEV_ZONE', 'ISO3', 'ADM1_NAME_ALT']));
    expect(codes).not.toContain('ELEVATION');
    // combined with a search; the category counts follow
    await page.getByLabel('Search indicators').fill('country');
    await expect.poll(() => resultCodes(page)).toEqual(expect.arrayContaining(['ISO3', 'ADM0_NAME']));
    expect(await resultCodes(page)).not.toContain('PN14_POP'); // continuous: filtered out
    const admin = page.locator('.facet-category label', { hasText: 'Administrative' });
    expect(Number(await admin.locator('.n').textContent())).toBeGreaterThan(1);
    expect(await axeCatalog(page)).toEqual([]); // results list, filters open, a chip
    await page.getByRole('button', { name: 'Remove filter Type: class' }).click();
    await expect.poll(() => resultCodes(page)).toContain('PN14_POP');
    await shot(page, 'catalog-filters');
    await page.context().close();
  });

  test('the card shows all fields of the record with field names and links', async () => {
    const page = await open('#v=ELEVATION');
    const all = page.locator('article.card details.allfields');
    await all.locator('summary').click();
    const text = await all.textContent();
    for (const f of ['varCode', 'varDesc', 'classBreaks', 'citation', 'noData']) expect(text).toContain(f);
    expect(await all.locator('a[href="https://doi.org/10.7289/V5D798BF"]').count()).toBeGreaterThan(0);
    await page.context().close();
  });
});
