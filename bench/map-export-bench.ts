/**
 * Map export timed in Chromium (issue 26 target 3: A4 at 300 dpi in at most 3 s), through the
 * app's own control as a person uses it: the format and size picked in the "Map export" selects,
 * "Save map" pressed, the time taken to the download. Each format (PNG, SVG, PDF) at each size
 * the control offers (screen, A4 150 dpi, A4 300 dpi, 3000 px wide; a PDF is always an A4 page):
 * the first export of that format and size in the page (cold: the export's code and, for the
 * PDF, jsPDF loaded on the first), then the median of the warm repeats. The progress steps the
 * control shows are timed too (when each step's text first appeared), so a slow export shows
 * where its time goes. The export has no engine query: its engine column is empty.
 * Run after `npm run build` as part of `npx tsx bench/app.ts --interactions`.
 */
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { launch, settle, waitMap } from '../e2e/app-helpers';
import { startServer } from '../e2e/helpers';

/** One export's figures: milliseconds from the press to the download, and the steps' start times in the last run. */
export interface ExportTimes { coldMs: number; warmMs: number[]; warmMedianMs: number; steps: Array<[string, number]> }

/** The sizes each format offers in the control, by the size select's labels. */
const SIZES: Record<'PNG' | 'SVG' | 'PDF', string[]> = {
  PNG: ['Screen size', 'A4, 150 dpi', 'A4, 300 dpi', 'Width in px…'],
  SVG: ['Screen size', 'A4, 150 dpi', 'A4, 300 dpi'],
  PDF: ['A4, 150 dpi', 'A4, 300 dpi'],
};

/** Watches the export control's status text in the page, recording when each new text appeared (ms after the watch began). */
const WATCH = `(() => {
  const out = []; const t0 = performance.now(); let last = '';
  const root = document.querySelector('[data-testid="map-export"]');
  const mo = new MutationObserver(() => {
    const s = root.querySelector('[data-testid="map-export-progress"]');
    const t = s ? s.textContent : '';
    if (t && t !== last) { last = t; out.push([t, Math.round(performance.now() - t0)]); }
  });
  mo.observe(root, { subtree: true, childList: true, characterData: true });
  window.__benchSteps = { out, stop: () => mo.disconnect() };
})()`;

/** Presses Save map once; returns ms to the download and the progress steps seen. */
async function saveOnce(page: Page): Promise<{ ms: number; steps: Array<[string, number]> }> {
  const button = page.getByRole('button', { name: 'Save map', exact: true });
  await button.waitFor();
  await page.evaluate(WATCH);
  const t0 = performance.now();
  const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 180_000 }), button.click()]);
  const ms = performance.now() - t0;
  await dl.delete();
  const steps = await page.evaluate('(() => { window.__benchSteps.stop(); return window.__benchSteps.out; })()') as Array<[string, number]>;
  // the export's own marks (src/app/map-export.ts): ms from its start to each
  const marks = await page.evaluate(() => {
    const m = performance.getEntriesByType('mark').filter((e) => e.name.startsWith('map-export:'));
    performance.clearMarks();
    const t0 = m.find((e) => e.name === 'map-export:start')?.startTime ?? 0;
    return m.map((e) => [e.name.slice(11), Math.round(e.startTime - t0)] as [string, number]);
  });
  steps.push(...marks.map(([n, t]) => [`mark ${n}`, t] as [string, number]));
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="map-export"] button')].some((b) => b.textContent === 'Save map' && !(b as HTMLButtonElement).disabled));
  return { ms, steps };
}

/** Picks a format and size in the control (a width of 3000 px for "Width in px…"). */
async function choose(page: Page, format: string, size: string): Promise<void> {
  await page.getByRole('combobox', { name: 'Map export format' }).selectOption({ label: format });
  await page.getByRole('combobox', { name: 'Map export size' }).selectOption({ label: size });
  if (size.startsWith('Width')) await page.getByRole('spinbutton', { name: 'Map export width in pixels' }).fill('3000');
}

/**
 * Times every format at every size on one page (Kenya at zoom 5, 1440 x 900, the elevation
 * layer with place labels and outlines).
 * @param base the server's URL ending in "/"
 * @param sizes the size labels to time (default all)
 * @param webgl also time each A4 / pixel-width export by the old path (a hidden MapLibre map read
 *   back from WebGL, `window.__indapiExportPath = 'webgl'`), figures named "... (WebGL)": the
 *   reference measured in the same run
 * @returns figures by "format size" (e.g. "PNG A4, 300 dpi")
 */
export async function exportTimes(browser: Browser, base: string, warmRuns = 2, sizes: string[] = [], webgl = false): Promise<Record<string, ExportTimes>> {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, serviceWorkers: 'block', acceptDownloads: true });
  const out: Record<string, ExportTimes> = {};
  try {
    const page = await ctx.newPage();
    await page.goto(`${base}#v=ELEVATION&map=37.5,0.3,5`);
    await waitMap(page, 120_000);
    await settle(page);
    for (const format of ['PNG', 'SVG', 'PDF'] as const) {
      for (const size of SIZES[format].filter((z) => !sizes.length || sizes.includes(z))) {
        await choose(page, format, size);
        for (const path of webgl && size !== 'Screen size' ? ['canvas', 'webgl'] : ['canvas']) {
          await page.evaluate(`window.__indapiExportPath = ${JSON.stringify(path)}`);
          const cold = await saveOnce(page);
          const warm: Array<{ ms: number; steps: Array<[string, number]> }> = [];
          for (let i = 0; i < warmRuns; i++) warm.push(await saveOnce(page));
          const w = warm.map((x) => Math.round(x.ms)).sort((a, b) => a - b);
          const name = `${format} ${size.replace('Width in px…', '3000 px wide')}${path === 'webgl' ? ' (WebGL)' : ''}`;
          process.stderr.write(`export ${name}: ${Math.round(cold.ms)} ms cold, ${warm.map((x) => Math.round(x.ms)).join(', ')} warm\n`);
          out[name] = { coldMs: Math.round(cold.ms), warmMs: w, warmMedianMs: w[Math.floor(w.length / 2)], steps: warm.at(-1)?.steps ?? cold.steps };
        }
        await page.evaluate('delete window.__indapiExportPath');
      }
    }
  } finally { await ctx.close(); }
  return out;
}

/**
 * `npx tsx bench/map-export-bench.ts [--webgl] [size label...]` (after `npm run build`): the
 * exports alone, at the given sizes (default "A4, 300 dpi"), with `--webgl` the old WebGL path
 * beside each; each figure with the load average.
 */
async function main(): Promise<void> {
  const sizes = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const srv = await startServer({ LOG: '0' });
  const b = await launch();
  try {
    const t = await exportTimes(b, srv.url, 2, sizes.length ? sizes : ['A4, 300 dpi'], process.argv.includes('--webgl'));
    console.log(JSON.stringify(t, null, 2));
    console.log(`load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  } finally { await b.close(); await srv.stop(); }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) main().catch((e) => { console.error(e); process.exit(1); });
