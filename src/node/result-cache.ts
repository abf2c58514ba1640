/**
 * A result cache in front of the method pool (issue 16): the bundle a server reads is
 * immutable while it runs, so a call with the same method, arguments and request URL
 * always produces the same value and files. The popular calls of a public data API (the
 * app's default views, the SSA summaries scripts repeat) are computed once; later ones
 * cost only their session write. Identical calls that arrive while the first is running
 * wait for it instead of computing it again ("single flight").
 *
 * What is kept: the method's {@link CallOutput} (value, printed value, files and their
 * ZIP), in an LRU bounded in bytes (`lru-cache` `maxSize`). What is not: errors (they are
 * cheap, and a busy pool or a timeout must be tried again), outputs larger than an eighth
 * of the cache, calls whose arguments are over {@link MAX_KEY_SOURCE_BYTES} (a large WKT
 * is rarely repeated). A cached data package keeps the time it was made (its README's
 * "created"), as a file saved by the first caller would.
 *
 * Abort: a caller that goes away (or passes its time limit) stops waiting at once; the
 * shared computation stops only when every caller waiting for it has gone.
 *
 * Level 2 (`RESULT_CACHE_URL=redis://...`, {@link redisResultCache}): several nodes share
 * results through Redis. On a level-1 miss the node's single flight first asks level 2,
 * and computes only when it has nothing; a computed output is written there with a TTL.
 * Keys hold the bundle's identity (the sha256 of its manifest, not its path), so nodes
 * reading the same bundle from different folders share, and a new bundle never reads an
 * old result. Level 2 failing (Redis away) only costs the computation: never an error.
 */
import { createHash } from 'node:crypto';
import { deserialize, serialize } from 'node:v8';
import { LRUCache } from 'lru-cache';
import type { CallOutput, MethodCall, MethodRunner } from '../contract/run';
import { IndapiError } from '../core/errors';

/** Arguments serialised larger than this (bytes of JSON) are not cached: 256 KiB. */
export const MAX_KEY_SOURCE_BYTES = 256 * 1024;

/** Options of {@link cachedRunner}. */
export interface ResultCacheOptions {
  /** Bytes the cache may hold (values as JSON, files and ZIPs); 0 turns caching off but keeps single flight. */
  maxBytes: number;
  /** Identity of the bundle (e.g. its manifest's sha256): part of every key; a promise is awaited once. */
  bundleId?: string | Promise<string>;
  /** The shared second level (Redis), asked on a miss and written after a computation. */
  shared?: SharedResultCache;
}

/** A second-level result cache shared by several nodes. */
export interface SharedResultCache {
  /** The output kept under `key`, undefined when none (or the cache cannot be reached). */
  get(key: string, signal: AbortSignal): Promise<CallOutput | undefined>;
  /** Keeps `out` under `key` (failures are ignored). */
  set(key: string, out: CallOutput): Promise<void>;
}

/** What {@link redisResultCache} needs of a Redis connection (src/node/redis-client.ts). */
export interface ResultCacheRedis {
  command<T = unknown>(args: ReadonlyArray<string | Buffer>, signal?: AbortSignal): Promise<T>;
}

/**
 * Level 2 in Redis: one key per call, `indapi3:rc:<sha256>`, the output serialised with
 * `v8.serialize` (typed arrays kept), written with `SET ... PX ttlMs` and only when at most
 * `maxEntryBytes` (default 8 MiB).
 * @param conn the connection
 * @param ttlMs lifetime of an entry, ms (`RESULT_CACHE_TTL_HOURS`, default 24 h)
 */
export function redisResultCache(conn: ResultCacheRedis, ttlMs = 24 * 3600_000, maxEntryBytes = 8 * 1024 * 1024): SharedResultCache {
  const k = (key: string) => `indapi3:rc:${key}`;
  return {
    async get(key, signal) {
      try {
        const b = await conn.command<Buffer | null>(['GET', k(key)], signal);
        return b ? (deserialize(b) as CallOutput) : undefined;
      } catch {
        return undefined;
      }
    },
    async set(key, out) {
      try {
        const b = serialize(out);
        if (b.byteLength <= maxEntryBytes) await conn.command(['SET', k(key), b, 'PX', String(Math.max(1, Math.floor(ttlMs)))]);
      } catch { /* not shared: the next node computes it */ }
    },
  };
}

/** Counters of a {@link CachedRunner}. */
export interface ResultCacheStats {
  /** Calls answered from the cache. */
  hits: number;
  /** Calls that joined a computation already running. */
  joined: number;
  /** Calls computed. */
  misses: number;
  /** Calls answered from the shared second level. */
  sharedHits: number;
  /** Bytes held. */
  bytes: number;
  /** Entries held. */
  entries: number;
}

/** A {@link MethodRunner} with a result cache, and its counters. */
export interface CachedRunner extends MethodRunner {
  /** Hits, joins, misses and size so far. */
  stats(): ResultCacheStats;
}

/** Keys sorted at every level, so that `{a,b}` and `{b,a}` are the same call. Throws on cycles (bound arguments have none). */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object' && !ArrayBuffer.isView(v)) {
    const o = v as Record<string, unknown>;
    return Object.fromEntries(Object.keys(o).sort().map((k) => [k, canonical(o[k])]));
  }
  return v;
}

/** The cache key of a call (sha256 hex), or undefined when the call is not cached. */
export function callKey(call: MethodCall, bundleId = ''): string | undefined {
  let src: string;
  try {
    src = JSON.stringify([bundleId, call.method, call.requestUrl, canonical(call.args)]);
  } catch {
    return undefined; // a value JSON cannot write (a BigInt): not cached
  }
  if (src.length > MAX_KEY_SOURCE_BYTES) return undefined;
  return createHash('sha256').update(src).digest('hex');
}

/** Bytes an output holds: the value as JSON (already measured by the call), files, graphics and ZIP. */
export function outputBytes(out: CallOutput): number {
  let n = out.valueBytes + out.print.length * 2 + 256;
  for (const f of out.files ?? []) n += f.bytes.byteLength + f.name.length * 2;
  for (const g of out.graphics ?? []) n += g.png.byteLength + g.svg.length * 2;
  n += out.zip?.byteLength ?? 0;
  return n;
}

/** One computation shared by the callers waiting for it. */
interface Flight {
  promise: Promise<CallOutput>;
  controller: AbortController;
  waiters: number;
}

/** Waits for `p`, or rejects with ABORTED as soon as `signal` aborts (then `onAbort` runs once). */
function waitFor<T>(p: Promise<T>, signal: AbortSignal, onAbort: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = () => {
      onAbort();
      reject(new IndapiError('ABORTED', 'The request was aborted.'));
    };
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    p.then(
      (v) => { signal.removeEventListener('abort', abort); resolve(v); },
      (e) => { signal.removeEventListener('abort', abort); reject(e); },
    );
  });
}

/**
 * Wraps `runner` with a result cache and single flight. Methods in the runner's `inline`
 * set are passed through (the handler answers them in its own thread).
 * @throws as `runner.run` does; IndapiError ABORTED when the caller's signal aborts
 */
export function cachedRunner(runner: MethodRunner, o: ResultCacheOptions): CachedRunner {
  const maxBytes = Math.max(0, Math.floor(o.maxBytes));
  // an output over an eighth of the cache is not kept (lru-cache's maxEntrySize: set() ignores it)
  const cache = maxBytes > 0 ? new LRUCache<string, CallOutput>({ maxSize: maxBytes, maxEntrySize: Math.max(1, maxBytes / 8), sizeCalculation: (v) => Math.max(1, outputBytes(v)) }) : undefined;
  const flights = new Map<string, Flight>();
  const counts = { hits: 0, joined: 0, misses: 0, sharedHits: 0 };
  let bundleId: string | undefined;

  function start(key: string, call: MethodCall, onProgress?: (done: number, total: number) => void): Flight {
    const controller = new AbortController();
    // the progress goes to the caller that started the flight (a job's status); others hear none
    const compute = async (): Promise<CallOutput> => {
      const kept = await o.shared?.get(key, controller.signal);
      if (kept) {
        counts.sharedHits++;
        return kept;
      }
      counts.misses++;
      const out = await runner.run(call, controller.signal, onProgress);
      void o.shared?.set(key, out);
      return out;
    };
    const flight: Flight = { controller, waiters: 0, promise: compute() };
    flights.set(key, flight);
    flight.promise.then(
      (out) => {
        if (flights.get(key) === flight) flights.delete(key);
        cache?.set(key, out);
      },
      () => { if (flights.get(key) === flight) flights.delete(key); },
    );
    return flight;
  }

  async function run(call: MethodCall, signal: AbortSignal, onProgress?: (done: number, total: number) => void): Promise<CallOutput> {
    bundleId ??= await o.bundleId;
    const key = callKey(call, bundleId);
    if (key === undefined) return runner.run(call, signal, onProgress);
    const hit = cache?.get(key);
    if (hit) {
      counts.hits++;
      return hit;
    }
    let flight = flights.get(key);
    if (flight) counts.joined++;
    else {
      if (signal.aborted) throw new IndapiError('ABORTED', 'The request was aborted.');
      flight = start(key, call, onProgress);
    }
    const f = flight;
    f.waiters++;
    let left = false;
    const leave = () => {
      if (left) return;
      left = true;
      if (--f.waiters === 0 && flights.get(key) === f) {
        flights.delete(key); // a later caller starts afresh
        f.controller.abort();
      }
    };
    try {
      return await waitFor(f.promise, signal, leave);
    } finally {
      if (!left) { left = true; f.waiters--; }
    }
  }

  return {
    run,
    inline: runner.inline,
    // large bodies are parsed by the wrapped runner (its threads); parsing is not cached
    parseBody: runner.parseBody?.bind(runner),
    stats: () => ({ ...counts, bytes: cache?.calculatedSize ?? 0, entries: cache?.size ?? 0 }),
  };
}
