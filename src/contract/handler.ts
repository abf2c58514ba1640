/**
 * The OpenCPU-compatible HTTP contract of library `indapi3` as one Fetch API handler
 * (`Request` -> `Response`), routed with Hono. The same function answers in the service
 * worker and in the Node server; it uses no Node built-in.
 *
 * Conventions (OpenCPU, https://www.opencpu.org/api.html, and its source):
 * - `POST <prefix>/library/indapi3/R/<method>` answers 201 with `X-ocpu-session: <key>`,
 *   an absolute `Location: <origin><prefix>/tmp/<key>/` and, as text/plain, the session
 *   paths one per line with the mount prefix (`/ocpu/tmp/<key>/R/.val`, ...).
 * - `.../R/<method>/json` answers 201 with the same headers and the value as JSON
 *   (`/print` and `/csv` likewise give the printed value and the CSV).
 * - Errors of a call (its arguments, unparsable R literals, the method itself) answer 400
 *   text/plain: the message, a blank line, `In call:` and the call, long argument values
 *   cut (see `deparseCall`). Errors of the request itself (a body that is not JSON or not a
 *   JSON object: 400; an unsupported type: 415; too large: 413) answer the message alone:
 *   no call was made. Unknown paths, sessions and files answer 404 text/plain.
 * - Session values in OpenCPU's object formats: `R/.val` (print), `/print`, `/text`,
 *   `/json`, `/csv`, `/tab`, `/md`, `/rds`.
 * - Listings redirect (302) to add a missing trailing slash. CORS headers on every answer;
 *   `OPTIONS` answers 204.
 * - Request bodies over `maxBodyBytes` (default 10 MB) answer 413.
 * - Limits of a call (`limits.ts`) are checked before any work: 400 naming the argument.
 * - Methods that read the grid run on an injected {@link MethodRunner} when one is given
 *   (the Node server's worker threads); a full queue answers 503 with `Retry-After`.
 *   `category` and `describe`, listings, docs and session reads run in this thread.
 *
 * - A call with `Prefer: respond-async` answers 202 at once and runs as a job (`jobs.ts`):
 *   `GET tmp/<key>/status` gives its state as JSON, `DELETE tmp/<key>/` cancels it.
 *
 * The routes are in four groups: `routes-library.ts` (listings, docs, catalog),
 * `routes-call.ts` (the methods), `routes-jobs.ts` (job status and cancel) and
 * `routes-session.ts` (sessions).
 */
import { Hono, type Context } from 'hono';
import type { Engine } from '../core/api';
import { errorResponse, LIBRARY, text, type RouteContext } from './http';
import { DEFAULT_LIMITS, type CallLimits } from './limits';
import type { GenFile } from './methods';
import { createJobQueue, type JobQueue, type JobQueueOptions } from './jobs';
import { addCallRoutes } from './routes-call';
import { addJobRoutes } from './routes-jobs';
import { addLibraryRoutes } from './routes-library';
import { addSessionRoutes } from './routes-session';
import { BusyError, type MethodRunner } from './run';
import type { SessionStore } from './sessions';
import { errorAnswer } from './status';

export { errorResponse, jsonText, LIBRARY } from './http';

/** Default request body limit: 10 MB. */
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

/** Options of {@link createHandler}. */
export interface HandlerOptions {
  /** The engine, or a function that resolves it on first use (loads the catalog lazily). */
  engine: Engine | (() => Promise<Engine>);
  /** The file writers; without them (and without `loadGenFile`) file formats answer 400. */
  genFile?: GenFile;
  /** Resolves the file writers on first use (instead of `genFile`). */
  loadGenFile?: () => Promise<GenFile | undefined>;
  /** Where sessions are kept. */
  sessions: SessionStore;
  /** Gateway prefix before `library` and `tmp`, no trailing slash (default "/ocpu"). */
  prefix?: string;
  /** Body size limit in bytes (default {@link DEFAULT_MAX_BODY_BYTES}). */
  maxBodyBytes?: number;
  /** Package version shown in `info` (default "3.0.0"). */
  version?: string;
  /** Extra lines for a session's `info` (runtime, bundle version). */
  runtimeInfo?: () => string | Promise<string>;
  /** Longest a method may run, ms (default 300 000); then it is aborted. */
  timeoutMs?: number;
  /** Runs the methods that read the grid elsewhere (the Node server's worker threads); default: in this thread. */
  runner?: MethodRunner;
  /** Limits of a call (default {@link DEFAULT_LIMITS}). */
  limits?: CallLimits;
  /**
   * The public origin of a request, e.g. `https://example.org` or `https://example.org/indapi`
   * (no trailing slash), for `Location` and the links in docs; default the request's own
   * origin (the service worker; the Node server passes `PUBLIC_URL` or a checked Host).
   */
  publicOrigin?: (req: Request) => string;
  /**
   * Jobs (calls sent with `Prefer: respond-async`): the queue of this node, or its options
   * (default {@link createJobQueue}'s: 2 running, 16 running or queued, state in memory).
   */
  jobs?: JobQueue | JobQueueOptions;
  /** Clock (tests). */
  now?: () => Date;
}

const EXPOSED = 'Location, X-ocpu-session, Content-Disposition, Content-Length, Content-Type, Retry-After, Preference-Applied';

function withCors(res: Response): Response {
  let out = res;
  try {
    res.headers.set('Access-Control-Allow-Origin', '*');
  } catch {
    out = new Response(res.body, res); // immutable headers (e.g. from Response.redirect)
    out.headers.set('Access-Control-Allow-Origin', '*');
  }
  out.headers.set('Access-Control-Expose-Headers', EXPOSED);
  return out;
}

function preflight(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Methods': 'GET, HEAD, POST, DELETE, OPTIONS',
      'Access-Control-Allow-Headers': 'Content-Type, Accept, Range, If-None-Match, Prefer',
      'Access-Control-Max-Age': '86400',
      'Access-Control-Expose-Headers': EXPOSED,
    },
  });
}

/** The context of the route groups: options resolved, the engine and writers loaded on first use. */
function routeContext(opts: HandlerOptions): RouteContext {
  const prefix = (opts.prefix ?? '/ocpu').replace(/\/+$/, '');
  let enginePromise: Promise<Engine> | undefined;
  const engine = () =>
    (enginePromise ??= typeof opts.engine === 'function' ? opts.engine() : Promise.resolve(opts.engine)).catch((e) => {
      enginePromise = undefined;
      throw e;
    });
  let genPromise: Promise<GenFile | undefined> | undefined;
  const genFile = () => (genPromise ??= opts.genFile ? Promise.resolve(opts.genFile) : opts.loadGenFile ? opts.loadGenFile() : Promise.resolve(undefined));
  const origin = (c: Context) => (opts.publicOrigin ? opts.publicOrigin(c.req.raw) : new URL(c.req.url).origin);
  const abs = (c: Context, path: string) => origin(c) + prefix + path;
  return {
    prefix,
    version: opts.version ?? '3.0.0',
    store: opts.sessions,
    engine,
    genFile,
    runner: opts.runner,
    jobs: opts.jobs && 'submit' in opts.jobs ? opts.jobs : createJobQueue(opts.jobs),
    limits: opts.limits ?? DEFAULT_LIMITS,
    maxBodyBytes: opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    timeoutMs: opts.timeoutMs ?? 300_000,
    now: opts.now ?? (() => new Date()),
    runtimeInfo: opts.runtimeInfo,
    origin,
    abs,
    redirect: (c, path, status = 302) => {
      const loc = abs(c, path);
      return text(`Redirect to ${loc}\n`, status, { Location: loc });
    },
    notFound: (c, msg) => errorResponse(404, msg ?? `Invalid API call: ${new URL(c.req.url).pathname}`),
    lib: (c) => c.req.param('lib') === LIBRARY,
    noLib: (c) => errorResponse(404, `There is no package called '${c.req.param('lib')}'`),
  };
}

/**
 * Creates the contract handler.
 * @returns a function answering any request under `prefix` (other paths answer 404).
 */
export function createHandler(opts: HandlerOptions): (req: Request) => Promise<Response> {
  const rc = routeContext(opts);
  const { prefix } = rc;
  const app = new Hono({ strict: true }).basePath(prefix || '/');
  addLibraryRoutes(app, rc);
  addCallRoutes(app, rc);
  addJobRoutes(app, rc);
  addSessionRoutes(app, rc);
  // Session keys are capabilities: the list of sessions is never served.
  app.get('/tmp', (c) => rc.redirect(c, '/tmp/'));
  app.get('/tmp/', () => errorResponse(404, 'Sessions are not listed; use the key returned by a call (X-ocpu-session).'));
  app.notFound((c) => {
    const m = c.req.method;
    if (m !== 'GET' && m !== 'HEAD' && m !== 'POST') return errorResponse(405, `Method: ${m} invalid on ${new URL(c.req.url).pathname}`);
    if (m === 'POST') return errorResponse(405, `Method: POST invalid on ${new URL(c.req.url).pathname} (POST only calls functions under library/${LIBRARY}/R/).`);
    return rc.notFound(c);
  });
  // the one error handler: every error a route throws answers through the status table
  // a store that cannot answer now (Redis away, disk full) is 503 with Retry-After, on any route
  app.onError((e) => (e instanceof BusyError ? errorResponse(503, e.message, undefined, { 'Retry-After': String(e.retryAfterS) }) : errorAnswer(e)));

  return async (req: Request): Promise<Response> => {
    if (req.method === 'OPTIONS') return preflight();
    const url = new URL(req.url);
    // Encoded slashes, backslashes or NULs in the path never name a resource.
    if (/%2f|%5c|%00|\\/i.test(url.pathname)) return withCors(errorResponse(400, `Invalid path: ${url.pathname}`));
    if (url.pathname === prefix && (req.method === 'GET' || req.method === 'HEAD')) {
      const loc = (opts.publicOrigin ? opts.publicOrigin(req) : url.origin) + prefix + '/';
      return withCors(text(`Redirect to ${loc}\n`, 302, { Location: loc }));
    }
    if (url.pathname === prefix + '/' && (req.method === 'GET' || req.method === 'HEAD')) return withCors(text('library/\ntmp/\n'));
    try {
      const res = await app.fetch(req);
      return withCors(req.method === 'HEAD' ? new Response(null, res) : res);
    } catch (e) {
      return withCors(errorAnswer(e));
    }
  };
}
