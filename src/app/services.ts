/**
 * App-wide services: the engine worker client, the map raster worker, and helpers to run
 * engine calls from TanStack Query with progress.
 */
import type { Engine } from '../core/api';
import { DATA_BASE } from './bundle';
import { startEngine, type StartedEngine } from './engine-client';
import { rasterClient, type RasterClient } from '../ui/raster/client';

let engine: StartedEngine | null = null;
/** The engine (worker-backed), started on first use. */
export function getEngine(): Engine {
  return (engine ??= startEngine(DATA_BASE));
}
// The worker-backed engine, for benchmarks and end-to-end tests in the page (bench/catchment-browser.ts).
if (typeof window !== 'undefined') (window as any).__indapiEngine = getEngine;

let raster: RasterClient | null = null;

// An engine worker started before the service worker took control (first visit) bypasses it,
// so what it reads is not cached for offline use: later calls start a new one, and the old one
// ends once its calls have finished. The map's raster worker swaps itself (src/ui/raster/client.ts).
if (typeof navigator !== 'undefined' && navigator.serviceWorker && !navigator.serviceWorker.controller) {
  navigator.serviceWorker.addEventListener('controllerchange', () => { engine?.retire(getEngine); engine = null; }, { once: true });
}
/** The map raster worker, started on first use; replaced by a controlled one once the service worker takes over. */
export function getRaster(): RasterClient {
  return (raster ??= rasterClient({
    start: () => new Worker(new URL('../../workers/raster.worker.ts', import.meta.url), { type: 'module', name: 'raster' }),
    dataBase: DATA_BASE,
  }));
}
