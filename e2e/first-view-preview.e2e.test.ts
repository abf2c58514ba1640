/**
 * The first view's preview image (src/ui/MapPreview.tsx, issue 26 target 4): drawn from the
 * live map's own tiles before MapLibre has loaded, at the camera MapLibre then takes (the
 * bounds fitted into the same box: src/core/map/first-view.ts), on a desktop and on a phone
 * (390 x 844, device pixel ratio 2); replaced by the live map once that has drawn. MapLibre's
 * script is held back by the test until the preview has been looked at, so the order is by
 * state, not by timing. On the phone, the pixels of the preview and of the live map over the same
 * box match far better than the live map shifted by a few pixels does (the same cells in the same
 * place). On the desktop, the preview follows a drag and a wheel notch before MapLibre has
 * loaded, and the live map then starts where the hand left it (`movedCamera`), within a pixel,
 * the link's `map=` too.
 */
import { describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { type Started } from './helpers';
import { serverAndBrowser, waitMap } from './app-helpers';
import { decodePng, type Rgba } from './png';
import { movedCamera, type MapCamera } from '../src/core/map/first-view';
import { mercY } from '../src/core/map/mercator';

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
    test(`${name}: the preview shows the first view (moved by hand on the desktop) where the live map then draws it`, async () => {
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
        const before = opts.isMobile ? decodePng(await page.screenshot({ clip: box })) : null;
        let start: MapCamera = { lng: cam[0], lat: cam[1], zoom: cam[2] };
        if (!opts.isMobile) {
          // desktop: the preview follows a drag of 200 x 50 px at once, and a wheel notch zooms it about the pointer, all before MapLibre loads
          const layers = page.locator('[data-testid="map-preview"] .map-preview-layers');
          const move = async () => ((await layers.getAttribute('data-move')) ?? '1,0,0').split(',').map(Number);
          const [x0, y0] = [box.x + box.width / 3, box.y + box.height / 3];
          await page.mouse.move(x0, y0);
          await page.mouse.down();
          await page.mouse.move(x0 + 200, y0 + 50, { steps: 4 });
          const dragged = await move();
          expect(dragged[0]).toBe(1);
          expect(dragged[1]).toBeCloseTo(200, 3);
          expect(dragged[2]).toBeCloseTo(50, 3);
          expect(await layers.evaluate((e) => getComputedStyle(e).transform)).toBe('matrix(1, 0, 0, 1, 200, 50)');
          await page.mouse.up();
          await page.mouse.wheel(0, -100);
          await expect.poll(async () => (await move())[0]).toBeGreaterThan(1);
          await expect.poll(() => page.evaluate(() => new URLSearchParams(location.hash.slice(1)).get('map'))).not.toBeNull(); // the gesture's end handed the camera on
          const [scale, txPx, tyPx] = await move();
          expect(await page.evaluate(() => document.body.dataset.mapRendered)).toBeUndefined();
          expect(await page.locator('[data-testid="map-preview"] [role="status"]').textContent()).toContain('Loading the interactive map (and what the move uncovered)');
          start = movedCamera(start, box.width, box.height, { scale, txPx, tyPx });
          expect(start.zoom).toBeGreaterThan(cam[2]);
        }
        letGo();
        await waitMap(page, 120_000);
        await page.locator('[data-testid="map-preview"]').waitFor({ state: 'detached' });
        // the live map's camera is the preview's (where the hand left it, within a pixel), and its box is the same
        const live = await page.evaluate(() => { const m = (window as any).__indapiMap; const c = m.getCenter(); const r = m.getContainer().getBoundingClientRect(); return { lng: c.lng, lat: c.lat, zoom: m.getZoom(), box: { x: r.x, y: r.y, width: r.width, height: r.height } }; });
        const worldPx = 512 * 2 ** start.zoom;
        expect(Math.abs((live.lng - start.lng) / 360 * worldPx)).toBeLessThan(1);
        expect(Math.abs((mercY(live.lat) - mercY(start.lat)) * worldPx)).toBeLessThan(1);
        expect(live.zoom).toBeCloseTo(start.zoom, 6);
        expect(live.box).toEqual(box);
        if (!opts.isMobile) {
          // the link's view follows (rounded to 4 decimals and zoom to 2)
          const url = (await page.evaluate(() => new URLSearchParams(location.hash.slice(1)).get('map')))!.split(',').map(Number);
          expect(Math.abs(url[0] - live.lng)).toBeLessThan(1e-3);
          expect(Math.abs(url[1] - live.lat)).toBeLessThan(1e-3);
          expect(Math.abs(url[2] - live.zoom)).toBeLessThan(1e-2);
          return;
        }
        // phone, not moved: as the live map first draws (the outlines, lakes, rivers and labels come after the first map)
        const after = decodePng(await page.screenshot({ clip: box }));
        const aligned = agreement(before!, after), shifted = agreement(before!, after, 6 * (opts.deviceScaleFactor ?? 1));
        console.log(`${name}: pixels agreeing ${(aligned * 100).toFixed(1)}% aligned, ${(shifted * 100).toFixed(1)}% shifted 6 px`);
        expect(aligned).toBeGreaterThan(0.85); // measured 96% (desktop) and 91% (phone, place labels may be in): 6 px off, 88% and 79%
        expect(aligned - shifted).toBeGreaterThan(0.05);
      } finally {
        await ctx.close();
      }
    }, 180_000);
  }
});
