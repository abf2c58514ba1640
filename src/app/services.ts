/**
 * App-wide services: the engine worker client, the map raster worker, and helpers to run
 * engine calls from TanStack Query with progress.
 */
import { wrap } from 'comlink';
import type { Engine } from '../core/api';
import { DATA_BASE } from './bundle';
import { startEngine } from './engine-client';
import type { RasterWorkerApi } from '../../workers/raster.worker';

let engine: Engine | null = null;
/** The engine (worker-backed), started on first use. */
export function getEngine(): Engine {
  return (engine ??= startEngine(DATA_BASE));
}

let raster: ReturnType<typeof wrap<RasterWorkerApi>> | null = null;

// An engine worker started before the service worker took control (first visit) bypasses it,
// so what it reads is not cached for offline use: later calls start a new one. (The map's
// raster worker keeps per-layer styles, so it stays; its tiles are cached from the next visit.)
if (typeof navigator !== 'undefined' && navigator.serviceWorker && !navigator.serviceWorker.controller) {
  navigator.serviceWorker.addEventListener('controllerchange', () => { engine = null; }, { once: true });
}
/** The map raster worker, started on first use. */
export function getRaster() {
  if (!raster) {
    const w = new Worker(new URL('../../workers/raster.worker.ts', import.meta.url), { type: 'module', name: 'raster' });
    raster = wrap<RasterWorkerApi>(w);
    void raster.init(DATA_BASE);
  }
  return raster;
}
