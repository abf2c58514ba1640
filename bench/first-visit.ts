/**
 * First visit on a real connection (issue 17): a fresh browser profile (service worker
 * allowed, as a user's first visit) opens the app, optionally under Chromium's network
 * emulation over CDP (`Network.emulateNetworkConditions`), and we measure the time to the
 * first map and the bytes transferred before it. The first map is the first view of the
 * indicator on screen: the preview image (src/ui/MapPreview.tsx: the same tiles the live map
 * draws, placed where it draws them, with a "Loading the interactive map" note; the page's
 * `__indapiFirstPreview`) or the live map if it came first; the live map (the first idle
 * MapLibre map with the indicator's raster, `__indapiFirstRender`) and the bytes before it are
 * reported beside it (issue 26 target 4).
 *
 * Bytes are what CDP's Network domain reports (encoded bodies and headers) for the page,
 * its dedicated workers (COG ranges, catalog) and the service worker: dedicated workers and
 * the service worker are separate DevTools targets with their own network, so each is
 * attached (the page's auto-attach, which covers both, in the non-flat
 * `Target.sendMessageToTarget` protocol, as Playwright's CDPSession addresses one session
 * only) and gets the same emulation before it runs. A request is counted once (by its id),
 * and a response the service worker gave the page not at all (its bytes are the service
 * worker's own fetch, counted there, or came from its cache). Requests still running at the
 * first map count with what they had received; a response read from the HTTP cache (a
 * preloaded file asked for again) counts 0.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, CDPSession } from 'playwright-core';

/** A network profile for `Network.emulateNetworkConditions`. */
export interface NetworkProfile {
  /** Name shown in the report. */
  name: string;
  /** Download throughput, bits per second. */
  downBitsPerSecond: number;
  /** Upload throughput, bits per second. */
  upBitsPerSecond: number;
  /** Added round-trip latency, ms. */
  rttMs: number;
}

/** The issue's mobile profile: 1.6 Mbps down, 750 kbps up, 150 ms RTT. */
export const SLOW_MOBILE: NetworkProfile = { name: '1.6 Mbps / 750 kbps / 150 ms', downBitsPerSecond: 1_600_000, upBitsPerSecond: 750_000, rttMs: 150 };

/**
 * Budgets of the first visit on {@link SLOW_MOBILE} (issue 26 target 4, after issue 17's 6 s):
 * the first map (the preview image of the first view, or the live map) in at most 4 s; a map
 * that can be moved in at most 4.5 s (the 2026-11-29 review: the live map by then, or a preview
 * that pans and zooms: the preview now follows the hand from its first frame, so the map can be
 * moved once the preview is drawn); the live MapLibre map within issue 17's 6 s; the catalog
 * usable and the Summarise button shown before the live map (the catalog also at most 4 s);
 * the first summary clicked at once in at most 4 s; the bytes before the first map within the
 * web performance community's first-load budget for a median phone (about 150 KB of markup
 * and 350 KB of JavaScript, compressed: 0.5 MB), and before the live map 0.7 MB (MapLibre
 * and its worker alone are 0.36 MB).
 */
export const FIRST_VISIT_BUDGET = { firstMapMs: 4000, movableMs: 4500, liveMapMs: 6000, catalogMs: 4000, firstSummaryMs: 4000, bytesBeforeMap: 0.5 * 1024 * 1024, bytesBeforeLive: 0.7 * 1024 * 1024 };

/** What one first visit measured. */
export interface FirstVisit {
  /** Navigation start to the first map (ms): the preview image or the live map, whichever came first. */
  firstMapMs: number;
  /** Navigation start to the live map (MapLibre drew the indicator's raster), ms. */
  liveMapMs: number;
  /** Bytes transferred before the live map (encoded, with headers). */
  bytesBeforeLive: number;
  /** Navigation start to the catalog usable: its list filled and searchable ("N of M indicators"), ms. */
  catalogMs: number;
  /** Navigation start to the Summarise button shown and idle (ms). */
  summariseMs: number;
  /** With `clickSummarise`: navigation start to the summary table's first row (ms); else NaN. */
  firstSummaryMs: number;
  /** Bytes transferred before the first map (encoded, with headers). */
  bytesBeforeMap: number;
  /** Requests started before the first map. */
  requestsBeforeMap: number;
  /** The largest transfers before the first map: [path, bytes, Content-Encoding]. */
  largest: Array<[string, number, string]>;
}

/**
 * Opens `url` in a fresh context (1440x900; with `FV_PHONE=1` 390x844 touch), throttled by `profile` when given, and
 * measures the first map, the catalog's and the Summarise button's first usable moment and,
 * with `clickSummarise`, the first summary (the page clicks Summarise as soon as it is
 * shown, as an impatient user would; the bytes after the map are not counted).
 * @throws Error when the map (or the summary) is not drawn within 5 minutes
 */
export async function firstVisit(browser: Browser, url: string, profile?: NetworkProfile, distDir?: string, clickSummarise = false): Promise<FirstVisit> {
  // FV_PHONE=1: a phone (390 x 844, touch, device pixel ratio 3) instead of a 1440 x 900 desktop
  const ctx = await browser.newContext(process.env.FV_PHONE ? { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true } : { viewport: { width: 1440, height: 900 } });
  try {
    const page = await ctx.newPage();
    const reqs = new Map<string, { url: string; bytes: number; encoding: string; done: boolean; viaSw: boolean; cached: boolean; startS: number; endS: number }>();
    let frozen = false; // stop counting once the live map is there
    let atPreview: Array<{ url: string; bytes: number; cached: boolean; viaSw: boolean; done: boolean }> | null = null; // what had arrived when the preview showed
    // keyed by requestId alone: one request seen by two sessions is counted once
    const onNet = (method: string, e: any) => {
      if (frozen) return;
      const id = String(e.requestId);
      const r = reqs.get(id);
      if (method === 'Network.requestWillBeSent') { if (!r) reqs.set(id, { url: e.request.url, bytes: 0, encoding: '', done: false, viaSw: false, cached: false, startS: e.timestamp, endS: NaN }); }
      else if (!r) return;
      else if (method === 'Network.responseReceived') {
        r.encoding = (Object.entries(e.response.headers).find(([k]) => k.toLowerCase() === 'content-encoding')?.[1] as string) ?? '';
        r.viaSw = !!e.response.fromServiceWorker; // its bytes are the service worker's own fetch (or its cache)
        r.cached = !!(e.response.fromDiskCache || e.response.fromPrefetchCache); // read from the HTTP cache: no transfer
      }
      else if (method === 'Network.dataReceived' && !r.done) r.bytes += e.encodedDataLength;
      else if (method === 'Network.loadingFinished') { r.bytes = Math.max(r.bytes, e.encodedDataLength); r.done = true; r.endS = e.timestamp; }
    };
    const setup = async (send: (m: string, p?: object) => Promise<unknown>) => {
      await send('Network.enable');
      // The HTTP cache stays on: each visit has a fresh browser context (an empty cache, as a
      // first visit), and a file read twice during the visit (vi.csv by the page and a worker)
      // is fetched once, as in a real browser.
      if (profile) await send('Network.emulateNetworkConditions', { offline: false, latency: profile.rttMs, downloadThroughput: profile.downBitsPerSecond / 8, uploadThroughput: profile.upBitsPerSecond / 8 });
    };
    const cdp = await ctx.newCDPSession(page);
    for (const m of ['Network.requestWillBeSent', 'Network.responseReceived', 'Network.dataReceived', 'Network.loadingFinished'] as const) cdp.on(m, (e) => onNet(m, e));
    await setup((m, p) => cdp.send(m as any, p as any));
    await attachChildren(cdp, setup, onNet); // dedicated workers and the service worker
    // the page flags the first map synchronously in MapLibre's idle handler; a binding reports it at once
    let mapped!: () => void;
    const mappedP = new Promise<void>((res) => (mapped = res));
    await page.exposeBinding('__benchFirstMap', () => { frozen = true; mapped(); });
    await page.exposeBinding('__benchPreview', () => { atPreview ??= [...reqs.values()].map((r) => ({ ...r })); });
    await page.addInitScript(() => {
      new MutationObserver((_, obs) => {
        if (document.body?.dataset.mapPreview === '1' || document.body?.dataset.mapRendered === '1') (window as any).__benchPreview();
        if (document.body?.dataset.mapRendered === '1') { obs.disconnect(); (window as any).__benchFirstMap(); }
      }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-map-rendered', 'data-map-preview'] });
    });
    await page.addInitScript(milestones, clickSummarise);
    await page.goto(url);
    await within(mappedP, 'first map');
    const [liveMapMs, previewMs] = await page.evaluate(() => [(window as any).__indapiFirstRender as number, (window as any).__indapiFirstPreview as number | undefined]);
    const firstMapMs = Math.min(liveMapMs, previewMs ?? Infinity);
    const ms = await page.waitForFunction((want) => { const m = (window as any).__fv; return m.catalog >= 0 && m.summarise >= 0 && (!want || m.summary >= 0) && m; }, clickSummarise, { timeout: 300_000 });
    const { catalog, summarise, summary } = (await ms.jsonValue()) as { catalog: number; summarise: number; summary: number };
    const list = countable([...reqs.values()], distDir);
    const beforePreview = countable(atPreview ?? [...reqs.values()], distDir);
    if (process.env.FV_WATERFALL) { // FV_WATERFALL=1: each request's start and end (ms after the first request), bytes
      const t0 = Math.min(...list.map((r) => r.startS));
      for (const r of [...list].sort((a, b) => a.startS - b.startS)) {
        console.error(`${((r.startS - t0) * 1000).toFixed(0).padStart(6)} ${((r.endS - t0) * 1000).toFixed(0).padStart(6)} ${String(r.bytes).padStart(8)} ${new URL(r.url).pathname}${r.cached ? ' (HTTP cache)' : ''}`);
      }
      console.error(`first map ${firstMapMs.toFixed(0)} ms, live map ${liveMapMs.toFixed(0)} ms after navigation start`);
    }
    const largest = [...beforePreview].sort((a, b) => b.bytes - a.bytes).slice(0, 8).map((r): [string, number, string] => [new URL(r.url).pathname, r.bytes, r.encoding]);
    const sum = (l: Array<{ bytes: number }>) => l.reduce((a, r) => a + r.bytes, 0);
    return { firstMapMs: Math.round(firstMapMs), liveMapMs: Math.round(liveMapMs), bytesBeforeLive: sum(list), catalogMs: Math.round(catalog), summariseMs: Math.round(summarise), firstSummaryMs: clickSummarise ? Math.round(summary) : NaN, bytesBeforeMap: sum(beforePreview), requestsBeforeMap: beforePreview.length, largest };
  } finally {
    await ctx.close();
  }
}

/**
 * The requests whose bytes count (not answered by the service worker), with the bytes they
 * cost: 0 for a response read from the HTTP cache, a worker script's body added (see
 * {@link workerScriptBytes}) unless it was fetched whole before (preloaded with
 * `rel=preload`: the worker's own request comes from the HTTP cache, though CDP does not say so).
 */
function countable<R extends { url: string; bytes: number; cached: boolean; viaSw: boolean; done: boolean }>(reqs: R[], distDir?: string): R[] {
  const list = reqs.filter((r) => !r.viaSw).map((r) => ({ ...r, bytes: r.cached ? 0 : r.bytes }));
  const whole = new Set(list.filter((r) => r.bytes > 2048).map((r) => r.url));
  // a request still running counts what it has received (a preload just started is not the whole script)
  if (distDir) for (const r of list) if (r.done && !r.cached && !whole.has(r.url)) r.bytes = Math.max(r.bytes, workerScriptBytes(distDir, new URL(r.url).pathname, r.bytes));
  return list;
}

/** `p`, or a rejection naming `what` when it takes over 5 minutes. */
async function within<T>(p: Promise<T>, what: string): Promise<T> {
  let t: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([p, new Promise<never>((_, rej) => (t = setTimeout(() => rej(new Error(`no ${what} within 5 minutes`)), 300_000)))]);
  } finally { clearTimeout(t); }
}

/**
 * Runs in the page before its scripts (an init script): notes in `window.__fv` the moment
 * (performance.now(), ms after navigation start) the catalog first reads "N of M
 * indicators", the Summarise button first shows idle and, when `click`, clicks it then and
 * notes when the summary table's first row appears. -1: not yet.
 */
function milestones(click: boolean): void {
  const m = ((window as any).__fv = { catalog: -1, summarise: -1, summary: -1 });
  const obs = new MutationObserver(() => {
    const now = performance.now();
    if (m.catalog < 0 && /^\d+ of \d+ indicators/.test(document.getElementById('catalog-count')?.textContent ?? '')) m.catalog = now;
    const btn = [...document.querySelectorAll<HTMLButtonElement>('button.primary')].find((b) => b.textContent === 'Summarise' && b.dataset.running === '0');
    if (m.summarise < 0 && btn) { m.summarise = now; if (click) btn.click(); }
    if (m.summary < 0 && document.querySelector('[data-testid="summary-result"] tbody tr')) m.summary = now;
    if (m.catalog >= 0 && m.summarise >= 0 && (!click || m.summary >= 0)) obs.disconnect();
  });
  obs.observe(document, { childList: true, subtree: true, characterData: true, attributes: true });
}

/**
 * The bytes of a worker's script (`/assets/*.worker-*.js`, MapLibre's `maplibre-gl-worker-*.mjs`):
 * CDP reports such a fetch, made for the worker, with its headers' length only (about 800
 * bytes), not its body; the body is the brotli copy the server sends (`<file>.br` in `distDir`,
 * else the file) plus those header bytes. Other requests keep `reported`.
 */
function workerScriptBytes(distDir: string, pathname: string, reported: number): number {
  if (!/^\/assets\/[^/]*worker[^/]*\.m?js$/.test(pathname) || reported > 2048) return reported;
  const file = path.join(distDir, pathname);
  const size = (f: string) => (existsSync(f) ? statSync(f).size : 0);
  return reported + (size(file + '.br') || size(file));
}

/**
 * Attaches to the page's child targets (its dedicated workers and its service worker, with
 * `Target.setAutoAttach`) in non-flat mode, runs `setup` on each before it runs (they wait
 * for the debugger), and feeds their Network events to `onNet`.
 */
async function attachChildren(
  cdp: CDPSession,
  setup: (send: (m: string, p?: object) => Promise<unknown>) => Promise<void>,
  onNet: (method: string, e: any) => void,
): Promise<void> {
  let nextId = 1;
  const pending = new Map<string, (v: unknown) => void>();
  const sendTo = (sessionId: string) => (method: string, params: object = {}) => new Promise<unknown>((res) => {
    const id = nextId++;
    pending.set(`${sessionId}:${id}`, res);
    cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) }).catch(() => res(undefined));
  });
  const c = cdp as any; // non-flat Target events are not in Playwright's typed event map
  c.on('Target.receivedMessageFromTarget', (e: { sessionId: string; message: string }) => {
    const m = JSON.parse(e.message);
    if (m.id !== undefined) { pending.get(`${e.sessionId}:${m.id}`)?.(m.result); pending.delete(`${e.sessionId}:${m.id}`); return; }
    if (typeof m.method === 'string' && m.method.startsWith('Network.')) onNet(m.method, m.params);
  });
  const onAttached = async (sessionId: string, type: string) => {
    const send = sendTo(sessionId);
    if (type === 'worker' || type === 'service_worker') await setup(send).catch(() => undefined);
    await send('Runtime.runIfWaitingForDebugger');
  };
  c.on('Target.attachedToTarget', (e: { sessionId: string; targetInfo: { type: string } }) => void onAttached(e.sessionId, e.targetInfo.type));
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: false });
}

/** One row of the report: a figure, its target and whether it is met. */
export interface BudgetRow { figure: string; value: number; unit: 'ms' | 'bytes'; target: string; met: boolean; runs?: number[] }

/** The median of `xs` (the middle one; the lower middle for an even count). */
function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
}

/**
 * The issue 26 target 4 report from `runs` plain first visits (`#v=ELEVATION`) and
 * `summaryRuns` first visits that click Summarise at once (ELEVATION by ADM1 for Kenya):
 * medians, each with its target and met / NOT MET. The first map is the preview image when
 * there is one (see the module comment); the live map is reported beside it, and the catalog
 * and the Summarise button must be usable before the live (interactive) map.
 */
export function budgetRows(runs: FirstVisit[], summaryRuns: FirstVisit[]): BudgetRow[] {
  const B = FIRST_VISIT_BUDGET;
  const med = (f: (r: FirstVisit) => number, rs = runs) => median(rs.map(f));
  const map = med((r) => r.firstMapMs), live = med((r) => r.liveMapMs);
  const cat = med((r) => r.catalogMs), btn = med((r) => r.summariseMs);
  const sum = med((r) => r.firstSummaryMs, summaryRuns);
  const bytes = med((r) => r.bytesBeforeMap), bytesLive = med((r) => r.bytesBeforeLive);
  const all = (f: (r: FirstVisit) => number) => runs.map(f);
  return [
    { figure: 'time to first map (preview image or live map)', value: map, unit: 'ms', target: `<= ${B.firstMapMs} ms`, met: map <= B.firstMapMs, runs: all((r) => r.firstMapMs) },
    { figure: 'time to map movable (preview pans, or live map)', value: map, unit: 'ms', target: `<= ${B.movableMs} ms`, met: map <= B.movableMs, runs: all((r) => r.firstMapMs) },
    { figure: 'time to live map (MapLibre, interactive)', value: live, unit: 'ms', target: `<= ${B.liveMapMs} ms`, met: live <= B.liveMapMs, runs: all((r) => r.liveMapMs) },
    { figure: 'time to catalog usable', value: cat, unit: 'ms', target: `<= ${B.catalogMs} ms and before the live map`, met: cat <= B.catalogMs && runs.every((r) => r.catalogMs < r.liveMapMs), runs: all((r) => r.catalogMs) },
    { figure: 'time to Summarise usable', value: btn, unit: 'ms', target: 'before the live map', met: runs.every((r) => r.summariseMs < r.liveMapMs), runs: all((r) => r.summariseMs) },
    { figure: 'time to first summary (KEN x ADM1, clicked at once)', value: sum, unit: 'ms', target: `<= ${B.firstSummaryMs} ms`, met: sum <= B.firstSummaryMs, runs: summaryRuns.map((r) => r.firstSummaryMs) },
    { figure: 'bytes before the first map', value: bytes, unit: 'bytes', target: `<= ${B.bytesBeforeMap}`, met: bytes <= B.bytesBeforeMap, runs: all((r) => r.bytesBeforeMap) },
    { figure: 'bytes before the live map', value: bytesLive, unit: 'bytes', target: `<= ${B.bytesBeforeLive}`, met: bytesLive <= B.bytesBeforeLive, runs: all((r) => r.bytesBeforeLive) },
  ];
}

/** Prints the report of one build's visits: each figure with its target, then one JSON object. */
async function report(label: string, runs: FirstVisit[], summaryRuns: FirstVisit[]): Promise<void> {
  const rows = budgetRows(runs, summaryRuns);
  console.log(`${label}: first visit on ${SLOW_MOBILE.name}, median of ${runs.length} (load average ${(await import('node:os')).loadavg().map((x) => x.toFixed(2)).join(' ')})`);
  for (const r of rows) console.log(`${r.figure.padEnd(52)} ${String(r.value).padStart(8)} ${r.unit.padEnd(5)} target ${r.target.padEnd(40)} ${r.met ? 'met' : 'NOT MET'}  runs ${r.runs?.join(' ')}`);
  const mid = [...runs].sort((a, b) => a.firstMapMs - b.firstMapMs)[Math.floor((runs.length - 1) / 2)];
  console.log(JSON.stringify({ build: label, network: SLOW_MOBILE.name, rows, median: { requestsBeforeMap: mid.requestsBeforeMap, largest: mid.largest } }, null, 2));
}

/**
 * `npx tsx bench/first-visit.ts [runs]` (after `npm run build`): serves `DIST_DIR` (default
 * dist) with the embedded bundle, runs `runs` (default 3) throttled first visits of each kind
 * on {@link SLOW_MOBILE} and prints the figures with their targets, then one JSON object.
 * `REF_DIR=<another build's dist>` also serves that build and interleaves its visits with
 * these (the machine's load drifts), reported after them: a before/after in one run.
 */
async function main(): Promise<void> {
  const { startServer } = await import('../e2e/helpers');
  const { launch } = await import('../e2e/app-helpers');
  const n = Number(process.argv[2] ?? 3);
  const builds = [process.env.DIST_DIR || 'dist', ...(process.env.REF_DIR ? [process.env.REF_DIR] : [])].map((d) => path.resolve(d));
  const servers = await Promise.all(builds.map((d) => startServer({ LOG: '0', DIST_DIR: d })));
  const browser = await launch();
  try {
    const runs: FirstVisit[][] = builds.map(() => []), summaryRuns: FirstVisit[][] = builds.map(() => []);
    for (let i = 0; i < n; i++) { // interleaved: machine load drifts
      for (const [b, srv] of servers.entries()) {
        runs[b].push(await firstVisit(browser, `${srv.url}#v=ELEVATION`, SLOW_MOBILE, builds[b]));
        summaryRuns[b].push(await firstVisit(browser, `${srv.url}#v=ELEVATION&iso=KEN&by=ADM1_NAME_ALT`, SLOW_MOBILE, builds[b], true));
      }
    }
    for (const [b, dir] of builds.entries()) await report(b ? `reference ${dir}` : dir, runs[b], summaryRuns[b]);
  } finally {
    await browser.close();
    await Promise.all(servers.map((s) => s.stop()));
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((e) => { console.error(e); process.exit(1); });
}
