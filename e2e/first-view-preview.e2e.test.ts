/**
 * The first view's preview image (src/ui/MapPreview.tsx, issue 26 target 4): drawn from the
 * live map's own tiles before MapLibre has loaded, at the camera MapLibre then takes (the
 * bounds fitted into the same box: src/core/map/first-view.ts), on a desktop and on a phone
 * (390 x 844, device pixel ratio 2); replaced by the live map once that has drawn. MapLibre's
 * script is held back by the test until the preview has been looked at, so the order is by
 * state, not by timing. The pixels of the preview and of the live map over the same box match
 * far better than the live map shifted by a few pixels does (the same cells in the same place).
 */
import { describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { type Started } from './helpers';
import { serverAndBrowser, waitMap } from './app-helpers';
import { decodePng, type Rgba } from './png';

/** Share of pixels of `a` and `b` (same size) within `tol` in every channel, `b` read `dx` pixels to the right. */
function agreement(a: Rgba, b: Rgba, dx = 0, tol = 24): number {
  let same = 0, n = 0;
  for (let y = 0; y < a.height; y++) for (let x = 0; x + dx < a.width; x++) {
    const i = (y * a.width + x) * 4, j = (y * b.width + x + dx) * 4;
    n++;
    if (Math.abs(a.data[i] - b.data[j]) <= tol && Math.abs(a.data[i + 1] - b.data[j + 1]) <= tol && Math.abs(a.data[i + 2] - b.data[j + 2]) <= tol) same++;
  }
  return same / n;
}

/** CSS hiding what is over the map (tools, legends, the preview's note, MapLibre's controls), so screenshots hold the map alone. */
const HIDE_OVERLAYS = '.overlay, .overlay-stack, .maplibregl-control-container { visibility: hidden !important; }';

describe('first view preview', () => {
  let srv: Started;
  let browser: Browser;
  serverAndBrowser((s, b) => { srv = s; browser = b; }, { LOG: '0' });

  for (const [name, opts] of [
    ['desktop 1440 x 900', { viewport: { width: 1440, height: 900 } }],
    ['phone 390 x 844', { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }],
  ] as const) {
    test(`${name}: the preview shows the first view where the live map then draws it`, async () => {
      const ctx = await browser.newContext(opts);
      try {
        let letGo!: () => void;
        const held = new Promise<void>((res) => (letGo = res));
        await ctx.route(/\/assets\/maplibre-gl-[^/]*\.js$/, async (route) => { await held; await route.continue(); });
        const page = await ctx.newPage();
        await page.goto(`${srv.url}#v=ELEVATION`);
        const preview = page.locator('[data-testid="map-preview"][data-drawn="1"]');
        await preview.waitFor({ timeout: 60_000 });
        await expect.poll(() => page.evaluate(() => document.body.dataset.mapPreview)).toBe('1');
        expect(await page.evaluate(() => document.body.dataset.mapRendered)).toBeUndefined();
        expect(await page.getByRole('status').filter({ hasText: 'Loading the interactive map' }).isVisible()).toBe(true);
        const box = (await preview.boundingBox())!;
        const cam = (await preview.locator('canvas').getAttribute('data-camera'))!.split(',').map(Number);
        await page.addStyleTag({ content: HIDE_OVERLAYS });
        const before = decodePng(await page.screenshot({ clip: box }));
        // a drag on the preview is answered at once: the note says the map moves once it has loaded
        await page.mouse.move(box.x + box.width / 3, box.y + box.height / 3);
        await page.mouse.down();
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 4 });
        await page.mouse.up();
        await expect.poll(() => page.locator('[data-testid="map-preview"] [role="status"]').textContent()).toContain('it moves as soon as it has loaded');
        expect(await page.locator('[data-testid="map-preview"].asked').evaluate((e) => getComputedStyle(e).cursor)).toBe('progress');
        letGo();
        await waitMap(page, 120_000);
        await page.locator('[data-testid="map-preview"]').waitFor({ state: 'detached' });
        // the live map's camera is the preview's, and its box is the same
        const live = await page.evaluate(() => { const m = (window as any).__indapiMap; const c = m.getCenter(); const r = m.getContainer().getBoundingClientRect(); return { lng: c.lng, lat: c.lat, zoom: m.getZoom(), box: { x: r.x, y: r.y, width: r.width, height: r.height } }; });
        expect(live.lng).toBeCloseTo(cam[0], 6);
        expect(live.lat).toBeCloseTo(cam[1], 6);
        expect(live.zoom).toBeCloseTo(cam[2], 6);
        expect(live.box).toEqual(box);
        // as the live map first draws (the outlines, lakes, rivers and labels come after the first map)
        const after = decodePng(await page.screenshot({ clip: box }));
        const aligned = agreement(before, after), shifted = agreement(before, after, 6 * (opts.deviceScaleFactor ?? 1));
        console.log(`${name}: pixels agreeing ${(aligned * 100).toFixed(1)}% aligned, ${(shifted * 100).toFixed(1)}% shifted 6 px`);
        expect(aligned).toBeGreaterThan(0.85); // measured 96% (desktop) and 91% (phone, place labels may be in): 6 px off, 88% and 79%
        expect(aligned - shifted).toBeGreaterThan(0.05);
      } finally {
        await ctx.close();
      }
    }, 180_000);
  }
});
