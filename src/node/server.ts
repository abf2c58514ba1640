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
 * - `SESSION_STORE` (default `disk`): `redis://host:port[/db]` keeps sessions in Redis, shared by
 *   every node behind a load balancer (src/node/redis-sessions.ts, README "Run on several machines");
 * - `RESULT_CACHE_URL` (`redis://...`): a second level of the result cache shared by the
 *   nodes, entries kept `RESULT_CACHE_TTL_HOURS` (default 24);
 * - `SESSION_DIR` (default `.sessions`), `SESSION_TTL_HOURS` (default 24; cleaned hourly);
 * - `SESSION_QUOTA_MB` (default 1024): bytes all sessions may take, least recently used
 *   deleted first; `SESSION_MAX_MB` (default a quarter of the quota): bytes of one session;
 * - `MAX_BODY_MB` (default 10: larger request bodies answer 413);
 * - `POOL_THREADS` (default: the cores): worker threads running the methods that read the
 *   grid; `POOL_QUEUE` (default 64): calls that may wait for one, more answer 503 with
 *   `Retry-After`; `POOL_CACHE_MB` (default 192): block cache of each worker's engine;
 *   `POOL_NICE` (default 5): niceness of the workers, so the event loop gets the CPU first;
 *   `METHOD_TIMEOUT_S` (default 300): longest a call may run, then it is stopped (503);
 * - `JOBS_MAX` (default 16): jobs (calls sent with `Prefer: respond-async`) running or
 *   queued on this node, more answer 503 with `Retry-After`; `JOBS_CONCURRENCY` (default 2):
 *   jobs running at once; `JOB_TIMEOUT_S` (default 3600): longest a job may run, then it fails;
 *   `POOL_HEAP_MB` (default: Node's): V8 heap limit of each worker (bounds the pool's RSS);
 * - bodies of 1 MiB or more are parsed on the pool's threads; `MAX_LARGE_BODIES_PER_CLIENT`
 *   (default 2; more answer 429) and `MAX_LARGE_BODIES` (default 8; more answer 503) cap
 *   those in flight, both with `Retry-After`;
 * - `PUBLIC_URL`: the public origin for `Location` and links (behind a reverse proxy,
 *   e.g. `https://data.example.org`); without it only a `Host` naming this machine is used;
 * - `HEADERS_TIMEOUT_S` (default 20), `REQUEST_TIMEOUT_S` (default 120), `MAX_CONNECTIONS`
 *   (default 1024), `MAX_CONNECTIONS_PER_CLIENT` (default 64; 0: no cap; behind a reverse proxy
 *   every client has the proxy's address): socket limits against slow or too many clients,
 *   the timeouts checked every tenth of the shorter one (at most every second);
 * - `LOG` (`0` silences the one-line-per-request log on stdout).
 * Every answer carries `X-Content-Type-Options: nosniff`, a `Referrer-Policy` and a CSP
 * (`hardening.ts`).
 * `/config.json` tells the app and its service worker where the bundle is
 * (`{ "dataUrl": "./data/" }` for a folder, the URL otherwise).
 * `GET /healthz` answers 200 when the bundle and the session store answer, else 503
 * (shared-state.ts). SIGINT / SIGTERM make `/healthz` and every new request answer 503
 * (`Connection: close`), let running requests finish (at most `SHUTDOWN_GRACE_S`, default
 * 10 s) and exit 0.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import type { Engine } from '../core/api';
import { createHandler, DEFAULT_MAX_BODY_BYTES } from '../contract/handler';
import type { JobQueue, JobQueueOptions } from '../contract/jobs';
import { isRedisUrl } from './redis-client';
import { createRedisJobStateStore, type RedisJobStateStore } from './redis-jobs';
import type { GenFile } from '../contract/methods';
import type { MethodRunner } from '../contract/run';
import type { SessionStore } from '../contract/sessions';
import { LARGE_BODY_BYTES } from '../contract/rds-body';
import { errorAnswer } from '../contract/status';
import { bundleVersion, isDataUrl, nodeRuntime, openNodeRuntime } from './bundle-runtime';
import type { Runtime } from '../core/runtime';
import { API_CSP, appCsp, applySocketLimits, connectionsCheckingIntervalMs, envNumber, publicOriginResolver, socketLimitsFromEnv, withSecurityHeaders, type SocketLimits } from './hardening';
import { discardBody, largeBodyGate, largeBodyLimitsFromEnv, type LargeBodyLimits } from './hardening';
import { createMethodPool, type MethodPoolOptions } from './pool';
import { cachedRunner } from './result-cache';
import { bundleIdentity, healthAnswer, openSessionStore, sharedResultCache, type NodeSessionStore } from './shared-state';
import { safeJoin, serveFile } from './static';

export { openNodeRuntime, isDataUrl } from './bundle-runtime';

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
  /** Session store (default: from `sessionStore`). */
  sessions?: SessionStore;
  /** `SESSION_STORE`: "disk" (default, in `sessionDir`) or `redis://host:port[/db]`. */
  sessionStore?: string;
  /** True once the node is shutting down: `/healthz` answers 503 (set by {@link startServer}). */
  isStopping?: () => boolean;
  /** Engine (default: the Node engine on `dataDir`). */
  engine?: Engine;
  /** File writers (default: `src/core/formats`). */
  genFile?: GenFile;
  /** Request body limit, bytes. */
  maxBodyBytes?: number;
  /** Log sink for one line per request; false silences. */
  log?: ((line: string) => void) | false;
  /** Runs the methods that read the grid (default in {@link startServer}: a worker pool when no `engine` is given; false: in the event loop). */
  runner?: MethodRunner | false;
  /** Options of the worker pool (threads, queue; tests: worker file). */
  pool?: Partial<Omit<MethodPoolOptions, 'dataDir'>>;
  /** Public origin for `Location` and links (default `PUBLIC_URL`). */
  publicUrl?: string;
  /** Bytes all sessions may take (default `SESSION_QUOTA_MB`, 1024 MiB). */
  sessionQuotaBytes?: number;
  /** Longest a method may run, ms (default `METHOD_TIMEOUT_S`, 300 s). */
  methodTimeoutMs?: number;
  /** Socket limits (default from the environment, see {@link socketLimitsFromEnv}). */
  socket?: Partial<SocketLimits>;
  /** Jobs of this node (default from `JOBS_MAX`, `JOBS_CONCURRENCY`, `JOB_TIMEOUT_S`; see src/contract/jobs.ts). */
  jobs?: JobQueue | JobQueueOptions;
  /** Limits on concurrent large request bodies (default from the environment, see {@link largeBodyLimitsFromEnv}). */
  largeBodies?: Partial<LargeBodyLimits>;
  /** Bytes of the pool's result cache (default `RESULT_CACHE_MB`, 64 MiB; 0 turns it and the sharing of identical calls off). See result-cache.ts. */
  resultCacheBytes?: number;
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
    sessionStore: o.sessionStore ?? env.SESSION_STORE,
    sessionTtlMs: o.sessionTtlMs ?? (env.SESSION_TTL_HOURS ? Number(env.SESSION_TTL_HOURS) * 3600_000 : undefined),
    maxBodyBytes: o.maxBodyBytes ?? (env.MAX_BODY_MB ? Number(env.MAX_BODY_MB) * 1024 * 1024 : DEFAULT_MAX_BODY_BYTES),
    sessionQuotaBytes: o.sessionQuotaBytes ?? envNumber(env.SESSION_QUOTA_MB, 1024) * 1024 * 1024,
    sessionMaxBytes: env.SESSION_MAX_MB ? envNumber(env.SESSION_MAX_MB, 256) * 1024 * 1024 : undefined,
    methodTimeoutMs: o.methodTimeoutMs ?? envNumber(env.METHOD_TIMEOUT_S, 300) * 1000,
    publicUrl: o.publicUrl ?? (env.PUBLIC_URL || undefined),
    resultCacheBytes: o.resultCacheBytes ?? (env.RESULT_CACHE_MB !== undefined && /^\d+$/.test(env.RESULT_CACHE_MB) ? Number(env.RESULT_CACHE_MB) : 64) * 1024 * 1024,
  };
}

type Defaults = ReturnType<typeof defaults>;

/**
 * The job queue's options from `JOBS_MAX`, `JOBS_CONCURRENCY` and `JOB_TIMEOUT_S`; with a
 * Redis session store the job records are in the same Redis (shared by the nodes).
 */
function jobOptions(d: Defaults, log?: ((line: string) => void) | false): JobQueueOptions & { store?: RedisJobStateStore } {
  const env = process.env;
  const store = isRedisUrl(d.sessionStore?.trim()) ? createRedisJobStateStore(d.sessionStore!.trim(), d.sessionTtlMs, log === false ? undefined : (log ?? ((l) => console.log(l)))) : undefined;
  return { maxJobs: envNumber(env.JOBS_MAX, 16), concurrency: envNumber(env.JOBS_CONCURRENCY, 2), timeoutMs: envNumber(env.JOB_TIMEOUT_S, 3600) * 1000, store };
}

/** The session store of the options, `SESSION_STORE` (what it says, e.g. the quota's cap by the free disk space, is logged to stdout unless `log` is false). */
function nodeStore(d: Defaults, log?: ((line: string) => void) | false): NodeSessionStore {
  return openSessionStore({ store: d.sessionStore, dir: d.sessionDir, ttlMs: d.sessionTtlMs, quotaBytes: d.sessionQuotaBytes, maxSessionBytes: d.sessionMaxBytes, log: log === false ? undefined : (log ?? ((l) => console.log(l))) });
}

/** The worker pool of the options, from `POOL_THREADS`, `POOL_QUEUE`, `POOL_CACHE_MB` unless given. */
function methodPool(d: Defaults, o: ServerOptions) {
  const env = process.env;
  return createMethodPool({
    dataDir: d.dataDir,
    threads: env.POOL_THREADS ? envNumber(env.POOL_THREADS, 1) : undefined,
    maxQueue: env.POOL_QUEUE !== undefined && /^\d+$/.test(env.POOL_QUEUE) ? Number(env.POOL_QUEUE) : undefined,
    cacheBytes: env.POOL_CACHE_MB ? envNumber(env.POOL_CACHE_MB, 192) * 1024 * 1024 : undefined,
    nice: env.POOL_NICE !== undefined && /^\d+$/.test(env.POOL_NICE) ? Number(env.POOL_NICE) : undefined,
    heapMB: env.POOL_HEAP_MB ? envNumber(env.POOL_HEAP_MB, 0) || undefined : undefined,
    ...o.pool,
  });
}

/**
 * The server's request handler (Fetch API): static app, bundle and contract, with
 * compression: built files are sent precompressed when the client takes it (`.br`/`.gz`
 * beside them, see static.ts); other text answers of 1 KiB or more (API JSON, CSV, R
 * text, files of a bundle folder without variants) are gzipped on the fly by Hono's
 * `compress` middleware when `Accept-Encoding` allows. It leaves alone answers already
 * encoded, 206 partial answers, HEAD, `Cache-Control: no-transform`, and binary types
 * (COGs, PNG, ZIP, .dta, .rds, xlsx), whose bytes would not shrink.
 * Exposed for tests that do not need a socket.
 */
export function createServerFetch(o: ServerOptions = {}): (req: Request) => Promise<Response> {
  const handle = createUncompressedFetch(o);
  const app = new Hono();
  app.use(compress({ threshold: 1024 }));
  app.all('*', (c) => handle(c.req.raw));
  app.onError((e) => { throw e; }); // the caller's error handling stays as it was (startServer answers 500)
  return async (req) => app.fetch(req);
}

/** {@link createServerFetch} without the compression layer. */
function createUncompressedFetch(o: ServerOptions): (req: Request) => Promise<Response> {
  const d = defaults(o);
  const sessions = o.sessions ?? nodeStore(d, o.log);
  let port = Number(process.env.PORT ?? 8080); // updated from each request's URL
  const origin = publicOriginResolver(d.publicUrl, () => port);
  let runtimeText: Promise<string> | undefined; // read once: the bundle does not change under a running server
  // one runtime (src/core/runtime) for the engine and the writers of this thread, opened on first use
  let rt: Promise<Runtime> | undefined;
  const runtime = () => (rt ??= openNodeRuntime(d.dataDir).catch((e) => { rt = undefined; throw e; }));
  const contract = createHandler({
    engine: o.engine ?? (async () => (await runtime()).engine),
    genFile: o.genFile ?? (o.engine ? nodeRuntime(d.dataDir).genFile : async (input, opts) => (await runtime()).genFile(input, opts)),
    sessions,
    prefix: d.prefix,
    maxBodyBytes: d.maxBodyBytes,
    runner: o.runner || undefined,
    timeoutMs: d.methodTimeoutMs,
    jobs: o.jobs ?? jobOptions(d, o.log),
    publicOrigin: origin,
    runtimeInfo: () => (runtimeText ??= bundleVersion(d.dataDir).then((v) => `Runtime: Node.js ${process.version} (${process.platform}-${process.arch}), server\nBundle: ${v}`)),
  });
  // the online basemaps' tile hosts are allowed by the app's CSP (config.json `basemaps`)
  const tileUrls = (d.basemaps ?? []).flatMap((b) => (b && typeof b === 'object' && Array.isArray((b as { tiles?: unknown }).tiles) ? ((b as { tiles: unknown[] }).tiles.filter((t): t is string => typeof t === 'string')) : []));
  const csp = appCsp(d.dataUrl, tileUrls);
  const routeStatic = staticRoutes(d);
  return async (req) => {
    const url = new URL(req.url);
    if (url.port) port = Number(url.port);
    const p = url.pathname;
    if (p === '/healthz') return withSecurityHeaders(await healthAnswer(d.dataDir, sessions, o.isStopping?.() ?? false), 'api', API_CSP);
    if (p === d.prefix || p.startsWith(d.prefix + '/')) return withSecurityHeaders(await contract(req), 'api', API_CSP);
    const isData = p === '/data' || p.startsWith('/data/');
    return withSecurityHeaders(await routeStatic(req, url), isData ? 'api' : 'app', isData ? API_CSP : csp);
  };
}

/** The app, `/config.json` and the bundle at `/data/`. */
function staticRoutes(d: Defaults): (req: Request, url: URL) => Promise<Response> {
  return async (req, url) => {
    const p = url.pathname;
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
  const headers = { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache', ETag: etag, 'Content-Length': String(Buffer.byteLength(body)) };
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
  let owned: NodeSessionStore | undefined;
  if (!sessions) {
    owned = sessions = nodeStore(d, o.log);
    void owned.cleanup().catch(() => undefined);
    stopCleanup = owned.startCleanup();
  }
  let stopping = false;
  // Methods run on worker threads unless an engine is injected (tests) or a runner is given.
  const pool = o.runner === undefined && !o.engine ? methodPool(d, o) : undefined;
  // the bundle is immutable while the server runs: repeated calls are answered from a result cache
  // (RESULT_CACHE_MB=0: no cache and no sharing, every call is computed)
  // RESULT_CACHE_URL=redis://...: a second level shared by every node, keyed by the bundle's identity (shared-state.ts)
  const shared = pool ? sharedResultCache(env.RESULT_CACHE_URL, envNumber(env.RESULT_CACHE_TTL_HOURS, 24), log) : undefined;
  const runner = pool && (d.resultCacheBytes > 0 || shared) ? cachedRunner(pool, { maxBytes: d.resultCacheBytes, bundleId: bundleIdentity(d.dataDir), shared: shared?.cache }) : pool;
  // job records: in the session store's Redis when it is one (closed with the server)
  const jobs = o.jobs ?? jobOptions(d, o.log);
  const handle = createServerFetch({ ...o, sessions, runner: o.runner || runner, jobs, isStopping: () => stopping });
  const admitBody = largeBodyGate({ ...largeBodyLimitsFromEnv(LARGE_BODY_BYTES), ...o.largeBodies });
  const fetchWithLog = async (req: Request, nodeEnv?: { incoming?: { socket?: { remoteAddress?: string } } }): Promise<Response> => {
    const t0 = performance.now();
    let res: Response;
    const admitted = stopping ? shuttingDown(req) : admitBody(req, nodeEnv?.incoming?.socket?.remoteAddress ?? '?');
    if (admitted instanceof Response) {
      // the refused body is read and dropped (no parsing) so that the client sees the 429/503, not a reset upload
      if (!stopping) await discardBody(req, d.maxBodyBytes);
      res = withSecurityHeaders(admitted, 'api', API_CSP);
    } else {
      try {
        res = await handle(req);
      } catch (e) {
        res = errorAnswer(e);
      } finally {
        admitted();
      }
    }
    // a 413 leaves the rest of the upload unread: the connection closes after the answer, and the
    // client is told so (Connection: close), so it never sends its next request on that socket
    if (res.status === 413 && !res.headers.has('connection')) {
      const h = new Headers(res.headers);
      h.set('Connection', 'close');
      res = new Response(res.body, { status: res.status, statusText: res.statusText, headers: h });
    }
    if (log) {
      const u = new URL(req.url);
      const len = res.headers.get('content-length') ?? '-';
      // a client that went away is logged as nginx does (499 client closed request), whatever was answered
      const status = req.signal.aborted ? '499 (client closed request)' : res.status;
      log(`${new Date().toISOString()} ${req.method} ${u.pathname}${u.search} ${status} ${len} ${(performance.now() - t0).toFixed(1)}ms`);
    }
    return res;
  };
  const limits = { ...socketLimitsFromEnv(), ...o.socket };
  const server = await new Promise<Server>((resolve, reject) => {
    // timeouts checked as configured, not every 30 s (Node's default connectionsCheckingInterval)
    const serverOptions = { connectionsCheckingInterval: connectionsCheckingIntervalMs(limits) };
    const s = serve({ fetch: fetchWithLog, port, hostname: host, serverOptions }, () => resolve(s as Server)) as Server;
    s.once('error', reject);
  });
  applySocketLimits(server, limits);
  const addr = server.address();
  const actualPort = typeof addr === 'object' && addr ? addr.port : port;
  const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  return {
    url: `http://${shownHost}:${actualPort}/`,
    port: actualPort,
    server,
    close(graceMs = 10_000) {
      stopping = true;
      stopCleanup();
      return new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections?.(), graceMs);
        force.unref?.();
        server.close(() => {
          clearTimeout(force);
          const jobStore = 'store' in jobs ? (jobs.store as Partial<RedisJobStateStore> | undefined) : undefined;
          void Promise.all([pool?.close(), owned?.close?.(), shared?.conn.close(), jobStore?.close?.()].map((p) => Promise.resolve(p).catch(() => undefined))).then(() => resolve());
        });
        server.closeIdleConnections?.();
      });
    },
  };
}

/** The answer to a request that arrives while the node shuts down: 503, try another node (`/healthz` says `stopping` too). */
function shuttingDown(req: Request): Response {
  const body = new URL(req.url).pathname === '/healthz' ? 'stopping\n' : 'This server is shutting down. Try again.\n';
  return new Response(body, { status: 503, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': '1', Connection: 'close' } });
}

/** Runs the server from the command line with graceful shutdown on SIGINT / SIGTERM. */
async function main(): Promise<void> {
  const s = await startServer();
  const d = defaults({});
  console.log(`indapi3 listening on ${s.url} (app ${d.distDir}, data ${d.dataDir}, API ${d.prefix}/, sessions ${d.sessionStore && d.sessionStore !== "disk" ? d.sessionStore.replace(/\/\/[^@/]*@/, "//") : d.sessionDir})`);
  let stopping = false;
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      if (stopping) return;
      stopping = true;
      const graceS = envNumber(process.env.SHUTDOWN_GRACE_S, 10);
      console.log(`${sig}: closing (running requests get ${graceS} s)`);
      void s.close(graceS * 1000).then(() => process.exit(0));
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
