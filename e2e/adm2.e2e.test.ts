/**
 * The app on an ADM2 bundle ingested at test time from the committed fixture
 * (tests/ingest/fixtures/cells.fixture.csv: MADE-UP values, 36 cells of Côte d'Ivoire and São
 * Tomé with invented units; "Centre" is a district of Lagunes and Nord in Côte d'Ivoire and of
 * Nord and São Tomé in São Tomé and Príncipe): a summary by ADM2_NAME_ALT lists the four
 * "Centre" districts apart, the choropleth draws the districts of basemap/admin2.geojson
 * (rendered features and pixels), hovering a district reads that district's value, and no
 * request fails (no 404 console error); the server's plot by ADM2 draws the district outlines.
 * Also: a bundle ingested without ADM2 units and the embedded bundle request no
 * admin2.geojson. Screenshots at 1440x900 and 390x844.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ingestTable } from '../src/node/ingest';
import { startServer, type Started } from './helpers';
import { launch, mapPoint, settle, shot, waitChoropleth } from './app-helpers';
import { decodePng } from './png';

const TABLE = 'tests/ingest/fixtures/cells.fixture.csv';
const VI = 'tests/ingest/fixtures/vi.fixture.csv';

let dir: string;
let browser: Browser;
const servers: Started[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'e2e-adm2-'));
  const res = await ingestTable({ table: TABLE, catalog: VI, out: join(dir, 'adm2') });
  expect(res.ok).toBe(true);
  // the same table without ADM2 units
  const rows = Papa.parse<string[]>(readFileSync(TABLE, 'utf8'), { skipEmptyLines: true }).data;
  const j = rows[0].indexOf('ADM2_NAME_ALT');
  writeFileSync(join(dir, 'no-adm2.csv'), Papa.unparse(rows.map((r, i) => (i === 0 ? r : r.map((v, k) => (k === j ? '' : v)))), { newline: '\n' }) + '\n');
  expect((await ingestTable({ table: join(dir, 'no-adm2.csv'), catalog: VI, out: join(dir, 'no-adm2') })).ok).toBe(true);
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  for (const s of servers) await s.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function serve(dataDir?: string): Promise<Started> {
  const s = await startServer({ LOG: '0', ...(dataDir ? { DATA_DIR: dataDir } : {}) });
  servers.push(s);
  return s;
}

/** Opens the app; collects page errors, console errors and failed responses/requests. */
async function open(srv: Started, hash: string, ctxOpts: Parameters<Browser['newContext']>[0] = {}): Promise<{ ctx: BrowserContext; page: Page; errors: string[]; requested: string[] }> {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, ...ctxOpts });
  const page = await ctx.newPage();
  const errors: string[] = [];
  const requested: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${String(e)}`));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  page.on('response', (r) => { if (r.status() >= 400) errors.push(`HTTP ${r.status()} ${r.url()}`); });
  page.on('requestfailed', (r) => errors.push(`failed ${r.url()}`));
  page.on('request', (r) => requested.push(r.url()));
  ctx.on('request', (r) => requested.push(r.url())); // service worker requests too
  await page.goto(srv.url + hash);
  return { ctx, page, errors, requested };
}

/** Summary rows of the result table: the text of each cell by column. */
async function tableRows(page: Page, min = 4): Promise<Array<Record<string, string>>> {
  const res = page.locator('[data-testid="summary-result"]');
  await expect.poll(() => res.locator('tbody tr').count(), { timeout: 90_000 }).toBeGreaterThanOrEqual(min);
  return res.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => Object.fromEntries([...tr.querySelectorAll('td[data-col]')].map((td) => [td.getAttribute('data-col')!, (td.textContent ?? '').trim()]))));
}

/** Waits until the choropleth fill is on the admin2 outlines and drawn. */
async function waitAdm2Choropleth(page: Page): Promise<void> {
  await page.waitForFunction(() => { const m = (window as any).__indapiMap; try { return !!m && m.getLayer('choropleth')?.source === 'admin2' && m.getPaintProperty('choropleth', 'fill-opacity') > 0; } catch { return false; } }, undefined, { timeout: 30_000 });
  await waitChoropleth(page);
}

/** The choropleth's colour of an outline value (from the layer's `match` expression). */
function colourOf(page: Page, value: number): Promise<string | null> {
  return page.evaluate((v) => {
    const e = (window as any).__indapiMap.getPaintProperty('choropleth', 'fill-color') as unknown[];
    for (let i = 2; i + 1 < e.length; i += 2) if (e[i] === v) return String(e[i + 1]);
    return null;
  }, value);
}

const hex = (c: string) => [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16));

// District centres of the fixture (each district is 3 x 2 cells).
const CIV_NORD_CENTRE: [number, number] = [-4.875, 7.4167];
const CIV_LAGUNES_CENTRE: [number, number] = [-4.875, 6.9167];
const CIV_NORD_KORHOGO: [number, number] = [-4.5417, 7.4167];

describe('an ingested ADM2 bundle', () => {
  test('1440x900: a summary by ADM2_NAME_ALT keeps same-named districts apart; the choropleth draws the districts; hover reads the district', async () => {
    const srv = await serve(join(dir, 'adm2'));
    const { ctx, page, errors, requested } = await open(srv, '#v=RAIN_FIX&vars=RAIN_FIX&iso=CIV,STP&by=ADM2_NAME_ALT&run=summary&map=-4.7,7.17,9');
    const rows = await tableRows(page);
    const centre = rows.filter((r) => r.ADM2_NAME_ALT === 'Centre');
    expect(centre.length).toBe(4);
    expect(new Set(centre.map((r) => `${r.ADM0_NAME ?? r.ISO3} / ${r.ADM1_NAME_ALT}`)).size).toBe(4);
    expect(centre.map((r) => r.ADM1_NAME_ALT).sort()).toEqual(['Lagunes', 'Nord', 'Nord', 'São Tomé']);
    await waitAdm2Choropleth(page);

    // rendered features of the admin2 outlines under the choropleth, at the districts' centres
    const valueAt = (p: [number, number]) => page.evaluate(([lon, lat]) => {
      const m = (window as any).__indapiMap;
      const f = m.queryRenderedFeatures(m.project([lon, lat]), { layers: ['choropleth'] });
      return f.map((x: any) => [x.source, x.properties.value, x.properties.name, x.properties.adm1]);
    }, p);
    // the outlines load after the first map (src/ui/first-map.ts): wait until the districts are drawn
    await expect.poll(() => valueAt(CIV_NORD_CENTRE), { timeout: 30_000 }).toEqual([['admin2', expect.any(Number), 'Centre', 'Nord']]);
    await expect.poll(() => valueAt(CIV_LAGUNES_CENTRE), { timeout: 30_000 }).toEqual([['admin2', expect.any(Number), 'Centre', 'Lagunes']]);
    const nord = await valueAt(CIV_NORD_CENTRE), lagunes = await valueAt(CIV_LAGUNES_CENTRE);
    const drawn = await page.evaluate(() => (window as any).__indapiMap.queryRenderedFeatures({ layers: ['choropleth'] }).map((f: any) => f.properties.value));
    expect(new Set(drawn).size).toBe(4); // the four districts of Côte d'Ivoire in view

    // pixels: the districts' centres have their choropleth colours
    await settle(page);
    const img = decodePng(await page.screenshot());
    for (const [p, v] of [[CIV_NORD_CENTRE, nord[0][1]], [CIV_LAGUNES_CENTRE, lagunes[0][1]], [CIV_NORD_KORHOGO, (await valueAt(CIV_NORD_KORHOGO))[0][1]]] as Array<[[number, number], number]>) {
      const c = await colourOf(page, v);
      expect(c, `colour of ${v}`).toMatch(/^#[0-9a-f]{6}$/i);
      const { x, y } = await mapPoint(page, p[0], p[1]);
      const k = (Math.round(y) * img.width + Math.round(x)) * 4;
      const px = [img.data[k], img.data[k + 1], img.data[k + 2]];
      hex(c!).forEach((ch, i) => expect(Math.abs(ch - px[i]), `pixel of ${v} at ${p}`).toBeLessThanOrEqual(3));
    }

    // hover: each "Centre" reads its own district's value from the table
    const civ = (r: Record<string, string>) => (r.ISO3 ?? r.ADM0_NAME) !== undefined && /CIV|Côte/.test(r.ISO3 ?? r.ADM0_NAME);
    const tableValue = (adm1: string) => centre.find((r) => r.ADM1_NAME_ALT === adm1 && civ(r))!.RAIN_FIX;
    for (const [p, adm1] of [[CIV_NORD_CENTRE, 'Nord'], [CIV_LAGUNES_CENTRE, 'Lagunes']] as Array<[[number, number], string]>) {
      const { x, y } = await mapPoint(page, p[0], p[1]);
      await page.mouse.move(x, y);
      await expect.poll(() => page.locator('[data-testid="hover-info"]').textContent(), { timeout: 20_000 }).toContain(`ADM2Centre`);
      await expect.poll(() => page.locator('[data-testid="hover-info"]').textContent(), { timeout: 20_000 }).toContain(`ADM1${adm1}`);
      await expect.poll(() => page.locator('[data-testid="hover-value"]').textContent(), { timeout: 20_000 }).toContain(tableValue(adm1));
    }
    expect(tableValue('Nord')).not.toBe(tableValue('Lagunes'));
    await shot(page, 'adm2-01-districts-1440');
    expect(requested.some((u) => u.endsWith('basemap/admin2.geojson'))).toBe(true);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  test('390x844: the district choropleth and its legend on a phone', async () => {
    const srv = servers[0] ?? (await serve(join(dir, 'adm2')));
    const { ctx, page, errors } = await open(srv, '#v=RAIN_FIX&vars=RAIN_FIX&iso=CIV&by=ADM2_NAME_ALT&run=summary&map=-4.7,7.1,7.6', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await tableRows(page);
    await waitAdm2Choropleth(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await settle(page);
    const drawnValues = () => page.evaluate(() => new Set((window as any).__indapiMap.queryRenderedFeatures({ layers: ['choropleth'] }).map((f: any) => f.properties.value)).size);
    await expect.poll(drawnValues, { timeout: 30_000 }).toBe(4); // the outlines load after the first map
    await expect.poll(() => page.locator('details[aria-label="Choropleth legend"]').count()).toBe(1);
    await shot(page, 'adm2-02-districts-390');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  test('the server\'s plot by ADM2_NAME_ALT draws the traced district outlines and credits them', async () => {
    const srv = servers[0] ?? (await serve(join(dir, 'adm2')));
    const r = await fetch(`${srv.url}ocpu/library/indapi3/R/indapi`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ var: 'RAIN_FIX', iso3: ['CIV', 'STP'], by: ['ADM2_NAME_ALT'], format: 'plot' }) });
    expect(r.status).toBe(201);
    const key = r.headers.get('x-ocpu-session');
    const svg = await (await fetch(`${srv.url}ocpu/tmp/${key}/graphics/1/svg`)).text();
    expect(svg).toContain('<svg');
    expect(svg).toMatch(/<path d="M[^"]+" fill="none" stroke="#8a8a8a"/);
    expect(svg).toContain('Admin-2 outlines: traced from the cells of cells.fixture.csv');
  });

  test('without admin-2 outlines (a bundle ingested without ADM2 units; the embedded bundle): the ADM1 choropleth on admin1.geojson, no request for admin2.geojson, no failed request', async () => {
    const srv = await serve(join(dir, 'no-adm2'));
    const { ctx, page, errors, requested } = await open(srv, '#v=RAIN_FIX&vars=RAIN_FIX&iso=CIV&by=ADM1_NAME_ALT&run=summary&map=-4.7,7.17,8.5');
    const rows = await tableRows(page, 3);
    expect(rows.filter((r) => r.ADM1_NAME_ALT === 'Nord').length).toBe(1);
    await waitChoropleth(page);
    expect(await page.evaluate(() => (window as any).__indapiMap.getLayer('choropleth').source)).toBe('admin1');
    // the outlines load after the first map (src/ui/first-map.ts): wait until both units are drawn
    const drawnNames = () => page.evaluate(() => [...new Set((window as any).__indapiMap.queryRenderedFeatures({ layers: ['choropleth'] }).map((f: any) => f.properties.name as string))].sort());
    await expect.poll(drawnNames, { timeout: 30_000 }).toEqual(['Lagunes', 'Nord']); // the traced admin1.geojson
    expect(requested.filter((u) => u.includes('admin2'))).toEqual([]);
    expect(requested.some((u) => u.endsWith('basemap/admin1.geojson'))).toBe(true);
    expect(errors).toEqual([]);
    await ctx.close();

    // the embedded bundle: as before; a summary by ADM1_CODE_ALT joins on the ADM1_NAME_ALT table's code (its five provinces)
    const emb = await serve();
    const e = await open(emb, '#v=ELEVATION&vars=ELEVATION&iso=RWA&by=ADM1_CODE_ALT&run=summary&map=29.9,-2,7.5');
    await tableRows(e.page);
    await waitChoropleth(e.page);
    const styled = await e.page.evaluate(() => { const m = (window as any).__indapiMap; const x = m.getPaintProperty('choropleth', 'fill-color'); return { source: m.getLayer('choropleth').source, n: (x.length - 3) / 2 }; });
    expect(styled).toEqual({ source: 'admin1', n: 5 });
    expect(e.requested.filter((u) => u.includes('admin2') || u.includes('ADM2'))).toEqual([]);
    expect(e.errors).toEqual([]);
    await e.ctx.close();
  });
});
