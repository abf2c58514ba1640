/**
 * Two layers compared (issue 11, "two layers side by side (swipe or split view)"): a link with
 * two indicators in swipe mode draws both (the pixels a person sees change where the divider
 * moves), the divider is a keyboard slider, the read-out gives both values, split view keeps
 * both maps on the same centre and zoom, links restore the comparison, Back leaves it, axe finds
 * no serious or critical violation, and the phone layout stacks the maps with nothing
 * overlapping. Screenshots go to test-results/screenshots/compare-*.png.
 */
import { describe, expect, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type Started, axeViolations } from './helpers';
import { shot, still, waitMap, openApp, serverAndBrowser } from './app-helpers';
import { decodePng } from './png';

let srv: Started;
let browser: Browser;
const KENYA = '&map=37.6,0.3,5.6';
const SWIPE = `#v=ELEVATION&op=1&cmp=swipe&v2=DIST_PLACE50K${KENYA}`;

serverAndBrowser((s, b) => { srv = s; browser = b; });

const DESKTOP = { viewport: { width: 1440, height: 900 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

async function open(hash: string, ctxOpts: Parameters<Browser['newContext']>[0] = DESKTOP): Promise<{ ctx: BrowserContext; page: Page; errors: string[] }> {
  return openApp(browser, srv.url + hash, ctxOpts);
}

/** Waits until both maps have drawn their raster layer and settled. */
async function waitBoth(page: Page): Promise<void> {
  await waitMap(page);
  await page.waitForFunction(() => {
    const m = (window as any).__indapiMap2;
    return !!m && !!m.getSource('raster') && m.isSourceLoaded('raster') && m.loaded();
  }, undefined, { timeout: 60_000 });
  await page.evaluate(() => Promise.all(['__indapiMap', '__indapiMap2'].map((k) => new Promise<void>((res) => { const m = (window as any)[k]; m.once('idle', () => res()); m.triggerRepaint(); }))));
}

/** Waits until neither map moves (drag handlers, inertia and animations have ended). */
async function stopped(page: Page): Promise<void> {
  await page.waitForFunction(() => ['__indapiMap', '__indapiMap2'].every((k) => !(window as any)[k].isMoving()), undefined, { timeout: 15_000, polling: 100 });
}

/** Screen points over the maps (not under a panel), with the map canvas hit there: 'a' main, 'b' second. */
async function mapSamples(page: Page): Promise<Array<{ x: number; y: number; fx: number; hit: 'a' | 'b' }>> {
  return page.evaluate(() => {
    const ca = (window as any).__indapiMap.getCanvas(), cb = (window as any).__indapiMap2.getCanvas();
    const r = document.querySelector('main.centre')!.getBoundingClientRect();
    const out: Array<{ x: number; y: number; fx: number; hit: 'a' | 'b' }> = [];
    for (let i = 1; i < 60; i++) for (let j = 1; j < 40; j++) {
      const x = Math.round(r.left + (r.width * i) / 60), y = Math.round(r.top + (r.height * j) / 40);
      const el = document.elementFromPoint(x, y);
      if (el === ca || el === cb) out.push({ x, y, fx: (x - r.left) / r.width, hit: el === ca ? 'a' : 'b' });
    }
    return out;
  });
}

const px = (img: ReturnType<typeof decodePng>, x: number, y: number) => { const k = (y * img.width + x) * 4; return [img.data[k], img.data[k + 1], img.data[k + 2]]; };
const differ = (a: number[], b: number[]) => Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]) > 24;

const axe = (page: Page): Promise<string[]> => axeViolations(page);

type Box = { x: number; y: number; width: number; height: number };
const intersects = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Boxes of the visible map overlays (legends, compare bar, read-out, map tools, divider grip) and of the map area. */
async function overlayBoxes(page: Page): Promise<{ map: Box; boxes: Array<[string, Box]> }> {
  return page.evaluate(() => {
    const b = (e: Element) => { const r = e.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; };
    const sel: Array<[string, string]> = [['legend-a', '.bl .legend'], ['legend-b', '[data-testid="compare-legend"] .legend'], ['compare-bar', '[data-testid="compare-bar"]'], ['read-out', '[data-testid="hover-info"]'], ['picked', '[data-testid="picked"]'], ['map-tools', '.map-tools'], ['grip', '.cmp-grip'], ['attrib-a', 'main.centre > .map .maplibregl-ctrl-attrib'], ['attrib-b', '[data-testid="compare-second"] .maplibregl-ctrl-attrib'], ['scale-b', '[data-testid="compare-second"] .maplibregl-ctrl-scale']];
    // the main map's scale bar shows in split view (in swipe the second map lies over it)
    if (document.querySelector('main.centre.cmp-split')) sel.push(['scale-a', 'main.centre > .map .maplibregl-ctrl-scale']);
    const boxes: Array<[string, { x: number; y: number; width: number; height: number }]> = [];
    for (const [n, s] of sel) for (const e of document.querySelectorAll(s)) { const r = b(e); if (r.width && r.height) boxes.push([n, r]); }
    return { map: b(document.querySelector('main.centre')!), boxes };
  });
}

describe('compare two layers', () => {
  test('swipe: both layers drawn, the divider is a keyboard slider that moves the split, both values read under the pointer', async () => {
    const { ctx, page, errors } = await open(SWIPE);
    await waitBoth(page);
    const slider = page.getByRole('slider', { name: /swipe divider/i });
    await expect.poll(() => slider.getAttribute('aria-valuenow')).toBe('50');
    expect(await slider.getAttribute('aria-valuetext')).toMatch(/Elevation.*left.*Distance to a place of 50k\+ people.*right/);
    // each side names its layer
    await expect.poll(() => page.locator('.bl .legend h3').first().textContent()).toMatch(/^Left: Elevation/);
    await expect.poll(() => page.locator('[data-testid="compare-legend"] .legend h3').textContent()).toMatch(/^Right: Distance to a place of 50k\+ people/);
    await shot(page, 'compare-desktop-swipe');
    // pointer hits: the main map left of the divider, the second one right of it
    const before = await mapSamples(page);
    expect(before.length).toBeGreaterThan(500);
    expect(before.filter((s) => s.fx < 0.49).every((s) => s.hit === 'a')).toBe(true);
    expect(before.filter((s) => s.fx > 0.51).every((s) => s.hit === 'b')).toBe(true);
    const img1 = decodePng(await page.screenshot());

    // keyboard: 5 x ArrowLeft = 40%, then Home = 2% (the far left); the link follows without a history step
    await slider.focus();
    const hist = await page.evaluate(() => history.length);
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowLeft');
    await expect.poll(() => slider.getAttribute('aria-valuenow')).toBe('40');
    await expect.poll(() => page.evaluate(() => location.hash)).toContain('sw=0.4');
    await page.keyboard.press('Home');
    await expect.poll(() => slider.getAttribute('aria-valuenow')).toBe('2');
    expect(await page.evaluate(() => history.length)).toBe(hist);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const after = await mapSamples(page);
    const img2 = decodePng(await page.screenshot());
    // where the second layer now shows (was the first): most pixels changed, as a person sees the other layer;
    // right of the old divider nothing changed
    const moved = after.filter((s) => s.fx > 0.08 && s.fx < 0.45 && before.some((b) => b.x === s.x && b.y === s.y && b.hit === 'a'));
    const kept = after.filter((s) => s.fx > 0.55 && s.fx < 0.95 && before.some((b) => b.x === s.x && b.y === s.y && b.hit === 'b'));
    expect(moved.length).toBeGreaterThan(200);
    expect(moved.every((s) => s.hit === 'b')).toBe(true);
    const changed = moved.filter((s) => differ(px(img1, s.x, s.y), px(img2, s.x, s.y))).length;
    expect(changed / moved.length).toBeGreaterThan(0.5);
    expect(kept.filter((s) => differ(px(img1, s.x, s.y), px(img2, s.x, s.y))).length / kept.length).toBeLessThan(0.02);
    await shot(page, 'compare-desktop-swipe-left');
    await page.keyboard.press('End');
    await expect.poll(() => slider.getAttribute('aria-valuenow')).toBe('98');
    // drag it back to the middle
    const box = (await page.locator('main.centre').boundingBox())!;
    const grip = (await page.locator('.cmp-grip').boundingBox())!;
    await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.6, grip.y + grip.height / 2, { steps: 5 });
    await page.mouse.up();
    await expect.poll(() => slider.getAttribute('aria-valuenow')).toBe('60');

    // the read-out: both layers' values at the place under the pointer, the side under it marked
    await page.mouse.move(box.x + box.width * 0.75, box.y + box.height * 0.55);
    await expect.poll(() => page.locator('[data-testid="compare-value-b"]').textContent(), { timeout: 15_000 }).toMatch(/\d.*km/);
    expect(await page.locator('[data-testid="compare-value-a"]').textContent()).toMatch(/\d.*m$/);
    expect(await page.locator('[data-testid="compare-values"] .here dt').textContent()).toMatch(/^Right:/);
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.55);
    await expect.poll(() => page.locator('[data-testid="compare-values"] .here dt').textContent()).toMatch(/^Left:/);
    // the two values are the two layers' cell values there
    const cell = await page.evaluate(async ([x, y]) => {
      const m = (window as any).__indapiMap; const r = m.getCanvas().getBoundingClientRect(); const ll = m.unproject([x - r.left, y - r.top]);
      const R = (window as any).__indapiRaster;
      return [(await R.cellInfo('ELEVATION', ll.lng, ll.lat)).value, (await R.cellInfo('DIST_PLACE50K', ll.lng, ll.lat)).value];
    }, [box.x + box.width * 0.3, box.y + box.height * 0.55]);
    const num = (t: string | null) => Number((t ?? '').replace(/[^\d.-]/g, ''));
    await expect.poll(async () => num(await page.locator('[data-testid="compare-value-a"]').textContent())).toBeCloseTo(cell[0], 0);
    expect(Math.abs(num(await page.locator('[data-testid="compare-value-b"]').textContent()) - cell[1])).toBeLessThan(1);
    expect(errors).toEqual([]);
    await ctx.close();
  }, 240_000);

  test('split view: two maps side by side, a pan of either keeps both on the same centre and zoom; the link restores it', async () => {
    const { ctx, page, errors } = await open(SWIPE);
    await waitBoth(page);
    const hist = await page.evaluate(() => history.length);
    await page.getByRole('button', { name: 'Side by side' }).click();
    await expect.poll(() => page.evaluate(() => location.hash)).toContain('cmp=split');
    expect(await page.evaluate(() => history.length)).toBe(hist + 1);
    expect(await page.getByRole('slider', { name: /swipe divider/i }).count()).toBe(0);
    // two maps, each half of the map area
    await expect.poll(async () => {
      const [a, b] = await page.evaluate(() => ['__indapiMap', '__indapiMap2'].map((k) => { const r = (window as any)[k].getCanvas().getBoundingClientRect(); return [r.left, r.right]; }));
      return a[1] <= b[0] + 1 && b[1] - b[0] > 300 && a[1] - a[0] > 300;
    }).toBe(true);
    await waitBoth(page);
    const rr = (await page.locator('[data-testid="compare-second"]').boundingBox())!;
    await page.mouse.move(rr.x + rr.width * 0.5, rr.y + rr.height * 0.5);
    await page.mouse.move(rr.x + rr.width * 0.5 + 3, rr.y + rr.height * 0.5 + 3);
    await expect.poll(() => page.locator('[data-testid="compare-values"] .here dt').textContent(), { timeout: 15_000 }).toMatch(/^Right:/);
    await shot(page, 'compare-desktop-split');
    const centres = () => page.evaluate(() => ['__indapiMap', '__indapiMap2'].map((k) => { const m = (window as any)[k]; const c = m.getCenter(); return [c.lng, c.lat, m.getZoom()]; }));
    // pan the left map by mouse
    const ra = (await page.evaluate(() => { const r = (window as any).__indapiMap.getCanvas().getBoundingClientRect(); return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; }));
    const c0 = (await centres())[0];
    await page.mouse.move(ra.x, ra.y);
    await page.mouse.down();
    await page.mouse.move(ra.x - 120, ra.y + 60, { steps: 8 });
    await page.mouse.up();
    await stopped(page);
    // the second map follows the first (sync runs on the first's move events): wait until it has
    await expect.poll(async () => { const [p, q] = await centres(); return Math.abs(p[0] - q[0]) + Math.abs(p[1] - q[1]) + Math.abs(p[2] - q[2]); }, { timeout: 15_000 }).toBeLessThan(1e-6);
    let [a, b] = await centres();
    expect(Math.abs(a[0] - c0[0])).toBeGreaterThan(0.5);
    expect(b[0]).toBeCloseTo(a[0], 6);
    expect(b[1]).toBeCloseTo(a[1], 6);
    expect(b[2]).toBeCloseTo(a[2], 6);
    // pan and zoom the right one: the left follows
    const rb = (await page.evaluate(() => { const r = (window as any).__indapiMap2.getCanvas().getBoundingClientRect(); return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; }));
    await page.mouse.move(rb.x, rb.y);
    await page.mouse.down();
    await page.mouse.move(rb.x + 80, rb.y - 40, { steps: 8 });
    await page.mouse.up();
    // the drag's last frame and its inertia run after mouse up: zoom once both maps have stopped
    // (a zoom set while the drag handler still runs is overwritten by it, on a slow machine)
    await stopped(page);
    await page.evaluate(() => (window as any).__indapiMap2.zoomTo(7, { duration: 0 }));
    await stopped(page);
    await expect.poll(async () => { const [p, q] = await centres(); return Math.abs(p[2] - 7) + Math.abs(p[0] - q[0]) + Math.abs(p[1] - q[1]); }, { timeout: 15_000 }).toBeLessThan(1e-6);
    [a, b] = await centres();
    expect(a[2]).toBeCloseTo(7, 6);
    expect(a[0]).toBeCloseTo(b[0], 6);
    expect(a[1]).toBeCloseTo(b[1], 6);
    // the link holds the view; opened anew it restores the split, the second layer and the place
    await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/map=[\d.-]+(,|%2C)[\d.-]+(,|%2C)7(&|$)/);
    const link = await page.evaluate(() => location.href);
    const p2 = await ctx.newPage();
    await p2.goto(link);
    await waitBoth(p2);
    expect(await p2.locator('[data-testid="compare-bar"] .chip').textContent()).toContain('Distance to a place of 50k+ people');
    expect(await p2.getByRole('button', { name: 'Side by side' }).getAttribute('aria-pressed')).toBe('true');
    const [a2, b2] = await p2.evaluate(() => ['__indapiMap', '__indapiMap2'].map((k) => { const m = (window as any)[k]; const c = m.getCenter(); return [c.lng, c.lat, m.getZoom()]; }));
    expect(a2[0]).toBeCloseTo(a[0], 3);
    expect(a2[1]).toBeCloseTo(a[1], 3);
    expect(b2[0]).toBeCloseTo(a2[0], 6);
    expect(b2[2]).toBeCloseTo(7, 2);
    // a swipe link restores the divider
    await p2.goto(`${srv.url}${SWIPE}&sw=0.3`);
    await p2.reload();
    await waitBoth(p2);
    await expect.poll(() => p2.getByRole('slider', { name: /swipe divider/i }).getAttribute('aria-valuenow')).toBe('30');
    expect(errors).toEqual([]);
    await ctx.close();
  }, 240_000);

  test('choosing a second layer with the keyboard, switching views and Back: Back leaves the comparison', async () => {
    const { ctx, page, errors } = await open(`#v=ELEVATION${KENYA}`);
    await waitMap(page);
    await page.getByRole('button', { name: 'Compare layers' }).click();
    // focus goes to the second-layer box; typing and Enter choose it (the arrow keys alone choose nothing)
    const input = page.getByRole('combobox', { name: 'Add to Right layer' });
    await expect.poll(() => input.evaluate((e) => e === document.activeElement)).toBe(true);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => location.hash)).not.toContain('v2=');
    await input.fill('distance coast');
    await page.getByRole('listbox', { name: 'Right layer' }).getByRole('option').first().waitFor();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => location.hash)).toContain('v2=DIST_COAST');
    expect(await page.evaluate(() => location.hash)).toContain('cmp=swipe');
    await waitBoth(page);
    // the mapped layer is not offered as its own comparison
    await input.fill('Elevation (ETOPO5)');
    await expect.poll(() => page.getByRole('listbox', { name: 'Right layer' }).getByRole('option').allTextContents()).not.toContain('Elevation (ETOPO5) (ELEVATION)');
    await input.fill('');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Side by side' }).click();
    await expect.poll(() => page.evaluate(() => location.hash)).toContain('cmp=split');
    // Back: swipe again; Back: the comparison is gone and the map is whole again
    await page.goBack();
    await expect.poll(() => page.evaluate(() => location.hash)).toContain('cmp=swipe');
    await expect.poll(() => page.getByRole('slider', { name: /swipe divider/i }).count()).toBe(1);
    await page.goBack();
    await expect.poll(() => page.evaluate(() => location.hash)).not.toContain('cmp=');
    await expect.poll(() => page.locator('[data-testid="compare-second"]').count()).toBe(0);
    await expect.poll(() => page.locator('[data-testid="compare-bar"]').count()).toBe(0);
    expect(await page.locator('.bl .legend h3').first().textContent()).toMatch(/^Elevation/);
    expect(await page.evaluate(() => { const r = (window as any).__indapiMap.getCanvas().getBoundingClientRect(); const c = document.querySelector('main.centre')!.getBoundingClientRect(); return Math.round(r.width) === Math.round(c.width); })).toBe(true);
    // Forward comes back into it; the × button leaves it as a step of its own
    await page.goForward();
    await expect.poll(() => page.locator('[data-testid="compare-second"]').count()).toBe(1);
    await page.getByRole('button', { name: 'Stop comparing layers' }).click();
    await expect.poll(() => page.locator('[data-testid="compare-second"]').count()).toBe(0);
    await expect.poll(() => page.getByRole('button', { name: 'Compare layers' }).evaluate((e) => e === document.activeElement)).toBe(true);
    expect(errors).toEqual([]);
    await ctx.close();
  }, 240_000);

  test('an unknown second code in a link is reported and dropped', async () => {
    const { ctx, page } = await open(`#v=ELEVATION&cmp=swipe&v2=NOPE_XYZ${KENYA}`);
    await expect.poll(() => page.getByRole('alert').first().textContent(), { timeout: 30_000 }).toContain('NOPE_XYZ');
    await expect.poll(() => page.evaluate(() => location.hash)).not.toContain('NOPE_XYZ');
    expect(await page.locator('[data-testid="compare-second"]').count()).toBe(0);
    await ctx.close();
  }, 120_000);

  for (const [name, opts] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    test(`axe and layout in compare mode (${name}): no serious or critical violations; overlays clear of one another`, async () => {
      const found: Record<string, string[]> = {};
      for (const mode of ['swipe', 'split'] as const) {
        const { ctx, page, errors } = await open(`#v=ELEVATION&op=1&cmp=${mode}&v2=DIST_PLACE50K${KENYA}`, opts);
        await waitBoth(page);
        // a place picked on the second map: the read-out and the picked place join the overlays
        const r = (await page.locator('[data-testid="compare-second"]').boundingBox())!;
        const at = { x: r.x + r.width * 0.8, y: r.y + r.height * 0.6 };
        if (name === 'phone') await page.touchscreen.tap(at.x, at.y); else await page.mouse.click(at.x, at.y);
        await page.locator('[data-testid="picked"]').waitFor({ timeout: 20_000 });
        await expect.poll(() => page.locator('[data-testid="compare-value-b"]').textContent(), { timeout: 20_000 }).toMatch(/km/);
        await still(page);
        found[mode] = await axe(page);
        await shot(page, `compare-${name}-${mode}-axe`);
        const { map, boxes } = await overlayBoxes(page);
        const clash: string[] = [];
        for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
          const [na, a] = boxes[i], [nb, b] = boxes[j];
          if (/^(attrib|scale)/.test(na) && /^(attrib|scale)/.test(nb)) continue; // MapLibre's own controls, stacked by MapLibre
          if (intersects(a, b)) clash.push(`${na} x ${nb}`);
        }
        expect(clash, `${mode}`).toEqual([]);
        for (const [n, b] of boxes) {
          expect(b.x >= map.x - 1 && b.y >= map.y - 1 && b.x + b.width <= map.x + map.width + 1 && b.y + b.height <= map.y + map.height + 1, `${mode} ${n} inside the map`).toBe(true);
        }
        if (name === 'phone' && mode === 'split') {
          // stacked: the main map on top, the second below, each about half of the map area
          const [a, b] = await page.evaluate(() => ['__indapiMap', '__indapiMap2'].map((k) => { const r = (window as any)[k].getCanvas().getBoundingClientRect(); return { top: r.top, bottom: r.bottom, width: r.width }; }));
          expect(a.bottom).toBeLessThanOrEqual(b.top + 1);
          expect(a.width).toBeGreaterThan(380);
          expect(b.bottom - b.top).toBeGreaterThan(200);
          expect(await page.locator('.bl .legend h3').first().textContent()).toMatch(/^Top:/);
          expect(await page.locator('[data-testid="compare-legend"] .legend h3').textContent()).toMatch(/^Bottom:/);
          // legends start collapsed on a phone
          expect(await page.locator('[data-testid="compare-legend"] details.legend').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
        }
        expect(errors).toEqual([]);
        await ctx.close();
      }
      expect(found).toEqual({ swipe: [], split: [] });
    }, 240_000);
  }
});
