/**
 * Builds the engine the app's workers use over the bundle at a URL: the core engine over
 * fetch range requests (answered by the service worker's cache when offline).
 */
import type { Engine } from '../src/core/api';
import { createEngine } from '../src/core/engine';
import { fetchSourceFactory, fetchTextLoader } from '../src/core/io/fetch-source';

/** Creates an {@link Engine} reading the bundle under `dataBase` (URL ending in "/"), with `doFetch` (default the global fetch). */
export function createWorkerEngine(dataBase: string, doFetch?: typeof fetch): Engine {
  return createEngine({ source: fetchSourceFactory(dataBase, { fetch: doFetch }), text: fetchTextLoader(dataBase, { fetch: doFetch }), cacheBytes: 192 * 1024 * 1024 });
}
