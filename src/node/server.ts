/**
 * The Node server: the built app at `/`, the data bundle at `/data/` (range requests,
 * ETags) and the OpenCPU-compatible contract under `/ocpu`, on one port.
 *
 * Environment (all optional):
 * - `PORT` (default 8080), `HOST` (default 0.0.0.0);
 * - `DIST_DIR` (default `dist`), `DATA_DIR` (default `dist/data` when built, else `public/data`);
 * - `OCPU_PREFIX` (default `/ocpu`);
 * - `SESSION_DIR` (default `.sessions`), `SESSION_TTL_HOURS` (default 24; cleaned hourly);
 * - `MAX_BODY_MB` (default 10: larger request bodies answer 413);
 * - `LOG` (`0` silences the one-line-per-request log on stdout).
 * SIGINT / SIGTERM stop accepting connections, let running requests finish (at most 10 s)
 * and exit.
 */
import { existsSync, promises as fsp } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import type { Engine } from '../core/api';
import { createHandler, DEFAULT_MAX_BODY_BYTES } from '../contract/handler';
import type { GenFile } from '../contract/methods';
import type { SessionStore } from '../contract/sessions';
import { configureGraphics, createResvgRasterizer, genFile } from '../core/formats';
import { createDiskSessionStore } from './disk-sessions';
import { createNodeEngine } from './engine';
import { safeJoin, serveFile } from './static';

/** Options of {@link startServer} and {@link createServerFetch}. */
export interface ServerOptions {
  /** Port (0 = any free port). */
  port?: number;
  /** Interface to listen on. */
  host?: string;
  /** Built app folder. */
  distDir?: string;
  /** Data bundle folder (served at /data/ and read by the engine). */
  dataDir?: string;
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
  const dataDir = path.resolve(
    o.dataDir ?? env.DATA_DIR ?? (existsSync(path.join(builtData, 'manifest.json')) ? builtData : path.join(repoRoot, 'public', 'data')),
  );
  return {
    distDir,
    dataDir,
    prefix: (o.prefix ?? env.OCPU_PREFIX ?? '/ocpu').replace(/\/+$/, ''),
    sessionDir: path.resolve(o.sessionDir ?? env.SESSION_DIR ?? '.sessions'),
    sessionTtlMs: o.sessionTtlMs ?? (env.SESSION_TTL_HOURS ? Number(env.SESSION_TTL_HOURS) * 3600_000 : undefined),
    maxBodyBytes: o.maxBodyBytes ?? (env.MAX_BODY_MB ? Number(env.MAX_BODY_MB) * 1024 * 1024 : DEFAULT_MAX_BODY_BYTES),
  };
}

/** The file writers in Node: PNG rendering with resvg-wasm and DejaVu Sans, country outlines from the bundle. */
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
      fsp
        .readFile(path.join(dataDir, 'basemap', 'countries.geojson'), 'utf8')
        .then((t) => JSON.parse(t))
        .catch(() => undefined),
    admin1: () =>
      fsp
        .readFile(path.join(dataDir, 'basemap', 'admin1.geojson'), 'utf8')
        .then((t) => JSON.parse(t))
        .catch(() => undefined),
  });
  let version: Promise<string | undefined> | undefined;
  return async (input, opts) => {
    version ??= fsp
      .readFile(path.join(dataDir, 'manifest.json'), 'utf8')
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
    const m = JSON.parse(await fsp.readFile(path.join(dataDir, 'manifest.json'), 'utf8'));
    return `${m.name ?? 'bundle'} ${m.version ?? '?'}`;
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
    engine: o.engine ?? (async () => createNodeEngine(d.dataDir)),
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
    if (p === '/data' || p.startsWith('/data/')) {
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
