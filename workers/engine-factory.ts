/**
 * The runtime the app's workers use over the bundle at a URL (src/core/runtime): the engine
 * and the writers over fetch range requests (answered by the service worker's caches when
 * offline).
 */
import type { Engine } from '../src/core/api';
import type { Bundle } from '../src/core/bundle';
import { createRuntime, type Runtime } from '../src/core/runtime';
import { fetchSourceFactory, fetchTextLoader } from '../src/core/io/fetch-source';

/**
 * Creates the {@link Runtime} of a worker over the bundle under `dataBase` (URL ending in "/"),
 * with `doFetch` (default the global fetch); `bundle`: a reader of the same bundle to share
 * (src/core/bundle/open.ts); `cacheBytes`: the engine's block cache bound, bytes (default 192 MiB,
 * the engine worker's; the files worker, whose engine answers only builds sent without the
 * page's engine, takes 16 MiB).
 */
export function createWorkerRuntime(dataBase: string, doFetch?: typeof fetch, bundle?: Bundle, cacheBytes = 192 * 1024 * 1024): Runtime {
  return createRuntime({ source: fetchSourceFactory(dataBase, { fetch: doFetch }), text: fetchTextLoader(dataBase, { fetch: doFetch }), bundle, cacheBytes });
}

/** The engine of {@link createWorkerRuntime} (the engine worker's factory). */
export function createWorkerEngine(dataBase: string, doFetch?: typeof fetch, bundle?: Bundle): Engine {
  return createWorkerRuntime(dataBase, doFetch, bundle).engine;
}
