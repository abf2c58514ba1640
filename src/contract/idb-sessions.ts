/**
 * Sessions in the browser's IndexedDB (database `indapi3-sessions`, object store
 * `sessions`, through idb-keyval), so they survive reloads and work offline.
 *
 * Two entries per session: `meta:<key>` ({@link SessionMeta}) and `data:<key>` (file and
 * graphic bytes). Both are written in one IndexedDB transaction (`setMany`), so a session
 * is stored whole or not at all. Lifetime {@link SESSION_TTL_MS} (24 h): expired sessions
 * read as missing and are deleted by {@link SessionStore.cleanup}, which runs after every
 * write; at most `maxSessions` (default 500) are kept, oldest first out.
 */
import { createStore, delMany, get, getMany, keys, setMany, type UseStore } from 'idb-keyval';
import type { GeneratedFile, Graphic } from '../core/api';
import { isSessionKey, metaOf, SESSION_TTL_MS, type SessionMeta, type SessionStore } from './sessions';

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
}

/** Creates the IndexedDB session store. */
export function createIdbSessionStore(opts: IdbSessionOptions = {}): SessionStore {
  const store: UseStore = createStore(opts.dbName ?? 'indapi3-sessions', 'sessions');
  const ttl = opts.ttlMs ?? SESSION_TTL_MS;
  const max = opts.maxSessions ?? 500;
  const expired = (m: SessionMeta, now = Date.now()) => now - Date.parse(m.created) > ttl;

  async function meta(key: string): Promise<SessionMeta | undefined> {
    if (!isSessionKey(key)) return undefined;
    const m = await get<SessionMeta>(`meta:${key}`, store);
    return m && !expired(m) ? m : undefined;
  }

  const self: SessionStore = {
    async put(data) {
      if (!isSessionKey(data.key)) throw new Error(`Invalid session key: ${data.key}`);
      const bytes: SessionBytes = { files: data.files, graphics: data.graphics, value: data.value, print: data.print };
      await setMany(
        [
          [`meta:${data.key}`, metaOf(data)],
          [`data:${data.key}`, bytes],
        ],
        store,
      );
      void self.cleanup!().catch(() => undefined);
    },
    get: meta,
    async readValue(key) {
      if (!(await meta(key))) return undefined;
      const b = await get<SessionBytes>(`data:${key}`, store);
      return b ? { value: b.value ?? null } : undefined;
    },
    async readPrint(key) {
      if (!(await meta(key))) return undefined;
      return (await get<SessionBytes>(`data:${key}`, store))?.print;
    },
    async readFile(key, name) {
      if (!(await meta(key))) return undefined;
      const b = await get<SessionBytes>(`data:${key}`, store);
      return b?.files.find((f) => f.name === name);
    },
    async readGraphic(key, index) {
      if (!(await meta(key))) return undefined;
      const b = await get<SessionBytes>(`data:${key}`, store);
      return b?.graphics[index - 1];
    },
    async list() {
      return (await keys(store)).map(String).filter((k) => k.startsWith('meta:')).map((k) => k.slice(5));
    },
    async delete(key) {
      await delMany([`meta:${key}`, `data:${key}`], store);
    },
    async cleanup(now = new Date()) {
      const metaKeys = (await keys(store)).filter((k) => String(k).startsWith('meta:'));
      const metas = (await getMany<SessionMeta>(metaKeys, store)).filter((m): m is SessionMeta => !!m);
      const gone = metas.filter((m) => expired(m, now.getTime()));
      const live = metas.filter((m) => !expired(m, now.getTime())).sort((a, b) => Date.parse(a.created) - Date.parse(b.created));
      if (live.length > max) gone.push(...live.slice(0, live.length - max));
      if (gone.length) await delMany(gone.flatMap((m) => [`meta:${m.key}`, `data:${m.key}`]), store);
      return gone.length;
    },
  };
  return self;
}
