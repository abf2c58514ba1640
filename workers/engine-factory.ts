/**
 * Builds the engine the app's workers use over the bundle at a URL: the core engine over
 * fetch range requests (answered by the service worker's cache when offline).
 */
import type { Engine } from '../src/core/api';
import type { Bundle } from '../src/core/bundle';
import { createEngine } from '../src/core/engine';
import { fetchSourceFactory, fetchTextLoader } from '../src/core/io/fetch-source';

/**
 * Creates an {@link Engine} reading the bundle under `dataBase` (URL ending in "/"), with `doFetch`
 * (default the global fetch); `bundle`: a reader of the same bundle to share (src/core/bundle/open.ts).
 */
export function createWorkerEngine(dataBase: string, doFetch?: typeof fetch, bundle?: Bundle): Engine {
  return createEngine({ source: fetchSourceFactory(dataBase, { fetch: doFetch }), text: fetchTextLoader(dataBase, { fetch: doFetch }), bundle, cacheBytes: 192 * 1024 * 1024 });
}
