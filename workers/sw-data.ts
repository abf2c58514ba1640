/**
 * The data bundle inside the service worker: precaching by manifest version, and
 * answering `<base>data/...` requests from the cache (full files, with range requests
 * answered by slicing the cached body) or from the network.
 *
 * Caches: `indapi3-data-<version>` per bundle version (from `data/manifest.json`). A cache
 * is used for reads once it holds every file of its manifest (marked by the entry
 * `__complete__`); until then files found in it are used and the rest comes from the
 * network. A newer version is downloaded in the background; when complete, older data
 * caches are deleted. Every file is checked against the manifest's sha256 before caching.
 */

/** Manifest of the bundle (the fields used here). */
export interface BundleManifest {
  name: string;
  version: string;
  files: Array<{ path: string; bytes: number; sha256: string }>;
}

/** Progress of precaching, posted to clients as `{ type: 'bundle-progress', ... }`. */
export interface PrecacheProgress {
  version: string;
  done: number;
  total: number;
  bytes: number;
  totalBytes: number;
  complete: boolean;
  error?: string;
}

const PREFIX = 'indapi3-data-';
const COMPLETE = '__complete__';

/**
 * Short content key of a manifest: the first 12 hex digits of the SHA-256 of its
 * `path:sha256` lines, so two bundles with the same version but other files get other caches.
 */
export async function manifestContentKey(manifest: BundleManifest): Promise<string> {
  const text = manifest.files.map((f) => `${f.path}:${f.sha256 ?? ''}:${f.bytes ?? ''}`).join('\n');
  return (await sha256Hex(new TextEncoder().encode(text).buffer as ArrayBuffer)).slice(0, 12);
}

function text(body: string, status: number, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', ...headers } });
}

/** Parses `bytes=a-b`, `bytes=a-`, `bytes=-n` (single range). */
export function parseRange(h: string, size: number): [number, number] | 'unsatisfiable' | undefined {
  const m = /^bytes=(\d*)-(\d*)$/.exec(h.trim());
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (m[1] === '') {
    const n = Number(m[2]);
    if (n === 0) return 'unsatisfiable';
    start = Math.max(0, size - n);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
    if (m[2] !== '' && Number(m[2]) < start) return undefined;
  }
  if (start >= size) return 'unsatisfiable';
  return [start, end];
}

/**
 * Answers a request from a cached full response: the whole body, or the requested byte
 * range as 206 with `Content-Range` (416 when unsatisfiable). The body is sliced as a Blob,
 * so the cached file is not read into memory whole.
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
    const [start, end] = r;
    headers.set('Content-Range', `bytes ${start}-${end}/${size}`);
    headers.set('Content-Length', String(end - start + 1));
    return new Response(blob.slice(start, end + 1), { status: 206, headers });
  }
  headers.set('Content-Length', String(size));
  return new Response(blob, { status: 200, headers });
}

async function sha256Hex(buf: ArrayBuffer): Promise<string> {
  const d = await crypto.subtle.digest('SHA-256', buf);
  return Array.from(new Uint8Array(d), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The data side of the service worker for a bundle at `dataBase` (absolute URL ending in "/"). */
export class BundleCache {
  private precaching: Promise<PrecacheProgress> | null = null;
  private readCache: Promise<Cache | null> | null = null;

  constructor(
    private readonly dataBase: string,
    private readonly notify: (p: PrecacheProgress) => void = () => {},
    /** Called when a new bundle version replaced an older cached one. */
    private readonly onUpdated: (version: string) => void = () => {},
  ) {}

  /** True when `url` is inside the bundle. */
  owns(url: string): boolean {
    return url.startsWith(this.dataBase);
  }

  /** Newest data cache holding a complete bundle, else the newest data cache, else null. */
  private async pickCache(): Promise<Cache | null> {
    const names = (await caches.keys()).filter((n) => n.startsWith(PREFIX));
    if (!names.length) return null;
    const byVersion = names.sort((a, b) => b.localeCompare(a, 'en', { numeric: true }));
    for (const n of byVersion) {
      const c = await caches.open(n);
      if (await c.match(COMPLETE)) return c;
    }
    return caches.open(byVersion[0]);
  }

  private cache(): Promise<Cache | null> {
    return (this.readCache ??= this.pickCache());
  }

  /**
   * Answers a GET for a bundle file: `manifest.json` network-first (to see updates), every
   * other file from the cache when present (ranges sliced from the cached file), else from
   * the network (ranges passed on). Offline with nothing cached: 503.
   */
  async fetch(req: Request): Promise<Response> {
    const url = new URL(req.url);
    url.search = '';
    url.hash = '';
    const key = url.href;
    const range = req.headers.get('range');
    if (key === this.dataBase + 'manifest.json') {
      try {
        const res = await fetch(key, { cache: 'no-cache', signal: req.signal });
        if (res.ok) return res;
      } catch {
        /* offline: fall back to the cache */
      }
    }
    const cache = await this.cache();
    const hit = cache ? await cache.match(key) : undefined;
    if (hit) return answerFromCached(hit, range);
    try {
      return await fetch(req);
    } catch (e) {
      if (req.signal.aborted) throw e;
      return text(`Offline and not cached: ${url.pathname}\n`, 503);
    }
  }

  /**
   * Downloads every file of the current manifest into `indapi3-data-<version>` (3 at a
   * time, each checked against its sha256), marks it complete and deletes older versions.
   * Concurrent calls share one run.
   */
  precache(): Promise<PrecacheProgress> {
    return (this.precaching ??= this.runPrecache().finally(() => {
      this.precaching = null;
    }));
  }

  private async runPrecache(): Promise<PrecacheProgress> {
    let manifest: BundleManifest;
    try {
      const res = await fetch(this.dataBase + 'manifest.json', { cache: 'no-cache' });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      manifest = (await res.json()) as BundleManifest;
    } catch (e) {
      const p: PrecacheProgress = { version: '', done: 0, total: 0, bytes: 0, totalBytes: 0, complete: false, error: `manifest: ${(e as Error).message}` };
      this.notify(p);
      return p;
    }
    // Keyed by version AND content, so a rebuilt bundle is fetched even if its version was not bumped.
    const name = PREFIX + manifest.version + '-' + (await manifestContentKey(manifest));
    const cache = await caches.open(name);
    const files = manifest.files;
    const totalBytes = files.reduce((s, f) => s + (f.bytes || 0), 0);
    const p: PrecacheProgress = { version: manifest.version, done: 0, total: files.length + 1, bytes: 0, totalBytes, complete: false };
    if (await cache.match(COMPLETE)) {
      p.done = p.total;
      p.bytes = totalBytes;
      p.complete = true;
      this.notify(p);
      return p;
    }
    const errors: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < files.length) {
        const f = files[next++];
        const url = this.dataBase + f.path;
        try {
          if (!(await cache.match(url))) {
            const res = await fetch(url, { cache: 'no-cache' });
            if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
            const buf = await res.arrayBuffer();
            if (f.sha256 && (await sha256Hex(buf)) !== f.sha256.toLowerCase()) throw new Error('sha256 mismatch');
            const headers = new Headers(res.headers);
            headers.set('Content-Length', String(buf.byteLength));
            await cache.put(url, new Response(buf, { status: 200, headers }));
          }
          p.bytes += f.bytes || 0;
        } catch (e) {
          errors.push(`${f.path}: ${(e as Error).message}`);
        }
        p.done++;
        this.notify({ ...p });
      }
    };
    await Promise.all([worker(), worker(), worker()]);
    if (errors.length) {
      p.error = errors.slice(0, 5).join('; ');
      this.notify({ ...p });
      return p;
    }
    const mres = await fetch(this.dataBase + 'manifest.json', { cache: 'no-cache' }).catch(() => undefined);
    if (mres?.ok) await cache.put(this.dataBase + 'manifest.json', mres);
    await cache.put(COMPLETE, new Response(manifest.version));
    p.done = p.total;
    p.complete = true;
    let replaced = false;
    for (const n of await caches.keys()) {
      if (n.startsWith(PREFIX) && n !== name) {
        await caches.delete(n);
        replaced = true;
      }
    }
    this.readCache = null;
    if (replaced) this.onUpdated(manifest.version);
    this.notify({ ...p });
    return p;
  }
}
