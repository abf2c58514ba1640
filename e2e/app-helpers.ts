/** Helpers of the app's end-to-end tests: browser launch, screenshots, map coordinates. */
import { mkdirSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startServer, type Started } from './helpers';

/** Launches Debian Chromium headless (WebGL through SwiftShader for MapLibre). */
export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'],
  });
}

/** An app page opened in a new context, with the page errors it raises collected. */
export interface OpenedApp { ctx: BrowserContext; page: Page; errors: string[] }

/** Opens `url` in a new browser context (`ctxOpts`, e.g. viewport) and collects its page errors. */
export async function openApp(browser: Browser, url: string, ctxOpts: Parameters<Browser['newContext']>[0] = {}): Promise<OpenedApp> {
  const ctx = await browser.newContext(ctxOpts);
  const page = await ctx.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  return { ctx, page, errors };
}

/** Saves a screenshot to test-results/screenshots/<name>.png. */
export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync('test-results/screenshots', { recursive: true });
  await page.screenshot({ path: `test-results/screenshots/${name}.png` });
}

/** Page coordinates of a longitude/latitude on the map. */
export async function mapPoint(page: Page, lon: number, lat: number): Promise<{ x: number; y: number }> {
  const p = await page.evaluate(([lo, la]) => { const m = (window as any).__indapiMap; const q = m.project([lo, la]); const r = m.getCanvas().getBoundingClientRect(); return { x: r.left + q.x, y: r.top + q.y }; }, [lon, lat]);
  return p;
}

/** Waits until the map has drawn the raster layer once. */
export async function waitMap(page: Page, timeout = 60_000): Promise<void> {
  await page.waitForFunction(() => document.body.dataset.mapRendered === '1', undefined, { timeout });
}

/**
 * Moves the map to a view and waits for it to settle ({@link settle}: drawn, including the
 * progressive drawing's finer level, so the level the zoom needs has been read).
 */
export async function jumpTo(page: Page, lon: number, lat: number, zoom: number): Promise<void> {
  await page.evaluate(([lo, la, z]) => new Promise<void>((res) => { const m = (window as any).__indapiMap; m.once('idle', () => res()); m.jumpTo({ center: [lo, la], zoom: z }); }), [lon, lat, zoom]);
  await settle(page);
}

/**
 * Waits until the ADM1 choropleth is styled on the map and a frame with it has been drawn. The
 * map object exists before its style has added the choropleth layer (getPaintProperty throws
 * then): a summary from a link can be done before the live map has started, since MapLibre's
 * download waits for it (src/ui/first-map.ts).
 */
export async function waitChoropleth(page: Page, timeout = 30_000): Promise<void> {
  await page.waitForFunction(() => { const m = (window as any).__indapiMap; try { return !!m && m.getPaintProperty('choropleth', 'fill-opacity') > 0; } catch { return false; } }, undefined, { timeout });
  await settle(page);
}

/**
 * Waits for the map to finish drawing the current state (sources loaded, one more frame
 * painted), including the progressive drawing: tiles drawn from a coarser overview are drawn
 * again from their own level (MapView's `refineOnIdle`, state in `window.__indapiRefine`).
 */
export async function settle(page: Page): Promise<void> {
  // Once the first map is drawn, the basemap's overlays (outlines, lakes, rivers) and the place
  // labels are added at the next idle moment (src/ui/first-map.ts afterFirstMap): wait until
  // both were asked for (MapView's data-map-overlays, PlaceSearch's data-place-labels), so the
  // map drawn below is the whole map. No first map (a failing layer): nothing to wait for; no
  // place search (its code failed to download): no labels to wait for.
  await page.waitForFunction(() => {
    const d = document.body.dataset;
    const noPlaceSearch = !!document.querySelector('.map-tools [data-testid="load-failed"]'); // its code did not load
    return !d.mapRendered || (!!d.mapOverlays && (!!d.placeLabels || noPlaceSearch));
  }, undefined, { timeout: 60_000, polling: 100 });
  for (let round = 0; round < 10; round++) {
    await page.evaluate(() => new Promise<void>((res) => { const m = (window as any).__indapiMap; m.once('idle', () => res()); m.triggerRepaint(); }));
    // the map's own idle listener ran first: a refinement it started is under way (busy); wait for it
    const again = await page.evaluate(async () => {
      const s = (window as any).__indapiRefine as { busy: boolean; again: boolean } | undefined;
      if (!s) return false;
      while (s.busy) await new Promise((r) => requestAnimationFrame(r));
      return s.again;
    });
    if (!again) return; // nothing was drawn again: the map shows every tile at its own level
  }
}

/**
 * Waits until the page is still: no CSS animation or transition running, then two frames
 * painted (React has committed and the browser has laid out). A wait on state, not a sleep.
 */
export async function still(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, { timeout: 30_000, polling: 'raf' });
  await page.evaluate(() => new Promise<void>((res) => requestAnimationFrame(() => requestAnimationFrame(() => res()))));
}

/** Adds a chip to a picker ("Countries or regions", "Indicators", "Summarise by"): types `text`, takes the first match with Enter. */
export async function addChip(page: Page, picker: string, text: string): Promise<void> {
  const input = page.getByRole('combobox', { name: `Add to ${picker}` });
  await input.fill(text);
  await page.getByRole('listbox', { name: picker }).getByRole('option').first().waitFor({ timeout: 10_000 });
  await input.press('Enter');
}

/**
 * One server (`startServer(env)`) and one browser for a test file: started in `beforeAll`,
 * handed to `set` (the file keeps them in its own variables), stopped in `afterAll`.
 */
export function serverAndBrowser(set: (srv: Started, browser: Browser) => void, env: Record<string, string> = {}): void {
  let srv: Started | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    srv = await startServer(env);
    browser = await launch();
    set(srv, browser);
  });
  afterAll(async () => { await browser?.close(); await srv?.stop(); });
}
