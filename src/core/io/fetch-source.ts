/**
 * A {@link RangeSource} over the Fetch API with HTTP `Range` headers (RFC 9110 section 14):
 * runs in browsers, dedicated and service workers, and Node 20+. Plus a source factory and
 * a text loader for a bundle served at a base URL.
 */
import { bundleUrl } from './url';
import { IndapiError } from '../errors';
import { parseContentRange } from './http-range';
import type { RangeSource, SourceFactory, TextLoader } from './source';

/** Options of {@link FetchSource}. */
export interface FetchSourceOptions {
  /** The fetch implementation; default `globalThis.fetch`. */
  fetch?: typeof fetch;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /**
   * Check that every range comes from the same version of the file: the first answer's
   * `ETag` is kept, later requests send it as `If-Match` (strong ETags; RFC 9110 section
   * 13.1.1) and an answer with another ETag, or 412, fails with BUNDLE_CHANGED (as PMTiles'
   * `EtagMismatch`). Default false: in a browser `If-Match` makes a cross-origin request
   * preflighted, and the service worker checks the bundle by the manifest's sha256 instead.
   */
  checkEtag?: boolean;
}

/** Byte ranges of one URL, read with `Range: bytes=a-b` requests. */
export class FetchSource implements RangeSource {
  readonly key: string;
  private readonly doFetch: typeof fetch;
  private readonly headers: Record<string, string>;
  private readonly checkEtag: boolean;
  /** ETag of the first answer (the version of the file this source reads), when checked. */
  private etag: string | null = null;

  /** @param url absolute URL of the file */
  constructor(readonly url: string, opts: FetchSourceOptions = {}) {
    this.key = url;
    this.doFetch = opts.fetch ?? ((...a) => globalThis.fetch(...a));
    this.headers = opts.headers ?? {};
    this.checkEtag = opts.checkEtag ?? false;
  }

  /** Forgets the file's ETag: the next read takes the version it finds. */
  reset(): void {
    this.etag = null;
  }

  /** Request headers of a range read: the range, and `If-Match` with a strong ETag seen before. */
  private rangeHeaders(offset: number, length: number): Record<string, string> {
    const h: Record<string, string> = { ...this.headers, Range: `bytes=${offset}-${offset + length - 1}` };
    if (this.checkEtag && this.etag && !this.etag.startsWith('W/')) h['If-Match'] = this.etag;
    return h;
  }

  /**
   * Compares an answer's ETag with the one seen first (kept when none was).
   * @throws IndapiError BUNDLE_CHANGED when they differ or the answer is 412
   */
  private checkVersion(res: Response): void {
    if (!this.checkEtag) return;
    const got = res.headers.get('etag');
    const changed = (seen: string | null) => new IndapiError('BUNDLE_CHANGED',
      `${this.url} changed while it was being read (ETag ${seen ?? '?'} before, ${got ?? 'none'} now): it was republished; try again.`,
      { url: this.url, expected: seen, got });
    if (res.status === 412) { void res.body?.cancel().catch(() => undefined); throw changed(this.etag); }
    if (!got) return;
    if (this.etag === null) { this.etag = got; return; }
    if (got.replace(/^W\//, '') !== this.etag.replace(/^W\//, '')) { void res.body?.cancel().catch(() => undefined); throw changed(this.etag); }
  }

  /**
   * Reads `length` bytes at `offset`. A server that ignores `Range` and answers 200 with the
   * whole file is refused (BAD_BUNDLE): a bundle of hundreds of COGs cannot be read whole.
   *
   * Every 206 body is checked against what it claims (`Content-Range`, when readable) and what
   * was asked: Chromium's HTTP cache, asked for a range it holds in part (a sparse entry
   * revalidated with `no-cache`), can answer 206 with the right `Content-Range` and an empty
   * body (seen when the engine and the map read the same tiles of a COG; the family of
   * crbug.com/770694). Such a read is asked once more with `cache: 'no-store'`, which goes to
   * the network (or the service worker) without the HTTP cache.
   * @throws IndapiError IO on network or HTTP failure or a short body twice, BAD_BUNDLE when
   *   the host ignores ranges, OFFLINE / BAD_BUNDLE when the service worker says so (header
   *   `X-Indapi3-Error`), BUNDLE_CHANGED when `checkEtag` is set and the file's ETag changed,
   *   ABORTED when `signal` aborts
   */
  async getBytes(offset: number, length: number, signal?: AbortSignal): Promise<ArrayBuffer> {
    const first = await this.readRange(offset, length, signal);
    if (first.complete) return first.buf;
    const again = await this.readRange(offset, length, signal, 'no-store');
    if (again.complete) return again.buf;
    throw new IndapiError('IO', `Cannot read ${this.url}: asked for bytes ${offset}-${offset + length - 1}, the answer held ${again.buf.byteLength} bytes (${again.contentRange ?? 'no Content-Range'}).`);
  }

  /** One range request; `complete` is false when the body is shorter than its `Content-Range` (or empty). */
  private async readRange(offset: number, length: number, signal?: AbortSignal, cache?: RequestCache): Promise<{ buf: ArrayBuffer; complete: boolean; contentRange: string | null }> {
    let res: Response;
    try {
      res = await this.doFetch(this.url, {
        headers: this.rangeHeaders(offset, length),
        signal,
        ...(cache ? { cache } : {}),
      });
    } catch (e) {
      if (signal?.aborted) throw new IndapiError('ABORTED', 'The request was aborted.');
      throw new IndapiError('IO', `Cannot fetch ${this.url}: ${(e as Error).message}`);
    }
    this.checkVersion(res);
    if (res.status === 416) return { buf: new ArrayBuffer(0), complete: true, contentRange: null };
    if (!res.ok) throw await httpError(this.url, res);
    if (res.status === 200) {
      void res.body?.cancel().catch(() => undefined);
      throw new IndapiError('BAD_BUNDLE', `The data host answered a range request for ${this.url} with the whole file (HTTP 200): it must serve byte ranges (Accept-Ranges: bytes; with CORS also Access-Control-Allow-Headers: Range).`);
    }
    let buf: ArrayBuffer;
    try {
      buf = await res.arrayBuffer();
    } catch (e) {
      if (signal?.aborted) throw new IndapiError('ABORTED', 'The request was aborted.');
      throw new IndapiError('IO', `Cannot read ${this.url}: ${(e as Error).message}`);
    }
    const contentRange = res.headers.get('content-range');
    return { buf, complete: bodyMatches(buf.byteLength, contentRange, offset, length), contentRange };
  }

  /** Size from a HEAD request's Content-Length. @throws IndapiError IO */
  async size(signal?: AbortSignal): Promise<number> {
    const res = await this.doFetch(this.url, { method: 'HEAD', signal }).catch((e) => {
      throw new IndapiError(signal?.aborted ? 'ABORTED' : 'IO', `Cannot fetch ${this.url}: ${(e as Error).message}`);
    });
    const n = Number(res.headers.get('content-length'));
    if (!res.ok || !Number.isFinite(n)) throw new IndapiError('IO', `Cannot get the size of ${this.url}.`);
    return n;
  }
}

/**
 * Whether a 206 body of `bodyBytes` bytes is the whole answer to `bytes=offset-(offset+length-1)`:
 * with a readable `Content-Range: bytes a-b/n` (RFC 9110 section 14.4), `a` must be `offset`
 * and the body `b - a + 1` bytes, at most `length`; without one (a cross-origin host that does
 * not expose it), a non-empty body of at most `length` bytes (it may end at the end of the file).
 */
export function bodyMatches(bodyBytes: number, contentRange: string | null, offset: number, length: number): boolean {
  const r = parseContentRange(contentRange);
  if (r) return r.start === offset && bodyBytes === r.end - r.start + 1 && bodyBytes <= length;
  return length === 0 || (bodyBytes > 0 && bodyBytes <= length);
}

/** Error codes a service worker may name in the `X-Indapi3-Error` header of a failed bundle read. */
const RELAYED_CODES = new Set(['OFFLINE', 'BAD_BUNDLE', 'NOT_FOUND', 'IO']);

/**
 * The error for a failed HTTP answer: the code named by `X-Indapi3-Error` (set by the app's
 * service worker) with its text/plain body as message, else IO with the status.
 */
async function httpError(url: string, res: Response): Promise<IndapiError> {
  const code = res.headers.get('x-indapi3-error') ?? '';
  if (RELAYED_CODES.has(code)) {
    const msg = (await res.text().catch(() => '')).trim().slice(0, 500);
    return new IndapiError(code as 'OFFLINE', msg || `Cannot fetch ${url}: HTTP ${res.status}.`);
  }
  void res.body?.cancel().catch(() => undefined);
  return new IndapiError('IO', `Cannot fetch ${url}: HTTP ${res.status}.`);
}

/** Joins a base URL and a bundle path (the bundle's one URL rule: segments URL-encoded). */
const join = bundleUrl;

/** Source factory for a bundle served under `baseUrl` (e.g. `https://host/app/data/`). */
export function fetchSourceFactory(baseUrl: string, opts: FetchSourceOptions = {}): SourceFactory {
  return (rel) => new FetchSource(join(baseUrl, rel), opts);
}

/**
 * Text loader for a bundle served under `baseUrl`.
 * @throws IndapiError IO on failure, ABORTED on abort
 */
export function fetchTextLoader(baseUrl: string, opts: FetchSourceOptions = {}): TextLoader {
  const f = opts.fetch ?? ((...a: Parameters<typeof fetch>) => globalThis.fetch(...a));
  return async (rel, signal) => {
    const url = join(baseUrl, rel);
    try {
      const res = await f(url, { signal, headers: opts.headers });
      if (!res.ok) throw await httpError(url, res);
      return await res.text();
    } catch (e) {
      if (signal?.aborted) throw new IndapiError('ABORTED', 'The request was aborted.');
      if (e instanceof IndapiError) throw e;
      throw new IndapiError('IO', `Cannot fetch ${url}: ${(e as Error).message}`);
    }
  };
}
