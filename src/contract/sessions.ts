/**
 * Result sessions (OpenCPU's `/tmp/<key>/`): what one successful call produced, kept so
 * its value, texts, files and graphics can be fetched later. One interface, three
 * stores: in memory (tests), on disk (`src/node/disk-sessions.ts`) and in IndexedDB in the
 * browser (`src/contract/idb-sessions.ts`).
 */
import type { GeneratedFile, Graphic } from '../core/api';

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

/** Options of {@link createMemorySessionStore}. */
export interface MemoryStoreOptions {
  /** Lifetime in ms (default {@link SESSION_TTL_MS}). */
  ttlMs?: number;
  /** Most sessions kept; the oldest go first (default 200). */
  maxSessions?: number;
}

/** A session store in memory (tests, and a fallback where nothing persists). */
export function createMemorySessionStore(opts: MemoryStoreOptions = {}): SessionStore {
  const ttl = opts.ttlMs ?? SESSION_TTL_MS;
  const max = opts.maxSessions ?? 200;
  const map = new Map<string, SessionData>();
  const expired = (d: SessionData, now = Date.now()) => now - Date.parse(d.created) > ttl;
  const live = (key: string) => {
    const d = map.get(key);
    if (!d) return undefined;
    if (expired(d)) {
      map.delete(key);
      return undefined;
    }
    return d;
  };
  return {
    async put(data) {
      map.set(data.key, structuredClone(data));
      while (map.size > max) map.delete(map.keys().next().value as string);
    },
    async get(key) {
      const d = live(key);
      return d ? metaOf(d) : undefined;
    },
    async readValue(key) {
      const d = live(key);
      return d ? { value: d.value } : undefined;
    },
    async readPrint(key) {
      return live(key)?.print;
    },
    async readZip(key) {
      return live(key)?.zip;
    },
    async putZip(key, zip) {
      const d = live(key);
      if (d) d.zip = zip;
    },
    async readFile(key, name) {
      return live(key)?.files.find((f) => f.name === name);
    },
    async readGraphic(key, index) {
      return live(key)?.graphics[index - 1];
    },
    async list() {
      return [...map.keys()];
    },
    async delete(key) {
      map.delete(key);
    },
    async cleanup(now = new Date()) {
      let n = 0;
      for (const [k, d] of map) {
        if (expired(d, now.getTime())) {
          map.delete(k);
          n++;
        }
      }
      return n;
    },
  };
}
