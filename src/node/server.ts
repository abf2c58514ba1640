/**
 * The Node server: the built app at `/`, the data bundle at `/data/` (range requests,
 * ETags) and the OpenCPU-compatible contract under `/ocpu`, on one port.
 *
 * Environment (all optional):
 * - `PORT` (default 8080), `HOST` (default 0.0.0.0);
 * - `DIST_DIR` (default `dist`);
 * - `DATA_DIR`: where the data bundle is (default `dist/data` when built, else `public/data`):
 *   a folder, served at `/data/` with range requests and ETags, or an http(s) URL of a static
 *   host/CDN with range requests: the engine then reads COGs by range requests from it
 *   (FetchSource) and `/data/...` answers 307 redirects to it (the server never carries COG
 *   bytes; the app reads the URL directly, so the host must allow CORS, see README "Deploy");
 * - `CACHE_MB`: budget of the browser's cache of COG blocks, passed on in `/config.json`;
 * - `BASEMAPS`: online basemaps offered by the app's basemap select, a JSON list as the
 *   `basemaps` of config.json (see src/app/config.ts); default: the `basemaps` of the built
 *   app's config.json (copied from public/config.json), none if it has none;
 * - `OCPU_PREFIX` (default `/ocpu`);
 * - `SESSION_DIR` (default `.sessions`), `SESSION_TTL_HOURS` (default 24; cleaned hourly);
 * - `MAX_BODY_MB` (default 10: larger request bodies answer 413);
 * - `LOG` (`0` silences the one-line-per-request log on stdout).
 * `/config.json` tells the app and its service worker where the bundle is
 * (`{ "dataUrl": "./data/" }` for a folder, the URL otherwise).
 * SIGINT / SIGTERM stop accepting connections, let running requests finish (at most 10 s)
 * and exit.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, promises as fsp } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';
import { serve } from '@hono/node-server';
import type { Engine } from '../core/api';
import { createHandler, DEFAULT_MAX_BODY_BYTES } from '../contract/handler';
import type { GenFile } from '../contract/methods';
import type { SessionStore } from '../contract/sessions';
import { createEngine } from '../core/engine';
import { IndapiError, isIndapiError } from '../core/errors';
import { configureGraphics, createResvgRasterizer, genFile } from '../core/formats';
import { fetchSourceFactory, fetchTextLoader } from '../core/io/fetch-source';
import type { SourceFactory, TextLoader } from '../core/io/source';
import { createDiskSessionStore } from './disk-sessions';
import { fileSourceFactory, fileTextLoader } from './file-source';
import { safeJoin, serveFile } from './static';

/** Options of {@link startServer} and {@link createServerFetch}. */
export interface ServerOptions {
  /** Port (0 = any free port). */
  port?: number;
  /** Interface to listen on. */
  host?: string;
  /** Built app folder. */
  distDir?: string;
  /** Data bundle: a folder (served at /data/ and read by the engine) or an http(s) URL (read by range requests; /data/ redirects to it). */
  dataDir?: string;
  /** Browser block cache budget in MiB, written to /config.json. */
  cacheMB?: number;
  /** Online basemaps written to /config.json (the app checks each entry); default: `BASEMAPS` or the built config.json's. */
  basemaps?: unknown[];
  /** Contract prefix. */
  prefix?: string;
  /** Session folder. */
  sessionDir?: string;
  /** Session lifetime, ms. */
  sessionTtlMs?: number;
  /** Session store (default: on disk in `sessionDir`). */
  sessions?: SessionStore;
  /** Engine (default: the Node engine on `dataDir`). */
  engine?: Engine;
  /** File writers (default: `src/core/formats`). */
  genFile?: GenFile;
  /** Request body limit, bytes. */
  maxBodyBytes?: number;
  /** Log sink for one line per request; false silences. */
  log?: ((line: string) => void) | false;
}

/** A running server. */
export interface RunningServer {
  /** Base URL, e.g. http://127.0.0.1:8080/ */
  url: string;
  port: number;
  server: Server;
  /** Stops accepting connections and waits for open requests (at most `graceMs`). */
  close(graceMs?: number): Promise<void>;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');

function defaults(o: ServerOptions) {
  const env = process.env;
  const distDir = path.resolve(o.distDir ?? env.DIST_DIR ?? path.join(repoRoot, 'dist'));
  const builtData = path.join(distDir, 'data');
  const given = o.dataDir ?? env.DATA_DIR;
  const dataUrl = given && isDataUrl(given) ? (given.endsWith('/') ? given : given + '/') : undefined;
  const dataDir = dataUrl ?? path.resolve(given ?? (existsSync(path.join(builtData, 'manifest.json')) ? builtData : path.join(repoRoot, 'public', 'data')));
  const cacheMB = o.cacheMB ?? (env.CACHE_MB ? Number(env.CACHE_MB) : undefined);
  const basemaps = o.basemaps ?? configBasemaps(env.BASEMAPS, path.join(distDir, 'config.json'));
  return {
    basemaps,
    distDir,
    /** The folder, or the URL (ending in "/") when `dataUrl` is set. */
    dataDir,
    dataUrl,
    cacheMB: cacheMB && cacheMB > 0 ? cacheMB : undefined,
    prefix: (o.prefix ?? env.OCPU_PREFIX ?? '/ocpu').replace(/\/+$/, ''),
    sessionDir: path.resolve(o.sessionDir ?? env.SESSION_DIR ?? '.sessions'),
    sessionTtlMs: o.sessionTtlMs ?? (env.SESSION_TTL_HOURS ? Number(env.SESSION_TTL_HOURS) * 3600_000 : undefined),
    maxBodyBytes: o.maxBodyBytes ?? (env.MAX_BODY_MB ? Number(env.MAX_BODY_MB) * 1024 * 1024 : DEFAULT_MAX_BODY_BYTES),
  };
}

/** True when a DATA_DIR value is an http(s) URL rather than a folder. */
export function isDataUrl(s: string): boolean {
  return /^https?:\/\//i.test(s);
}

/** Reads a bundle file as text from the folder or the URL. @throws Error */
async function readBundleText(dataDir: string, rel: string): Promise<string> {
  if (!isDataUrl(dataDir)) return fsp.readFile(path.join(dataDir, rel), 'utf8');
  const r = await fetch(dataDir + rel);
  if (!r.ok) throw new Error(`HTTP ${r.status}`);
  return r.text();
}

/** "missing" when an IO failure means the file is not there (ENOENT, HTTP 404). */
function isMissing(e: unknown): boolean {
  return isIndapiError(e) && e.code === 'IO' && /ENOENT|HTTP 404/.test(e.message);
}

/** Wraps a source factory and a text loader so a file listed but absent reports a partial bundle (BAD_BUNDLE). */
function guardPartial(where: string, source: SourceFactory, text: TextLoader): { source: SourceFactory; text: TextLoader } {
  const partial = (rel: string) => new IndapiError('BAD_BUNDLE', `The data bundle at ${where} is partial: ${rel} is missing.`);
  return {
    source: (rel) => {
      const s = source(rel);
      return {
        key: s.key,
        getBytes: (o, n, signal) => s.getBytes(o, n, signal).catch((e) => { throw isMissing(e) ? partial(rel) : e; }),
        size: s.size ? (signal) => s.size!(signal).catch((e) => { throw isMissing(e) ? partial(rel) : e; }) : undefined,
      };
    },
    text: (rel, signal) => text(rel, signal).catch((e) => { throw isMissing(e) ? partial(rel) : e; }),
  };
}

/**
 * The engine over the bundle at a folder or a URL, after checking that its manifest is there.
 * @throws IndapiError BAD_BUNDLE when there is no readable manifest.json
 */
export async function createBundleEngine(dataDir: string, cacheBytes = 256 * 1024 * 1024): Promise<Engine> {
  try {
    JSON.parse(await readBundleText(dataDir, 'manifest.json'));
  } catch (e) {
    throw new IndapiError('BAD_BUNDLE', `There is no data bundle at ${dataDir} (manifest.json: ${(e as Error).message}). Set DATA_DIR to a bundle folder or URL.`);
  }
  const io = isDataUrl(dataDir)
    ? guardPartial(dataDir, fetchSourceFactory(dataDir), fetchTextLoader(dataDir))
    : guardPartial(dataDir, fileSourceFactory(dataDir), fileTextLoader(dataDir));
  return createEngine({ ...io, cacheBytes, inflate: (d) => inflateSync(d) });
}

/** The file writers in Node: PNG rendering with resvg-wasm and DejaVu Sans, country and admin-1/admin-2 outlines from the bundle. */
function nodeGenFile(dataDir: string): GenFile {
  const require = createRequire(import.meta.url);
  configureGraphics({
    rasterize: createResvgRasterizer({
      wasm: () => fsp.readFile(require.resolve('@resvg/resvg-wasm/index_bg.wasm')),
      fonts: async () => {
        const found = await Promise.all(FONT_FILES.map((f) => fsp.readFile(f).catch(() => undefined)));
        return found.flatMap((b) => (b ? [new Uint8Array(b)] : []));
      },
    }),
    basemap: () =>
      readBundleText(dataDir, 'basemap/countries.geojson')
        .then((t) => JSON.parse(t))
        .catch(() => undefined),
    admin1: () =>
      readBundleText(dataDir, 'basemap/admin1.geojson')
        .then((t) => JSON.parse(t))
        .catch(() => undefined),
    admin2: () =>
      readBundleText(dataDir, 'basemap/admin2.geojson')
        .then((t) => JSON.parse(t))
        .catch(() => undefined),
  });
  let version: Promise<string | undefined> | undefined;
  return async (input, opts) => {
    version ??= readBundleText(dataDir, 'manifest.json')
      .then((t) => JSON.parse(t).version as string)
      .catch(() => undefined);
    return genFile({ ...input, version: await version }, opts);
  };
}

/**
 * Fonts for PNG graphics: DejaVu Sans from the npm package `dejavu-fonts-ttf` (a
 * dependency, so a fresh `npm ci` has it), else Debian's fonts-dejavu-core.
 */
const FONT_FILES = (() => {
  const names = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'];
  try {
    const dir = path.join(path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
    const found = names.map((n) => path.join(dir, n)).filter((f) => existsSync(f));
    if (found.length) return found;
  } catch { /* package missing: fall back to Debian's fonts */ }
  return names.map((n) => `/usr/share/fonts/truetype/dejavu/${n}`);
})();

async function bundleVersion(dataDir: string): Promise<string> {
  try {
    const m = JSON.parse(await readBundleText(dataDir, 'manifest.json'));
    return `${m.name ?? 'bundle'} ${m.version ?? '?'} at ${dataDir}`;
  } catch {
    return 'none';
  }
}

/**
 * The server's request handler (Fetch API): static app, bundle and contract.
 * Exposed for tests that do not need a socket.
 */
export function createServerFetch(o: ServerOptions = {}): (req: Request) => Promise<Response> {
  const d = defaults(o);
  const sessions = o.sessions ?? createDiskSessionStore({ dir: d.sessionDir, ttlMs: d.sessionTtlMs });
  const contract = createHandler({
    engine: o.engine ?? (() => createBundleEngine(d.dataDir)),
    genFile: o.genFile ?? nodeGenFile(d.dataDir),
    sessions,
    prefix: d.prefix,
    maxBodyBytes: d.maxBodyBytes,
    runtimeInfo: async () => `Runtime: Node.js ${process.version} (${process.platform}-${process.arch}), server\nBundle: ${await bundleVersion(d.dataDir)}`,
  });
  return async (req) => {
    const url = new URL(req.url);
    const p = url.pathname;
    if (p === d.prefix || p.startsWith(d.prefix + '/')) return contract(req);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return new Response(`Method ${req.method} not allowed on ${p}\n`, { status: 405, headers: { 'Content-Type': 'text/plain; charset=utf-8', Allow: 'GET, HEAD' } });
    }
    if (p === '/config.json') return configResponse(req, d.dataUrl ?? './data/', d.cacheMB, d.basemaps);
    if (p === '/data' || p.startsWith('/data/')) {
      if (d.dataUrl) {
        const to = d.dataUrl + p.slice('/data/'.length) + url.search;
        return new Response(null, { status: 307, headers: { Location: to, 'Cache-Control': 'no-cache', 'Access-Control-Allow-Origin': '*' } });
      }
      const file = safeJoin(d.dataDir, p.slice('/data'.length));
      const res = file ? await serveFile(req, file, { cacheControl: 'no-cache' }) : undefined;
      if (res) res.headers.set('Access-Control-Allow-Origin', '*');
      return res ?? notFound(p);
    }
    const file = safeJoin(d.distDir, p === '/' ? '/index.html' : p);
    if (!file) return new Response('Bad path\n', { status: 400, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
    const cache = p.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
    const res = await serveFile(req, file, { cacheControl: cache });
    if (res) return res;
    // Client-side routes (no file extension) get the app shell.
    if (!path.extname(p)) {
      const shell = await serveFile(req, path.join(d.distDir, 'index.html'));
      if (shell) return shell;
      return new Response('The app is not built: run `npm run build` (or `npm start`, which builds first).\n', { status: 503, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
    }
    return notFound(p);
  };
}

/**
 * The online basemaps for /config.json: the `BASEMAPS` env value (a JSON list), else the
 * `basemaps` list of the built app's config.json; none when neither has a list.
 * @throws Error when `BASEMAPS` is set but is not a JSON list (the server does not start)
 */
function configBasemaps(envValue: string | undefined, builtConfig: string): unknown[] | undefined {
  if (envValue) {
    const v: unknown = JSON.parse(envValue);
    if (!Array.isArray(v)) throw new Error('BASEMAPS must be a JSON list of basemaps (see README "Deploy")');
    return v;
  }
  try {
    const v = (JSON.parse(readFileSync(builtConfig, 'utf8')) as { basemaps?: unknown }).basemaps;
    return Array.isArray(v) ? v : undefined;
  } catch { return undefined; }
}

/** `/config.json` for the app and its service worker (see src/app/config.ts), with an ETag (304 on If-None-Match). */
function configResponse(req: Request, dataUrl: string, cacheMB?: number, basemaps?: unknown[]): Response {
  const body = JSON.stringify({ dataUrl, ...(cacheMB ? { cacheMB } : {}), ...(basemaps?.length ? { basemaps } : {}) }) + '\n';
  const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
  const headers = { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache', ETag: etag };
  if (req.headers.get('if-none-match')?.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) return new Response(null, { status: 304, headers });
  return new Response(req.method === 'HEAD' ? null : body, { status: 200, headers });
}

function notFound(p: string): Response {
  return new Response(`Not found: ${p}\n`, { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}

/** Starts the server. */
export async function startServer(o: ServerOptions = {}): Promise<RunningServer> {
  const d = defaults(o);
  const env = process.env;
  const port = o.port ?? Number(env.PORT ?? 8080);
  const host = o.host ?? env.HOST ?? '0.0.0.0';
  const log = o.log === false || (o.log === undefined && env.LOG === '0') ? undefined : (o.log ?? ((l: string) => console.log(l)));
  let sessions = o.sessions;
  let stopCleanup = () => {};
  if (!sessions) {
    const disk = createDiskSessionStore({ dir: d.sessionDir, ttlMs: d.sessionTtlMs });
    void disk.cleanup().catch(() => undefined);
    stopCleanup = disk.startCleanup();
    sessions = disk;
  }
  const handle = createServerFetch({ ...o, sessions });
  const fetchWithLog = async (req: Request): Promise<Response> => {
    const t0 = performance.now();
    let res: Response;
    try {
      res = await handle(req);
    } catch (e) {
      res = new Response(`Internal error: ${(e as Error).message}\n`, { status: 500, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
    }
    if (log) {
      const u = new URL(req.url);
      const len = res.headers.get('content-length') ?? '-';
      log(`${new Date().toISOString()} ${req.method} ${u.pathname}${u.search} ${res.status} ${len} ${(performance.now() - t0).toFixed(1)}ms`);
    }
    return res;
  };
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: fetchWithLog, port, hostname: host }, () => resolve(s as Server)) as Server;
    s.once('error', reject);
  });
  const addr = server.address();
  const actualPort = typeof addr === 'object' && addr ? addr.port : port;
  const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  return {
    url: `http://${shownHost}:${actualPort}/`,
    port: actualPort,
    server,
    close(graceMs = 10_000) {
      stopCleanup();
      return new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections?.(), graceMs);
        force.unref?.();
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections?.();
      });
    },
  };
}

/** Runs the server from the command line with graceful shutdown on SIGINT / SIGTERM. */
async function main(): Promise<void> {
  const s = await startServer();
  const d = defaults({});
  console.log(`indapi3 listening on ${s.url} (app ${d.distDir}, data ${d.dataDir}, API ${d.prefix}/, sessions ${d.sessionDir})`);
  let stopping = false;
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      if (stopping) return;
      stopping = true;
      console.log(`${sig}: closing`);
      void s.close().then(() => process.exit(0));
    });
  }
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
