/**
 * Basemap water and basemap choice (issue 17, defect 4): GSHHG lakes and major rivers from the
 * bundle (basemap/lakes.geojson, basemap/rivers.geojson) are drawn over the indicator layer, so
 * Lake Victoria shows over ELEVATION; an online raster basemap of config.json can be chosen and
 * the map falls back to the bundled basemap offline or when its tiles fail. The online tiles
 * here are served by the test (a solid magenta PNG, made-up test tiles), so no network is used.
 * Screenshots: test-results/screenshots/basemap-*.png.
 */
import { describe, expect, test } from 'vitest';
import { deflateSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { startServer, type Started } from './helpers';
import { shot, waitMap, openApp, mapPoint, settle, serverAndBrowser } from './app-helpers';
import { decodePng } from './png';

let srv: Started;
let browser: Browser;

serverAndBrowser((s, b) => { srv = s; browser = b; });

/** A 256 x 256 PNG of one colour (test tile). */
function solidPng(r: number, g: number, b: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; return c >>> 0; });
  const crc = (buf: Buffer) => { let c = 0xffffffff; for (const x of buf) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8); return (c ^ 0xffffffff) >>> 0; };
  const chunk = (type: string, data: Buffer) => { const len = Buffer.alloc(4); len.writeUInt32BE(data.length); const td = Buffer.concat([Buffer.from(type, 'ascii'), data]); const c = Buffer.alloc(4); c.writeUInt32BE(crc(td)); return Buffer.concat([len, td, c]); };
  const ihdr = Buffer.alloc(13); ihdr.writeUInt32BE(256, 0); ihdr.writeUInt32BE(256, 4); ihdr[8] = 8; ihdr[9] = 2;
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(256 * 3).map((_, i) => [r, g, b][i % 3])]);
  const raw = Buffer.concat(Array.from({ length: 256 }, () => row));
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** The colour a person sees around a longitude/latitude: the most common colour of the 9 x 9 screenshot pixels there (not a line or label crossing it). */
async function colourAt(page: Page, lon: number, lat: number): Promise<[number, number, number]> {
  const p = await mapPoint(page, lon, lat);
  const img = decodePng(await page.screenshot({ clip: { x: Math.round(p.x) - 4, y: Math.round(p.y) - 4, width: 9, height: 9 } }));
  const n = new Map<number, number>();
  for (let i = 0; i < img.data.length; i += 4) { const c = (img.data[i] << 16) | (img.data[i + 1] << 8) | img.data[i + 2]; n.set(c, (n.get(c) ?? 0) + 1); }
  const c = [...n].sort((a, b) => b[1] - a[1])[0][0];
  return [c >> 16, (c >> 8) & 255, c & 255];
}

const near = (c: number[], ref: number[], tol = 24) => c.every((v, i) => Math.abs(v - ref[i]) <= tol);
const LAKE = [0xb5, 0xd3, 0xea];
const MAGENTA = [255, 0, 255];

describe('basemap water', () => {
  test('bundle: lakes and rivers listed in the manifest, Lake Victoria among the lakes, sizes fit for a first visit', () => {
    const m = JSON.parse(readFileSync('public/data/manifest.json', 'utf8')) as { files: Array<{ path: string; bytes: number }> };
    const lakes = m.files.find((f) => f.path === 'basemap/lakes.geojson');
    const rivers = m.files.find((f) => f.path === 'basemap/rivers.geojson');
    expect(lakes && rivers).toBeTruthy();
    expect(lakes!.bytes + rivers!.bytes).toBeLessThan(600_000);
    const fc = JSON.parse(readFileSync('public/data/basemap/lakes.geojson', 'utf8')) as { features: Array<{ properties: { areaKm2: number } }> };
    expect(fc.features[0].properties.areaKm2).toBeGreaterThan(55_000); // Lake Victoria, the largest
  });

  for (const [name, opts] of [['desktop', { viewport: { width: 1440, height: 900 } }], ['phone', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }]] as const) {
    test(`Lake Victoria and the Nile show over ELEVATION (${name})`, async () => {
      const { ctx, page, errors } = await openApp(browser, `${srv.url}#v=ELEVATION&op=1&map=33,-1,${name === 'phone' ? 5 : 6}`, opts);
      await waitMap(page);
      await page.waitForFunction(() => { const m = (window as any).__indapiMap; return m.querySourceFeatures('lakes').length > 0 && m.querySourceFeatures('rivers').length > 0; }, undefined, { timeout: 20_000 });
      await settle(page);
      await shot(page, `basemap-victoria-${name}`);
      expect(near(await colourAt(page, 32.6, -1.7), LAKE)).toBe(true); // lake, not the elevation colour of ~1130 m
      expect(near(await colourAt(page, 34.8, -0.5), LAKE)).toBe(false); // land east of the lake keeps its colour
      const rivers = await page.evaluate(() => (window as any).__indapiMap.queryRenderedFeatures({ layers: ['rivers-line'] }).length);
      expect(rivers).toBeGreaterThan(0);
      expect(errors).toEqual([]);
      await ctx.close();
    }, 90_000);
  }
});

describe('basemap choice', () => {
  test('an online basemap of config.json can be chosen; offline or failing tiles fall back to the bundled one', async () => {
    // the server offers the basemap (BASEMAPS), so its /config.json lists it and its CSP allows the tile host
    const basemaps = [{ id: 'test', label: 'Test tiles', tiles: ['https://tiles.test.invalid/{z}/{x}/{y}.png'], attribution: 'Test tiles (made-up)' }];
    const srvB = await startServer({ BASEMAPS: JSON.stringify(basemaps) });
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, serviceWorkers: 'block' });
    const page = await ctx.newPage();
    let fail = false;
    const tile = solidPng(255, 0, 255);
    await page.route('https://tiles.test.invalid/**', (r) => (fail ? r.fulfill({ status: 503, body: 'down' }) : r.fulfill({ contentType: 'image/png', body: tile })));
    await page.goto(`${srvB.url}#v=ELEVATION&op=1&map=45,-15,5`);
    await waitMap(page);
    const sel = page.getByRole('combobox', { name: 'Basemap' });
    expect(await sel.inputValue()).toBe('bundled');
    await sel.selectOption('test');
    await page.waitForFunction(() => { const m = (window as any).__indapiMap; return !!m.getSource('online-basemap') && m.isSourceLoaded('online-basemap'); }, undefined, { timeout: 20_000 });
    await settle(page);
    await shot(page, 'basemap-online');
    expect(near(await colourAt(page, 46.5, -16.5), MAGENTA, 10)).toBe(false); // Madagascar: the indicator over the basemap
    expect(near(await colourAt(page, 42, -14), MAGENTA, 10)).toBe(true); // the sea: the online tiles
    expect(await page.locator('.maplibregl-ctrl-attrib').textContent()).toMatch(/Test tiles/);
    // offline: back to the bundled basemap, said in words
    await ctx.setOffline(true);
    await expect.poll(() => sel.inputValue()).toBe('bundled');
    await expect.poll(() => page.locator('.basemap-control [role="status"]').textContent()).toMatch(/Offline/);
    await settle(page);
    expect(near(await colourAt(page, 42, -14), MAGENTA, 10)).toBe(false);
    // online again, but the tiles fail: back to the bundled basemap with a message
    await ctx.setOffline(false);
    fail = true;
    await page.evaluate(() => (window as any).__indapiMap.jumpTo({ center: [10, -20], zoom: 6 }));
    await sel.selectOption('test');
    await expect.poll(() => sel.inputValue(), { timeout: 20_000 }).toBe('bundled');
    expect(await page.locator('.basemap-control [role="status"]').textContent()).toMatch(/could not be loaded/);
    await ctx.close();
    await srvB.stop();
  }, 120_000);
});
