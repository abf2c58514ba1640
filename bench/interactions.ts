/**
 * Interactions people wait for, timed in Chromium (issue 26 targets 1 and 2): each from the
 * user's action (a click, a file chosen, a link changed) to the result on screen (the panel's
 * progress came and went and its result frame is current), cold (the first in a fresh page,
 * after the first map) and warm (the same again, median of `warmRuns`; the app recomputes a
 * request asked for again, see src/app/useRun.ts). Beside each, the engine's own time for the
 * same interaction, measured in the page: the union of the engine worker calls made between the
 * action and the result (`window.__indapiEngineCalls`, src/app/engine-client.ts: message to the
 * worker, its work, the answer's transfer), or for a download the files worker's own time
 * (package + ZIP, `data-package-ms` / `data-zip-ms`); the difference is the app's overhead.
 *
 * Cases: summaries for Kenya (ELEVATION and PN14_GDPPC, a mean weighted by population, by ADM1,
 * by the class layer ELEV_ZONE, by ELEVATION's intervals), the TABLR table (ETH, cell area by
 * ADM1 x ELEV_ZONE), similar places (Oromiya among Ethiopia's ADM1 units), areas (a polygon as
 * drawn, then 3 and 50 uploaded shapes: a GeoJSON fixture of real outlines, the bundle's
 * `basemap/admin1.geojson` features of Kenya and Uganda, written at run time), Compare layers
 * (SLOPE swiped over ELEVATION: the raster worker, no engine call), every download format the
 * registry offers for a summary (cold: the format's first build in the page, the files worker
 * already started by the first; `download csv (first)` is the files worker's start too), and
 * catchments from the Catchment panel (one source, and 100 sources with marketsheds).
 * Targets: warm under 1 s and cold under 2 s for summaries, table, similar and areas; the others
 * are printed with their figures only. Run after `npm run build`: `npx tsx bench/app.ts --interactions`.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { FORMATS } from '../src/core/formats/registry';

/** One interaction's figures, milliseconds. */
export interface InteractionTimes {
  coldMs: number;
  warmMs: number[];
  warmMedianMs: number;
  /** The engine's (or files worker's) own time in the cold run and the median warm one. */
  engineColdMs: number;
  engineWarmMs: number;
  /** Targets (null: measured, no target). */
  targetWarmMs: number | null;
  targetColdMs: number | null;
  met: boolean | null;
}

/** What one timed action waits for, as source text run in the page. */
interface Probe {
  /** Statement(s) starting the action. */
  start: string;
  /** Selector present while the action runs. */
  busy: string;
  /** Expression true when the result is on screen (checked once `busy` came and went). */
  done: string;
  /** Expression giving the engine's own ms, or empty for the engine worker calls' union. */
  engine?: string;
}

/**
 * Runs `p` in the page; resolves with the ms from its start to its result and the engine's ms.
 * @throws Error with the panel's alert text when an alert shows instead of the result
 */
async function timeAction(page: Page, p: Probe, timeoutMs = 180_000): Promise<{ ms: number; engineMs: number }> {
  // a source string: tsx would wrap named inner functions with a helper the page does not have
  return page.evaluate(`new Promise((res, rej) => {
    let started = false;
    const t0 = performance.now();
    const timer = setTimeout(() => { mo.disconnect(); rej(new Error('timeout: ' + ${JSON.stringify(p.busy)})); }, ${timeoutMs});
    const union = (calls) => { let sum = 0, end = -1; for (const c of calls.sort((a, b) => a.startMs - b.startMs)) { const s = Math.max(c.startMs, end); if (c.endMs > s) sum += c.endMs - s; end = Math.max(end, c.endMs); } return sum; };
    const mo = new MutationObserver(() => check());
    function check() {
      const busy = !!document.querySelector(${JSON.stringify(p.busy)});
      if (busy) started = true;
      if (started && !busy && (${p.done})) {
        const t1 = performance.now();
        mo.disconnect(); clearTimeout(timer);
        const engine = ${p.engine || 'window.__indapiEngineCalls ? union(window.__indapiEngineCalls(t0).filter((c) => c.endMs <= t1)) : NaN'};
        res({ ms: t1 - t0, engineMs: engine });
        return;
      }
      const alert = [...document.querySelectorAll('.panel:not([hidden]) [role="alert"]')].find((a) => a.textContent);
      if (alert) { mo.disconnect(); clearTimeout(timer); rej(new Error(alert.textContent)); }
    }
    mo.observe(document.body, { subtree: true, childList: true, attributes: true });
    ${p.start}
    check();
  })`) as Promise<{ ms: number; engineMs: number }>;
}

/** A click on the button labelled `label` in panel `panel` (id without `panel-`). */
const click = (panel: string, label: string) => `[...document.querySelectorAll('#panel-${panel} button')].find((x) => x.textContent === ${JSON.stringify(label)}).click();`;

/** The probe of a panel's run button and its result frame (RunControls + ResultFrame). */
function runProbe(panel: string, label: string, testId: string): Probe {
  return { start: click(panel, label), busy: `#panel-${panel} .progress`, done: `document.querySelector('#panel-${panel} [data-testid="${testId}"]')?.getAttribute('data-old') === '0'` };
}

/** Opens `url` in a fresh context and waits for the first map (the service worker blocked: every run reads over HTTP). */
async function withPage<T>(browser: Browser, url: string, fn: (page: Page) => Promise<T>): Promise<T> {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, serviceWorkers: 'block', acceptDownloads: true });
  try {
    const page = await ctx.newPage();
    await page.goto(url);
    await page.waitForFunction(() => document.body.dataset.mapRendered === '1', undefined, { timeout: 120_000 });
    return await fn(page);
  } finally { await ctx.close(); }
}

const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];

/** Cold then `warmRuns` warm runs of `p` (warm runs repeat `again`, default `p`). */
async function coldWarm(page: Page, p: Probe, warmRuns: number, again: Probe = p): Promise<Omit<InteractionTimes, 'targetWarmMs' | 'targetColdMs' | 'met'>> {
  const cold = await timeAction(page, p);
  const warm: Array<{ ms: number; engineMs: number }> = [];
  for (let i = 0; i < warmRuns; i++) warm.push(await timeAction(page, again));
  const mid = [...warm].sort((a, b) => a.ms - b.ms)[Math.floor(warm.length / 2)];
  return { coldMs: Math.round(cold.ms), warmMs: warm.map((w) => Math.round(w.ms)), warmMedianMs: Math.round(mid?.ms ?? NaN), engineColdMs: Math.round(cold.engineMs), engineWarmMs: Math.round(mid?.engineMs ?? NaN) };
}

/** Adds targets and the verdict (warm < 1 s and cold < 2 s when `targeted`). */
function judged(t: Omit<InteractionTimes, 'targetWarmMs' | 'targetColdMs' | 'met'>, targeted: boolean): InteractionTimes {
  if (!targeted) return { ...t, targetWarmMs: null, targetColdMs: null, met: null };
  return { ...t, targetWarmMs: 1000, targetColdMs: 2000, met: t.warmMedianMs < 1000 && t.coldMs < 2000 };
}

/** GeoJSON fixtures of real outlines: the bundle's ADM1 features of Kenya (3) and Uganda (50), written to a temporary folder. */
function shapeFixtures(dataDir: string): { three: string; fifty: string } {
  const fc = JSON.parse(readFileSync(path.join(dataDir, 'basemap/admin1.geojson'), 'utf8')) as { features: Array<{ properties: { iso3: string; name: string } }> };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'indapi-shapes-'));
  const write = (name: string, iso3: string, n: number) => {
    const features = fc.features.filter((f) => f.properties.iso3 === iso3).slice(0, n);
    if (features.length !== n) throw new Error(`${iso3} has ${features.length} ADM1 outlines, not ${n}`);
    const file = path.join(dir, name);
    writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features }));
    return file;
  };
  return { three: write('ken-adm1-3.geojson', 'KEN', 3), fifty: write('uga-adm1-50.geojson', 'UGA', 50) };
}

const SUMMARY = '#v=ELEVATION&vars=ELEVATION,PN14_GDPPC&iso=KEN&panel=summary&by=';
const TABLE_LINK = '#v=AREA_TOTAL&iso=ETH&panel=table&tv=AREA_TOTAL&tr=ADM1_NAME_ALT&tc=ELEV_ZONE';
const SIMILAR_LINK = '#v=ELEVATION&vars=ELEVATION,SLOPE,PN14_POP&iso=ETH&panel=compare&pick=39.5,7.2';
/** A polygon as one draws it around Nairobi (5 vertices). */
const DRAWN = 'POLYGON ((36 -1.5, 37.5 -1.5, 37.5 0, 36 0, 36 -1.5))';
const AREAS = '#v=ELEVATION&vars=ELEVATION,PN14_POP&panel=areas';

/** What a case needs besides the browser and the server's URL. */
export interface CaseContext { warmRuns: number; dataDir: string }

/** The targeted interactions (summaries, table, similar, areas) by name: each one page, cold then warm. */
export const TARGETED: Record<string, (browser: Browser, base: string, c: CaseContext) => Promise<InteractionTimes>> = {};
const sum = runProbe('summary', 'Summarise', 'summary-result');
for (const by of ['ADM1_NAME_ALT', 'ELEV_ZONE', 'ELEVATION']) {
  TARGETED[`summary KEN 2 vars by ${by}`] = async (browser, base, c) => judged(await withPage(browser, base + SUMMARY + by, (p) => coldWarm(p, sum, c.warmRuns)), true);
}
TARGETED['table ETH ADM1 x ELEV_ZONE'] = async (browser, base, c) => judged(await withPage(browser, base + TABLE_LINK, async (p) => {
  await p.locator('#panel-table button', { hasText: 'Build table' }).first().waitFor({ timeout: 60_000 });
  return coldWarm(p, runProbe('table', 'Build table', 'table-result'), c.warmRuns);
}), true);
TARGETED['similar Oromiya among ETH ADM1'] = async (browser, base, c) => judged(await withPage(browser, base + SIMILAR_LINK, async (p) => {
  // the reference (Oromiya) is known once the look-up under the pick has answered
  await p.waitForFunction(() => /Oromiya/.test(document.querySelector('#panel-compare')?.textContent ?? ''), undefined, { timeout: 60_000 });
  return coldWarm(p, runProbe('compare', 'Find similar', 'compare-result'), c.warmRuns);
}), true);
const areas = runProbe('areas', 'Summarise areas', 'areas-result');
TARGETED['areas 1 drawn polygon'] = async (browser, base, c) => judged(await withPage(browser, `${base}${AREAS}&wkt=${encodeURIComponent(DRAWN)}`, (p) => coldWarm(p, areas, c.warmRuns)), true);
for (const n of [3, 50] as const) {
  TARGETED[`areas ${n} uploaded shapes`] = async (browser, base, c) => judged(await withPage(browser, base + AREAS, async (p) => {
    const fx = shapeFixtures(c.dataDir);
    await p.locator('#panel-areas [data-testid="upload"] input[type="file"]').setInputFiles(n === 3 ? fx.three : fx.fifty);
    await p.locator('#panel-areas [data-testid="upload-msg"]').waitFor({ timeout: 60_000 });
    return coldWarm(p, areas, c.warmRuns);
  }), true);
}

/** Every download format of a summary (ELEVATION by ADM1, Kenya), one page: each format's first build, then warm builds. */
async function downloads(browser: Browser, base: string, warmRuns: number): Promise<Record<string, InteractionTimes>> {
  return withPage(browser, `${base}#v=ELEVATION&iso=KEN&by=ADM1_NAME_ALT&panel=summary`, async (page) => {
    await timeAction(page, runProbe('summary', 'Summarise', 'summary-result'));
    await page.click('#tab-download');
    const out: Record<string, InteractionTimes> = {};
    const formats = FORMATS.filter((f) => f.input !== 'none').map((f) => f.name);
    for (const [i, f] of formats.entries()) {
      await page.check(`#panel-download input[name="dl-format"][value="${f}"]`);
      const p: Probe = {
        start: click('download', 'Build and save ZIP'), busy: '#panel-download .progress',
        done: `[${JSON.stringify(f)}, null].includes(document.querySelector('#panel-download [data-testid="download-result"]')?.getAttribute('data-format'))`,
        engine: `(() => { const d = document.querySelector('#panel-download [data-testid="download-result"]'); return +d.getAttribute('data-package-ms') + +d.getAttribute('data-zip-ms'); })()`,
      };
      out[`download ${f}${i === 0 ? ' (first)' : ''}`] = judged(await coldWarm(page, p, Math.min(warmRuns, 3)), false);
    }
    return out;
  });
}

/** Compare layers: SLOPE swiped over ELEVATION (cold), then TRI and SLOPE again in turn (warm: SLOPE's times). */
async function compareLayers(browser: Browser, base: string, warmRuns: number): Promise<InteractionTimes> {
  return withPage(browser, `${base}#v=ELEVATION&cmp=swipe`, async (page) => {
    const to = (v2: string): Probe => ({
      start: `location.hash = location.hash.replace(/&v2=[^&]*/, '') + '&v2=${v2}';`,
      busy: '[data-testid="compare-progress"]', done: `!!document.querySelector('[data-testid="compare-second"]')`, engine: '0',
    });
    const cold = await timeAction(page, to('SLOPE'));
    const warm: number[] = [];
    for (let i = 0; i < warmRuns; i++) { await timeAction(page, to('TRI')); warm.push((await timeAction(page, to('SLOPE'))).ms); }
    return judged({ coldMs: Math.round(cold.ms), warmMs: warm.map(Math.round), warmMedianMs: Math.round(median(warm)), engineColdMs: 0, engineWarmMs: 0 }, false);
  });
}

/** Catchments from the panel: sources pasted and added (the panel runs), then "Compute catchment" again (warm). */
async function catchments(browser: Browser, base: string, warmRuns: number, hundred: Array<[number, number]>): Promise<Record<string, InteractionTimes>> {
  const cases: Array<[string, Array<[number, number]>]> = [['catchment 1 source (Nairobi)', [[36.82, -1.29]]], [`catchment ${hundred.length} sources, marketsheds`, hundred]];
  const out: Record<string, InteractionTimes> = {};
  for (const [name, pts] of cases) {
    out[name] = judged(await withPage(browser, `${base}#v=ELEVATION&panel=catchment`, async (page) => {
      await page.click('#panel-catchment details.catch-add summary');
      await page.fill('#panel-catchment [data-testid="catchment-paste"]', pts.map(([x, y], i) => `${x}, ${y}, S${i + 1}`).join('\n'));
      const add = runProbe('catchment', 'Add points', 'catchment-result');
      return coldWarm(page, add, warmRuns, runProbe('catchment', 'Compute catchment', 'catchment-result'));
    }), false);
  }
  return out;
}

/**
 * Times every interaction of the module comment; `base` is the server's URL ending in "/",
 * `dataDir` the bundle it serves, `hundred` the 100 catchment sources (bench/catchment-browser.ts).
 */
export async function interactionTimes(browser: Browser, base: string, dataDir: string, hundred: Array<[number, number]>, warmRuns = 5): Promise<Record<string, InteractionTimes>> {
  const targeted: Record<string, InteractionTimes> = {};
  for (const [name, run] of Object.entries(TARGETED)) targeted[name] = await run(browser, base, { warmRuns, dataDir });
  return {
    ...targeted,
    'compare layers SLOPE over ELEVATION': await compareLayers(browser, base, 3),
    ...await catchments(browser, base, 3, hundred),
    ...await downloads(browser, base, 3),
  };
}
