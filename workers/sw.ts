/// <reference lib="webworker" />
/**
 * The service worker: answers the OpenCPU-compatible contract (`<base>ocpu/...`) inside the
 * browser with the same handler as the Node server, serves the data bundle (at the
 * `dataUrl` of `<base>config.json`, default `<base>data/`) through the on-demand caches of
 * `sw-data.ts` (small files precached, COG ranges cached as used, pinned files kept), and
 * keeps the app shell offline.
 *
 * Built as a classic script to `dist/sw.js` by `vite.sw.config.ts`; register it from the
 * app with `navigator.serviceWorker.register('./sw.js')` (scope = the app's base path).
 * See workers/README.md for the messages it understands and posts.
 */
import { createHandler } from '../src/contract/handler';
import { createIdbSessionStore } from '../src/contract/idb-sessions';
import { createResvgRasterizer } from '../src/core/formats';
import { fetchSourceFactory, fetchTextLoader } from '../src/core/io/fetch-source';
import { createRuntime, type Runtime } from '../src/core/runtime';
import { BundleCache, CACHES, errorResponse } from './sw-data';
import type { OfflineReady, PageToSw, SwToPage } from './protocol/storage';

declare const self: ServiceWorkerGlobalScope;
/** App shell files needed to start and draw the first map, relative to the base path (injected at build time), precached at install. */
declare const __PRECACHE__: string[];
/** The other app shell files (lazy panels, writers, parsers), cached in the background after the bundle's small files. */
declare const __PRECACHE_LATER__: string[];
/** Build id: changes with every app build, names the shell cache. */
declare const __BUILD_ID__: string;

const scope = self.registration.scope; // e.g. https://host/app/
const basePath = new URL(scope).pathname; // "/app/"
const prefix = basePath + 'ocpu';
const configUrl = new URL('config.json', scope).href;
const SHELL = `indapi3-shell-${__BUILD_ID__}`;
const CONFIG_KEY = new URL('__cache__/meta/config.json', scope).href;

/** config.json of the deployment (see src/app/config.ts). */
interface SwConfig { dataUrl?: string; cacheMB?: number }

async function broadcast(msg: SwToPage): Promise<void> {
  for (const c of await self.clients.matchAll({ includeUncontrolled: true })) c.postMessage(msg);
}

/** Reads config.json network-first (stored copy offline); the bundle cache follows its dataUrl. */
async function loadConfig(): Promise<SwConfig> {
  const files = await caches.open(CACHES.files);
  try {
    const res = await fetch(configUrl, { cache: 'no-cache' });
    if (res.ok) {
      const text = await res.text();
      const c = JSON.parse(text) as SwConfig;
      await files.put(CONFIG_KEY, new Response(text, { headers: { 'Content-Type': 'application/json' } })).catch(() => undefined);
      return c;
    }
    if (res.status === 404) return {};
  } catch {
    /* offline: the stored copy */
  }
  const stored = await files.match(CONFIG_KEY);
  return stored ? ((await stored.json().catch(() => ({}))) as SwConfig) : {};
}

let bundleP: Promise<BundleCache> | null = null;
function bundle(): Promise<BundleCache> {
  return (bundleP ??= loadConfig().then((c) => {
    let dataBase = new URL(typeof c.dataUrl === 'string' && c.dataUrl ? c.dataUrl : './data/', configUrl).href;
    if (!dataBase.endsWith('/')) dataBase += '/';
    return new BundleCache({
      dataBase,
      keyBase: new URL('__cache__/', scope).href,
      broadcast: (m) => void broadcast(m),
      budgetBytes: typeof c.cacheMB === 'number' && c.cacheMB > 0 ? c.cacheMB * 1024 * 1024 : undefined,
    });
  }));
}

/** Reads bundle files through the caches (the engine's I/O inside the worker). */
const dataFetch = (async (input: RequestInfo | URL, init?: RequestInit) => (await bundle()).fetch(new Request(input, init))) as typeof fetch;

/**
 * The runtime (src/core/runtime) over the caches: one bundle reader for the engine's catalog,
 * grid and class tables, the outlines of graphics and the version written into packages, read
 * once; the engine's block cache bounded at 128 MiB; PNG drawn by resvg-wasm with DejaVu Sans
 * from the shell cache.
 */
let runtimeP: Promise<Runtime> | null = null;
function runtime(): Promise<Runtime> {
  return (runtimeP ??= bundle().then((b) => createRuntime({
    text: fetchTextLoader(b.dataBase, { fetch: dataFetch }),
    source: fetchSourceFactory(b.dataBase, { fetch: dataFetch }),
    cacheBytes: 128 * 1024 * 1024,
    rasterize: createResvgRasterizer({
      wasm: () => shellFile('resvg.wasm'),
      fonts: async () => {
        const r = await shellFile('fonts/DejaVuSans.ttf').catch(() => undefined);
        return r?.ok ? [new Uint8Array(await r.arrayBuffer())] : [];
      },
    }),
  })));
}

const version = async () => (await runtime()).version();

/**
 * A shell file from the shell cache, else from the network (then cached): the PNG renderer
 * (resvg.wasm, 2.4 MB) and its font are not precached but kept once used. A worker's own
 * fetch does not pass through its fetch handler, hence this.
 */
async function shellFile(rel: string): Promise<Response> {
  const url = new URL(rel, scope).href;
  const cache = await caches.open(SHELL);
  const hit = await cache.match(url);
  if (hit) return hit;
  const res = await fetch(url);
  if (res.ok) await cache.put(url, res.clone()).catch(() => undefined);
  return res;
}

/**
 * Caches the shell files not needed to start ({@link __PRECACHE_LATER__}), one at a time,
 * skipping those already there; concurrent calls share one run.
 * @returns true when every one of them is stored
 */
function cacheLater(): Promise<boolean> {
  return (laterP ??= (async () => {
    const cache = await caches.open(SHELL);
    let all = true;
    for (const f of __PRECACHE_LATER__) {
      const url = new URL(f, scope).href;
      if (await cache.match(url)) continue;
      await cache.add(url).catch(() => { all = false; }); // offline or gone: fetched on use instead
    }
    return all;
  })().finally(() => { laterP = null; }));
}
let laterP: Promise<boolean> | null = null;

/**
 * Whether this device holds what the app needs offline apart from the COG ranges the page
 * reads through this worker (those are stored before they are answered): the bundle's small
 * files (catalog, class tables, basemap), checked or fetched now by {@link BundleCache.sync},
 * and the whole app shell; the block index is written too, so a restarted worker keeps the
 * blocks. The page's "Available offline" waits on this answer (src/app/services.ts).
 */
async function offlineReady(): Promise<OfflineReady> {
  const b = await bundle();
  const p = await b.sync();
  const shellStored = await cacheLater();
  await b.flush();
  const error = p.error ?? (shellStored ? undefined : 'parts of the app could not be stored');
  return { type: 'offline-ready', complete: p.complete && shellStored, ...(error ? { error } : {}) };
}

const handle = createHandler({
  engine: async () => (await runtime()).engine,
  genFile: async (input, opts) => (await runtime()).genFile(input, opts),
  sessions: createIdbSessionStore(),
  prefix,
  runtimeInfo: async () => `Runtime: service worker (${self.navigator.userAgent})\nBundle: ${(await version()) ?? 'unknown'} at ${(await bundle()).dataBase}`,
});

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(SHELL);
      await cache.addAll(['./', ...__PRECACHE__].map((p) => new URL(p, scope).href));
      // First install: take over at once (an update waits for the page's SKIP_WAITING).
      if (!self.registration.active) await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const n of await caches.keys()) {
        // Older shells, and the whole-bundle caches of earlier versions (indapi3-data-<version>).
        if ((n.startsWith('indapi3-shell-') && n !== SHELL) || n.startsWith('indapi3-data-')) await caches.delete(n);
      }
      await self.clients.claim();
    })(),
  );
  // The small bundle files download in the background (fetches are answered meanwhile),
  // then the rest of the app shell.
  // Not in activate's waitUntil: fetch events wait for activation to finish.
  void bundle().then((b) => b.sync()).then(cacheLater, cacheLater).catch(() => undefined);
});


self.addEventListener('message', (event: ExtendableMessageEvent) => {
  // messages of the page (src/app/panels/StoragePanel.tsx, UpdateBanner.tsx, services.ts)
  const d = event.data as PageToSw | undefined;
  const reply = (m: SwToPage) => event.source?.postMessage(m);
  const status = async (b: BundleCache) => reply({ type: 'storage-status', ...(await b.status()) });
  switch (d?.type) {
    case 'SKIP_WAITING':
      event.waitUntil(self.skipWaiting());
      break;
    case 'PRECACHE':
      event.waitUntil(bundle().then((b) => b.sync()).then((p) => reply({ type: 'bundle-progress', ...p })));
      break;
    case 'VERSION':
      reply({ type: 'version', build: __BUILD_ID__, prefix });
      break;
    case 'OFFLINE_READY': {
      // answered on the port sent with the message (one answer per question)
      const port = event.ports[0];
      event.waitUntil(offlineReady().catch((e: Error): OfflineReady => ({ type: 'offline-ready', complete: false, error: e.message })).then((m) => (port ? port.postMessage(m) : reply(m))));
      break;
    }
    case 'STORAGE_STATUS':
      event.waitUntil(bundle().then(status));
      break;
    case 'PIN':
      event.waitUntil(bundle().then((b) => b.pin(d.id, d.paths)));
      break;
    case 'CANCEL_PIN':
      void bundle().then((b) => b.cancel(d.id));
      break;
    case 'FREE':
      event.waitUntil(bundle().then(async (b) => { await b.free(d.paths); await status(b); }));
      break;
    case 'CLEAR_STORAGE':
      event.waitUntil(bundle().then(async (b) => { await b.clear(); await status(b); }));
      break;
    case 'SET_BUDGET':
      event.waitUntil(bundle().then(async (b) => { await b.setBudget(d.bytes); await status(b); }));
      break;
  }
});

async function shell(req: Request): Promise<Response> {
  const cache = await caches.open(SHELL);
  if (req.mode === 'navigate') {
    try {
      const res = await fetch(req);
      if (res.ok) return res;
    } catch {
      /* offline */
    }
    return (await cache.match(new URL('./', scope).href)) ?? (await cache.match(new URL('index.html', scope).href)) ?? errorResponse('OFFLINE', 'Offline');
  }
  const hit = await cache.match(req, { ignoreSearch: true });
  if (hit) return hit;
  const res = await fetch(req);
  // Lazily cache what the shell loads later (resvg.wasm, fonts, chunks).
  if (res.ok && req.method === 'GET' && new URL(req.url).origin === self.location.origin) void cache.put(req, res.clone());
  return res;
}

/** config.json: network first, the stored copy offline. */
async function config(req: Request): Promise<Response> {
  try {
    const res = await fetch(req);
    if (res.ok) return res;
  } catch {
    /* offline */
  }
  return (await (await caches.open(CACHES.files)).match(CONFIG_KEY)) ?? new Response('{}', { headers: { 'Content-Type': 'application/json' } });
}

/** Routes a GET/HEAD once the bundle location is known: bundle files, else the shell (same origin) or the network. */
async function route(req: Request): Promise<Response> {
  const b = await bundle();
  if (b.owns(req.url)) return b.fetch(req);
  if (new URL(req.url).origin !== self.location.origin) return fetch(req);
  return shell(req);
}

self.addEventListener('fetch', (event: FetchEvent) => {
  const req = event.request;
  const url = new URL(req.url);
  if (url.origin === self.location.origin && (url.pathname === prefix || url.pathname.startsWith(prefix + '/'))) {
    event.respondWith(handle(req));
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') return;
  if (url.origin === self.location.origin) {
    if (url.pathname.endsWith('/sw.js')) return;
    if (url.href.split('?')[0] === configUrl) {
      event.respondWith(config(req));
      return;
    }
    event.respondWith(route(req));
    return;
  }
  // Another origin: the bundle may live there (a CDN in config.json); anything else passes through.
  event.respondWith(route(req));
});
