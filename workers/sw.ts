/// <reference lib="webworker" />
/**
 * The service worker: answers the OpenCPU-compatible contract (`<base>ocpu/...`) inside the
 * browser with the same handler as the Node server, serves the data bundle
 * (`<base>data/...`) from Cache Storage with range requests, and keeps the app shell
 * offline.
 *
 * Built as a classic script to `dist/sw.js` by `vite.sw.config.ts`; register it from the
 * app with `navigator.serviceWorker.register('./sw.js')` (scope = the app's base path).
 * See workers/README.md for the messages it understands and posts.
 */
import { createHandler } from '../src/contract/handler';
import { createIdbSessionStore } from '../src/contract/idb-sessions';
import { createEngine } from '../src/core/engine';
import { configureGraphics, createResvgRasterizer, genFile } from '../src/core/formats';
import { fetchSourceFactory, fetchTextLoader } from '../src/core/io/fetch-source';
import { BundleCache, type PrecacheProgress } from './sw-data';

declare const self: ServiceWorkerGlobalScope;
/** App shell files relative to the base path (injected at build time). */
declare const __PRECACHE__: string[];
/** Build id: changes with every app build, names the shell cache. */
declare const __BUILD_ID__: string;

const scope = self.registration.scope; // e.g. https://host/app/
const basePath = new URL(scope).pathname; // "/app/"
const prefix = basePath + 'ocpu';
const dataBase = new URL('data/', scope).href;
const SHELL = `indapi3-shell-${__BUILD_ID__}`;

let bundleVersion: Promise<string | undefined> | undefined;

async function broadcast(msg: unknown): Promise<void> {
  for (const c of await self.clients.matchAll({ includeUncontrolled: true })) c.postMessage(msg);
}

const bundle = new BundleCache(
  dataBase,
  (p: PrecacheProgress) => void broadcast({ type: 'bundle-progress', ...p }),
  // The app shows "A new data bundle is available" for messages whose type mentions an update.
  (version) => {
    bundleVersion = undefined;
    void broadcast({ type: 'bundle-updated', version });
  },
);

/** Reads bundle files through the cache (the engine's I/O inside the worker). */
const dataFetch = ((input: RequestInfo | URL, init?: RequestInit) => bundle.fetch(new Request(input, init))) as typeof fetch;

const engine = createEngine({
  source: fetchSourceFactory(dataBase, { fetch: dataFetch }),
  text: fetchTextLoader(dataBase, { fetch: dataFetch }),
  cacheBytes: 128 * 1024 * 1024,
});

configureGraphics({
  rasterize: createResvgRasterizer({
    wasm: () => fetch(new URL('resvg.wasm', scope)),
    fonts: async () => {
      const r = await fetch(new URL('fonts/DejaVuSans.ttf', scope)).catch(() => undefined);
      return r?.ok ? [new Uint8Array(await r.arrayBuffer())] : [];
    },
  }),
  basemap: async () => {
    const r = await dataFetch(dataBase + 'basemap/countries.geojson').catch(() => undefined);
    return r?.ok ? r.json() : undefined;
  },
  admin1: async () => {
    const r = await dataFetch(dataBase + 'basemap/admin1.geojson').catch(() => undefined);
    return r?.ok ? r.json() : undefined;
  },
});

const version = () =>
  (bundleVersion ??= dataFetch(dataBase + 'manifest.json')
    .then((r) => (r.ok ? r.json() : undefined))
    .then((m) => m?.version as string | undefined)
    .catch(() => undefined));

const handle = createHandler({
  engine,
  genFile: async (input, opts) => genFile({ ...input, version: await version() }, opts),
  sessions: createIdbSessionStore(),
  prefix,
  runtimeInfo: async () => `Runtime: service worker (${self.navigator.userAgent})\nBundle: ${(await version()) ?? 'unknown'}`,
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
      for (const n of await caches.keys()) if (n.startsWith('indapi3-shell-') && n !== SHELL) await caches.delete(n);
      await self.clients.claim();
    })(),
  );
  // The bundle downloads in the background; fetches are answered meanwhile.
  void bundle.precache();
});

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const type = (event.data as { type?: string } | undefined)?.type;
  if (type === 'SKIP_WAITING') event.waitUntil(self.skipWaiting());
  else if (type === 'PRECACHE') event.waitUntil(bundle.precache().then((p) => event.source?.postMessage({ type: 'bundle-progress', ...p })));
  else if (type === 'VERSION') event.source?.postMessage({ type: 'version', build: __BUILD_ID__, prefix });
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
    return (await cache.match(new URL('./', scope).href)) ?? (await cache.match(new URL('index.html', scope).href)) ?? new Response('Offline\n', { status: 503 });
  }
  const hit = await cache.match(req, { ignoreSearch: true });
  if (hit) return hit;
  const res = await fetch(req);
  // Lazily cache what the shell loads later (resvg.wasm, fonts, chunks).
  if (res.ok && req.method === 'GET' && new URL(req.url).origin === self.location.origin) void cache.put(req, res.clone());
  return res;
}

self.addEventListener('fetch', (event: FetchEvent) => {
  const req = event.request;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname === prefix || url.pathname.startsWith(prefix + '/')) {
    event.respondWith(handle(req));
    return;
  }
  if (req.method !== 'GET') return;
  if (bundle.owns(url.href)) {
    event.respondWith(bundle.fetch(req));
    return;
  }
  if (url.pathname.endsWith('/sw.js')) return;
  event.respondWith(shell(req));
});
