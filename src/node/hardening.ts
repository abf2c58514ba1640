/**
 * What the Node server does so that it can face the public internet: security headers on
 * the app and the API, the public origin of links and `Location` (`PUBLIC_URL`, never an
 * arbitrary `Host`), and socket limits (`HEADERS_TIMEOUT_S`, `REQUEST_TIMEOUT_S`,
 * `MAX_CONNECTIONS`, `MAX_CONNECTIONS_PER_CLIENT`). See README "Deploy".
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import os from 'node:os';

/** Socket limits of the HTTP server. */
export interface SocketLimits {
  /** Longest wait for a request's headers, ms (Node's `server.headersTimeout`; default 20 s). */
  headersTimeoutMs: number;
  /** Longest wait for a whole request (headers and body), ms (`server.requestTimeout`; default 120 s). */
  requestTimeoutMs: number;
  /** Most open connections; more are refused (`server.maxConnections`; default 1024). */
  maxConnections: number;
  /** Most open connections from one client address; more are closed at once (default 64; 0: no cap). */
  maxConnectionsPerClient: number;
}

/**
 * How often Node checks the header and request timeouts of open connections, ms
 * (`connectionsCheckingInterval`, a `createServer` option; Node's default 30 s let trickled
 * headers hold a socket 30-55 s past a 20 s limit): a tenth of the shorter timeout, 50 ms to 1 s.
 */
export function connectionsCheckingIntervalMs(l: Pick<SocketLimits, 'headersTimeoutMs' | 'requestTimeoutMs'>): number {
  return Math.max(50, Math.min(1000, Math.floor(Math.min(l.headersTimeoutMs, l.requestTimeoutMs) / 10)));
}

/** A positive number from an environment variable, else `fallback`. */
export function envNumber(v: string | undefined, fallback: number): number {
  const n = v === undefined || v.trim() === '' ? NaN : Number(v);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

/** The socket limits from `HEADERS_TIMEOUT_S`, `REQUEST_TIMEOUT_S`, `MAX_CONNECTIONS`. */
export function socketLimitsFromEnv(env: NodeJS.ProcessEnv = process.env): SocketLimits {
  return {
    headersTimeoutMs: envNumber(env.HEADERS_TIMEOUT_S, 20) * 1000,
    requestTimeoutMs: envNumber(env.REQUEST_TIMEOUT_S, 120) * 1000,
    maxConnections: Math.floor(envNumber(env.MAX_CONNECTIONS, 1024)),
    maxConnectionsPerClient: env.MAX_CONNECTIONS_PER_CLIENT !== undefined && /^\d+$/.test(env.MAX_CONNECTIONS_PER_CLIENT.trim()) ? Number(env.MAX_CONNECTIONS_PER_CLIENT) : 64,
  };
}

/**
 * Sets the limits on a server (`headersTimeout` is kept below `requestTimeout`, as Node
 * requires) and caps the connections of each client address (one client holding 1,024 slow
 * sockets locked everyone out): a connection past the cap is destroyed as it is accepted.
 * The timeouts are checked every {@link connectionsCheckingIntervalMs} only when the server
 * was created with that `connectionsCheckingInterval` (see startServer).
 */
export function applySocketLimits(server: Server, l: SocketLimits): void {
  server.requestTimeout = l.requestTimeoutMs;
  server.headersTimeout = Math.min(l.headersTimeoutMs, l.requestTimeoutMs);
  server.maxConnections = l.maxConnections;
  if (l.maxConnectionsPerClient > 0) capPerClient(server, l.maxConnectionsPerClient);
  closeIdleNearCap(server, l.maxConnections);
}

/**
 * Connections kept free below `MAX_CONNECTIONS` for new clients: a sixteenth of the cap,
 * 1 to 64 (64 of 1,024).
 */
export function idleReserve(maxConnections: number): number {
  return Math.max(1, Math.min(64, Math.floor(maxConnections / 16)));
}

/**
 * Keeps the connection cap out of reach of idle sockets (17 addresses x 64 idle sockets
 * filled 1,024 and shut every other client out until the header timeout): when more than
 * `maxConnections - idleReserve` are open, the oldest idle ones (no request in flight) are
 * closed as a new one is accepted: first those that never sent a request, then those kept
 * alive between requests. A socket with a request in flight is never closed.
 */
function closeIdleNearCap(server: Server, maxConnections: number): void {
  const highWater = maxConnections - idleReserve(maxConnections);
  // in the order they became idle, the oldest first: sockets that never sent a request are
  // closed before kept-alive ones (a client reusing one would see it closed under its request)
  const fresh = new Map<Socket, true>();
  const kept = new Map<Socket, true>();
  const closing = new Set<Socket>();
  let open = 0;
  const evict = (socket: Socket) => {
    for (const idle of [fresh, kept]) {
      for (const old of idle.keys()) {
        if (open - closing.size <= highWater) return;
        if (old === socket) continue;
        idle.delete(old);
        closing.add(old);
        old.destroy();
      }
    }
  };
  server.on('connection', (socket: Socket) => {
    if (socket.destroyed) return; // refused by the per-client cap
    open++;
    fresh.set(socket, true);
    socket.once('close', () => {
      open--;
      fresh.delete(socket);
      kept.delete(socket);
      closing.delete(socket);
    });
    evict(socket);
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    fresh.delete(socket);
    kept.delete(socket);
    res.once('close', () => {
      if (!socket.destroyed && !closing.has(socket)) kept.set(socket, true);
    });
  });
}

/** Limits on concurrent large request bodies (see {@link largeBodyGate}). */
export interface LargeBodyLimits {
  /** A body of at least this many bytes is large (`LARGE_BODY_BYTES`, 1 MiB); a body without a length counts as large. */
  largeBytes: number;
  /** Most large bodies one client address may have in flight (`MAX_LARGE_BODIES_PER_CLIENT`, default 2); more answer 429. */
  perClient: number;
  /** Most large bodies in flight in all (`MAX_LARGE_BODIES`, default 8); more answer 503. */
  total: number;
  /** Seconds sent in `Retry-After` (default 5). */
  retryAfterS: number;
}

/**
 * Reads a request's body and drops it, when its declared length is at most `maxBytes` (else,
 * or on any error, it returns at once: the server then closes the connection after answering).
 * Nothing is kept or parsed; it only lets the client finish its upload and read the answer.
 */
export async function discardBody(req: Request, maxBytes: number): Promise<void> {
  const len = Number(req.headers.get('content-length') ?? NaN);
  if (!req.body || !(len <= maxBytes)) return;
  const reader = req.body.getReader();
  try {
    for (let n = 0; ; ) {
      const { done, value } = await reader.read();
      if (done) return;
      n += value.byteLength;
      if (n > maxBytes) return void (await reader.cancel().catch(() => undefined));
    }
  } catch {
    /* the client went away */
  }
}

/** The large-body limits from `MAX_LARGE_BODIES_PER_CLIENT` and `MAX_LARGE_BODIES`. */
export function largeBodyLimitsFromEnv(largeBytes: number, env: NodeJS.ProcessEnv = process.env): LargeBodyLimits {
  return { largeBytes, perClient: Math.floor(envNumber(env.MAX_LARGE_BODIES_PER_CLIENT, 2)), total: Math.floor(envNumber(env.MAX_LARGE_BODIES, 8)), retryAfterS: 5 };
}

/**
 * Caps the large request bodies in flight (each takes up to the body limit in memory and
 * seconds of a pool thread to parse), per client address and in all: ten concurrent 9.5 MB
 * forms from one client took 3.4 GB and froze the server 16 s.
 * @returns `admit(req, address)`: a release function when the request may go on (call it
 *   when its answer is made), else the answer: 429 (this client has too many) or 503 (the
 *   server has too many), text/plain with `Retry-After`
 */
export function largeBodyGate(l: LargeBodyLimits): (req: Request, address: string) => (() => void) | Response {
  const byClient = new Map<string, number>();
  let total = 0;
  const refuse = (status: number, msg: string) => new Response(msg + '\n', { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': String(l.retryAfterS), 'Access-Control-Allow-Origin': '*' } });
  return (req, address) => {
    if (req.method !== 'POST' || !req.body) return () => {};
    const len = Number(req.headers.get('content-length') ?? NaN);
    if (Number.isFinite(len) && len < l.largeBytes) return () => {};
    const mine = byClient.get(address) ?? 0;
    if (mine >= l.perClient) return refuse(429, `Too many large requests from your address: at most ${l.perClient} bodies of ${l.largeBytes} bytes or more at a time. Try again in ${l.retryAfterS} s.`);
    if (total >= l.total) return refuse(503, `The server is busy reading large requests (at most ${l.total} at a time). Try again in ${l.retryAfterS} s.`);
    byClient.set(address, mine + 1);
    total++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      total--;
      const left = (byClient.get(address) ?? 1) - 1;
      if (left > 0) byClient.set(address, left);
      else byClient.delete(address);
    };
  };
}

function capPerClient(server: Server, max: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const who = socket.remoteAddress ?? '?';
    const n = open.get(who) ?? 0;
    if (n >= max) {
      socket.destroy();
      return;
    }
    open.set(who, n + 1);
    socket.once('close', () => {
      const left = (open.get(who) ?? 1) - 1;
      if (left > 0) open.set(who, left);
      else open.delete(who);
    });
  });
}

/** Host names that name this machine: loopback, its host name and its interfaces' addresses. */
function ownHostNames(): Set<string> {
  const names = new Set(['localhost', '127.0.0.1', '[::1]', '::1', os.hostname().toLowerCase()]);
  for (const list of Object.values(os.networkInterfaces())) {
    for (const a of list ?? []) names.add(a.family === 'IPv6' ? `[${a.address}]` : a.address);
  }
  return names;
}

/**
 * The public origin of the API for links and `Location`: `PUBLIC_URL` when set (e.g.
 * `https://data.example.org` or `https://example.org/indapi` behind a reverse proxy); else
 * the request's origin only when its host names this machine (loopback, host name, an
 * interface address), otherwise `http://localhost:<port>`: a forged `Host` never comes back.
 * @returns a function of the request giving the origin, no trailing slash
 */
export function publicOriginResolver(publicUrl: string | undefined, port: () => number): (req: Request) => string {
  if (publicUrl) {
    const fixed = publicUrl.replace(/\/+$/, '');
    return () => fixed;
  }
  const own = ownHostNames();
  return (req) => {
    const u = new URL(req.url);
    const host = u.hostname.toLowerCase();
    return own.has(host) || host.endsWith('.localhost') ? u.origin : `http://localhost:${port()}`;
  };
}

/** CSP of the API and the bundle: nothing runs; help pages keep their inline style. */
export const API_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * CSP of the app: its own scripts and WebAssembly (resvg: `'wasm-unsafe-eval'`), workers
 * from its origin and `blob:` (MapLibre), images from `data:` and `blob:`, inline styles
 * (React and MapLibre set style attributes), data from its origin and the bundle's host,
 * and the tiles of the online basemaps the server offers (config.json `basemaps`).
 * @param dataUrl the bundle's URL when it is on another host
 * @param tileUrls tile URL templates of the online basemaps (`https://host/{z}/{x}/{y}.png`);
 *   their origins are allowed for fetch and images
 */
export function appCsp(dataUrl?: string, tileUrls: readonly string[] = []): string {
  const data = dataUrl && /^https?:\/\//i.test(dataUrl) ? ' ' + new URL(dataUrl).origin : '';
  const tiles = [...new Set(tileUrls.flatMap((u) => {
    const m = /^(https?:\/\/[^/{}?#]+)/i.exec(u);
    return m ? [m[1].toLowerCase()] : [];
  }))].map((o) => ' ' + o).join('');
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "worker-src 'self' blob:",
    "child-src 'self' blob:",
    `img-src 'self' data: blob:${tiles}`,
    "style-src 'self' 'unsafe-inline'",
    "font-src 'self' data:",
    `connect-src 'self' data: blob:${data}${tiles}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
}

/**
 * Adds the security headers to an answer: `X-Content-Type-Options: nosniff`, a
 * `Referrer-Policy`, and a CSP (the answer's own, e.g. a session's sandbox, is kept).
 * @param kind "app" for the app's pages and assets, "api" for the contract and the bundle
 */
export function withSecurityHeaders(res: Response, kind: 'app' | 'api', csp: string): Response {
  let out = res;
  try {
    res.headers.set('X-Content-Type-Options', 'nosniff');
  } catch {
    out = new Response(res.body, res); // immutable headers
    out.headers.set('X-Content-Type-Options', 'nosniff');
  }
  out.headers.set('Referrer-Policy', kind === 'app' ? 'strict-origin-when-cross-origin' : 'no-referrer');
  if (!out.headers.has('Content-Security-Policy')) out.headers.set('Content-Security-Policy', csp);
  if (kind === 'app') out.headers.set('X-Frame-Options', 'SAMEORIGIN');
  return out;
}
