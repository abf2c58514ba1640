/**
 * `POST library/indapi3/R/<method>[/json|print|csv|console]`: reads the arguments, checks
 * them and the call's limits before any work, runs the method (in the handler's thread,
 * or on the {@link MethodRunner} for methods that read the grid), keeps the session and
 * answers 201 in OpenCPU's layout. With `Prefer: respond-async` the checked call runs as a
 * job (`jobs.ts`) and the answer is 202 at once.
 */
import type { Context, Hono } from 'hono';
import { IndapiError, isIndapiError, throwIfAborted } from '../core/errors';
import { concatBytes } from '../core/formats/bytes';
import { BodyError, type RawArgs } from './args';
import { deparseCall } from './deparse';
import { consoleText, errorResponse, jsonText, LIBRARY, messageOf, sessionEntries, text, type RouteContext } from './http';
import { prefersAsync, type JobFailure, type JobWork, type ProgressFn } from './jobs';
import { METHOD_BY_NAME } from './methods';
import { LARGE_BODY_BYTES, parseRequestBody } from './rds-body';
import { toCsv } from './rprint';
import { unknownMethod } from './routes-library';
import { BusyError, CHEAP_METHODS, checkCall, executeCall, type CallOutput, type MethodCall } from './run';
import { metaOf, newSessionKey, type SessionData } from './sessions';
import { errorAnswer, statusOf } from './status';

/** Reads the body, at most `max` bytes. @throws BodyError 413 when larger */
async function readBody(req: Request, max: number): Promise<Uint8Array> {
  const len = Number(req.headers.get('content-length') ?? NaN);
  if (Number.isFinite(len) && len > max) throw new BodyError(413, `Request body too large: ${len} bytes, the limit is ${max} bytes.`);
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let step: ReadableStreamReadResult<Uint8Array>;
    try {
      step = await reader.read();
    } catch (e) {
      // the client closed the connection during the upload: nobody reads the answer (499, not 500)
      if (req.signal.aborted) throw new IndapiError('ABORTED', 'The client closed the request before its body was read.');
      throw e;
    }
    const { done, value } = step;
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => undefined);
      throw new BodyError(413, `Request body too large: more than ${max} bytes, the limit is ${max} bytes.`);
    }
    chunks.push(value);
  }
  return concatBytes(chunks);
}

/**
 * The raw arguments of the request and the call as R source; a Response when the body cannot
 * be read. `application/rds` and multipart bodies are read from their bytes (R objects),
 * the others as text ({@link parseBody}).
 */
async function readCall(c: Context, name: string, rc: RouteContext): Promise<{ raw: RawArgs; callText: string; checked: boolean } | Response> {
  try {
    const bytes = await readBody(c.req.raw, rc.maxBodyBytes);
    const input = { contentType: c.req.header('content-type') ?? null, bytes, maxBytes: rc.maxBodyBytes, maxDepth: rc.limits.maxDepth, check: { method: name, limits: rc.limits } };
    // a large body is parsed and checked on the runner's threads (seconds for a 10 MB R literal), not in the one answering requests
    const parsed = rc.runner?.parseBody && bytes.length >= LARGE_BODY_BYTES ? await rc.runner.parseBody(input, c.req.raw.signal) : { raw: parseRequestBody(input), checked: false };
    return { raw: parsed.raw, callText: deparseCall(name, parsed.raw), checked: parsed.checked };
  } catch (e) {
    // a call refused where its large body was checked (checkCall): answered with its call, as here
    if (isIndapiError(e) && typeof e.detail?.call === 'string') return failedCall(e, e.detail.call, false, rc.timeoutMs);
    if (e instanceof BodyError) return errorResponse(e.status, e.message);
    if (e instanceof BusyError) return errorResponse(503, e.message, undefined, { 'Retry-After': String(e.retryAfterS) });
    if (isIndapiError(e) && e.code === 'UNPARSABLE') {
      return errorAnswer(e, deparseCall('parse', [['text', String(e.detail?.text ?? '')]]));
    }
    throw e;
  }
}

/** A failed call as an answer: 503 with Retry-After when busy or past the time limit, else the error's status. */
function failedCall(e: unknown, callText: string, timedOut: boolean, timeoutMs: number): Response {
  if (e instanceof BusyError) return errorResponse(503, e.message, undefined, { 'Retry-After': String(e.retryAfterS) });
  if (isIndapiError(e)) {
    if (e.code === 'ABORTED' && timedOut) return errorResponse(503, `The call took longer than ${timeoutMs / 1000} s and was stopped.`, callText);
    return errorAnswer(e, (e.detail?.call as string | undefined) ?? callText);
  }
  return errorAnswer(e, callText);
}

/** The answer of a successful call in the requested format. */
function created(c: Context, rc: RouteContext, data: SessionData, format: string | undefined, callText: string): Response {
  const key = data.key;
  const headers = { Location: rc.abs(c, `/tmp/${key}/`), 'X-ocpu-session': key };
  if (format === 'json') {
    return new Response(jsonText(data.value, new URL(c.req.url).searchParams), { status: 201, headers: { ...headers, 'Content-Type': 'application/json' } });
  }
  if (format === 'print') return text(data.print + '\n', 201, headers);
  if (format === 'console') return text(consoleText(data), 201, headers);
  if (format === 'csv') {
    try {
      return new Response(toCsv(data.value), { status: 201, headers: { ...headers, 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${data.method}.csv"` } });
    } catch (e) {
      return errorResponse(400, messageOf(e), callText);
    }
  }
  const body = sessionEntries(metaOf(data)).map((p) => `${rc.prefix}/tmp/${key}/${p}`).join('\n') + '\n';
  return text(body, 201, headers);
}

/** Session information text (`info`). */
async function sessionInfo(rc: RouteContext, key: string, t: Date, method: string): Promise<string> {
  const extra = rc.runtimeInfo ? await rc.runtimeInfo() : '';
  return [`${LIBRARY} ${rc.version}: OpenCPU-compatible HTTP interface (TypeScript, no R)`, `Session: ${key}`, `Created: ${t.toISOString()}`, `Method: ${method}`, extra.trim(), '']
    .filter((l, i, a) => l !== '' || i === a.length - 1)
    .join('\n');
}

/** Runs a bound call in this thread or on the runner; `onProgress` reports the engine's progress (features, layers). */
async function run(rc: RouteContext, call: MethodCall, signal: AbortSignal, onProgress?: ProgressFn): Promise<CallOutput> {
  const inline = rc.runner?.inline ?? CHEAP_METHODS;
  if (rc.runner && !inline.has(call.method)) return rc.runner.run(call, signal, onProgress);
  return executeCall({ engine: await rc.engine(), genFile: await rc.genFile() }, call, signal, { limits: rc.limits, onProgress });
}

/** The session of a call's output, with a new key (or `key`, a job's). */
async function sessionOf(rc: RouteContext, call: MethodCall, t: Date, out: CallOutput, key = newSessionKey()): Promise<SessionData> {
  return {
    key,
    created: t.toISOString(),
    method: call.method,
    source: call.source,
    value: out.value ?? null,
    print: out.print,
    warnings: out.warnings ?? [],
    messages: [],
    info: await sessionInfo(rc, key, t, call.method),
    files: out.files ?? [],
    graphics: out.graphics ?? [],
    zipName: out.zipName,
    zip: out.zip,
  };
}

/** A session that could not be stored, as an answer (503 when busy, the error's status under 500, else 500). */
function storeFailed(e: unknown, callText: string): Response {
  if (e instanceof BusyError) return errorResponse(503, e.message, undefined, { 'Retry-After': String(e.retryAfterS) }); // e.g. the disk is full
  if (statusOf(e) < 500) return errorAnswer(e, callText);
  return errorResponse(500, `Could not store the session: ${messageOf(e)}`, callText);
}

/**
 * Reads and checks a call before any work: the body, the call's limits, the arguments
 * bound and typed. @returns the call, or the error answer (400 naming the argument, 413...)
 */
async function prepareCall(c: Context, rc: RouteContext, name: string, t: Date): Promise<MethodCall | Response> {
  const read = await readCall(c, name, rc);
  if (read instanceof Response) return read;
  const { raw, callText, checked } = read;
  try {
    const bound = checkCall(name, raw, callText, rc.limits, checked);
    // The request as sent is what a data package's README reproduces (its own origin, as in the browser).
    return { method: name, args: bound, source: callText, requestUrl: c.req.url, now: t.toISOString() };
  } catch (e) {
    return failedCall(e, callText, false, rc.timeoutMs);
  }
}

/** A job's session could not be stored (answered as the synchronous call's store failure). */
class StoreFailure extends Error {
  constructor(readonly reason: unknown) {
    super(messageOf(reason));
  }
}

/**
 * A call with `Prefer: respond-async`: accepted as a job (202, `Location` the session URL,
 * `X-ocpu-session`, `Preference-Applied`, the status JSON), or 503 with `Retry-After` when
 * this node holds its most jobs. The job runs the call, then stores the session under the
 * key; a cancelled job keeps no session (one stored as the cancel came is deleted).
 */
async function acceptJob(c: Context, rc: RouteContext, call: MethodCall, t: Date): Promise<Response> {
  const key = newSessionKey();
  const work: JobWork = async (signal, onProgress) => {
    const out = await run(rc, call, signal, onProgress);
    throwIfAborted(signal);
    const data = await sessionOf(rc, call, t, out, key);
    try {
      await rc.store.put(data, signal);
    } catch (e) {
      throw new StoreFailure(e);
    }
    if (signal.aborted) await rc.store.delete(key).catch(() => undefined);
  };
  const fail: JobFailure = async (e, timedOut) => {
    const res = e instanceof StoreFailure ? storeFailed(e.reason, call.source) : failedCall(e, call.source, timedOut, rc.jobs.timeoutMs);
    return { status: res.status, message: (await res.text()).trimEnd() };
  };
  if (!(await rc.jobs.submit(key, work, fail, () => rc.store.delete(key)))) {
    const s = rc.jobs.retryAfterS;
    return errorResponse(503, `Too many jobs on this server (running and queued); try again in ${s} s.`, undefined, { 'Retry-After': String(s) });
  }
  const status = (await rc.jobs.status(key)) ?? { state: 'queued', progress: 0, message: '' };
  return new Response(JSON.stringify(status, null, 2) + '\n', {
    status: 202,
    headers: { Location: rc.abs(c, `/tmp/${key}/`), 'X-ocpu-session': key, 'Preference-Applied': 'respond-async', 'Content-Type': 'application/json' },
  });
}

/** Adds the POST routes of the methods. */
export function addCallRoutes(app: Hono, rc: RouteContext): void {
  const call = async (c: Context): Promise<Response> => {
    if (!rc.lib(c)) return rc.noLib(c);
    const name = c.req.param('method')!;
    if (!METHOD_BY_NAME.has(name)) return unknownMethod(name);
    const format = c.req.param('format');
    if (format !== undefined && !['json', 'print', 'csv', 'console'].includes(format)) {
      return rc.notFound(c, `Invalid output format for a call: ${format} (use json, print, csv or console).`);
    }
    const t = rc.now();
    const mc = await prepareCall(c, rc, name, t);
    if (mc instanceof Response) return mc;
    if (prefersAsync(c.req.header('prefer'))) return acceptJob(c, rc, mc, t);
    const timeout = AbortSignal.timeout(rc.timeoutMs);
    const signal = AbortSignal.any ? AbortSignal.any([c.req.raw.signal, timeout]) : timeout;
    let out: CallOutput;
    try {
      out = await run(rc, mc, signal);
    } catch (e) {
      return failedCall(e, mc.source, timeout.aborted, rc.timeoutMs);
    }
    const data = await sessionOf(rc, mc, t, out);
    try {
      await rc.store.put(data, signal);
    } catch (e) {
      return storeFailed(e, mc.source);
    }
    return created(c, rc, data, format, mc.source);
  };
  app.post('/library/:lib/R/:method', call);
  app.post('/library/:lib/R/:method/:format', call);
}
