/** Helpers of the catalog e2e tests and of bench/app.ts: in-page search keystroke timing. */
import type { Browser, Page, Request } from 'playwright-core';

/** Keystroke timings in milliseconds (see {@link searchKeystrokeMs}). */
export interface KeystrokeMs {
  /** The search's own work: input event to React's commit of the results (microtask after the event). */
  p50: number;
  p95: number;
  max: number;
  /** Input event to the next task (includes whatever else the main thread was doing, e.g. map frames). */
  taskP95: number;
  /** Keystrokes whose results were not yet in the DOM at the commit mark (should be 0). */
  late: number;
  /** Distinct keystrokes (each typed in every round; its time is the best of the rounds). */
  count: number;
  /** Rounds. */
  rounds: number;
}

/**
 * Types each query into the catalog search box one character at a time, in the page, in three
 * rounds, and times each keystroke: from the input event to React's commit of the results
 * (React flushes a discrete event's update in a microtask, so a microtask queued after the
 * event runs after the commit), and to the next task (MessageChannel round trip). A
 * keystroke's time is the best of its rounds: on a shared machine a thread is often
 * preempted for tens of ms, which says nothing about the search; the percentiles are over
 * the distinct keystrokes.
 */
export async function searchKeystrokeMs(page: Page, queries: string[]): Promise<KeystrokeMs> {
  // a string, not a function: tsx/esbuild would wrap named inner functions with a helper the page lacks
  return page.evaluate(`(async (qs) => {
    const input = [...document.querySelectorAll('.catalog input[type="search"]')][0];
    const count = () => document.getElementById('catalog-count').textContent + '|' + (document.querySelector('.catalog-list [data-code]') || {}).id;
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
    const nextTask = () => new Promise((res) => { const ch = new MessageChannel(); ch.port1.onmessage = () => res(); ch.port2.postMessage(0); });
    const times = [], tasks = [];
    let late = 0;
    for (let rep = 0; rep < 3; rep++) {
      let k = 0;
      for (const q of qs) {
        for (let i = 1; i <= q.length; i++) {
          const t0 = performance.now();
          setter.call(input, q.slice(0, i));
          input.dispatchEvent(new Event('input', { bubbles: true }));
          await Promise.resolve();
          const t1 = performance.now();
          const c1 = count();
          await nextTask();
          tasks.push(performance.now() - t0);
          if (count() !== c1) late++;
          times[k] = Math.min(times[k] ?? Infinity, t1 - t0);
          k++;
        }
        setter.call(input, '');
        input.dispatchEvent(new Event('input', { bubbles: true }));
        await nextTask();
      }
    }
    const s = [...times].sort((a, b) => a - b), t = [...tasks].sort((a, b) => a - b);
    const p = (a, q) => a[Math.min(a.length - 1, Math.floor(a.length * q))];
    return { p50: p(s, 0.5), p95: p(s, 0.95), max: s[s.length - 1], taskP95: p(t, 0.95), late, count: s.length, rounds: 3 };
  })(${JSON.stringify(queries)})`);
}

/** What a first visit transferred until the first map render (and the service worker settled). */
export interface FirstLoad {
  /** Bytes received (encoded bodies and headers) by the page and its service worker. */
  bytes: number;
  /** Number of requests. */
  requests: number;
  /** Bytes of the catalog files (the bundle root's vi.csv and manifest.json) among them. */
  catalogBytes: number;
  /** Bytes of basemap files (outlines, lakes, places): they differ between bundles whatever their indicator count. */
  basemapBytes: number;
  /** Bytes of the requests that finished before the first map was drawn, only the app and the catalog (COG ranges and other bundle files are each bundle's own data). */
  beforeMapBytes: number;
  /** Requests for bundle files other than COGs before the first map (a count: their bytes are each bundle's own). */
  beforeMapDataRequests: number;
  /** Navigation start to the first idle map with the indicator's raster (ms). */
  firstMapMs: number;
}

/**
 * Opens the app in a fresh context (service worker allowed, as a user's first visit), waits
 * for the first map render and for the service worker to be active and the network quiet,
 * and sums what was transferred (Playwright's request sizes, page and service worker).
 */
export async function firstLoad(browser: Browser, url: string): Promise<FirstLoad> {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  let bytes = 0, requests = 0, catalogBytes = 0, basemapBytes = 0, beforeMapBytes = 0, beforeMapDataRequests = 0, mapDrawn = false, pending = 0, lastDone = Date.now();
  const sizes: Array<Promise<void>> = [];
  ctx.on('request', () => { pending++; });
  const done = (req: Request) => {
    pending--; lastDone = Date.now();
    const beforeMap = !mapDrawn;
    sizes.push(req.sizes().then((s) => {
      const n = s.responseBodySize + s.responseHeadersSize;
      bytes += n; requests++;
      const u = req.url();
      const data = /\/data\//.test(u) && !/\.tiff?(\?|$)/.test(u);
      // the bundle root's catalog only: series/vi.csv (the national series' records, read by the engine after the first map) is not it
      const catalog = /\/data\/(vi\.csv|manifest\.json)(\?|$)/.test(u);
      if (beforeMap && data) beforeMapDataRequests++;
      if (beforeMap && !/\.tiff?(\?|$)/.test(u) && (!data || catalog)) beforeMapBytes += n;
      if (catalog) catalogBytes += n;
      if (/\/basemap\//.test(req.url())) basemapBytes += n;
    }).catch(() => undefined));
  };
  ctx.on('requestfinished', done);
  ctx.on('requestfailed', () => { pending--; lastDone = Date.now(); });
  try {
    const page = await ctx.newPage();
    await page.goto(url);
    await page.waitForFunction(() => document.body.dataset.mapRendered === '1', undefined, { timeout: 120_000 });
    mapDrawn = true;
    const firstMapMs = await page.evaluate(() => (window as any).__indapiFirstRender as number);
    await page.evaluate(() => Promise.race([navigator.serviceWorker?.ready, new Promise((r) => setTimeout(r, 10_000))]));
    const t0 = Date.now();
    while (Date.now() - t0 < 60_000 && (pending > 0 || Date.now() - lastDone < 1500)) await new Promise((r) => setTimeout(r, 200));
    await Promise.all(sizes);
    return { bytes, requests, catalogBytes, basemapBytes, beforeMapBytes, beforeMapDataRequests, firstMapMs: Math.round(firstMapMs) };
  } finally {
    await ctx.close();
  }
}

/**
 * Maps each indicator in turn (search box + Enter, then the map idle), collects garbage and
 * reads, in MB: the main thread's JavaScript heap (CDP `Performance.getMetrics`
 * JSHeapUsedSize, JSHeapTotalSize), the page with its workers ({@link pageMemoryMB}) and the
 * renderer processes' resident memory ({@link rendererRssMB}). Chromium only.
 */
export async function heapAfterViews(page: Page, codes: string[]): Promise<{ usedMB: number; totalMB: number; pageMB: number; rendererMB: number; viewed: number }> {
  const search = page.getByLabel('Search indicators');
  let viewed = 0;
  for (const c of codes) {
    await search.fill(c);
    await search.press('Enter');
    await page.waitForFunction((code) => location.hash.includes(`v=${code}`), c, { timeout: 30_000 });
    await page.evaluate(() => new Promise<void>((res) => { const m = (window as any).__indapiMap; if (!m) return res(); const t = setTimeout(res, 20_000); m.once('idle', () => { clearTimeout(t); res(); }); m.triggerRepaint(); }));
    viewed++;
  }
  await search.fill('');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('Performance.enable');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const get = (n: string) => metrics.find((m) => m.name === n)?.value ?? NaN;
  await cdp.detach();
  return { usedMB: get('JSHeapUsedSize') / 2 ** 20, totalMB: get('JSHeapTotalSize') / 2 ** 20, pageMB: await pageMemoryMB(page), rendererMB: await rendererRssMB(page), viewed };
}

/**
 * Memory of the page with its workers (MB): for the page and each dedicated worker
 * (attached through CDP Target.setAutoAttach), the JavaScript heap in use plus the
 * ArrayBuffer backing stores (typed arrays: raster blocks, tiles, WebAssembly memory),
 * from CDP Runtime.getHeapUsage (usedSize + backingStorageSize).
 */
export async function pageMemoryMB(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  const sessions: string[] = [];
  const pending = new Map<number, (v: any) => void>();
  cdp.on('Target.attachedToTarget', (e: any) => { sessions.push(e.sessionId); });
  cdp.on('Target.receivedMessageFromTarget', (e: any) => { const m = JSON.parse(e.message); pending.get(m.id)?.(m.result); });
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  await new Promise((r) => setTimeout(r, 300));
  const size = (u: any) => (u ? (u.usedSize ?? 0) + (u.backingStorageSize ?? 0) : 0);
  let bytes = size(await cdp.send('Runtime.getHeapUsage'));
  let id = 1;
  for (const s of sessions) {
    const mid = id++;
    const res = new Promise((r) => pending.set(mid, r));
    await cdp.send('Target.sendMessageToTarget', { sessionId: s, message: JSON.stringify({ id: mid, method: 'Runtime.getHeapUsage' }) });
    bytes += size(await Promise.race([res, new Promise((r) => setTimeout(() => r(null), 5000))]));
  }
  await cdp.detach();
  return bytes / 2 ** 20;
}

/**
 * Resident memory (MB) of the browser's renderer processes (the page with its workers and
 * WebAssembly memory; with one page open, that page's process), from CDP
 * SystemInfo.getProcessInfo and /proc/<pid>/status (Linux). NaN where unavailable.
 */
export async function rendererRssMB(page: Page): Promise<number> {
  try {
    const b = page.context().browser()!;
    const cdp = await b.newBrowserCDPSession();
    const { processInfo } = await cdp.send('SystemInfo.getProcessInfo') as { processInfo: Array<{ type: string; id: number }> };
    await cdp.detach();
    const { readFileSync } = await import('node:fs');
    let kb = 0;
    for (const p of processInfo.filter((x) => x.type === 'renderer')) {
      const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p.id}/status`, 'utf8'));
      if (m) kb += Number(m[1]);
    }
    return kb ? kb / 1024 : NaN;
  } catch {
    return NaN;
  }
}
