/**
 * First visit on a real connection (issue 17): a fresh browser profile (service worker
 * allowed, as a user's first visit) opens the app, optionally under Chromium's network
 * emulation over CDP (`Network.emulateNetworkConditions`), and we measure the time to the
 * first map (navigation start to the first idle map with the indicator's raster, the page's
 * `__indapiFirstRender`) and the bytes transferred before it.
 *
 * Bytes are what CDP's Network domain reports (encoded bodies and headers) for the page,
 * its dedicated workers (COG ranges, catalog) and the service worker: dedicated workers and
 * the service worker are separate DevTools targets with their own network, so each is
 * attached (the page's auto-attach, which covers both, in the non-flat
 * `Target.sendMessageToTarget` protocol, as Playwright's CDPSession addresses one session
 * only) and gets the same emulation before it runs. A request is counted once (by its id),
 * and a response the service worker gave the page not at all (its bytes are the service
 * worker's own fetch, counted there, or came from its cache). Requests still running at the
 * first map count with what they had received.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
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

/** Budgets of the first visit on {@link SLOW_MOBILE} (issue 17). */
export const FIRST_VISIT_BUDGET = { firstMapMs: 6000, bytesBeforeMap: 0.7 * 1024 * 1024 };

/** What one first visit measured. */
export interface FirstVisit {
  /** Navigation start to the first map (ms). */
  firstMapMs: number;
  /** Bytes transferred before the first map (encoded, with headers). */
  bytesBeforeMap: number;
  /** Requests started before the first map. */
  requestsBeforeMap: number;
  /** The largest transfers before the first map: [path, bytes, Content-Encoding]. */
  largest: Array<[string, number, string]>;
}

/**
 * Opens `url` in a fresh context (1440x900), throttled by `profile` when given, and
 * measures the first map. @throws Error when the map is not drawn within 5 minutes
 */
export async function firstVisit(browser: Browser, url: string, profile?: NetworkProfile, distDir?: string): Promise<FirstVisit> {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const page = await ctx.newPage();
    const reqs = new Map<string, { url: string; bytes: number; encoding: string; done: boolean; viaSw: boolean; startS: number; endS: number }>();
    let frozen = false; // stop counting once the first map is there
    // keyed by requestId alone: one request seen by two sessions is counted once
    const onNet = (method: string, e: any) => {
      if (frozen) return;
      const id = String(e.requestId);
      const r = reqs.get(id);
      if (method === 'Network.requestWillBeSent') { if (!r) reqs.set(id, { url: e.request.url, bytes: 0, encoding: '', done: false, viaSw: false, startS: e.timestamp, endS: NaN }); }
      else if (!r) return;
      else if (method === 'Network.responseReceived') {
        r.encoding = (Object.entries(e.response.headers).find(([k]) => k.toLowerCase() === 'content-encoding')?.[1] as string) ?? '';
        r.viaSw = !!e.response.fromServiceWorker; // its bytes are the service worker's own fetch (or its cache)
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
    await page.addInitScript(() => {
      new MutationObserver((_, obs) => {
        if (document.body?.dataset.mapRendered === '1') { obs.disconnect(); (window as any).__benchFirstMap(); }
      }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-map-rendered'] });
    });
    await page.goto(url);
    await Promise.race([mappedP, new Promise((_, rej) => setTimeout(() => rej(new Error('no first map within 5 minutes')), 300_000))]);
    const firstMapMs = await page.evaluate(() => (window as any).__indapiFirstRender as number);
    const list = [...reqs.values()].filter((r) => !r.viaSw);
    if (distDir) for (const r of list) r.bytes = Math.max(r.bytes, workerScriptBytes(distDir, new URL(r.url).pathname, r.bytes));
    if (process.env.FV_WATERFALL) { // FV_WATERFALL=1: each request's start and end (ms after the first request), bytes
      const t0 = Math.min(...list.map((r) => r.startS));
      for (const r of [...list].sort((a, b) => a.startS - b.startS)) {
        console.error(`${((r.startS - t0) * 1000).toFixed(0).padStart(6)} ${((r.endS - t0) * 1000).toFixed(0).padStart(6)} ${String(r.bytes).padStart(8)} ${new URL(r.url).pathname}`);
      }
      console.error(`first map ${firstMapMs.toFixed(0)} ms after navigation start`);
    }
    const largest = list.sort((a, b) => b.bytes - a.bytes).slice(0, 8).map((r): [string, number, string] => [new URL(r.url).pathname, r.bytes, r.encoding]);
    return { firstMapMs: Math.round(firstMapMs), bytesBeforeMap: list.reduce((a, r) => a + r.bytes, 0), requestsBeforeMap: list.length, largest };
  } finally {
    await ctx.close();
  }
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
