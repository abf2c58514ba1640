/**
 * App-wide services: the engine worker client, the map raster worker, and helpers to run
 * engine calls from TanStack Query with progress.
 */
import type { Engine } from '../core/api';
import { DATA_BASE, pageTexts } from './bundle';
import { engineCallTimes, startEngine, type StartedEngine } from './engine-client';
import { storeRanges, type ReadRange } from '../core/io/range-log';
import { rasterClient, type RasterClient } from '../ui/raster/client';
import type { OfflineReady, PageToSw } from '../../workers/protocol/storage';

let engine: StartedEngine | null = null;
/** True while no service worker controls the page (a first visit, or no service worker support). */
const uncontrolled = () => typeof navigator !== 'undefined' && !!navigator.serviceWorker && !navigator.serviceWorker.controller;

/**
 * The engine (worker-backed), started on first use. Started while the page is not controlled,
 * it records the COG ranges it reads; when it is retired (the service worker took control),
 * the page reads them again through the service worker, which caches them
 * (src/core/io/range-log.ts), then sets `data-first-visit-stored="1"` on the body. The
 * catalog's texts the page reads for its own lists are handed to the worker ({@link pageTexts}).
 */
export function getEngine(): Engine {
  return (engine ??= startEngine(DATA_BASE, { seeds: pageTexts(), ...(uncontrolled() ? { onRetiredReads: storeFirstVisitReads } : {}) }));
}

let storedDone: () => void = () => undefined;
/**
 * Resolves once what the page read before the service worker controlled it is in the
 * service worker's cache (at once when the page was controlled from the start); then
 * anything viewed or summarised so far works offline.
 */
export const firstVisitStored: Promise<void> = uncontrolled() ? new Promise<void>((res) => (storedDone = res)) : Promise.resolve();
function markStored(): void {
  document.body.dataset.firstVisitStored = '1';
  storedDone();
}

/** Stores the ranges an uncontrolled engine worker read (see {@link getEngine}). */
function storeFirstVisitReads(ranges: ReadRange[]): void {
  void storeRanges(ranges).finally(markStored);
}
// The worker-backed engine, for benchmarks and end-to-end tests in the page (bench/catchment-browser.ts).
// `__indapiEngineCalls(since)`: the engine calls' times in the page (bench/interactions.ts).
if (typeof window !== 'undefined') Object.assign(window, { __indapiEngine: getEngine, __indapiEngineCalls: engineCallTimes });

let raster: RasterClient | null = null;

// An engine worker started before the service worker took control (first visit) bypasses it,
// so what it reads is not cached for offline use: later calls start a new one, and the old one
// ends once its calls have finished. The map's raster worker swaps itself (src/ui/raster/client.ts).
if (typeof navigator !== 'undefined' && navigator.serviceWorker && !navigator.serviceWorker.controller) {
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (engine) engine.retire(getEngine);
    else markStored(); // nothing read before the service worker
    engine = null;
  }, { once: true });
}
/** The map raster worker, started on first use; replaced by a controlled one once the service worker takes over. */
export function getRaster(): RasterClient {
  return (raster ??= rasterClient({
    start: () => new Worker(new URL('../../workers/raster.worker.ts', import.meta.url), { type: 'module', name: 'raster' }),
    dataBase: DATA_BASE,
  }));
}


/** Asks the controlling service worker whether it holds the bundle's small files and the whole app shell (see workers/sw.ts `offlineReady`). */
function askOfflineReady(sw: ServiceWorker): Promise<OfflineReady> {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = (e) => { ch.port1.close(); resolve(e.data as OfflineReady); };
    const ask: PageToSw = { type: 'OFFLINE_READY' };
    sw.postMessage(ask, [ch.port2]);
  });
}

/**
 * Resolves once everything this visit has shown works offline (the "Available offline" signal,
 * issue 23): a service worker controls the page; what the page's engine read before that is
 * stored ({@link firstVisitStored}); the map's raster worker has read again, through the service
 * worker, what it read before that ({@link RasterClient.controlled}); and the service worker
 * holds the bundle's small files (catalog, class tables, basemap) and the whole app shell. COG
 * ranges read later pass through the service worker, which stores them before it answers.
 * When the service worker could not store everything (a dropped connection), it asks again
 * when the browser is back online, else after `retryMs`.
 * @param container the page's service worker container
 * @param signal stops waiting (the promise then never resolves)
 */
export async function whenOfflineReady(container: ServiceWorkerContainer, signal: AbortSignal, retryMs = 30_000): Promise<void> {
  await container.ready;
  if (!container.controller) await new Promise((res) => container.addEventListener('controllerchange', res, { once: true }));
  await firstVisitStored;
  // read after the controller change: a raster worker started from now on is controlled from the start
  await raster?.controlled;
  while (!signal.aborted) {
    const sw = container.controller;
    if (sw && (await askOfflineReady(sw)).complete) return;
    await new Promise<void>((res) => {
      const t = setTimeout(done, retryMs);
      function done() { clearTimeout(t); window.removeEventListener('online', done); res(); }
      window.addEventListener('online', done, { once: true });
    });
  }
  await new Promise(() => undefined);
}