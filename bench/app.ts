/**
 * App benchmark (run after `npm run build`: `npx tsx bench/app.ts`): on localhost with
 * Debian Chromium, the first map render time (navigation start to the first idle map with
 * the indicator's raster), the first summary time (ELEVATION by ADM1 for Kenya, click to
 * table), and the gzipped size of the initial JavaScript (entry script and its static
 * imports/modulepreloads in dist/index.html). Prints one JSON object.
 *
 * Scale budgets (issue 10 item 5), measured on the embedded 25-indicator bundle and, when it
 * exists, on the generated 750-indicator bundle (made-up values; `npm run bench:bundle`,
 * folder `BUNDLE750_DIR`, default bench-out/bundle750) in the same run: first-load bytes
 * (page and service worker), first map render, in-page catalog search per keystroke (p95),
 * and the JS heap after 20 indicators viewed (CDP Performance.getMetrics).
 *
 * First visit on a real connection (issue 17, bench/first-visit.ts): fresh profile, first map
 * time and bytes before it at 1.6 Mbps / 750 kbps / 150 ms RTT (budget 6 s, 0.7 MB) and
 * unthrottled (each the median of 3 runs), for this build and, in the same run, for a reference: `REF_DIR`,
 * another checkout (e.g. `git archive 979b605 | tar -x -C /tmp/ref`, node_modules linked,
 * built), served by its own server from its `dist/`; or `REF_DIST_DIR`, another build served
 * by this server. The unthrottled first map must be no slower than the reference's.
 * `npx tsx bench/app.ts --first-visit` runs only this part.
 *
 * Interactions (issue 26 targets 1 and 2, bench/interactions.ts): summaries, the table build,
 * similar places, areas (drawn, 3 and 50 uploaded shapes), Compare layers, catchments (1 and 100
 * sources) and every download format, cold and warm, each with the engine's own time in the page;
 * and the map export at every format and size (bench/map-export-bench.ts, target 3: A4 300 dpi in
 * at most 3 s), with where each export's time went; `--interactions` runs only them and prints a
 * table with the targets (`BENCH_EXPORTS=0` leaves the map export out).
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { startServer } from '../e2e/helpers';
import { launch, settle } from '../e2e/app-helpers';
import { firstLoad, heapAfterViews, searchKeystrokeMs } from '../e2e/catalog-helpers';
import { parseVi } from '../src/core/bundle';
import { FIRST_VISIT_BUDGET, SLOW_MOBILE, firstVisit, type FirstVisit } from './first-visit';
import { interactionTimes, type InteractionTimes } from './interactions';
import { exportTimes, type ExportTimes } from './map-export-bench';
import { sourcesOf } from './catchment-browser';

/** Queries typed in the page to time catalog search keystrokes. */
export const TYPED_QUERIES = ['town', 'travel time', 'elevation', 'rain', 'population', 'dist_place', 'maize yield'];

/** The scale measurements of one bundle (see the module comment). */
export interface ScaleMetrics {
  records: number;
  firstLoadBytes: number;
  catalogBytes: number;
  /** Bytes of basemap files in the first load (they differ between bundles, not with the indicator count). */
  basemapBytes: number;
  /** Bytes of the app and the catalog transferred before the first map was drawn. */
  beforeMapBytes: number;
  /** Requests for bundle files other than COGs before the first map. */
  beforeMapDataRequests: number;
  requests: number;
  firstMapMs: number;
  /** Catalog search, keystroke to results shown, median and p95 ms; absent when not measured (`search: false`). */
  searchP50?: number;
  searchP95?: number;
  /** Keystroke to the next task, including other main-thread work (map frames), p95 ms; absent when not measured. */
  searchTaskP95?: number;
  heapUsedMB: number;
  /** JS heap plus ArrayBuffer backing stores of the page and its workers (the memory budget). */
  pageMB: number;
  /** Resident memory of the renderer process(es) after the views (page, workers, WebAssembly). */
  rendererMB: number;
  viewed: number;
}

/** Twenty indicator codes spread over a catalog (continuous layers first). */
export function spreadCodes(csv: string, n = 20): string[] {
  const recs = parseVi(csv);
  const pool = [...recs.filter((r) => r.type === 'continuous'), ...recs.filter((r) => r.type !== 'continuous')];
  const step = Math.max(1, Math.floor(pool.length / n));
  return pool.filter((_, i) => i % step === 0).slice(0, n).map((r) => r.varCode);
}

/**
 * Measures a running server's app: first load, search keystrokes, heap after 20 views.
 * @param opts.search false: no keystroke timing (the `search*` fields are absent); the e2e test
 *   asserts no timing, so it skips the typing (about 10 s of a busy run)
 */
export async function scaleMetrics(browser: Browser, url: string, opts: { search?: boolean } = {}): Promise<ScaleMetrics> {
  const csv = await (await fetch(new URL('data/vi.csv', url))).text();
  const fl = await firstLoad(browser, url);
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, serviceWorkers: 'block' });
  try {
    const page = await ctx.newPage();
    await page.goto(url);
    await page.waitForFunction(() => document.body.dataset.mapRendered === '1', undefined, { timeout: 120_000 });
    await settle(page); // tiles drawn: keystrokes are not timed against the first map's work
    const ks = opts.search === false ? null : await searchKeystrokeMs(page, TYPED_QUERIES);
    const search = ks ? { searchP50: +ks.p50.toFixed(2), searchP95: +ks.p95.toFixed(2), searchTaskP95: +ks.taskP95.toFixed(1) } : {};
    const heap = await heapAfterViews(page, spreadCodes(csv));
    return { records: parseVi(csv).length, firstLoadBytes: fl.bytes, catalogBytes: fl.catalogBytes, basemapBytes: fl.basemapBytes, beforeMapBytes: fl.beforeMapBytes, beforeMapDataRequests: fl.beforeMapDataRequests, requests: fl.requests, firstMapMs: fl.firstMapMs, ...search, heapUsedMB: +heap.usedMB.toFixed(1), pageMB: +heap.pageMB.toFixed(1), rendererMB: +heap.rendererMB.toFixed(0), viewed: heap.viewed };
  } finally {
    await ctx.close();
  }
}

/** The folder of the generated 750-indicator bundle, or null when it is not there. */
export function bundle750Dir(): string | null {
  const d = process.env.BUNDLE750_DIR || 'bench-out/bundle750';
  return existsSync(path.join(d, 'vi.csv')) ? path.resolve(d) : null;
}

/** Gzipped bytes of the scripts the page loads before any lazy import. */
export function initialJsGzip(dist = 'dist'): { files: string[]; bytes: number; gzip: number } {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const files = new Set<string>();
  // the map's chunks preloaded beside them (vite.config.ts preloadMapChunks, `data-first-map`) are not the shell's
  for (const m of html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+\.js)"([^>]*)>/g)) if (!m[2].includes('data-first-map')) files.add(m[1].replace(/^\.\//, ''));
  // static imports of the entry (rolldown emits them as import statements at the top)
  for (const f of [...files]) {
    const src = readFileSync(path.join(dist, f), 'utf8');
    for (const m of src.matchAll(/^import\s*(?:[^'"]*from\s*)?["']\.\/([^"']+\.js)["']/gm)) files.add(path.join(path.dirname(f), m[1]));
  }
  let bytes = 0, gzip = 0;
  for (const f of files) { const b = readFileSync(path.join(dist, f)); bytes += b.length; gzip += gzipSync(b, { level: 9 }).length; }
  return { files: [...files], bytes, gzip };
}

/** First visits of one build: the median (by first map time) of 3 runs, throttled and unthrottled. */
async function firstVisits(browser: Browser, distDir: string, cwd?: string): Promise<{ throttled: FirstVisit; unthrottled: FirstVisit; unthrottledRunsMs: number[]; throttledRunsMs: number[] }> {
  const srv = await startServer({ LOG: '0', DIST_DIR: distDir }, cwd);
  try {
    const hash = '#v=ELEVATION';
    const median = async (profile?: typeof SLOW_MOBILE) => {
      const runs: FirstVisit[] = [];
      for (let i = 0; i < 3; i++) runs.push(await firstVisit(browser, srv.url + hash, profile, path.resolve(cwd ?? '.', distDir)));
      runs.sort((a, b) => a.firstMapMs - b.firstMapMs);
      return { mid: runs[1], ms: runs.map((r) => r.firstMapMs) };
    };
    const t = await median(SLOW_MOBILE);
    const u = await median();
    return { throttled: t.mid, throttledRunsMs: t.ms, unthrottled: u.mid, unthrottledRunsMs: u.ms };
  } finally {
    await srv.stop();
  }
}

/** The first-visit report: this build, the reference build when given, and the budgets. */
export async function firstVisitReport(browser: Browser): Promise<Record<string, unknown>> {
  const dist = process.env.DIST_DIR || 'dist';
  const refDir = process.env.REF_DIR;
  const ref = refDir ? path.resolve(refDir, 'dist') : process.env.REF_DIST_DIR;
  const cur = await firstVisits(browser, dist);
  const before = ref ? await firstVisits(browser, ref, refDir && path.resolve(refDir)) : null;
  const mb = (n: number) => +(n / 1024 / 1024).toFixed(3);
  const show = (f: Awaited<ReturnType<typeof firstVisits>>) => ({
    throttled: { firstMapMs: f.throttled.firstMapMs, runsMs: f.throttledRunsMs, mbBeforeMap: mb(f.throttled.bytesBeforeMap), bytesBeforeMap: f.throttled.bytesBeforeMap, requests: f.throttled.requestsBeforeMap, largest: f.throttled.largest },
    unthrottled: { firstMapMs: f.unthrottled.firstMapMs, runsMs: f.unthrottledRunsMs, mbBeforeMap: mb(f.unthrottled.bytesBeforeMap) },
  });
  return {
    network: SLOW_MOBILE.name,
    build: { dist, ...show(cur) },
    reference: before ? { dist: ref, server: refDir ? path.resolve(refDir) : 'this checkout', ...show(before) } : 'not measured: set REF_DIR (another checkout, built) or REF_DIST_DIR (another build, this server)',
    budgets: {
      throttledFirstMapMs: { value: cur.throttled.firstMapMs, max: FIRST_VISIT_BUDGET.firstMapMs, ok: cur.throttled.firstMapMs <= FIRST_VISIT_BUDGET.firstMapMs },
      throttledMB: { value: mb(cur.throttled.bytesBeforeMap), max: mb(FIRST_VISIT_BUDGET.bytesBeforeMap), ok: cur.throttled.bytesBeforeMap <= FIRST_VISIT_BUDGET.bytesBeforeMap },
      unthrottledVsReference: before
        ? { value: +(cur.unthrottled.firstMapMs / before.unthrottled.firstMapMs).toFixed(2), max: 1, ok: cur.unthrottled.firstMapMs <= before.unthrottled.firstMapMs }
        : 'not measured',
    },
  };
}

/** Export A4 at 300 dpi in at most this many ms (issue 26 target 3). */
const EXPORT_A4_300_MS = 3000;

/** Prints each interaction and export with its target and met / NOT MET (issue 26), with the load average. */
function printInteractions(inter: Record<string, InteractionTimes>, exports: Record<string, ExportTimes>): void {
  const rows: Array<[string, number, number, string, string, string]> = [];
  for (const [k, v] of Object.entries(inter)) {
    const target = v.targetWarmMs === null ? '-' : `<${v.targetWarmMs} w, <${v.targetColdMs} c`;
    rows.push([k, v.coldMs, v.warmMedianMs, `${v.engineColdMs}/${v.engineWarmMs}`, target, v.met === null ? '-' : v.met ? 'met' : 'NOT MET']);
  }
  for (const [k, v] of Object.entries(exports)) {
    const a4 = k.endsWith('A4, 300 dpi');
    const worst = Math.max(v.coldMs, v.warmMedianMs || 0);
    rows.push([`export ${k}`, v.coldMs, v.warmMedianMs, '-', a4 ? `<= ${EXPORT_A4_300_MS}` : '-', a4 ? (worst <= EXPORT_A4_300_MS ? 'met' : 'NOT MET') : '-']);
  }
  console.log(`\nload average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')} (figures are upper bounds on a busy machine)`);
  console.log('engine c/w: the engine worker calls (downloads: the files worker) in the page, cold / warm run, ms');
  console.log(`${'figure'.padEnd(44)}${'cold ms'.padStart(9)}${'warm ms'.padStart(9)}${'engine c/w'.padStart(12)}  ${'target ms'.padEnd(18)}status`);
  for (const [n, c, w, e, t, st] of rows) console.log(`${n.padEnd(44)}${String(c).padStart(9)}${String(w).padStart(9)}${e.padStart(12)}  ${t.padEnd(18)}${st}`);
}

async function main() {
  if (process.argv.includes('--first-visit')) {
    const b = await launch();
    try { console.log(JSON.stringify({ firstVisit: await firstVisitReport(b) }, null, 2)); } finally { await b.close(); }
    return;
  }
  if (process.argv.includes('--interactions')) {
    const dataDir = path.resolve('public/data');
    const hundred = await sourcesOf(dataDir);
    const srv = await startServer({ LOG: '0' });
    const b = await launch();
    try {
      const inter = await interactionTimes(b, srv.url, dataDir, hundred);
      const exports = process.env.BENCH_EXPORTS === '0' ? {} : await exportTimes(b, srv.url);
      console.log(JSON.stringify({ interactions: inter, exports }, null, 2));
      printInteractions(inter, exports);
    } finally { await b.close(); await srv.stop(); }
    return;
  }
  const srv = await startServer({ LOG: '0' });
  const browser = await launch();
  try {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, serviceWorkers: 'block' });
    const page = await ctx.newPage();
    await page.goto(`${srv.url}#v=ELEVATION&iso=KEN&by=ADM1_NAME_ALT`);
    await page.waitForFunction(() => document.body.dataset.mapRendered === '1', undefined, { timeout: 120_000 });
    const firstMapMs = await page.evaluate(() => (window as any).__indapiFirstRender as number);
    const t0 = Date.now();
    await page.getByRole('button', { name: 'Summarise', exact: true }).click();
    await page.locator('[data-testid="summary-result"] tbody tr').first().waitFor({ timeout: 120_000 });
    const firstSummaryMs = Date.now() - t0;
    await ctx.close();
    // scale budgets: the embedded bundle, and the 750 bundle in the same run when it exists
    const small = await scaleMetrics(browser, srv.url);
    const dir750 = bundle750Dir();
    let large: ScaleMetrics | null = null;
    let maps25 = [small.firstMapMs], maps750: number[] = [];
    if (dir750) {
      const srv750 = await startServer({ LOG: '0', DATA_DIR: dir750 });
      try {
        large = await scaleMetrics(browser, srv750.url);
        // the first map, twice more each, interleaved: medians of 3 (timer noise on a shared machine)
        maps750 = [large.firstMapMs];
        for (let i = 0; i < 2; i++) {
          maps25.push((await firstLoad(browser, srv.url)).firstMapMs);
          maps750.push((await firstLoad(browser, srv750.url)).firstMapMs);
        }
      } finally { await srv750.stop(); }
    }
    const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
    maps25 = [med(maps25)];
    const budgets = large && {
      firstLoadBytes: { value: large.firstLoadBytes - large.basemapBytes, max: small.firstLoadBytes - small.basemapBytes + Math.max(0, large.catalogBytes - small.catalogBytes), ok: large.firstLoadBytes - large.basemapBytes <= small.firstLoadBytes - small.basemapBytes + Math.max(0, large.catalogBytes - small.catalogBytes) },
      firstMapRatio: { value: +(med(maps750) / maps25[0]).toFixed(2), max: 1.15, ok: med(maps750) <= maps25[0] * 1.15 },
      searchP95Ms: large.searchP95 === undefined ? 'not measured' : { value: large.searchP95, max: 30, ok: large.searchP95 < 30 },
      pageMB: { value: large.pageMB, max: 300, ok: large.pageMB < 300 },
    };
    const fv = await firstVisitReport(browser);
    console.log(JSON.stringify({ firstMapMs: Math.round(firstMapMs), firstSummaryMs, firstVisit: fv, initialJs: initialJsGzip(process.env.DIST_DIR || 'dist'), scale: { bundle25: small, bundle750: large ?? `not measured: no bundle at ${process.env.BUNDLE750_DIR || 'bench-out/bundle750'} (npm run bench:bundle)`, budgets } }, null, 2));
  } finally {
    await browser.close();
    await srv.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) main().catch((e) => { console.error(e); process.exit(1); });
