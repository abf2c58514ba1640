/**
 * Sessions in the browser's IndexedDB (database `indapi3-sessions`, object store
 * `sessions`, through idb-keyval), so they survive reloads and work offline.
 *
 * Entries per session: `meta:<key>` ({@link SessionMeta}), `data:<key>` (value, printed
 * value, file and graphic bytes) and, once built, `zip:<key>` (the files' archive). The
 * first two are written in one IndexedDB transaction (`setMany`), so a session is stored
 * whole or not at all. Lifetime, quota (default 256 MiB and 500 sessions, least recently
 * used out first), the one-session cap and cleanup come from {@link withSessionLifecycle}.
 */
import { createStore, delMany, get, keys, promisifyRequest, setMany, type UseStore } from 'idb-keyval';
import type { GeneratedFile, Graphic } from '../core/api';
import { withSessionLifecycle, type ManagedSessionStore, type SessionMeta, type SessionStore, metaOf } from './sessions';

interface SessionBytes {
  files: GeneratedFile[];
  graphics: Graphic[];
  /** The value and its printed form (kept apart from the metadata). */
  value?: unknown;
  print?: string;
}

/** Options of {@link createIdbSessionStore}. */
export interface IdbSessionOptions {
  /** Database name (default "indapi3-sessions"). */
  dbName?: string;
  /** Lifetime, ms (default 24 h). */
  ttlMs?: number;
  /** Most sessions kept (default 500). */
  maxSessions?: number;
  /** Bytes all sessions may take (default 256 MiB). */
  quotaBytes?: number;
  /** Bytes one session may take (default a quarter of the quota). */
  maxSessionBytes?: number;
}

/** Creates the IndexedDB session store, under {@link withSessionLifecycle}. */
export function createIdbSessionStore(opts: IdbSessionOptions = {}): ManagedSessionStore {
  const store: UseStore = createStore(opts.dbName ?? 'indapi3-sessions', 'sessions');
  const meta = (key: string) => get<SessionMeta>(`meta:${key}`, store);
  const bytesOf = (key: string) => get<SessionBytes>(`data:${key}`, store);

  const inner: SessionStore = {
    async put(data) {
      const bytes: SessionBytes = { files: data.files, graphics: data.graphics, value: data.value, print: data.print };
      const entries: Array<[string, unknown]> = [
        [`meta:${data.key}`, metaOf(data)],
        [`data:${data.key}`, bytes],
      ];
      if (data.zip) entries.push([`zip:${data.key}`, data.zip]);
      // one transaction; an entry that cannot be stored (a value IndexedDB cannot clone)
      // aborts it, so the entries put before it are not kept either (idb-keyval's setMany
      // would commit them)
      await store('readwrite', (os) => {
        try {
          for (const [k, v] of entries) os.put(v, k);
        } catch (e) {
          os.transaction.abort();
          throw e;
        }
        return promisifyRequest(os.transaction);
      });
    },
    get: meta,
    async readValue(key) {
      const b = await bytesOf(key);
      return b ? { value: b.value ?? null } : undefined;
    },
    readPrint: async (key) => (await bytesOf(key))?.print,
    readFile: async (key, name) => (await bytesOf(key))?.files.find((f) => f.name === name),
    readGraphic: async (key, index) => (await bytesOf(key))?.graphics[index - 1],
    readZip: (key) => get<Uint8Array>(`zip:${key}`, store),
    async putZip(key, zip) {
      const m = await meta(key);
      if (!m || m.zipBytes) return;
      await setMany([[`zip:${key}`, zip], [`meta:${key}`, { ...m, zipBytes: zip.byteLength }]], store);
    },
    async list() {
      return (await keys(store)).map(String).filter((k) => k.startsWith('meta:')).map((k) => k.slice(5));
    },
    async delete(key) {
      await delMany([`meta:${key}`, `data:${key}`, `zip:${key}`], store);
    },
  };
  return withSessionLifecycle(inner, { ttlMs: opts.ttlMs, quotaBytes: opts.quotaBytes, maxSessions: opts.maxSessions ?? 500, maxSessionBytes: opts.maxSessionBytes });
}
