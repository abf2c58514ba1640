/**
 * The data bundle inside the service worker, for bundles of hundreds of COGs:
 *
 * - Small files (every manifest file that is not a `.tif`: catalog `vi.csv`, class tables,
 *   `iso.csv`, basemap, README) are precached, checked against their sha256, in the cache
 *   `indapi3-files` keyed by sha256 — never the COGs.
 * - COGs are cached as they are used: range requests go through the {@link BlockCache}
 *   (64 KiB blocks keyed by sha256 and block index, LRU within a budget), so anything viewed
 *   or summarised once works offline afterwards.
 * - "Keep offline": pinned COGs are downloaded whole, checked against their sha256, kept in
 *   `indapi3-pinned` and never evicted.
 * - `manifest.json` is read network-first (the browser revalidates it with If-None-Match);
 *   a new manifest drops only the cached files, blocks and pins whose sha256 changed.
 *
 * Failures answer text/plain with the header `X-Indapi3-Error` naming an IndapiError code
 * with the status of the contract's one table (src/contract/status.ts: OFFLINE 503,
 * BAD_BUNDLE 502, NOT_FOUND 404), which the engine's FetchSource turns into that error.
 */
import { createStore, del, get, set, update, type UseStore } from 'idb-keyval';
import { contentRange, parseRange } from '../src/core/io/http-range';
import { offlineFiles, parseManifest, type BundleManifest } from '../src/core/bundle';
import { statusFor } from '../src/contract/status';
import { BlockCache, checkRangeResponse, DEFAULT_BUDGET_BYTES, isQuotaError, RangeResponseError, type FileRef, type IndexEntry } from './block-cache';

import type { Pin, PinProgress, PrecacheProgress, StorageStatus, SwToPage } from './protocol/storage';

export type { Pin, PinProgress, PrecacheProgress, StorageStatus };

declare const self: ServiceWorkerGlobalScope;

/** Manifest of the bundle (src/core/bundle owns its type and parser). */
export type { BundleManifest };

/** Cache names (Cache Storage). */
export const CACHES = { files: 'indapi3-files', blocks: 'indapi3-blocks', pinned: 'indapi3-pinned' } as const;

/**
 * Short content key of a manifest: the first 12 hex digits of the SHA-256 of its
 * `path:sha256:bytes` lines, so two bundles with the same version but other files differ.
 */
export async function manifestContentKey(manifest: Pick<BundleManifest, 'files'>): Promise<string> {
  const text = manifest.files.map((f) => `${f.path}:${f.sha256 ?? ''}:${f.bytes ?? ''}`).join('\n');
  return (await sha256Hex(new TextEncoder().encode(text).buffer as ArrayBuffer)).slice(0, 12);
}

/** A text/plain failure carrying an IndapiError code in `X-Indapi3-Error`, its status from the contract's table. */
export function errorResponse(code: 'OFFLINE' | 'BAD_BUNDLE' | 'NOT_FOUND', message: string): Response {
  return new Response(message.trim() + '\n', { status: statusFor(code), headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Indapi3-Error': code } });
}

export { parseRange };

/**
 * Answers a request from a cached whole file: the whole body, or the requested byte range
 * as 206 with `Content-Range` (a slice of the Blob, so the file is not read into memory whole;
 * the range parsed by src/core/io/http-range.ts as the Node server parses it); 416 with `Content-Range: bytes *\/size`
 * when unsatisfiable; a malformed or multi-range header gets the whole file (RFC 9110 14.2).
 */
export async function answerFromCached(cached: Response, range: string | null): Promise<Response> {
  const blob = await cached.blob();
  const size = blob.size;
  const headers = new Headers(cached.headers);
  headers.set('Accept-Ranges', 'bytes');
  headers.set('X-Indapi3-Cache', 'hit');
  const r = range ? parseRange(range, size) : undefined;
  if (r === 'unsatisfiable') {
    headers.set('Content-Range', `bytes */${size}`);
    return new Response(null, { status: 416, headers });
  }
  if (r) {
    headers.set('Content-Range', contentRange(r[0], r[1], size));
    headers.set('Content-Length', String(r[1] - r[0] + 1));
    return new Response(blob.slice(r[0], r[1] + 1), { status: 206, statusText: 'Partial Content', headers });
  }
  headers.set('Content-Length', String(size));
  return new Response(blob, { status: 200, headers });
}

/** Lower-case hex SHA-256 of bytes. */
export async function sha256Hex(buf: ArrayBuffer): Promise<string> {
  const d = await crypto.subtle.digest('SHA-256', buf);
  return Array.from(new Uint8Array(d), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Cache Storage keys must be URLs: synthetic ones under `<scope>__cache__/`. */
function keyUrl(keyBase: string, kind: string, id: string): string {
  return `${keyBase}${kind}/${id}`;
}

/** Options of {@link BundleCache}. */
export interface BundleCacheOptions {
  /** Bundle root, absolute URL ending in "/" (from config.json's dataUrl). */
  dataBase: string;
  /** Base of the synthetic cache keys, absolute URL ending in "/". */
  keyBase: string;
  /** Posts a message to every client. */
  broadcast: (msg: SwToPage) => void;
  /** Budget of the block cache in bytes (config.json `cacheMB`); a budget set in the storage dialog wins; default min(200 MiB, 1/2 of the quota). */
  budgetBytes?: number;
}

/** The data side of the service worker (see the module comment). */
export class BundleCache {
  readonly dataBase: string;
  private readonly keyBase: string;
  private readonly broadcast: (msg: SwToPage) => void;
  private readonly idb: UseStore;
  private readonly blocks: BlockCache;
  private manifestP: Promise<BundleManifest | undefined> | null = null;
  private manifestKey = '';
  private byPath = new Map<string, FileRef>();
  private syncing: Promise<PrecacheProgress> | null = null;
  private jobs = new Map<string, AbortController>();
  private quotaError: string | undefined;
  private budgetReady: Promise<void>;

  constructor(o: BundleCacheOptions) {
    this.dataBase = o.dataBase;
    this.keyBase = o.keyBase;
    this.broadcast = o.broadcast;
    const idb = createStore('indapi3-sw', 'kv');
    this.idb = idb;
    const blockKey = (k: string) => keyUrl(this.keyBase, 'block', k);
    const blocks = new BlockCache({
      store: {
        get: async (k) => (await (await caches.open(CACHES.blocks)).match(blockKey(k)))?.arrayBuffer(),
        put: async (k, d) => (await caches.open(CACHES.blocks)).put(blockKey(k), new Response(d)),
        delete: async (k) => void (await (await caches.open(CACHES.blocks)).delete(blockKey(k))),
        keys: async () => (await (await caches.open(CACHES.blocks)).keys()).map((r) => r.url.slice(blockKey('').length)),
      },
      index: { load: () => get<IndexEntry[]>('block-index', idb), save: (e) => set('block-index', e, idb) },
      fetchRange: (f, s, e, signal) => this.fetchRange(f, s, e, signal),
      onQuota: (e) => {
        this.quotaError = `Storage is full (${(e as Error).message || 'QuotaExceededError'}): data read now is not kept for offline use. Free space in the Storage panel.`;
        this.broadcast({ type: 'storage-full', message: this.quotaError });
      },
    });
    this.blocks = blocks;
    this.budgetReady = (async () => {
      const stored = await get<number>('budget', idb).catch(() => undefined);
      let budget = stored ?? o.budgetBytes; // the user's setting (storage dialog) over the deployment's cacheMB
      if (budget === undefined) {
        const est = await self.navigator.storage?.estimate?.().catch(() => undefined);
        budget = est?.quota ? Math.min(DEFAULT_BUDGET_BYTES, Math.floor(est.quota / 2)) : DEFAULT_BUDGET_BYTES;
      }
      await blocks.setBudget(budget);
    })();
  }

  /** True when `url` is inside the bundle. */
  owns(url: string): boolean {
    return url.startsWith(this.dataBase);
  }

  private rel(url: string): string {
    const u = new URL(url);
    u.search = '';
    u.hash = '';
    return decodeURIComponent(u.href.slice(this.dataBase.length));
  }

  /** The current manifest: network first (revalidated by the browser's HTTP cache), else the stored copy. */
  manifest(): Promise<BundleManifest | undefined> {
    return (this.manifestP ??= this.loadManifest().then((m) => {
      if (!m) this.manifestP = null;
      return m;
    }));
  }

  /** HTTP status of the last manifest fetch, 0 when the network failed. */
  private manifestStatus = 0;

  private async loadManifest(network = true): Promise<BundleManifest | undefined> {
    const files = await caches.open(CACHES.files);
    const key = keyUrl(this.keyBase, 'meta', 'manifest.json');
    const stored = await (await files.match(key))?.text();
    let text: string | undefined;
    if (network) {
      try {
        // no-cache: the browser revalidates with If-None-Match (304 when unchanged).
        const res = await fetch(this.dataBase + 'manifest.json', { cache: 'no-cache', mode: 'cors' });
        this.manifestStatus = res.status;
        if (res.ok) {
          text = await res.text();
          parseManifest(text); // stored only when it is a manifest
          if (text !== stored) await files.put(key, new Response(text, { headers: { 'Content-Type': 'application/json' } })).catch(() => undefined);
        }
      } catch {
        this.manifestStatus = 0; // offline or unreachable: the stored copy
      }
    }
    text ??= stored;
    if (!text) return undefined;
    const m = parseManifest(text);
    this.byPath = new Map(m.files.map((f) => [f.path, { ...f, sha256: String(f.sha256 ?? '').toLowerCase() }]));
    const k = await manifestContentKey(m);
    // The previous bundle: the one seen by this worker, else the stored copy (the worker restarts often).
    let prev = this.manifestKey;
    if (!prev && stored && stored !== text) prev = await manifestContentKey(parseManifest(stored)).catch(() => '');
    this.manifestKey = k;
    if (prev && k !== prev) {
      this.broadcast({ type: 'bundle-updated', version: m.version });
      void this.sync();
    }
    return m;
  }

  /** Re-reads the manifest from the network (e.g. after activation or when the page asks). */
  async refresh(): Promise<BundleManifest | undefined> {
    this.manifestP = this.loadManifest();
    return this.manifest();
  }

  private async fetchRange(f: FileRef, start: number, end: number, signal?: AbortSignal): Promise<ArrayBuffer> {
    const res = await fetch(this.dataBase + f.path, { headers: { Range: `bytes=${start}-${end}` }, signal, mode: 'cors', cache: 'no-store' });
    try {
      checkRangeResponse(res.status, res.headers.get('content-range'), f, start, end);
    } catch (e) {
      void res.body?.cancel().catch(() => undefined);
      throw e;
    }
    return res.arrayBuffer();
  }

  private networkFailure(path: string, e: unknown): Response {
    if (e instanceof RangeResponseError) {
      if (e.kind === 'HTTP' && e.status === 404) return errorResponse('BAD_BUNDLE', `The data bundle at ${this.dataBase} is partial: ${path} is listed in its manifest but missing (HTTP 404).`);
      return errorResponse('BAD_BUNDLE', e.message);
    }
    const online = self.navigator.onLine !== false;
    return errorResponse(
      'OFFLINE',
      online
        ? `Cannot reach the data host for ${path} (${(e as Error).message}): the network is down, or ${new URL(this.dataBase).origin} does not allow CORS requests from this site. It is not stored on this device: view it once online, or keep it offline.`
        : `Offline: ${path} is not stored on this device (it was not viewed here before and is not kept offline). Connect to the network, or keep it offline in the Storage panel next time.`,
    );
  }

  /**
   * Answers a GET or HEAD inside the bundle: manifest network-first; small files from the
   * precache; COG ranges from the pinned file or the block cache; anything else from the
   * network. Failures: see the module comment.
   */
  async fetch(req: Request): Promise<Response> {
    const path = this.rel(req.url);
    if (path === 'manifest.json') return this.fetchManifest();
    const m = await this.manifest();
    const f = this.byPath.get(path);
    const range = req.headers.get('range');
    if (!f) {
      try {
        const res = await fetch(req);
        if (res.status === 404 && !m) return errorResponse('BAD_BUNDLE', `There is no data bundle at ${this.dataBase} (manifest.json is missing): check DATA_DIR or config.json's dataUrl.`);
        return res;
      } catch (e) {
        if (req.signal.aborted) throw e;
        if (m) return this.networkFailure(path, e);
        return errorResponse(
          'OFFLINE',
          self.navigator.onLine === false
            ? `Offline, and no data bundle is stored on this device yet (${path}).`
            : `Cannot read the data bundle at ${this.dataBase} (${(e as Error).message}): the network is down, or ${new URL(this.dataBase).origin} does not allow CORS requests from this site (Access-Control-Allow-Origin).`,
        );
      }
    }
    if (!f.path.endsWith('.tif')) {
      const hit = await (await caches.open(CACHES.files)).match(keyUrl(this.keyBase, 'file', f.sha256));
      if (hit) return answerFromCached(hit, range);
      try {
        const res = await fetch(req);
        if (res.status === 404) return errorResponse('BAD_BUNDLE', `The data bundle at ${this.dataBase} is partial: ${path} is listed in its manifest but missing (HTTP 404).`);
        return res;
      } catch (e) {
        if (req.signal.aborted) throw e;
        return this.networkFailure(path, e);
      }
    }
    const pinned = await (await caches.open(CACHES.pinned)).match(keyUrl(this.keyBase, 'pin', f.sha256));
    if (pinned) return answerFromCached(pinned, req.method === 'HEAD' ? null : range);
    const headers = new Headers({ 'Content-Type': 'image/tiff', 'Accept-Ranges': 'bytes', ETag: `"${f.sha256.slice(0, 16)}"` });
    if (req.method === 'HEAD') {
      headers.set('Content-Length', String(f.bytes));
      return new Response(null, { status: 200, headers });
    }
    const r = range ? parseRange(range, f.bytes) : undefined;
    if (r === 'unsatisfiable') {
      headers.set('Content-Range', `bytes */${f.bytes}`);
      return new Response(null, { status: 416, headers });
    }
    const [start, end] = r ?? [0, f.bytes - 1];
    // A whole-file GET (a download) not in the cache goes to the network uncached.
    if (!r && !(await this.blocks.covers(f, 0, f.bytes - 1))) {
      try {
        return await fetch(req);
      } catch (e) {
        if (req.signal.aborted) throw e;
        return this.networkFailure(path, e);
      }
    }
    try {
      await this.budgetReady;
      const { data, hit } = await this.blocks.read(f, start, end, req.signal);
      headers.set('Content-Length', String(data.byteLength));
      headers.set('X-Indapi3-Cache', hit ? 'hit' : 'miss');
      const body = data.buffer as ArrayBuffer;
      if (!r) return new Response(body, { status: 200, headers });
      headers.set('Content-Range', `bytes ${start}-${start + data.byteLength - 1}/${f.bytes}`);
      return new Response(body, { status: 206, headers });
    } catch (e) {
      if (req.signal.aborted) throw e;
      return this.networkFailure(path, e);
    }
  }

  private async fetchManifest(): Promise<Response> {
    await this.refresh();
    if (this.manifestStatus === 404) return errorResponse('BAD_BUNDLE', `There is no data bundle at ${this.dataBase} (manifest.json: HTTP 404): check DATA_DIR or config.json's dataUrl.`);
    const stored = await (await caches.open(CACHES.files)).match(keyUrl(this.keyBase, 'meta', 'manifest.json'));
    if (stored) return stored;
    if (this.manifestStatus === 0) return errorResponse('OFFLINE', `Offline, and no data bundle from ${this.dataBase} is stored on this device yet (or its host does not allow CORS).`);
    return errorResponse('BAD_BUNDLE', `The data bundle manifest at ${this.dataBase} cannot be read (HTTP ${this.manifestStatus}).`);
  }

  /**
   * Precaches the small files of the current manifest (each checked against its sha256),
   * then drops cached files, COG blocks and pins whose sha256 is no longer in it and
   * re-downloads changed pinned files. Concurrent calls share one run.
   */
  sync(): Promise<PrecacheProgress> {
    return (this.syncing ??= this.runSync().finally(() => {
      this.syncing = null;
    }));
  }

  private async runSync(): Promise<PrecacheProgress> {
    const m = await this.refresh();
    if (!m) {
      const p: PrecacheProgress = { version: '', done: 0, total: 0, bytes: 0, totalBytes: 0, complete: false, error: `There is no readable data bundle at ${this.dataBase} (manifest.json).` };
      this.broadcast({ type: 'bundle-progress', ...p });
      return p;
    }
    // what a device stores to work offline: the bundle's one list (src/core/bundle/layout.ts)
    const small = offlineFiles(m).map((f) => this.byPath.get(f.path)!);
    const cache = await caches.open(CACHES.files);
    const p: PrecacheProgress = { version: m.version, done: 0, total: small.length, bytes: 0, totalBytes: small.reduce((s, f) => s + (f.bytes || 0), 0), complete: false };
    const errors: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < small.length) {
        const f = small[next++];
        const key = keyUrl(this.keyBase, 'file', f.sha256);
        try {
          if (!(await cache.match(key))) {
            const buf = await this.fetchWhole(f);
            await this.putWithEviction(cache, key, new Response(buf, { headers: { 'Content-Type': contentType(f.path), 'Content-Length': String(buf.byteLength) } }), buf.byteLength);
          }
          p.bytes += f.bytes || 0;
        } catch (e) {
          errors.push(`${f.path}: ${(e as Error).message}`);
        }
        p.done++;
        this.broadcast({ type: 'bundle-progress', ...p });
      }
    };
    await Promise.all([worker(), worker(), worker()]);
    // Drop what the manifest no longer lists (by sha256).
    const shas = new Set(m.files.map((f) => f.sha256.toLowerCase()));
    for (const r of await cache.keys()) {
      const id = r.url.slice(keyUrl(this.keyBase, 'file', '').length);
      if (r.url.startsWith(keyUrl(this.keyBase, 'file', '')) && !shas.has(id)) await cache.delete(r);
    }
    await this.blocks.retain(shas);
    await this.syncPins();
    p.complete = errors.length === 0;
    if (errors.length) p.error = errors.slice(0, 5).join('; ');
    this.broadcast({ type: 'bundle-progress', ...p });
    return p;
  }

  /** Downloads a whole file and checks its size and sha256. @throws Error with a clear message */
  private async fetchWhole(f: FileRef, signal?: AbortSignal): Promise<ArrayBuffer> {
    const res = await fetch(this.dataBase + f.path, { cache: 'no-cache', signal, mode: 'cors' });
    if (res.status === 404) throw new Error(`missing at ${this.dataBase} (HTTP 404): the bundle is partial`);
    if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
    const buf = await res.arrayBuffer();
    if (f.sha256 && (await sha256Hex(buf)) !== f.sha256) throw new Error(`fails its sha256 check (${buf.byteLength} bytes, manifest ${f.bytes}): the file on the host differs from the manifest; nothing was stored`);
    return buf;
  }

  /**
   * Cache.put of a whole file (`bytes` long). On QuotaExceededError, room can only come from
   * the cache of viewed data: when the browser's estimate says dropping blocks could make room,
   * the least recently used blocks worth the file are dropped (no more) and the put is tried
   * once more. Otherwise nothing is dropped: what is cached stays.
   * @throws Error "Storage is full: ..." when the file does not fit
   */
  private async putWithEviction(cache: Cache, key: string, res: Response, bytes: number): Promise<void> {
    const copy = res.clone();
    try {
      await cache.put(key, res);
      return;
    } catch (e) {
      if (!isQuotaError(e)) throw e;
    }
    const est = await self.navigator.storage?.estimate?.().catch(() => undefined);
    const free = est?.quota !== undefined && est.usage !== undefined ? Math.max(0, est.quota - est.usage) : Infinity;
    if (free + this.blocks.bytes >= bytes && this.blocks.bytes > 0) {
      const budget = this.blocks.budgetBytes;
      await this.blocks.setBudget(Math.max(0, this.blocks.bytes - bytes));
      await this.blocks.setBudget(budget);
      try {
        await cache.put(key, copy);
        return;
      } catch (e2) {
        if (!isQuotaError(e2)) throw e2;
      }
    }
    this.quotaError = 'Storage is full: free space in the Storage panel (or in the browser settings) and try again.';
    this.broadcast({ type: 'storage-full', message: this.quotaError });
    throw new Error(this.quotaError);
  }

  private async pins(): Promise<Pin[]> {
    return (await get<Pin[]>('pins', this.idb).catch(() => undefined)) ?? [];
  }

  /** Changes the pin list atomically (one IndexedDB read-write transaction per change). */
  private async updatePins(fn: (pins: Pin[]) => Pin[]): Promise<void> {
    await update<Pin[]>('pins', (cur) => fn(cur ?? []), this.idb);
  }

  private async syncPins(): Promise<void> {
    const pins = await this.pins();
    const stale = pins.filter((p) => this.byPath.get(p.path)?.sha256 !== p.sha256);
    const cache = await caches.open(CACHES.pinned);
    for (const p of stale) await cache.delete(keyUrl(this.keyBase, 'pin', p.sha256));
    const staleKeys = new Set(stale.map((p) => `${p.path} ${p.sha256}`));
    await this.updatePins((cur) => cur.filter((p) => !staleKeys.has(`${p.path} ${p.sha256}`)));
    const again = stale.filter((p) => this.byPath.has(p.path)).map((p) => p.path);
    if (again.length) void this.pin('update', again);
  }

  /**
   * Keeps files offline: downloads each whole (2 at a time), checks its sha256, stores it
   * in `indapi3-pinned` and drops its now redundant blocks; posts `pin-progress`.
   * Cancel with {@link cancel}; files stored before the cancel stay pinned.
   */
  async pin(id: string, paths: string[]): Promise<PinProgress> {
    await this.manifest();
    const ac = new AbortController();
    this.jobs.get(id)?.abort();
    this.jobs.set(id, ac);
    const files = [...new Set(paths)].map((p) => this.byPath.get(p)).filter((f): f is FileRef => !!f);
    const p: PinProgress = { id, done: 0, total: files.length, bytes: 0, totalBytes: files.reduce((s, f) => s + f.bytes, 0), complete: false };
    const unknown = paths.filter((x) => !this.byPath.has(x));
    const errors: string[] = unknown.length ? [`not in the bundle: ${unknown.slice(0, 3).join(', ')}`] : [];
    const cache = await caches.open(CACHES.pinned);
    this.broadcast({ type: 'pin-progress', ...p });
    let next = 0;
    const worker = async () => {
      while (next < files.length && !ac.signal.aborted) {
        const f = files[next++];
        const key = keyUrl(this.keyBase, 'pin', f.sha256);
        try {
          if (!(await cache.match(key))) {
            const buf = await this.fetchWhole(f, ac.signal);
            await this.putWithEviction(cache, key, new Response(buf, { headers: { 'Content-Type': 'image/tiff', 'Content-Length': String(buf.byteLength), ETag: `"${f.sha256.slice(0, 16)}"` } }), buf.byteLength);
            await this.blocks.evictFile(f.sha256);
          }
          // Listed also when a file of the same content is already stored (e.g. ISO3 and ADM0_NAME):
          // they share the stored copy. Two downloads run at once: read-modify-write the list in one
          // IndexedDB transaction (idb-keyval `update`), or one download's entry can overwrite the other's.
          await this.updatePins((pins) => [...pins.filter((x) => x.path !== f.path), { path: f.path, sha256: f.sha256, bytes: f.bytes, at: Date.now() }]);
          p.bytes += f.bytes;
        } catch (e) {
          if (ac.signal.aborted) break;
          errors.push(`${f.path} ${(e as Error).message}`);
          if (/Storage is full/.test((e as Error).message)) ac.abort();
        }
        p.done++;
        this.broadcast({ type: 'pin-progress', ...p });
      }
    };
    await Promise.all([worker(), worker()]);
    this.jobs.delete(id);
    if (ac.signal.aborted && !errors.length) p.cancelled = true;
    if (errors.length) p.error = errors.slice(0, 3).join('; ');
    p.complete = !p.cancelled && !errors.length;
    this.broadcast({ type: 'pin-progress', ...p });
    this.broadcast({ type: 'storage-status', ...(await this.status()) });
    return p;
  }

  /** Cancels the pin job `id`. */
  cancel(id: string): void {
    this.jobs.get(id)?.abort();
  }

  /** Frees files: their pinned copies and cached blocks. @returns bytes freed */
  async free(paths: string[]): Promise<number> {
    await this.manifest();
    const pins = await this.pins();
    const cache = await caches.open(CACHES.pinned);
    let freed = 0;
    const set1 = new Set(paths);
    const others = new Set(pins.filter((x) => !set1.has(x.path)).map((x) => x.sha256));
    for (const p of pins.filter((x) => set1.has(x.path))) {
      if (others.has(p.sha256)) continue; // the stored copy is shared with a file still kept
      if (await cache.delete(keyUrl(this.keyBase, 'pin', p.sha256))) freed += p.bytes;
    }
    await this.updatePins((cur) => cur.filter((x) => !set1.has(x.path)));
    for (const u of await this.blocks.usage()) if (set1.has(u.path)) freed += await this.blocks.evictFile(u.sha256);
    return freed;
  }

  /** Frees every pinned file and cached block (the small precached files stay). @returns bytes freed */
  async clear(): Promise<number> {
    const pinned = (await this.pins()).reduce((s, p) => s + p.bytes, 0);
    await caches.delete(CACHES.pinned);
    await set('pins', [], this.idb);
    this.quotaError = undefined;
    return pinned + (await this.blocks.clear());
  }

  /** Sets the block cache budget (bytes) and remembers it. */
  async setBudget(bytes: number): Promise<void> {
    await this.budgetReady;
    await this.blocks.setBudget(bytes);
    await set('budget', bytes, this.idb);
  }

  /** Forgets the stored budget setting (back to the default). */
  async resetBudget(): Promise<void> {
    await del('budget', this.idb);
  }

  /** What is stored (see {@link StorageStatus}). */
  async status(): Promise<StorageStatus> {
    const m = await this.manifest();
    await this.budgetReady;
    const pins = await this.pins();
    const recent = (await this.blocks.usage()).map(({ path, sha256, bytes, used }) => ({ path, sha256, bytes, used }));
    let filesBytes = 0;
    const cache = await caches.open(CACHES.files);
    for (const r of await cache.keys()) {
      const id = r.url.slice(keyUrl(this.keyBase, 'file', '').length);
      const f = m?.files.find((x) => x.sha256 === id);
      if (f) filesBytes += f.bytes;
    }
    const est = await self.navigator.storage?.estimate?.().catch(() => undefined);
    return {
      version: m?.version ?? '',
      pins,
      recent,
      blockBytes: this.blocks.bytes,
      pinnedBytes: pins.reduce((s, p) => s + p.bytes, 0),
      filesBytes,
      budgetBytes: this.blocks.budgetBytes,
      usage: est?.usage,
      quota: est?.quota,
      quotaError: this.quotaError,
    };
  }

  /** Writes the LRU index now (before the worker may stop). */
  flush(): Promise<void> {
    return this.blocks.flush();
  }
}

function contentType(path: string): string {
  if (path.endsWith('.csv')) return 'text/csv; charset=utf-8';
  if (path.endsWith('.json')) return 'application/json';
  if (path.endsWith('.geojson')) return 'application/geo+json';
  if (path.endsWith('.md')) return 'text/markdown; charset=utf-8';
  return 'application/octet-stream';
}
