/**
 * Result sessions (OpenCPU's `/tmp/<key>/`): what one successful call produced, kept so
 * its value, texts, files and graphics can be fetched later. One interface, four stores:
 * in memory (tests), on disk (`src/node/disk-sessions.ts`), in Redis for several server
 * nodes (`src/node/redis-sessions.ts`) and in IndexedDB in the browser
 * (`src/contract/idb-sessions.ts`).
 *
 * Every store is wrapped by {@link withSessionLifecycle}, the one owner of a session's
 * lifecycle: the lifetime (expired sessions read as missing and go at cleanup), the quota
 * of all sessions (least recently used out first), the cap on one session (a larger one is
 * refused with BAD_ARGUMENT, answered 400) and the periodic cleanup. A store only stores.
 */
import { LRUCache } from 'lru-cache';
import type { GeneratedFile, Graphic } from '../core/api';
import { IndapiError } from '../core/errors';

/** Default lifetime of a session: 24 hours, in milliseconds. */
export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;

/** A file of a session without its bytes. */
export interface SessionFileInfo {
  /** File name, no folders. */
  name: string;
  /** Media type. */
  mediaType: string;
  /** Size in bytes. */
  size: number;
}

/**
 * What a session holds apart from its value, printed value and file and graphic bytes:
 * small, so listings, `info`, `stdout` and file reads never parse the value.
 */
export interface SessionMeta {
  /** Session key: `x0` + 32 lowercase hex digits. */
  key: string;
  /** Creation time, ISO 8601. */
  created: string;
  /** Method called, e.g. "indapi". */
  method: string;
  /** The call as R source, e.g. `indapi(var = "ELEVATION", iso3 = "KEN")`. */
  source: string;
  /** Warnings raised during the call, one message each. */
  warnings: string[];
  /** Messages raised during the call. */
  messages: string[];
  /** Session information text (info). */
  info: string;
  /** Generated files, in listing order. */
  files: SessionFileInfo[];
  /** Number of graphics drawn (graphics/1..n). */
  graphics: number;
  /** ZIP download name, e.g. "ELEVATION-ADM1_NAME_ALT-KEN.csv.zip". */
  zipName?: string;
  /** Size of the kept ZIP archive of the files, bytes, once it is built (HEAD answers from it). */
  zipBytes?: number;
}

/** A complete session as written by {@link SessionStore.put}. */
export interface SessionData extends Omit<SessionMeta, 'files' | 'graphics' | 'zipBytes'> {
  /** The returned value as JSON-compatible data (R/.val). */
  value: unknown;
  /** Printed value (R/.val/print and stdout). */
  print: string;
  /** Generated files with their bytes. */
  files: GeneratedFile[];
  /** Drawn graphics. */
  graphics: Graphic[];
  /** The ZIP archive of the files, when already built. */
  zip?: Uint8Array;
}

/**
 * Storage of sessions. Writes are atomic: after `put` resolves the whole session is
 * readable; after it rejects nothing of it is. Readers never see half a session.
 */
export interface SessionStore {
  /** Stores a new session under `data.key`. */
  put(data: SessionData, signal?: AbortSignal): Promise<void>;
  /** Reads a session's metadata, or undefined when it does not exist (or has expired). */
  get(key: string, signal?: AbortSignal): Promise<SessionMeta | undefined>;
  /** Reads a session's value (R/.val), undefined when the session does not exist. */
  readValue(key: string, signal?: AbortSignal): Promise<{ value: unknown } | undefined>;
  /** Reads a session's printed value, undefined when the session does not exist. */
  readPrint(key: string, signal?: AbortSignal): Promise<string | undefined>;
  /** Reads the kept ZIP archive of the session's files, undefined when none is kept. */
  readZip?(key: string, signal?: AbortSignal): Promise<Uint8Array | undefined>;
  /** Keeps the ZIP archive of the session's files (built on the first request for it). */
  putZip?(key: string, zip: Uint8Array, signal?: AbortSignal): Promise<void>;
  /** Reads one file's bytes, undefined when the session or the file does not exist. */
  readFile(key: string, name: string, signal?: AbortSignal): Promise<GeneratedFile | undefined>;
  /** Reads graphic number `index` (1-based), undefined when absent. */
  readGraphic(key: string, index: number, signal?: AbortSignal): Promise<Graphic | undefined>;
  /** Keys of all stored sessions (for maintenance; never served over HTTP). */
  list(signal?: AbortSignal): Promise<string[]>;
  /** Deletes a session; no error when it does not exist. */
  delete(key: string, signal?: AbortSignal): Promise<void>;
  /** Deletes sessions older than the store's lifetime; returns how many went. */
  cleanup?(now?: Date): Promise<number>;
  /**
   * Resolves when the store can be read and written now (the Redis server answers, the
   * folder exists...), rejects otherwise; used by the server's `/healthz`.
   */
  ping?(signal?: AbortSignal): Promise<void>;
}

/** Valid session keys: `x0` then 32 lowercase hex digits (128 random bits). */
export const SESSION_KEY_RE = /^x0[0-9a-f]{32}$/;

/** True when `key` has the shape of a session key (checked before any store access). */
export function isSessionKey(key: string): boolean {
  return SESSION_KEY_RE.test(key);
}

/**
 * A new session key: OpenCPU's shape (`x0` + hex digits) with 128 bits from
 * `crypto.getRandomValues`, so keys cannot be guessed.
 */
export function newSessionKey(): string {
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  return 'x0' + Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

/** Metadata of a complete session (drops the value, the printed value and the bytes). */
export function metaOf(data: SessionData): SessionMeta {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the parts left out
  const { value, print, zip, ...rest } = data;
  const m: SessionMeta = {
    ...rest,
    files: data.files.map((f) => ({ name: f.name, mediaType: f.mediaType, size: f.bytes.byteLength })),
    graphics: data.graphics.length,
  };
  if (zip) m.zipBytes = zip.byteLength;
  return m;
}

/** Default quota of a store whose bytes the lifecycle bounds (memory, IndexedDB): 256 MiB, in bytes. */
export const DEFAULT_WRAPPED_QUOTA_BYTES = 256 * 1024 * 1024;

/** Limits of {@link withSessionLifecycle}. */
export interface SessionLimits {
  /** Lifetime, ms (default {@link SESSION_TTL_MS}). */
  ttlMs?: number;
  /**
   * Bytes all sessions may take (default {@link DEFAULT_WRAPPED_QUOTA_BYTES}): the
   * lifecycle keeps an LRU index of the sessions' bytes and deletes the least recently used
   * past it. `'store'` when the store bounds its bytes itself and says how (the disk store:
   * its folder index capped by the free space; Redis: `maxmemory` with an eviction policy).
   */
  quotaBytes?: number | 'store';
  /** Most sessions kept when the lifecycle bounds the quota (default: no count bound). */
  maxSessions?: number;
  /** Bytes one session may take (default a quarter of a numeric quota, else 256 MiB); larger ones are refused (400). */
  maxSessionBytes?: number;
}

/** A store under {@link withSessionLifecycle}. */
export interface ManagedSessionStore extends SessionStore {
  /** Deletes expired sessions; returns how many went. */
  cleanup(now?: Date): Promise<number>;
  /** Runs {@link cleanup} every `intervalMs` (default 1 h); returns a function that stops it. */
  startCleanup(intervalMs?: number): () => void;
  /** Resolves when the store answers (see {@link SessionStore.ping}). */
  ping(signal?: AbortSignal): Promise<void>;
  /** The limits in force: lifetime ms, quota bytes (or 'store'), one session's bytes. */
  readonly limits: { ttlMs: number; quotaBytes: number | 'store'; maxSessionBytes: number };
}

/**
 * Bytes a session takes in a store: value as JSON, printed value, files, graphics and ZIP,
 * plus 1 KiB for the metadata (UTF-16 code units counted as bytes, as the disk store always did).
 */
export function sessionBytes(data: SessionData, valueJson = JSON.stringify(data.value ?? null)): number {
  let n = valueJson.length + data.print.length + (data.zip?.byteLength ?? 0) + 1024;
  for (const f of data.files) n += f.bytes.byteLength;
  for (const g of data.graphics) n += g.svg.length + g.png.byteLength;
  return n;
}

/** Bytes of a session known from its metadata only (files, ZIP, 1 KiB; the value is not counted): for indexing stores at start. */
function metaBytes(m: SessionMeta): number {
  return m.files.reduce((n, f) => n + f.size, 1024) + (m.zipBytes ?? 0);
}

/**
 * Refuses a session larger than `maxBytes`.
 * @throws IndapiError BAD_ARGUMENT (400) naming the size, the bound and how to ask for less
 */
export function assertSessionFits(bytes: number, maxBytes: number): void {
  if (bytes <= maxBytes) return;
  throw new IndapiError(
    'BAD_ARGUMENT',
    `The result is ${(bytes / 1048576).toFixed(1)} MB, more than the ${(maxBytes / 1048576).toFixed(1)} MB one session may keep on this server. Ask for a smaller area (iso3, wkt, ids) or fewer variables, or a lighter format (format = "csv").`,
  );
}

/** True when a session created at `created` (ISO 8601) is past its lifetime `ttlMs` at `nowMs`. */
export function isExpired(created: string, ttlMs: number, nowMs = Date.now()): boolean {
  return !(nowMs - Date.parse(created) <= ttlMs);
}

/**
 * Wraps a store with the session lifecycle, so that no store can lose it:
 * - put: checks the key, refuses a session over `maxSessionBytes` (BAD_ARGUMENT, 400),
 *   then (numeric quota) records its bytes in an LRU index and deletes the least recently
 *   used sessions past the quota or `maxSessions` (the index is read from the store, oldest
 *   first, before the first write);
 * - reads: a session past its lifetime reads as missing and is deleted; any read makes a
 *   session recently used;
 * - cleanup: the store's own when it has one (the disk store also removes stale temporary
 *   folders), else a walk of its keys deleting the expired; `startCleanup` runs it hourly.
 * @param inner the store (it need not check lifetimes or bytes)
 * @param limits lifetime, quota, one session's bound
 */
export function withSessionLifecycle(inner: SessionStore, limits: SessionLimits = {}): ManagedSessionStore {
  const ttlMs = limits.ttlMs ?? SESSION_TTL_MS;
  const quota = limits.quotaBytes ?? DEFAULT_WRAPPED_QUOTA_BYTES;
  const maxSessionBytes = limits.maxSessionBytes ?? (quota === 'store' ? 256 * 1024 * 1024 : Math.max(1, Math.floor(quota / 4)));
  // sessions recently found alive, with the time they expire: reads of their parts skip a metadata read
  const alive = new LRUCache<string, number>({ max: 10_000 });
  const index =
    quota === 'store'
      ? undefined
      : new LRUCache<string, number>({
          maxSize: Math.max(1, quota),
          ...(limits.maxSessions ? { max: limits.maxSessions } : {}),
          sizeCalculation: (n) => Math.max(1, n),
          dispose: (_n, key, reason) => {
            if (reason === 'evict') {
              alive.delete(key);
              void inner.delete(key).catch(() => undefined);
            }
          },
        });
  let indexed: Promise<void> | undefined;
  const readIndex = () => (indexed ??= indexStore(inner, index!).catch(() => undefined));

  async function live(key: string, signal?: AbortSignal): Promise<boolean> {
    if (!isSessionKey(key)) return false;
    const until = alive.get(key);
    if (until !== undefined && Date.now() <= until) {
      index?.get(key);
      return true;
    }
    return !!(await self.get(key, signal));
  }

  const self: ManagedSessionStore = {
    limits: { ttlMs, quotaBytes: quota, maxSessionBytes },
    async put(data, signal) {
      if (!isSessionKey(data.key)) throw new IndapiError('INTERNAL', `Invalid session key: ${data.key}`);
      const bytes = sessionBytes(data);
      assertSessionFits(bytes, maxSessionBytes);
      if (index) await readIndex();
      await inner.put(data, signal);
      index?.set(data.key, bytes);
      alive.set(data.key, Date.parse(data.created) + ttlMs);
    },
    async get(key, signal) {
      if (!isSessionKey(key)) return undefined;
      const m = await inner.get(key, signal);
      if (!m) {
        alive.delete(key);
        return undefined;
      }
      if (isExpired(m.created, ttlMs)) {
        await self.delete(key).catch(() => undefined);
        return undefined;
      }
      index?.get(key);
      alive.set(key, Date.parse(m.created) + ttlMs);
      return m;
    },
    readValue: async (key, signal) => ((await live(key, signal)) ? inner.readValue(key, signal) : undefined),
    readPrint: async (key, signal) => ((await live(key, signal)) ? inner.readPrint(key, signal) : undefined),
    readFile: async (key, name, signal) => ((await live(key, signal)) ? inner.readFile(key, name, signal) : undefined),
    readGraphic: async (key, n, signal) => ((await live(key, signal)) ? inner.readGraphic(key, n, signal) : undefined),
    async readZip(key, signal) {
      return inner.readZip && (await live(key, signal)) ? inner.readZip(key, signal) : undefined;
    },
    async putZip(key, zip, signal) {
      if (!inner.putZip || !(await live(key, signal))) return;
      await inner.putZip(key, zip, signal);
      const n = index?.peek(key);
      if (n !== undefined) index!.set(key, n + zip.byteLength);
    },
    list: (signal) => inner.list(signal),
    async delete(key, signal) {
      alive.delete(key);
      index?.delete(key);
      await inner.delete(key, signal);
    },
    async cleanup(now = new Date()) {
      if (inner.cleanup) return inner.cleanup(now);
      let n = 0;
      for (const key of await inner.list()) {
        const m = await inner.get(key).catch(() => undefined);
        if (m && isExpired(m.created, ttlMs, now.getTime())) {
          await self.delete(key).catch(() => undefined);
          n++;
        }
      }
      return n;
    },
    startCleanup(intervalMs = 3600_000) {
      const t = setInterval(() => void self.cleanup().catch(() => undefined), intervalMs);
      (t as { unref?: () => void }).unref?.();
      return () => clearInterval(t);
    },
    ping: (signal) => inner.ping?.(signal) ?? Promise.resolve(),
  };
  return self;
}

/** Puts the sessions a store holds into the LRU index, least recently created first (so they go first). */
async function indexStore(inner: SessionStore, index: LRUCache<string, number>): Promise<void> {
  const metas: SessionMeta[] = [];
  for (const key of await inner.list()) {
    const m = await inner.get(key).catch(() => undefined);
    if (m) metas.push(m);
  }
  metas.sort((a, b) => Date.parse(a.created) - Date.parse(b.created));
  for (const m of metas) if (!index.has(m.key)) index.set(m.key, metaBytes(m));
}

/** Options of {@link createMemorySessionStore}. */
export interface MemoryStoreOptions {
  /** Lifetime in ms (default {@link SESSION_TTL_MS}). */
  ttlMs?: number;
  /** Most sessions kept; the least recently used go first (default 200). */
  maxSessions?: number;
  /** Bytes all sessions may take (default {@link DEFAULT_WRAPPED_QUOTA_BYTES}). */
  quotaBytes?: number;
  /** Bytes one session may take (default a quarter of the quota). */
  maxSessionBytes?: number;
}

/** A session store in memory (tests, and a fallback where nothing persists), under {@link withSessionLifecycle}. */
export function createMemorySessionStore(opts: MemoryStoreOptions = {}): ManagedSessionStore {
  const map = new Map<string, SessionData>();
  const inner: SessionStore = {
    async put(data) {
      map.set(data.key, structuredClone(data));
    },
    get: async (key) => {
      const d = map.get(key);
      return d ? metaOf(d) : undefined;
    },
    readValue: async (key) => {
      const d = map.get(key);
      return d ? { value: structuredClone(d.value) } : undefined;
    },
    readPrint: async (key) => map.get(key)?.print,
    readZip: async (key) => map.get(key)?.zip,
    async putZip(key, zip) {
      const d = map.get(key);
      if (d && !d.zip) d.zip = zip;
    },
    readFile: async (key, name) => map.get(key)?.files.find((f) => f.name === name),
    readGraphic: async (key, index) => map.get(key)?.graphics[index - 1],
    list: async () => [...map.keys()],
    async delete(key) {
      map.delete(key);
    },
  };
  return withSessionLifecycle(inner, { ttlMs: opts.ttlMs, quotaBytes: opts.quotaBytes, maxSessions: opts.maxSessions ?? 200, maxSessionBytes: opts.maxSessionBytes });
}
