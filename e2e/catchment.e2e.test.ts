/**
 * The Catchment tool (issues 19, 24) in Chromium. Desktop: "how many people live within 2, 4 and
 * 8 hours of Nairobi, Kisumu and Mombasa?" answered in one run with three named sources pasted
 * into the panel (a bad line, and the bad rows of an uploaded CSV, are named by their row); the table lists each source x band with the
 * modelled population and its "within" running total, a chart per source, one hue per source on
 * the map with the sources labelled; the link keeps the sources and names, and opening it fits
 * the map to the bands; Enter on the focused map and the place search add sources; downloads and
 * the API snippet follow the run; offline after the first run. Phone (390 x 844): the same link
 * fits. Screenshots: test-results/screenshots/catchment-*.png.
 */
import { describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { type Started } from './helpers';
import { openApp, shot, waitMap, serverAndBrowser, jumpTo, mapPoint } from './app-helpers';
import { waitSynced } from './offline-helpers';

let srv: Started;
let browser: Browser;
const OPEN = '#v=ELEVATION&panel=catchment&cm=0,120,240,480&map=25,0,3';
const THREE = '36.82, -1.29, Nairobi\n34.76, -0.10, Kisumu\nnot a point\n39.67, -4.05, Mombasa';
/** The link the desktop run makes (its map view left out): opened on the phone. */
const SHARED = `#v=ELEVATION&panel=catchment&cm=0%2C120%2C240%2C480&src=${encodeURIComponent('[[36.82,-1.29,"Nairobi"],[34.76,-0.1,"Kisumu"],[39.67,-4.05,"Mombasa"]]')}`;
const NAIROBI = `#v=ELEVATION&panel=catchment&src=${encodeURIComponent('[[36.82,-1.29,"Nairobi"]]')}&vars=PN14_POP&map=36.8,-1.3,7`;
const src = (name: string, lon: number, lat: number) => `src=${encodeURIComponent(JSON.stringify([[lon, lat, name]]))}`;

serverAndBrowser((s, b) => { srv = s; browser = b; });

/** Waits for n rows in the first result table; returns the rows' cells as text. */
async function tableRows(page: Page, n: number): Promise<string[][]> {
  const rows = page.locator('[data-testid="catchment-result"] table').first().locator('tbody tr');
  await expect.poll(() => rows.count(), { timeout: 90_000 }).toBe(n);
  return rows.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td,th')].map((c) => (c.textContent ?? '').trim())));
}

/** Whether the first people column of the result table ends inside its scroll box (no sideways scroll needed to read it). */
async function peopleInView(page: Page): Promise<boolean> {
  const table = page.locator('[data-testid="catchment-result"] .table-wrap').first();
  const th = table.locator('thead th', { hasText: /Population 2017/ }).first();
  const [w, h] = [await table.boundingBox(), await th.boundingBox()];
  return !!w && !!h && h.x + h.width <= w.x + w.width + 1;
}

/** People within the band's upper limit (the POP_MODEL "within" column) per "source band" row. */
async function peopleWithin(page: Page): Promise<Record<string, number>> {
  const rows = await tableRows(page, 9);
  const table = page.locator('[data-testid="catchment-result"] table').first();
  const heads = (await table.locator('thead th').allTextContents()).map((h) => h.trim());
  const col = heads.findIndex((h) => /^Population 2017, modelled.*within/.test(h));
  expect(col).toBeGreaterThan(0);
  // the default "within" view labels the band column by its upper limit: keys "Nairobi ≤ 120"
  const out: Record<string, number> = {};
  for (const r of rows) out[`${r[0]} ${r[1]}`] = Number(r[col].replace(/[^\d.]/g, ''));
  return out;
}

describe('Catchment panel', () => {
  test('desktop: three named sources in one run, the map, the link, Enter and the search add sources, downloads, offline', async () => {
    const { ctx, page, errors } = await openApp(browser, srv.url + OPEN, { viewport: { width: 1440, height: 900 } });
    await waitMap(page);
    await page.getByText('Paste or upload sources').click();
    // an uploaded CSV whose rows cannot be used: each named, nothing added
    await page.getByTestId('catchment-file').setInputFiles({ name: 'towns.csv', mimeType: 'text/csv', buffer: Buffer.from('name,lon,lat,capacity\nA,36.9,-1.3,-5\nB,120,-1.3,\n') });
    await expect.poll(() => page.getByTestId('catchment-row-errors').textContent()).toMatch(/Row 1: capacity must be a number of people.*Row 2: 120\.0000, -1\.3000 lies outside the grid/);
    expect(await page.locator('[data-testid="catchment-sources"]').count()).toBe(0);
    await page.getByTestId('catchment-paste').fill(THREE);
    await page.getByRole('button', { name: 'Add points' }).click();
    await expect.poll(() => page.getByTestId('catchment-row-errors').textContent()).toContain('Row 3: expected "longitude, latitude[, name]"');
    const within = await peopleWithin(page);
    // Plausible: Nairobi's 2 h holds millions (Kenya 2019 census, Nairobi City County 4,397,073; a model within 2x);
    // each source's figures grow with the hours; Kisumu and Mombasa hold hundreds of thousands or more.
    // (the "within" view, the default: the band column says up to which time)
    expect(within['Nairobi ≤ 120']).toBeGreaterThan(2_200_000);
    expect(within['Nairobi ≤ 120']).toBeLessThan(8_800_000);
    for (const s of ['Nairobi', 'Kisumu', 'Mombasa']) {
      expect(within[`${s} ≤ 240`]).toBeGreaterThan(within[`${s} ≤ 120`]);
      expect(within[`${s} ≤ 480`]).toBeGreaterThan(within[`${s} ≤ 240`]);
      expect(within[`${s} ≤ 120`]).toBeGreaterThan(200_000);
    }
    // the answer in one sentence, and the people columns in view without sideways scrolling
    await expect.poll(() => page.getByTestId('catchment-answer').textContent()).toMatch(/^Within 8 h: Nairobi [\d.]+ M, Kisumu [\d.]+ (M|k), Mombasa [\d.]+ (M|k), together [\d.]+ M people \(modelled\)\.$/);
    expect(await peopleInView(page)).toBe(true);
    // one switch state for the table, the charts and the map legend: "within" labels the legend by upper limit
    const legendItems = () => page.locator('.legend li').allTextContents();
    await expect.poll(legendItems).toEqual(expect.arrayContaining(['Nairobi: ≤ 120 min', 'Mombasa: ≤ 480 min']));
    // per band from the panel: the table's band labels, the legend's too; then back to "within" from the legend's switch
    await page.getByTestId('catchment-view').getByRole('radio', { name: 'Per band' }).check();
    await expect.poll(async () => (await tableRows(page, 9))[0][1]).toBe('[0,120]');
    await expect.poll(legendItems).toEqual(expect.arrayContaining(['Nairobi: [0,120] min', 'Mombasa: (240,480] min']));
    expect(await page.getByTestId('legend-band-view').getByRole('radio', { name: 'Per band' }).isChecked()).toBe(true);
    await page.getByTestId('legend-band-view').getByRole('radio', { name: 'Within each time' }).check();
    await expect.poll(async () => (await tableRows(page, 9))[0][1]).toBe('≤ 120');
    expect(await page.getByTestId('catchment-view').getByRole('radio', { name: 'Within each time' }).isChecked()).toBe(true);
    await expect.poll(legendItems).toEqual(expect.arrayContaining(['Kisumu: ≤ 240 min']));
    console.log('people within 2/4/8 h (POP_MODEL):', JSON.stringify(within));
    // a chart per source; one legend entry per source x band; the sources labelled on the map
    await expect.poll(() => page.locator('[data-testid="catchment-result"] svg').count()).toBeGreaterThanOrEqual(3);
    await expect.poll(() => page.locator('.source-label').allTextContents()).toEqual(['Nairobi', 'Kisumu', 'Mombasa']);
    await expect.poll(() => page.getByTestId('catchment-cell-note').textContent()).toMatch(/km/);
    await shot(page, 'catchment-desktop');
    // the link keeps the sources and their names
    expect(decodeURIComponent(page.url())).toContain('src=[[36.82,-1.29,"Nairobi"],[34.76,-0.1,"Kisumu"],[39.67,-4.05,"Mombasa"]]');
    expect(new URL(page.url()).hash.replace(/&map=[^&]*/, '')).toBe(SHARED);
    // downloads and the API snippet follow the run
    await page.getByRole('tab', { name: 'Download' }).click();
    await expect.poll(() => page.locator('#panel-download').textContent()).toContain('travel-time raster');
    await page.getByRole('tab', { name: 'API' }).click();
    await expect.poll(() => page.locator('#panel-api').textContent()).toContain('R/catchment');
    await page.getByRole('tab', { name: 'Catchment' }).click();
    // each source's chart in its map hue (the nearest band darkest); travel counted from the points
    const charts = page.locator('[data-testid="catchment-result"] figure.chart');
    const fillsOf = () => charts.evaluateAll((fs) => fs.map((f) => [...f.querySelectorAll('.mark-rect path')].map((p) => p.getAttribute('fill'))));
    await expect.poll(async () => (await fillsOf()).slice(0, 3).map((f) => f[0])).toEqual(['#4e79a7', '#f28e2b', '#e15759']);
    const fills = await fillsOf();
    expect(new Set(fills[0]).size).toBe(3);
    expect(await page.getByTestId('catchment-cell-note').textContent()).toContain('counted from the source points');
    // coverage: Nairobi can serve 500,000 people: they are covered, the rest of its marketshed is not (grey on the map)
    await page.getByLabel('Capacity of Nairobi (people)').fill('500,000');
    await page.getByLabel('Capacity of Nairobi (people)').press('Enter');
    const cov = page.getByTestId('catchment-coverage');
    await expect.poll(() => cov.locator('tbody tr').count(), { timeout: 90_000 }).toBe(4);
    const covRows = await cov.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td,th')].map((c) => (c.textContent ?? '').trim())));
    expect(covRows[0].slice(0, 3)).toEqual(['Nairobi', '500,000', '500,000']);
    expect(Number(covRows[0][4].replace(/\D/g, ''))).toBeGreaterThan(1_000_000);
    expect(covRows[3][0]).toBe('All sources');
    await expect.poll(() => page.locator('.legend li').allTextContents()).toEqual(expect.arrayContaining(['Nairobi, covered: ≤ 120 min', 'Within 480 min, not covered']));
    await jumpTo(page, 37.0, -1.6, 8);
    await shot(page, 'catchment-coverage');
    // Enter on the focused map adds its centre; the place search adds a named source
    await page.locator('.map canvas').first().focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('[data-testid="catchment-sources"] li').count(), { timeout: 30_000 }).toBe(4);
    const search = page.getByRole('combobox').first();
    await search.fill('Kampala');
    await search.press('Enter');
    await expect.poll(() => page.locator('[data-testid="catchment-sources"] input').evaluateAll((xs) => xs.map((x) => (x as HTMLInputElement).value)), { timeout: 30_000 }).toContain('Kampala');
    // offline: the three-source link reloads offline (through the service worker) with the same rows
    await waitSynced(page);
    await page.evaluate((h) => { location.hash = h; }, SHARED);
    await tableRows(page, 9);
    await ctx.setOffline(true);
    await page.reload();
    expect((await tableRows(page, 9)).map((r) => r[0])).toEqual(['Nairobi', 'Nairobi', 'Nairobi', 'Kisumu', 'Kisumu', 'Kisumu', 'Mombasa', 'Mombasa', 'Mombasa']);
    expect(errors).toEqual([]);
    await ctx.close();
  }, 300_000);

  test('no stale answer: a source in the sea is flagged and the run goes on without it; Remove all sources marks the old result; a second source while the first computes; Download names the table on screen', async () => {
    const { ctx, page, errors } = await openApp(browser, srv.url + NAIROBI, { viewport: { width: 1440, height: 900 } });
    await waitMap(page);
    await expect.poll(() => page.locator('[data-testid="catchment-result"] tbody tr').count(), { timeout: 90_000 }).toBe(4);
    const result = page.locator('[data-testid="catchment-result"]');
    expect(await result.getAttribute('data-for')).toBe('Catchment from Nairobi');
    // every state of the result block, as the page commits it (a MutationObserver misses none)
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as any).__resultStates = seen;
      new MutationObserver(() => {
        const el = document.querySelector('[data-testid="catchment-result"]');
        const s = el ? `${el.getAttribute('data-for')}|${el.getAttribute('data-old')}|${el.querySelector('[data-testid="result-old"]')?.textContent ?? ''}` : 'none';
        if (seen[seen.length - 1] !== s) seen.push(s);
      }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    // a click in the sea adds a source there: it is flagged in the list and the run goes on without it (it does not block every run)
    await jumpTo(page, 40.2, -3.2, 7);
    const sea = await mapPoint(page, 41.2, -4.2);
    await page.mouse.click(sea.x, sea.y);
    await expect.poll(() => page.getByTestId('catchment-source-skipped').textContent(), { timeout: 60_000 }).toMatch(/in the sea/);
    expect(await page.locator('[data-testid="catchment-source"]').nth(1).textContent()).toMatch(/^41\.\d+, -4\.\d+$/);
    await expect.poll(() => result.getAttribute('data-for'), { timeout: 90_000 }).toBe('Catchment from Nairobi');
    await expect.poll(() => page.locator('[data-testid="catchment-result"] tbody tr').count(), { timeout: 90_000 }).toBe(4);
    const states = await page.evaluate(() => (window as any).__resultStates as string[]);
    // while the sea point computed, the table was marked as Nairobi's; no other answer showed
    expect(states.filter((x) => x !== 'none').every((x) => x.startsWith('Catchment from Nairobi|'))).toBe(true);
    // "Remove all sources": the old table stays, marked as old
    await page.getByRole('button', { name: 'Remove all sources' }).click();
    await expect.poll(() => page.getByTestId('result-stale').textContent()).toMatch(/^Old result, for Catchment from Nairobi\. The sources were removed/);
    // Nairobi again (a table), then Kampala, and Mombasa as soon as Kampala is computing
    await page.evaluate((h) => { location.hash = h; }, NAIROBI);
    await expect.poll(() => page.locator('[data-testid="catchment-result"] tbody tr').count(), { timeout: 90_000 }).toBe(4);
    await page.evaluate(([k, m]) => new Promise<void>((res) => {
      const mo = new MutationObserver(() => {
        if (!document.querySelector('[data-testid="result-old"]')?.textContent?.includes('Kampala')) return;
        mo.disconnect();
        location.hash = location.hash.replace(/src=[^&]+/, m);
        res();
      });
      mo.observe(document.body, { subtree: true, childList: true, characterData: true });
      location.hash = location.hash.replace(/src=[^&]+/, k);
    }), [src('Kampala', 32.58, 0.32), src('Mombasa', 39.66, -4.04)]);
    await expect.poll(() => result.getAttribute('data-for'), { timeout: 90_000 }).toBe('Catchment from Mombasa');
    expect(await result.getAttribute('data-old')).toBe('0');
    const all = await page.evaluate(() => (window as any).__resultStates as string[]);
    expect(all.some((x) => x.includes('Old result, for Catchment from Nairobi. Computing Catchment from Mombasa'))).toBe(true);
    expect(all.some((x) => x.startsWith('Catchment from Kampala'))).toBe(false); // Kampala's answer never shows
    await page.getByRole('tab', { name: 'Download' }).click();
    await expect.poll(() => page.locator('#panel-download').textContent()).toContain('For: Catchment from Mombasa');
    expect(errors).toEqual([]);
    await ctx.close();
  }, 240_000);

  test('phone 390 x 844: a shared link opens fitted to the bands; the panel and its table fit', async () => {
    const { ctx, page, errors } = await openApp(browser, srv.url + SHARED, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await waitMap(page);
    await tableRows(page, 9);
    expect(await peopleInView(page)).toBe(true);
    // fitted: the map view (in the link) moves to Kenya's bands, zoomed in from the continent (about zoom 3)
    await expect.poll(() => {
      const v = /map=([\d.-]+),([\d.-]+),([\d.]+)/.exec(decodeURIComponent(page.url()))?.slice(1).map(Number);
      return !!v && v[0] > 34 && v[0] < 41 && v[1] > -6 && v[1] < 2 && v[2] > 4;
    }, { timeout: 30_000 }).toBe(true);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    // every people column of both tables (each source, all sources) ends inside the 390 px viewport, unscrolled
    const peopleRight = await page.locator('[data-testid="catchment-result"] table').evaluateAll((ts) => ts.map((t) => [...t.querySelectorAll('thead th')]
      .filter((th) => /^(POP_MODEL|PLACES_POP)/.test(th.getAttribute('data-col') ?? '')).map((th) => th.getBoundingClientRect().right)));
    expect(peopleRight.map((r) => r.length)).toEqual([2, 2]);
    for (const r of peopleRight.flat()) expect(r).toBeLessThanOrEqual(390);
    // the scale bar is clear of the attribution and of every source label shown
    await expect.poll(() => page.locator('.source-label').count()).toBe(3);
    const clash = () => page.evaluate(() => {
      const box = (el: Element) => el.getBoundingClientRect();
      const hit = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      const scale = box(document.querySelector('.maplibregl-ctrl-scale')!);
      const others = [document.querySelector('.maplibregl-ctrl-attrib')!, ...[...document.querySelectorAll<HTMLElement>('.source-label')].filter((l) => l.style.visibility !== 'hidden')];
      return others.filter((o) => hit(scale, box(o))).map((o) => o.textContent);
    });
    await expect.poll(clash).toEqual([]);
    // Mombasa's point moved to just left of the scale bar, where its label would cover it: the label moves or hides
    await page.evaluate(() => new Promise<void>((res) => {
      const m = (window as any).__indapiMap;
      const s = document.querySelector('.maplibregl-ctrl-scale')!.getBoundingClientRect(), c = m.getCanvas().getBoundingClientRect();
      const at = m.project([39.67, -4.05]), want = { x: s.left - c.left + 6, y: s.top - c.top + 14 };
      m.once('idle', () => res());
      m.panBy([at.x - want.x, at.y - want.y], { duration: 0 });
    }));
    await expect.poll(clash).toEqual([]);
    await shot(page, 'catchment-phone-map');
    await page.locator('[data-testid="catchment-result"] table').first().scrollIntoViewIfNeeded();
    await shot(page, 'catchment-phone');
    expect(errors).toEqual([]);
    await ctx.close();
  }, 180_000);
});
