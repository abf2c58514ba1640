/**
 * What a server node shares with the others when several run behind a load balancer
 * (README "Run on several machines"): the session store chosen by `SESSION_STORE`
 * (default: the disk store in `SESSION_DIR`; `redis://host:port[/db]`: the Redis store), and
 * the shared second level of the result cache (`RESULT_CACHE_URL`), and the node's health
 * answer (`GET /healthz`).
 */
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { ManagedSessionStore, SessionStore } from '../contract/sessions';
import { isDataUrl, nodeBundle } from './bundle-runtime';
import { createDiskSessionStore } from './disk-sessions';
import { isRedisUrl, openRedis, type RedisConnection } from './redis-client';
import { redisResultCache, type SharedResultCache } from './result-cache';
import { createRedisSessionStore } from './redis-sessions';

/** Settings of {@link openSessionStore}. */
export interface SessionStoreSettings {
  /** `SESSION_STORE`: unset, "" or "disk" for the disk store, `redis://host:port[/db]` for Redis. */
  store?: string;
  /** Folder of the disk store. */
  dir: string;
  /** Lifetime, ms (default 24 h). */
  ttlMs?: number;
  /** Bytes all sessions may take (disk store; Redis uses its `maxmemory`). */
  quotaBytes?: number;
  /** Bytes of one session (default a quarter of the disk quota; 256 MiB with Redis). */
  maxSessionBytes?: number;
  /** Where the store says what it does (quota capped, Redis lost and back). */
  log?: (line: string) => void;
}

/** A store with a way to release its connection. */
export type NodeSessionStore = ManagedSessionStore & { close?(): Promise<void> };

/**
 * The session store of a node.
 * @throws Error when `SESSION_STORE` is neither empty, "disk" nor a redis:// URL (the server does not start)
 */
export function openSessionStore(s: SessionStoreSettings): NodeSessionStore {
  const kind = (s.store ?? '').trim();
  if (isRedisUrl(kind)) return createRedisSessionStore({ url: kind, ttlMs: s.ttlMs, maxSessionBytes: s.maxSessionBytes ?? (s.quotaBytes ? Math.floor(s.quotaBytes / 4) : undefined), log: s.log });
  if (kind === '' || kind === 'disk') return createDiskSessionStore({ dir: s.dir, ttlMs: s.ttlMs, quotaBytes: s.quotaBytes, maxSessionBytes: s.maxSessionBytes, log: s.log });
  throw new Error(`SESSION_STORE must be "disk" or a redis:// URL (redis://host:port[/db]), not ${JSON.stringify(kind)}`);
}

/** Longest the health answer waits for the bundle and the store: 3 s. */
export const HEALTH_TIMEOUT_MS = 3000;

/**
 * `GET /healthz`: 200 `ok` when the bundle's manifest can be read and the session store
 * answers, else 503 naming what failed (text/plain, `Retry-After: 5`); 503 `stopping` once
 * the node is shutting down, so a load balancer sends it nothing new.
 * @param dataDir bundle folder or URL
 * @param store the session store (its `ping`)
 * @param stopping true once SIGTERM came
 */
export async function healthAnswer(dataDir: string, store: SessionStore, stopping: boolean): Promise<Response> {
  const headers = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' };
  if (stopping) return new Response('stopping\n', { status: 503, headers: { ...headers, 'Retry-After': '5' } });
  const signal = AbortSignal.timeout(HEALTH_TIMEOUT_MS);
  const check = async (what: string, p: () => Promise<unknown>) => {
    try {
      await Promise.race([p(), new Promise((_r, reject) => signal.addEventListener('abort', () => reject(new Error('no answer in time')), { once: true }))]);
      return undefined;
    } catch (e) {
      return `${what}: ${(e as Error).message}`;
    }
  };
  const bundle = isDataUrl(dataDir) ? () => nodeBundle(dataDir).manifest() : () => fsp.access(path.join(dataDir, 'manifest.json'));
  const failed = (await Promise.all([check('bundle', bundle), check('sessions', async () => store.ping?.(signal))])).filter(Boolean);
  if (failed.length) return new Response(failed.join('\n') + '\n', { status: 503, headers: { ...headers, 'Retry-After': '5' } });
  return new Response('ok\n', { status: 200, headers });
}

/**
 * The bundle's identity for result-cache keys: the sha256 of its manifest (name, version,
 * files and their sizes), the same wherever the bundle is mounted; the location itself
 * when there is no readable manifest (calls then fail anyway).
 */
export async function bundleIdentity(dataDir: string): Promise<string> {
  try {
    return createHash('sha256').update(JSON.stringify(await nodeBundle(dataDir).manifest())).digest('hex');
  } catch {
    return dataDir;
  }
}

/**
 * The shared second level of the result cache from `RESULT_CACHE_URL` (a redis:// URL),
 * with entries kept `RESULT_CACHE_TTL_HOURS` (default 24); undefined when unset.
 * @throws Error when it is set but not a redis:// URL (the server does not start)
 */
export function sharedResultCache(url: string | undefined, ttlHours: number, log?: (line: string) => void): { cache: SharedResultCache; conn: RedisConnection } | undefined {
  if (!url) return undefined;
  if (!isRedisUrl(url)) throw new Error(`RESULT_CACHE_URL must be a redis:// URL, not ${JSON.stringify(url)}`);
  const conn = openRedis(url, log);
  return { cache: redisResultCache(conn, ttlHours * 3600_000), conn };
}
