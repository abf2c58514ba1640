/**
 * The first visit on a real connection (issue 17): what comes before the first map. In a
 * fresh profile, every script and stylesheet the first map loads arrives compressed
 * (Content-Encoding br, from the precompressed build), and neither the place names
 * (places.csv) nor the service worker (its registration, hence its precache) are asked for
 * before the first map has been drawn. Order by state: the page notes, at the moment of each
 * fetch or registration, whether the map was drawn yet; MapLibre's script is asked for only
 * after the first view's COG data has been read (the preview comes first). Budgets in time and bytes are in
 * bench/app.ts (bench/first-visit.ts), not here.
 */
import { describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { type Started } from './helpers';
import { waitMap, serverAndBrowser } from './app-helpers';

describe('first visit', () => {
  let srv: Started;
  let browser: Browser;
  serverAndBrowser((s, b) => { srv = s; browser = b; }, { LOG: '0' });

  test('scripts and styles come compressed; places and the service worker come after the first map', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      const page = await ctx.newPage();
      await page.addInitScript(() => {
        const log: Array<{ what: string; mapped: boolean }> = ((window as any).__order = []);
        const mapped = () => document.body?.dataset.mapRendered === '1';
        const f = window.fetch;
        window.fetch = function (input: RequestInfo | URL, init?: RequestInit) {
          log.push({ what: typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, mapped: mapped() });
          return f.call(this, input, init);
        };
        const reg = ServiceWorkerContainer.prototype.register;
        ServiceWorkerContainer.prototype.register = function (this: ServiceWorkerContainer, ...a: Parameters<typeof reg>) {
          log.push({ what: 'register ' + String(a[0]), mapped: mapped() });
          return reg.apply(this, a);
        };
      });
      // responses of scripts and styles (page and workers) up to the first map
      const assets: Array<{ url: string; encoding: string | null; mapped: boolean }> = [];
      let drawn = false;
      // synchronous: a listener still awaiting a response's headers when the context closes rejects unhandled
      ctx.on('response', (r) => {
        const u = new URL(r.url());
        if (!/\.(js|mjs|css)$/.test(u.pathname) || r.status() !== 200) return;
        const mappedAtResponse = drawn;
        const headers = r.headers();
        const encoding = headers['content-encoding'] ?? null;
        // files under 1 KiB have no compressed variant (not worth it)
        if (!encoding && Number(headers['content-length']) < 1024) return;
        assets.push({ url: u.pathname, encoding, mapped: mappedAtResponse });
      });
      // the order of MapLibre's request and the first view's COG reads (page and workers)
      const seq: string[] = [];
      ctx.on('request', (r) => { if (/\/assets\/maplibre-gl-[^/]*\.js$/.test(r.url())) seq.push('maplibre requested'); });
      ctx.on('requestfinished', (r) => { if (r.url().endsWith('/cog/ELEVATION.tif')) seq.push('ELEVATION read'); });
      await page.goto(`${srv.url}#v=ELEVATION`);
      await waitMap(page, 120_000);
      drawn = true;
      // MapLibre's 0.4 MB wait for the first view's preview data (src/ui/first-map.ts releaseLiveMap)
      expect(seq.indexOf('maplibre requested')).toBeGreaterThan(seq.indexOf('ELEVATION read'));
      expect(seq.indexOf('ELEVATION read')).toBeGreaterThanOrEqual(0);
      // the service worker registers and takes control, and place names load, after the map
      await page.waitForFunction(() => !!navigator.serviceWorker.controller, undefined, { timeout: 120_000 });
      await page.waitForFunction(() => (window as any).__order.some((e: { what: string }) => e.what.includes('places.csv')), undefined, { timeout: 60_000 });
      const order = (await page.evaluate(() => (window as any).__order)) as Array<{ what: string; mapped: boolean }>;
      const places = order.filter((e) => e.what.includes('places.csv'));
      const regs = order.filter((e) => e.what.startsWith('register '));
      expect(places.length).toBeGreaterThan(0);
      expect(regs.length).toBe(1);
      expect(places.every((e) => e.mapped), 'places.csv fetched before the first map').toBe(true);
      expect(regs.every((e) => e.mapped), 'service worker registered before the first map').toBe(true);
      const before = assets.filter((a) => !a.mapped);
      expect(before.some((a) => /maplibre-gl-[^/]*\.js$/.test(a.url))).toBe(true);
      expect(await page.evaluate(() => document.body.dataset.mapPreview), 'the preview was drawn before the live map').toBe('1');
      expect(before.filter((a) => a.encoding !== 'br'), 'uncompressed scripts or styles before the first map').toEqual([]);
    } finally {
      await ctx.close();
    }
  }, 300_000);

  test('the first map is drawn from a coarser overview, then sharpened; the engine worker starts after it', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      const page = await ctx.newPage();
      await page.addInitScript(() => {
        const log: Array<{ url: string; mapped: boolean }> = ((window as any).__workers = []);
        const W = window.Worker;
        (window as any).Worker = class extends W {
          constructor(url: string | URL, o?: WorkerOptions) {
            log.push({ url: String(url), mapped: document.body?.dataset.mapRendered === '1' });
            super(url, o);
          }
        };
      });
      await page.goto(`${srv.url}#v=ELEVATION`);
      await waitMap(page, 120_000);
      // tiles drawn from the preview (a quarter of the cells) are drawn again from the level the zoom needs
      await page.waitForFunction(() => document.body.dataset.mapSharp === '1', undefined, { timeout: 120_000 });
      const levels = (await page.evaluate(() => (window as any).__indapiRaster.loadedLevels())) as Array<[string, number]>;
      const elevation = levels.filter(([c]) => c === 'ELEVATION').map(([, i]) => i).sort();
      expect(elevation).toEqual([1, 2]); // level 1 for zoom 3 (1440 x 900 shows the bundle's window), level 2 its preview
      const workers = (await page.evaluate(() => (window as any).__workers)) as Array<{ url: string; mapped: boolean }>;
      expect(workers.some((w) => /raster\.worker/.test(w.url) && !w.mapped), 'the raster worker starts before the first map').toBe(true);
      expect(workers.filter((w) => /engine\.worker/.test(w.url) && !w.mapped), 'the engine worker started before the first map').toEqual([]);
      // the engine starts on first use, and answers
      const n = await page.evaluate(async () => ((await (window as any).__indapiEngine().catalog()) as unknown[]).length);
      expect(n).toBeGreaterThan(10);
    } finally {
      await ctx.close();
    }
  }, 300_000);
});
