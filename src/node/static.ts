/**
 * Static files for the Node server: the built app (`dist/`) and the data bundle
 * (`/data/`), with HTTP range requests (RFC 9110 section 14: one `bytes=` range ->
 * 206 with `Content-Range`; unsatisfiable -> 416), strong validators (`ETag` from size
 * and modification time, `Last-Modified`), conditional requests (`If-None-Match` -> 304,
 * `If-Range`) and `HEAD`. Paths are resolved inside the root folder only.
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
  const size = st.size;
  const etag = `"${size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`;
  const headers = new Headers({
    'Content-Type': mediaType(file),
    ETag: etag,
    'Last-Modified': st.mtime.toUTCString(),
    'Accept-Ranges': 'bytes',
    'Cache-Control': opts.cacheControl ?? 'no-cache',
  });
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
  const body = head || size === 0 ? null : (Readable.toWeb(createReadStream(file)) as ReadableStream);
  return new Response(body, { status: 200, headers });
}
