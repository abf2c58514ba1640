/**
 * Map export as SVG and PDF (issue 11, "Export the current map view as PNG (and SVG/PDF) with
 * legend, scale bar and attribution"): the files are downloaded from the running app in
 * Chromium and read with real readers: the SVG with Python's xml.etree (well-formed XML), its
 * embedded map image decoded as PNG; the PDF with poppler-utils (pdfinfo, pdftotext,
 * pdfimages; Debian package poppler-utils). Renders of both are kept under
 * test-results/screenshots/ to be looked at. An A4 300-dpi export shows its steps and Cancel
 * stops it, downloading nothing (issue 26).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startServer, type Started } from './helpers';
import { launch, shot, waitMap, openApp, waitChoropleth } from './app-helpers';
import { decodePng } from './png';

let srv: Started;
let browser: Browser;
const OUT = 'test-results/map-export';

beforeAll(async () => {
  srv = await startServer();
  browser = await launch();
  mkdirSync(OUT, { recursive: true });
  mkdirSync('test-results/screenshots', { recursive: true });
});
afterAll(async () => { await browser?.close(); await srv?.stop(); });

async function open(hash: string, viewport: { width: number; height: number }): Promise<{ ctx: BrowserContext; page: Page; errors: string[] }> {
  const { ctx, page, errors } = await openApp(browser, srv.url + hash, { viewport, acceptDownloads: true });
  await waitMap(page);
  await page.locator('.place-label').first().waitFor({ timeout: 20_000 });
  return { ctx, page, errors };
}

/** Picks the format (and size) with the keyboard, presses Save map and returns the download's bytes; checks the button is disabled while the file builds. */
async function save(page: Page, format: 'SVG' | 'PDF' | 'PNG', file: string, size?: string): Promise<{ bytes: Buffer; name: string }> {
  const sel = page.getByRole('combobox', { name: 'Map export format' });
  await sel.focus();
  await sel.selectOption({ label: format });
  if (size) await page.getByRole('combobox', { name: 'Map export size' }).selectOption({ label: size });
  const button = page.locator('[data-testid="map-export"] button');
  await button.focus();
  const busy = page.waitForFunction(() => { const b = document.querySelector<HTMLButtonElement>('[data-testid="map-export"] button'); return !!b?.disabled && b.textContent === 'Saving…'; }, undefined, { polling: 'raf', timeout: 30_000 });
  const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 170_000 }), page.keyboard.press('Enter'), busy]);
  const bytes = readFileSync((await dl.path())!);
  writeFileSync(join(OUT, file), bytes);
  await expect.poll(() => button.isDisabled()).toBe(false);
  expect(await button.textContent()).toBe('Save map');
  return { bytes, name: dl.suggestedFilename() };
}

/** Texts, image hrefs and path count of an SVG, read with Python's xml.etree (fails on XML that is not well-formed). */
function readSvg(file: string): { texts: string[]; images: string[]; vectorPaths: number; width: number; height: number } {
  const py = `
import json, sys, xml.etree.ElementTree as ET
ns = {'s': 'http://www.w3.org/2000/svg'}
root = ET.parse(sys.argv[1]).getroot()
texts = [''.join(t.itertext()) for t in root.iter('{http://www.w3.org/2000/svg}text')]
imgs = [i.get('href') or i.get('{http://www.w3.org/1999/xlink}href') for i in root.iter('{http://www.w3.org/2000/svg}image')]
vec = root.find(".//s:g[@id='map-vectors']", ns)
print(json.dumps({'texts': texts, 'images': imgs, 'vectorPaths': 0 if vec is None else len(list(vec)), 'width': float(root.get('width')), 'height': float(root.get('height'))}))
`;
  return JSON.parse(execFileSync('python3', ['-c', py, file], { maxBuffer: 64 * 1024 * 1024 }).toString());
}

/** Distinct colours in a PNG, sampled every 97th pixel. */
function colours(png: Uint8Array): number {
  const img = decodePng(png);
  const s = new Set<number>();
  for (let i = 0; i < img.data.length; i += 4 * 97) s.add((img.data[i] << 16) | (img.data[i + 1] << 8) | img.data[i + 2]);
  return s.size;
}

/** Bounding box of the pixels that are not white in a PNG (px). */
function inkBox(png: Uint8Array): { x: number; y: number; w: number; h: number } {
  const img = decodePng(png);
  let x0 = img.width, y0 = img.height, x1 = -1, y1 = -1;
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      const i = (y * img.width + x) * 4;
      if (img.data[i] < 245 || img.data[i + 1] < 245 || img.data[i + 2] < 245) { if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y; }
    }
  }
  return { x: x0, y: y0, w: x1 - x0 + 1, h: y1 - y0 + 1 };
}

/** Share of pixels of two same-size images whose channels all differ by at most 24 (`same`). */
function agreement(a: { width: number; height: number; data: Uint8Array }, b: { width: number; height: number; data: Uint8Array }): { same: number } {
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  let same = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    if (Math.abs(a.data[i] - b.data[i]) <= 24 && Math.abs(a.data[i + 1] - b.data[i + 1]) <= 24 && Math.abs(a.data[i + 2] - b.data[i + 2]) <= 24) same++;
  }
  return { same: same / (a.width * a.height) };
}

const LEGEND = ['< 0 m', '0 - 200 m', '200 - 500 m', '500 - 1000 m', '1000 - 1500 m', '1500 - 2000 m', '2000 - 3000 m', '> 3000 m'];

describe('map export: SVG and PDF', () => {
  test('SVG (1440x900): well-formed, title/legend/scale/attribution as text, the map as an embedded PNG with real pixels, outlines as paths', async () => {
    const wkt = 'POLYGON ((36.6 -1.45, 37 -1.45, 37 -1.15, 36.6 -1.15, 36.6 -1.45))';
    const { ctx, page, errors } = await open(`#v=ELEVATION&map=37.5,0.3,5&wkt=${encodeURIComponent(wkt)}`, { width: 1440, height: 900 });
    await page.waitForFunction(() => { const m = (window as any).__indapiMap; return m.getSource('areas') && m.querySourceFeatures('areas').length > 0; }, undefined, { timeout: 20_000 });
    await page.getByRole('combobox', { name: 'Map export format' }).selectOption({ label: 'SVG' });
    await shot(page, 'map-export-control-1440');
    const { name } = await save(page, 'SVG', 'map-1440.svg');
    expect(name).toBe('map-ELEVATION.svg');
    const svg = readSvg(join(OUT, 'map-1440.svg'));
    const size = await page.evaluate(() => { const r = (window as any).__indapiMap.getContainer().getBoundingClientRect(); return [Math.round(r.width), Math.round(r.height)]; });
    expect([svg.width, svg.height]).toEqual(size);
    expect(svg.texts).toContain('Elevation (ETOPO5)');
    expect(svg.texts).toContain('1988 · unit: m');
    expect(svg.texts).toContain('ELEVATION (m)');
    for (const l of LEGEND) expect(svg.texts).toContain(l);
    expect(svg.texts).toContain('N');
    expect(svg.texts.some((t) => /^\d+ km$/.test(t))).toBe(true);
    const attr = svg.texts.filter((t) => t.includes('GeoNames') || t.includes('Natural Earth') || t.includes('ETOPO5')).join(' ');
    expect(attr).toContain('ELEVATION: ETOPO5');
    expect(attr).toContain('Basemap: Natural Earth');
    expect(attr).toContain('Places: GeoNames (CC BY 4.0)');
    // place labels drawn on the map are text too
    const places = await page.locator('.place-label').allTextContents();
    expect(svg.texts).toEqual(expect.arrayContaining(places.map((p) => p.trim()).filter(Boolean).slice(0, 5)));
    // the embedded map: a PNG of the canvas's pixel size with many colours (the elevation layer)
    expect(svg.images).toHaveLength(1);
    const m = /^data:image\/png;base64,(.+)$/.exec(svg.images[0]);
    expect(m).not.toBeNull();
    const png = new Uint8Array(Buffer.from(m![1], 'base64'));
    const img = decodePng(png);
    const cv = await page.evaluate(() => { const c = (window as any).__indapiMap.getCanvas(); return [c.width, c.height]; });
    expect([img.width, img.height]).toEqual(cv);
    // not blank: the elevation classes cover most of the view (pixels that are neither the ocean nor the plain land colour)
    expect(colours(png)).toBeGreaterThanOrEqual(8);
    let layer = 0;
    for (let i = 0; i < img.data.length; i += 4) {
      const c = (img.data[i] << 16) | (img.data[i + 1] << 8) | img.data[i + 2];
      if (c !== 0xd7e6f0 && c !== 0xf4f2ec && img.data[i + 3] === 255) layer++;
    }
    expect(layer / (img.width * img.height)).toBeGreaterThan(0.5);
    // country and province outlines and the drawn shape are vector paths; the shape at its place on the map
    expect(svg.vectorPaths).toBeGreaterThanOrEqual(4);
    const raw = readFileSync(join(OUT, 'map-1440.svg'), 'utf8');
    const shape = /<path d="M([\d.]+) ([\d.]+)L[^"]*" fill="#ff6a00" fill-opacity="0.15"/.exec(raw);
    expect(shape).not.toBeNull();
    const corner = await page.evaluate(() => (window as any).__indapiMap.project([36.6, -1.45]));
    expect(Math.abs(Number(shape![1]) - corner.x)).toBeLessThan(1);
    expect(Math.abs(Number(shape![2]) - corner.y)).toBeLessThan(1);
    expect(raw).toMatch(/stroke="#d94f00" stroke-width="2"/);
    // a render of the SVG file (Chromium) for the screenshots folder
    const view = await ctx.newPage();
    await view.setViewportSize({ width: 1440, height: 900 });
    await view.goto(`data:image/svg+xml;base64,${readFileSync(join(OUT, 'map-1440.svg')).toString('base64')}`);
    await view.screenshot({ path: 'test-results/screenshots/map-export-svg-1440.png' });
    expect(errors).toEqual([]);
    await ctx.close();
  });

  for (const [vp, viewport] of [['1440', { width: 1440, height: 900 }], ['390', { width: 390, height: 844 }]] as const) {
    test(`PDF (${vp}): one A4 page oriented as the map with the title, legend labels and attribution as text and the map as an image`, async () => {
      const { ctx, page, errors } = await open('#v=ELEVATION&map=37.5,0.3,5', viewport);
      await page.getByRole('combobox', { name: 'Map export format' }).selectOption({ label: 'PDF' });
      await shot(page, `map-export-control-${vp}`);
      const { name } = await save(page, 'PDF', `map-${vp}.pdf`);
      expect(name).toBe('map-ELEVATION.pdf');
      const file = join(OUT, `map-${vp}.pdf`);
      const info = execFileSync('pdfinfo', [file]).toString();
      expect(info).toMatch(/^Pages:\s+1$/m);
      const [w, h] = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(info)!.slice(1).map(Number);
      expect([Math.round(Math.max(w, h)), Math.round(Math.min(w, h))]).toEqual([842, 595]);
      const [mw, mh] = await page.evaluate(() => { const r = (window as any).__indapiMap.getContainer().getBoundingClientRect(); return [r.width, r.height]; });
      expect(w > h).toBe(mw >= mh);
      const text = execFileSync('pdftotext', ['-raw', file, '-']).toString();
      const flat = text.replace(/\s+/g, ' ');
      expect(flat).toContain('Elevation (ETOPO5)');
      expect(flat).toContain('1988 · unit: m');
      for (const l of LEGEND) expect(flat).toContain(l);
      expect(flat).toMatch(/\d+ km/);
      expect(flat).toContain('ELEVATION: ETOPO5');
      expect(flat).toContain('Natural Earth');
      expect(flat).toContain('GeoNames');
      // the page carries the map as an image rendered for the page at 150 dpi (A4 within 28-pt margins: 277.2 x 190.2 mm)
      const images = execFileSync('pdfimages', ['-list', file]).toString().trim().split('\n').slice(2).map((l) => l.trim().split(/\s+/));
      expect(images.length).toBeGreaterThanOrEqual(1);
      const a4px = w > h ? [1637, 1123] : [1123, 1637];
      expect(images.some((r) => Math.abs(Number(r[3]) - a4px[0]) <= 2 && Math.abs(Number(r[4]) - a4px[1]) <= 2)).toBe(true);
      // the rendered page shows the map (many colours), filling the page within its margins (no blank fifth)
      execFileSync('pdftoppm', ['-png', '-r', '72', '-singlefile', file, join(OUT, `map-${vp}-page`)]);
      const page1 = readFileSync(join(OUT, `map-${vp}-page.png`));
      writeFileSync(`test-results/screenshots/map-export-pdf-${vp}.png`, page1);
      expect(colours(new Uint8Array(page1))).toBeGreaterThan(20);
      const bb = inkBox(new Uint8Array(page1));
      expect(bb.w).toBeGreaterThanOrEqual(Math.round(w) - 2 * 28 - 6);
      expect(bb.h).toBeGreaterThanOrEqual(Math.round(h) - 2 * 28 - 8);
      expect(errors).toEqual([]);
      await ctx.close();
    });
  }

  test('sizes and legends (1440x900): A4 at 150 dpi PNG rendered at the page size, oriented as the map; SVG with both legends (choropleth and the layer under it); labels inside the view and clear of the title', async () => {
    const { ctx, page, errors } = await open('#v=ELEVATION&vars=ELEVATION&iso=KEN&by=ADM1_NAME_ALT&run=summary&map=37.9,0.2,5.6', { width: 1440, height: 900 });
    await waitChoropleth(page);
    await page.getByRole('combobox', { name: 'Map export size' }).selectOption({ label: 'A4, 150 dpi' });
    await shot(page, 'map-export-size-1440');
    const [mw, mh] = await page.evaluate(() => { const r = (window as any).__indapiMap.getContainer().getBoundingClientRect(); return [Math.round(r.width), Math.round(r.height)]; });
    const { bytes } = await save(page, 'PNG', 'map-a4-150.png', 'A4, 150 dpi');
    const png = decodePng(new Uint8Array(bytes));
    expect([png.width, png.height]).toEqual(mw >= mh ? [1754, 1240] : [1240, 1754]); // 297 x 210 mm at 150 dpi
    expect(colours(new Uint8Array(bytes))).toBeGreaterThan(20);
    writeFileSync('test-results/screenshots/map-export-a4-150.png', bytes);
    // the PNG (written by the export's own encoder, workers/image-encode.worker.ts) read by libpng through GDAL (gdal-bin)
    expect(execFileSync('gdalinfo', [join(OUT, 'map-a4-150.png')]).toString()).toContain(`Size is ${png.width}, ${png.height}`);
    // issue 26: the A4 map is drawn on a 2D canvas, no WebGL read-back; it must show what the map
    // shows: the same file by the old path (a hidden MapLibre map read back from WebGL) agrees pixel by pixel
    await page.evaluate(() => { (window as any).__indapiExportPath = 'webgl'; });
    const { bytes: ref } = await save(page, 'PNG', 'map-a4-150-webgl.png', 'A4, 150 dpi');
    await page.evaluate(() => { delete (window as any).__indapiExportPath; });
    const agree = agreement(png, decodePng(new Uint8Array(ref)));
    expect(agree.same).toBeGreaterThan(0.97);
    await save(page, 'SVG', 'map-two-legends.svg', 'Screen size');
    const svg = readSvg(join(OUT, 'map-two-legends.svg'));
    expect([svg.width, svg.height]).toEqual([mw, mh]);
    // both legends: the choropleth's values and the elevation classes of the layer under it
    // the choropleth's heading names its indicator (issue 23), not "Value (m)"
    expect(svg.texts).not.toContain('Value (m)');
    expect(svg.texts.some((t) => /^Elevation.*\(m\)$/.test(t) && !/under it/.test(t))).toBe(true);
    expect(svg.texts.some((t) => /^Elevation .*under it \(m\)$/.test(t))).toBe(true);
    for (const l of LEGEND) expect(svg.texts).toContain(l);
    const raw = readFileSync(join(OUT, 'map-two-legends.svg'), 'utf8');
    const title = /<g id="title"><rect x="(\d+)" y="(\d+)" width="([\d.]+)" height="([\d.]+)" rx="3" fill="#ffffff" stroke/.exec(raw);
    expect(title).not.toBeNull(); // opaque
    const [tx, ty, tw, th] = title!.slice(1).map(Number);
    const labelsG = /<g id="map-labels">([\s\S]*?)<\/g>/.exec(raw)?.[1] ?? '';
    const boxes = [...labelsG.matchAll(/<rect x="([-\d.]+)" y="([-\d.]+)" width="([\d.]+)" height="16"/g)].map((m) => m.slice(1).map(Number));
    expect(boxes.length).toBeGreaterThan(3);
    for (const [x, y, w2] of boxes) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x + w2).toBeLessThanOrEqual(mw);
      expect(x < tx + tw && tx < x + w2 && y < ty + th && ty < y + 16).toBe(false);
    }
    const view = await ctx.newPage();
    await view.setViewportSize({ width: mw, height: mh });
    await view.goto(`data:image/svg+xml;base64,${readFileSync(join(OUT, 'map-two-legends.svg')).toString('base64')}`);
    await view.screenshot({ path: 'test-results/screenshots/map-export-svg-two-legends.png' });
    expect(errors).toEqual([]);
    await ctx.close();
  }, 300_000);

  test('a result layer exports too (1440x900): a catchment\'s marketsheds in an A4 PNG drawn on the canvas, as the WebGL path draws them', async () => {
    const three = encodeURIComponent('[[36.82,-1.29,"Nairobi"],[34.76,-0.1,"Kisumu"],[39.67,-4.05,"Mombasa"]]');
    const { ctx, page, errors } = await open(`#v=ELEVATION&op=1&panel=catchment&cm=0%2C120%2C240%2C480&src=${three}`, { width: 1440, height: 900 });
    await expect.poll(() => page.locator('.source-label').allTextContents(), { timeout: 90_000 }).toEqual(['Nairobi', 'Kisumu', 'Mombasa']);
    // the legend follows the one within / per-band switch, "within" by default: labelled by upper limit
    await expect.poll(() => page.locator('.legend li').allTextContents()).toEqual(expect.arrayContaining(['Nairobi: ≤ 120 min']));
    await page.waitForFunction(() => { const m = (window as any).__indapiMap; return !m.isMoving() && m.getZoom() > 4 && m.loaded(); }, undefined, { timeout: 30_000 });
    const { bytes, name } = await save(page, 'PNG', 'map-catchment.png', 'A4, 150 dpi');
    expect(name).toBe('map-catchment.png'); // titled and named as the marketsheds, not the indicator under them
    // the sources are labelled as places (a dot on the point, the name beside it), not as drawn shapes' number discs
    await save(page, 'SVG', 'map-catchment.svg', 'A4, 150 dpi');
    const svg = readSvg(join(OUT, 'map-catchment.svg'));
    expect(svg.texts).toEqual(expect.arrayContaining(['Nairobi', 'Kisumu', 'Mombasa', 'Marketsheds from 3 sources']));
    expect(readFileSync(join(OUT, 'map-catchment.svg'), 'utf8')).not.toContain('fill="#d94f00" stroke="#ffffff"');
    await page.evaluate(() => { (window as any).__indapiExportPath = 'webgl'; });
    const { bytes: ref } = await save(page, 'PNG', 'map-catchment-webgl.png', 'A4, 150 dpi');
    writeFileSync('test-results/screenshots/map-export-catchment.png', bytes);
    const [a, b] = [decodePng(new Uint8Array(bytes)), decodePng(new Uint8Array(ref))];
    expect(agreement(a, b).same).toBeGreaterThan(0.97);
    // the bands are there: the blue of Nairobi's nearest band (SOURCE_HUES[0], #4e79a7, src/app/catchment-layer.ts), as many pixels as the WebGL path's
    const blue = (img: typeof a) => { let n = 0; for (let i = 0; i < img.data.length; i += 4) if (img.data[i] === 0x4e && img.data[i + 1] === 0x79 && img.data[i + 2] === 0xa7) n++; return n; };
    expect(blue(a)).toBeGreaterThan(300);
    expect(Math.abs(blue(a) - blue(b))).toBeLessThan(blue(b) * 0.1);
    expect(errors).toEqual([]);
    await ctx.close();
  }, 180_000);

  test('a width in pixels (390x844): PNG 1500 px wide at the view aspect', async () => {
    const { ctx, page, errors } = await open('#v=ELEVATION&map=37.5,0.3,5', { width: 390, height: 844 });
    await page.getByRole('combobox', { name: 'Map export size' }).selectOption({ label: 'Width in px…' });
    await page.getByRole('spinbutton', { name: 'Map export width in pixels' }).fill('1500');
    await shot(page, 'map-export-size-390');
    const { bytes } = await save(page, 'PNG', 'map-w1500.png');
    const png = decodePng(new Uint8Array(bytes));
    const [mw, mh] = await page.evaluate(() => { const r = (window as any).__indapiMap.getContainer().getBoundingClientRect(); return [Math.round(r.width), Math.round(r.height)]; });
    expect(png.width).toBe(1500);
    expect(Math.abs(png.height - Math.round(1500 * mh / mw))).toBeLessThanOrEqual(1);
    writeFileSync('test-results/screenshots/map-export-w1500.png', bytes);
    // issue 26: an A4 300-dpi export shows its steps and Cancel stops it; nothing is downloaded after the cancel
    const downloads: string[] = [];
    page.on('download', (d) => downloads.push(d.suggestedFilename()));
    await page.getByRole('combobox', { name: 'Map export size' }).selectOption({ label: 'A4, 300 dpi' });
    // the export takes about a second now: Save and, at its first step, Cancel are pressed in the page (no round trip in between)
    const stepAtCancel = await page.evaluate(() => new Promise<string>((resolve) => {
      const root = document.querySelector('[data-testid="map-export"]')!;
      const mo = new MutationObserver(() => {
        const t = root.querySelector('[data-testid="map-export-progress"]')?.textContent ?? '';
        const cancel = [...root.querySelectorAll('button')].find((b) => b.textContent === 'Cancel');
        if (!/^[A-Z][a-z ]+ [1-4]\/4$/.test(t) || !cancel) return;
        mo.disconnect();
        cancel.click();
        resolve(t);
      });
      mo.observe(root, { subtree: true, childList: true, characterData: true });
      [...root.querySelectorAll('button')].find((b) => b.textContent === 'Save map')!.click();
    }));
    expect(stepAtCancel).toMatch(/^Drawing map 1\/4$/);
    const progress = page.getByTestId('map-export-progress');
    await expect.poll(() => page.getByRole('button', { name: 'Save map' }).isEnabled()).toBe(true);
    expect(await progress.count()).toBe(0);
    expect(await page.locator('[data-testid="map-export"] [role="alert"]').count()).toBe(0);
    // a screen-size export after it: the only file downloaded
    await page.getByRole('combobox', { name: 'Map export size' }).selectOption({ label: 'Screen size' });
    await save(page, 'PNG', 'map-after-cancel.png');
    expect(downloads).toEqual(['map-ELEVATION.png']);
    expect(errors).toEqual([]);
    await ctx.close();
  }, 180_000);
});
