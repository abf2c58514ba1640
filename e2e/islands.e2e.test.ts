/**
 * The app on a bundle ingested at test time from the generated island table
 * (tests/ingest/fixtures/islands.fixture.ts: MADE-UP values; cells of British Indian Ocean
 * Territory, Tristan da Cunha and Gough, the Prince Edward Islands, outside the embedded
 * bundle's window [-26, -35, 64, 28]): choosing IOT fits the map to the Chagos cells, the
 * raster is drawn there (the layer's pixels differ from the map without it) and hovering
 * Diego Garcia reads its CELL5M and value; no request fails. Screenshot at 1440x900.
 * The service worker answers the contract on that window (IOT total, WKT point on Tristan da
 * Cunha, a shape outside the window names it).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { ingestTable } from '../src/node/ingest';
import { startServer, type Started } from './helpers';
import { launch, mapPoint, settle, shot, waitMap } from './app-helpers';
import { decodePng } from './png';
import { fixtureCatalog, islandTable } from '../tests/ingest/fixtures/islands.fixture';

let dir: string;
let browser: Browser;
let srv: Started;
let rows: Array<Record<string, string>>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'e2e-islands-'));
  writeFileSync(join(dir, 'islands.csv'), islandTable());
  writeFileSync(join(dir, 'vi.csv'), fixtureCatalog('tests/ingest/fixtures'));
  rows = Papa.parse<Record<string, string>>(readFileSync(join(dir, 'islands.csv'), 'utf8'), { header: true, skipEmptyLines: true }).data;
  const res = await ingestTable({ table: join(dir, 'islands.csv'), catalog: join(dir, 'vi.csv'), out: join(dir, 'bundle') });
  expect(res.ok, JSON.stringify(res.findings)).toBe(true);
  srv = await startServer({ LOG: '0', DATA_DIR: join(dir, 'bundle') });
  browser = await launch();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await srv?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('an ingested bundle with outer islands', () => {
  test('1440x900: IOT fits the map to the Chagos cells, the raster is drawn there, hover reads Diego Garcia', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(`pageerror: ${String(e)}`));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
    page.on('response', (r) => { if (r.status() >= 400) errors.push(`HTTP ${r.status()} ${r.url()}`); });
    await page.goto(`${srv.url}#v=POP_FIX&iso=IOT&op=1`);
    await waitMap(page);
    const iot = rows.filter((r) => r.ISO3 === 'IOT');
    const west = Math.min(...iot.map((r) => Number(r.X))) - 1 / 24, east = Math.max(...iot.map((r) => Number(r.X))) + 1 / 24;
    const south = Math.min(...iot.map((r) => Number(r.Y))) - 1 / 24, north = Math.max(...iot.map((r) => Number(r.Y))) + 1 / 24;
    // the fit: the view holds the IOT cells and is centred on them (not on the mainland)
    await page.waitForFunction(([w, s, e, n]) => {
      const m = (window as any).__indapiMap;
      if (!m || m.isMoving()) return false;
      const b = m.getBounds();
      return b.getWest() <= w && b.getEast() >= e && b.getSouth() <= s && b.getNorth() >= n && m.getZoom() > 5;
    }, [west, south, east, north], { timeout: 30_000 });
    const c = await page.evaluate(() => (window as any).__indapiMap.getCenter().toArray() as [number, number]);
    expect(c[0]).toBeGreaterThan(west - 1);
    expect(c[0]).toBeLessThan(east + 1);
    expect(c[1]).toBeGreaterThan(south - 1);
    expect(c[1]).toBeLessThan(north + 1);
    await settle(page);

    // the raster is drawn over Diego Garcia: its pixel changes when the layer is hidden
    const dg = iot.find((r) => r.ADM2_NAME_ALT === 'Diego Garcia')!;
    const p = await mapPoint(page, Number(dg.X), Number(dg.Y));
    const pixel = async () => {
      const img = decodePng(await page.screenshot());
      const k = (Math.round(p.y) * img.width + Math.round(p.x)) * 4;
      return [img.data[k], img.data[k + 1], img.data[k + 2]];
    };
    const withRaster = await pixel();
    await shot(page, 'islands-iot-1440');
    await page.evaluate(() => (window as any).__indapiMap.setLayoutProperty('raster', 'visibility', 'none'));
    await settle(page);
    const without = await pixel();
    expect(withRaster, 'the raster pixel over Diego Garcia').not.toEqual(without);
    await page.evaluate(() => (window as any).__indapiMap.setLayoutProperty('raster', 'visibility', 'visible'));
    await settle(page);

    // hover: the CELL5M and value of the Diego Garcia cell (outside the embedded window)
    await page.mouse.move(p.x, p.y);
    const info = page.locator('[data-testid="hover-info"]');
    await expect.poll(() => info.textContent(), { timeout: 20_000 }).toContain(dg.CELL5M);
    await expect.poll(() => info.textContent(), { timeout: 20_000 }).toContain('IOT');
    expect(errors).toEqual([]);
    await ctx.close();
  }, 180_000);

  test('the service worker answers the contract on the bundle window: IOT total, a WKT point on Tristan da Cunha, a shape outside the window', async () => {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await page.goto(srv.url);
    await page.evaluate(async () => {
      if (!navigator.serviceWorker.controller) {
        await navigator.serviceWorker.register('./sw.js');
        await navigator.serviceWorker.ready;
        if (!navigator.serviceWorker.controller) await new Promise<void>((r) => navigator.serviceWorker.addEventListener('controllerchange', () => r(), { once: true }));
      }
    });
    const call = (method: string, body: string) => page.evaluate(async ([m, b]) => {
      const r = await fetch(`./ocpu/library/indapi3/R/${m}/json`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: b });
      const key = r.headers.get('x-ocpu-session');
      const info = key ? await (await fetch(`./ocpu/tmp/${key}/info`)).text() : '';
      return { status: r.status, text: await r.text(), info };
    }, [method, body]);
    const iot = await call('indapi', JSON.stringify({ var: 'POP_FIX', iso3: 'IOT' }));
    expect(iot.status, iot.text).toBe(201);
    expect(iot.info).toContain('Runtime: service worker');
    expect(JSON.parse(iot.text)[0].POP_FIX).toBe(rows.filter((r) => r.ISO3 === 'IOT').reduce((t, r) => t + Number(r.POP_FIX), 0));
    const tdc = rows.find((r) => r.ADM2_NAME_ALT === 'Tristan da Cunha')!;
    const w = await call('getLayerWKT', JSON.stringify({ var: 'POP_FIX', wkt: `POINT (${Number(tdc.X) + 0.01} ${Number(tdc.Y) - 0.01})` }));
    expect(w.status, w.text).toBe(201);
    expect(JSON.parse(w.text)[0]).toMatchObject({ ISO3: 'SHN', POP_FIX: Number(tdc.POP_FIX) });
    const out = await call('getLayerWKT', JSON.stringify({ var: 'POP_FIX', wkt: 'POINT (100 50)' }));
    expect(out.status).toBe(400);
    expect(out.text).toMatch(/outside the grid of the bundle \[-12\.33/);
    await ctx.close();
  }, 120_000);
});
