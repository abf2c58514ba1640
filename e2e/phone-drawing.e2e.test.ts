/**
 * Drawing on a phone (issue 17, defect 5), 390x844 with touch: one tap on the first vertex
 * closes the polygon; the overlays (legend, read-out, map tools) fold away while drawing, so
 * taps meant for vertices reach the map; the read-out says "Tap the map" on touch screens.
 * Screenshots: test-results/screenshots/phone-drawing-*.png.
 */
import { describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { type Started } from './helpers';
import { shot, waitMap, openApp, mapPoint, serverAndBrowser } from './app-helpers';

let srv: Started;
let browser: Browser;

serverAndBrowser((s, b) => { srv = s; browser = b; });

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** The part of the map's box (page px) that an element covers, as a share of the map's area. */
async function coveredShare(page: Page, selector: string): Promise<number> {
  return page.evaluate((sel) => {
    const m = document.querySelector('.map')!.getBoundingClientRect();
    let a = 0;
    for (const el of document.querySelectorAll<HTMLElement>(sel)) {
      const r = el.getBoundingClientRect();
      const w = Math.max(0, Math.min(r.right, m.right) - Math.max(r.left, m.left));
      const h = Math.max(0, Math.min(r.bottom, m.bottom) - Math.max(r.top, m.top));
      a += w * h;
    }
    return a / (m.width * m.height);
  }, selector);
}

describe('phone drawing', () => {
  test('one tap on the first vertex closes the polygon; overlays fold while drawing; "Tap the map"', async () => {
    const { ctx, page, errors } = await openApp(browser, `${srv.url}#v=ELEVATION&panel=areas&map=36.8,-1.3,8`, PHONE);
    await waitMap(page);
    await expect.poll(() => page.getByTestId('hover-info').textContent()).toMatch(/Tap the map/);
    expect(await page.getByTestId('hover-info').textContent()).not.toMatch(/Hover/);
    await page.locator('.legend').first().waitFor();
    await shot(page, 'phone-drawing-before');
    await page.getByRole('button', { name: 'Draw polygon' }).tap();
    await page.locator('.map').scrollIntoViewIfNeeded();
    await expect.poll(() => page.evaluate(() => document.querySelector('main.centre')?.classList.contains('drawing'))).toBe(true);
    expect(await page.locator('#panel-areas').textContent()).toMatch(/Tap to add vertices; tap the first vertex/);
    expect(await page.getByRole('status').filter({ hasText: 'Tap to add vertices' }).count()).toBe(1); // the hint on the map
    // legends, boxes and tools fold to at most a small strip of the map
    expect(await coveredShare(page, '.centre .overlay')).toBeLessThan(0.12);
    // the vertices spread over the map, including its lower left where the legend sits otherwise
    const box = await page.locator('.map').boundingBox();
    const ll = await page.evaluate(([x, y]) => { const m = (window as any).__indapiMap; const r = m.getCanvas().getBoundingClientRect(); const p = m.unproject([x - r.left, y - r.top]); return [p.lng, p.lat] as [number, number]; }, [box!.x + 50, box!.y + box!.height - 60]);
    const pts: Array<[number, number]> = [ll, [36.95, -1.3], [36.8, -1.2]];
    for (const [lo, la] of pts) {
      const p = await mapPoint(page, lo, la);
      await page.touchscreen.tap(p.x, p.y);
    }
    await shot(page, 'phone-drawing-open');
    const first = await mapPoint(page, pts[0][0], pts[0][1]);
    // a fingertip off the vertex by about 21 px (a tap target of 44 px, WCAG 2.5.5, is hit within 22 px)
    await page.touchscreen.tap(first.x + 16, first.y - 14);
    await expect.poll(() => page.evaluate(() => decodeURIComponent(location.hash)), { timeout: 10_000 }).toMatch(/wkt=POLYGON/);
    const wkt = await page.evaluate(() => new URLSearchParams(location.hash.slice(1)).get('wkt'));
    expect((wkt!.match(/,/g) ?? []).length).toBe(3); // 3 vertices + the closing one
    // drawing over: the overlays come back
    await expect.poll(() => page.evaluate(() => document.querySelector('main.centre')?.classList.contains('drawing'))).toBe(false);
    await shot(page, 'phone-drawing-closed');
    expect(errors).toEqual([]);
    await ctx.close();
  }, 120_000);

  test('desktop keeps "Hover the map"', async () => {
    const { ctx, page } = await openApp(browser, `${srv.url}#v=ELEVATION`, { viewport: { width: 1440, height: 900 } });
    await waitMap(page);
    await expect.poll(() => page.getByTestId('hover-info').textContent()).toMatch(/Hover the map/);
    await ctx.close();
  }, 60_000);
});
