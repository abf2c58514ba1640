/**
 * Static files for the Node server: the built app (`dist/`) and the data bundle
 * (`/data/`), with HTTP range requests (RFC 9110 section 14: one `bytes=` range ->
 * 206 with `Content-Range`; unsatisfiable -> 416), strong validators (`ETag` from size
 * and modification time, `Last-Modified`), conditional requests (`If-None-Match` -> 304,
 * `If-Range`) and `HEAD`. Paths are resolved inside the root folder only.
 *
 * Precompressed variants: when `<file>.br` or `<file>.gz` sits beside a compressible file
 * (the build writes them, see vite.config.ts) and is not older than it, a request whose
 * `Accept-Encoding` takes that coding (RFC 9110 section 12.5.3, q-values; brotli preferred)
 * gets the variant's bytes with `Content-Encoding`, its own `Content-Length` and an ETag
 * suffixed with the coding (so caches never mix the representations); every answer for such
 * a file says `Vary: Accept-Encoding`. A `Range` request always gets the identity file:
 * range offsets count bytes of the identity encoding (and COGs, `.tif`, are never
 * precompressed: their tiles are deflated already).
 */
import { createReadStream, promises as fsp } from 'node:fs';
import { parseRange } from '../core/io/http-range';
import path from 'node:path';
import { Readable } from 'node:stream';

/** Media types by extension for what the app and the bundle contain. */
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.geojson': 'application/geo+json',
  '.csv': 'text/csv; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
  '.pbf': 'application/x-protobuf',
};

/** Media type of a file name (application/octet-stream when unknown). */
export function mediaType(file: string): string {
  return TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Resolves a URL path below `root`, or undefined when it would leave it or is malformed
 * (encoded slashes or backslashes, NUL, `..` segments after decoding).
 */
export function safeJoin(root: string, urlPath: string): string | undefined {
  let rel: string;
  try {
    if (/%2f|%5c|%00/i.test(urlPath)) return undefined;
    rel = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (rel.includes('\0') || rel.includes('\\')) return undefined;
  const parts = rel.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.some((p) => p === '..')) return undefined;
  const abs = path.resolve(root, ...parts);
  const r = path.resolve(root);
  return abs === r || abs.startsWith(r + path.sep) ? abs : undefined;
}

/** The bundle's one `Range` parser (shared with the service worker). */
export { parseRange } from '../core/io/http-range';

/** Content codings of precompressed variants, in order of preference, with their file suffix. */
const CODINGS = [['br', '.br'], ['gzip', '.gz']] as const;

/** A content coding the server can send: a precompressed variant or the file itself. */
export type Coding = 'br' | 'gzip' | 'identity';

/** Media types worth a precompressed variant (text, JSON, JavaScript, SVG, WebAssembly, fonts other than woff2). */
export function isCompressible(file: string): boolean {
  return /\.(html|js|mjs|css|json|map|geojson|csv|md|txt|svg|wasm|ttf|webmanifest)$/i.test(file);
}

/**
 * The q-value an `Accept-Encoding` header gives a coding (RFC 9110 section 12.5.3): its own
 * entry, else `*`, else 0 (identity: 1 unless excluded). No header: identity only.
 */
export function acceptQ(header: string | null, coding: Coding): number {
  if (header === null) return coding === 'identity' ? 1 : 0;
  let star: number | undefined;
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qp = params.map((x) => x.trim()).find((x) => x.startsWith('q='));
    const q = qp ? Number(qp.slice(2)) : 1;
    const qv = Number.isFinite(q) ? Math.min(1, Math.max(0, q)) : 0;
    if (name === coding || (coding === 'gzip' && name === 'x-gzip')) return qv;
    if (name === '*') star = qv;
  }
  return star ?? (coding === 'identity' ? 1 : 0);
}

/**
 * Picks the representation of `file` for a request: the precompressed variant with the
 * highest q-value (brotli first on a tie) among those that exist and are not older than the
 * file, else the identity file. Range requests and incompressible types: identity.
 * @returns the coding, the path to read, its stat, and whether variants exist (for `Vary`)
 */
async function negotiate(req: Request, file: string, st: { mtimeMs: number }): Promise<{ coding: Coding; path: string; size?: number; vary: boolean }> {
  if (!isCompressible(file)) return { coding: 'identity', path: file, vary: false };
  const found: Array<{ coding: Coding; path: string; size: number }> = [];
  for (const [coding, suffix] of CODINGS) {
    const st2 = await fsp.stat(file + suffix).catch(() => undefined);
    if (st2?.isFile() && st2.mtimeMs >= st.mtimeMs) found.push({ coding, path: file + suffix, size: st2.size });
  }
  if (!found.length) return { coding: 'identity', path: file, vary: false };
  if (req.headers.has('range')) return { coding: 'identity', path: file, vary: true };
  const accept = req.headers.get('accept-encoding');
  let best: { coding: Coding; path: string; size: number; q: number } | undefined;
  for (const f of found) {
    const q = acceptQ(accept, f.coding);
    if (q > 0 && (!best || q > best.q)) best = { ...f, q };
  }
  // identity is always acceptable (unless q=0) but a coding the client takes is preferred
  if (best) return { coding: best.coding, path: best.path, size: best.size, vary: true };
  return { coding: 'identity', path: file, vary: true };
}

/** Options of {@link serveFile}. */
export interface ServeFileOptions {
  /** Cache-Control value (default "no-cache": revalidate with the ETag). */
  cacheControl?: string;
}

/**
 * Answers a GET/HEAD for a file path (already resolved with {@link safeJoin}).
 * @returns the response, or undefined when the path is not a regular file.
 */
export async function serveFile(req: Request, file: string, opts: ServeFileOptions = {}): Promise<Response | undefined> {
  let st;
  try {
    st = await fsp.stat(file);
  } catch {
    return undefined;
  }
  if (!st.isFile()) return undefined;
  const enc = await negotiate(req, file, st);
  const identityEtag = `"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`;
  const etag = enc.coding === 'identity' ? identityEtag : `${identityEtag.slice(0, -1)}-${enc.coding}"`;
  const size = enc.size ?? st.size;
  const headers = new Headers({
    'Content-Type': mediaType(file),
    ETag: etag,
    'Last-Modified': st.mtime.toUTCString(),
    'Accept-Ranges': 'bytes',
    'Cache-Control': opts.cacheControl ?? 'no-cache',
  });
  if (enc.vary) headers.set('Vary', 'Accept-Encoding');
  if (enc.coding !== 'identity') headers.set('Content-Encoding', enc.coding);
  const inm = req.headers.get('if-none-match');
  if (inm && inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag || t.trim() === '*')) {
    return new Response(null, { status: 304, headers });
  }
  const head = req.method === 'HEAD';
  let range = req.headers.get('range');
  const ifRange = req.headers.get('if-range');
  if (range && ifRange && ifRange !== etag && ifRange !== st.mtime.toUTCString()) range = null;
  if (range) {
    const r = parseRange(range, size);
    if (r === 'unsatisfiable') {
      headers.set('Content-Range', `bytes */${size}`);
      headers.delete('Content-Type');
      return new Response(null, { status: 416, headers });
    }
    if (r) {
      const [start, end] = r;
      headers.set('Content-Range', `bytes ${start}-${end}/${size}`);
      headers.set('Content-Length', String(end - start + 1));
      const body = head ? null : (Readable.toWeb(createReadStream(file, { start, end })) as ReadableStream);
      return new Response(body, { status: 206, headers });
    }
  }
  headers.set('Content-Length', String(size));
  const body = head || size === 0 ? null : (Readable.toWeb(createReadStream(enc.path)) as ReadableStream);
  return new Response(body, { status: 200, headers });
}
