/**
 * The runtime the app's workers use over the bundle at a URL (src/core/runtime): the engine
 * and the writers over fetch range requests (answered by the service worker's caches when
 * offline).
 */
import type { Engine } from '../src/core/api';
import type { Bundle } from '../src/core/bundle';
import { createRuntime, type Runtime } from '../src/core/runtime';
import { fetchSourceFactory, fetchTextLoader } from '../src/core/io/fetch-source';
import type { TextSeeds } from '../src/core/io/seeded-text';

/**
 * Creates the {@link Runtime} of a worker over the bundle under `dataBase` (URL ending in "/"),
 * with `doFetch` (default the global fetch); `bundle`: a reader of the same bundle to share
 * (src/core/bundle/open.ts); `cacheBytes`: the engine's block cache bound, bytes (default 192 MiB,
 * the engine worker's; the files worker, whose engine answers only builds sent without the
 * page's engine, takes 16 MiB); `seeds`: text files the page hands over, read from there first
 * (src/core/io/seeded-text.ts).
 */
export function createWorkerRuntime(dataBase: string, doFetch?: typeof fetch, bundle?: Bundle, cacheBytes = 192 * 1024 * 1024, seeds?: TextSeeds): Runtime {
  const text = fetchTextLoader(dataBase, { fetch: doFetch });
  return createRuntime({ source: fetchSourceFactory(dataBase, { fetch: doFetch }), text: seeds ? seeds.loader(text) : text, bundle, cacheBytes });
}

/** The engine of {@link createWorkerRuntime} (the engine worker's factory), its text files first from `seeds`. */
export function createWorkerEngine(dataBase: string, doFetch?: typeof fetch, seeds?: TextSeeds): Engine {
  return createWorkerRuntime(dataBase, doFetch, undefined, undefined, seeds).engine;
}
