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
 */
import { Hono, type Context } from 'hono';
import JSZip from 'jszip';
import type { Engine } from '../core/api';
import { isIndapiError } from '../core/errors';
import { concatBytes } from '../core/formats/bytes';
import { bindArgs, BodyError, parseBody, parseFormData, type RawArgs } from './args';
import { deparseCall } from './deparse';
import { manHtml, manText, packageInfo, usage } from './docs';
import { METHOD_BY_NAME, METHODS, type GenFile, type MethodResult } from './methods';
import { FormatError, toMarkdown, toRds, toTab } from './rformats';
import { consoleValue, isTable, printValue, tableColumns, toCsv } from './rprint';
import { isSessionKey, newSessionKey, type SessionData, type SessionMeta, type SessionStore } from './sessions';
import { statusFor } from './status';

/** The library name in every path. */
export const LIBRARY = 'indapi3';
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
  /** Clock (tests). */
  now?: () => Date;
}

const TEXT = 'text/plain; charset=utf-8';
const EXPOSED = 'Location, X-ocpu-session, Content-Disposition, Content-Length, Content-Type';

function text(body: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { 'Content-Type': TEXT, ...headers } });
}

/** Longest error message sent (a last guard: calls are already cut by {@link deparseCall}). */
const MAX_MESSAGE_CHARS = 4000;

/**
 * An error answer: the message and, for a failed call, the call (OpenCPU's error2file
 * layout). Messages longer than 4000 characters are cut (with `...`), so that an error
 * never echoes a large request.
 */
export function errorResponse(status: number, message: string, call?: string): Response {
  const msg = message.length > MAX_MESSAGE_CHARS ? message.slice(0, MAX_MESSAGE_CHARS) + '...' : message;
  const body = call ? `${msg}\n\nIn call:\n${call}\n` : `${msg}\n`;
  return text(body, status);
}

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
      'Access-Control-Allow-Methods': 'GET, HEAD, POST, OPTIONS',
      'Access-Control-Allow-Headers': 'Content-Type, Accept, Range, If-None-Match',
      'Access-Control-Max-Age': '86400',
      'Access-Control-Expose-Headers': EXPOSED,
    },
  });
}

/** Reads the body as text, at most `max` bytes. @throws BodyError 413 when larger */
async function readBody(req: Request, max: number): Promise<Uint8Array> {
  const len = Number(req.headers.get('content-length') ?? NaN);
  if (Number.isFinite(len) && len > max) throw new BodyError(413, `Request body too large: ${len} bytes, the limit is ${max} bytes.`);
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
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

/** Session paths in OpenCPU's order (R/.val, graphics, messages, stdout, warnings, source, console, info, files). */
function sessionEntries(s: SessionMeta): string[] {
  const out = ['R/.val'];
  for (let i = 1; i <= s.graphics; i++) out.push(`graphics/${i}`);
  if (s.messages.length) out.push('messages');
  out.push('stdout');
  if (s.warnings.length) out.push('warnings');
  out.push('source', 'console', 'info');
  for (const f of s.files) out.push(`files/${f.name}`);
  return out;
}

/** A readable message for any thrown value. */
function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * Creates the contract handler.
 * @returns a function answering any request under `prefix` (other paths answer 404).
 */
export function createHandler(opts: HandlerOptions): (req: Request) => Promise<Response> {
  const prefix = (opts.prefix ?? '/ocpu').replace(/\/+$/, '');
  const max = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const version = opts.version ?? '3.0.0';
  const now = opts.now ?? (() => new Date());
  const store = opts.sessions;
  let enginePromise: Promise<Engine> | undefined;
  const engine = () => (enginePromise ??= typeof opts.engine === 'function' ? opts.engine() : Promise.resolve(opts.engine)).catch((e) => {
    enginePromise = undefined;
    throw e;
  });
  let genPromise: Promise<GenFile | undefined> | undefined;
  const genFile = () => (genPromise ??= opts.genFile ? Promise.resolve(opts.genFile) : opts.loadGenFile ? opts.loadGenFile() : Promise.resolve(undefined));

  const app = new Hono({ strict: true }).basePath(prefix || '/');
  const abs = (c: Context, path: string) => new URL(prefix + path, c.req.url).href;
  const redirect = (c: Context, path: string, status = 302) => {
    const loc = abs(c, path);
    return text(`Redirect to ${loc}\n`, status, { Location: loc });
  };
  const notFound = (c: Context, msg?: string) => errorResponse(404, msg ?? `Invalid API call: ${new URL(c.req.url).pathname}`);
  const lib = (c: Context) => c.req.param('lib') === LIBRARY;
  const noLib = (c: Context) => errorResponse(404, `There is no package called '${c.req.param('lib')}'`);

  // ---- root and library listings ------------------------------------------------------
  app.get('/library', (c) => redirect(c, '/library/'));
  app.get('/library/', () => text(`${LIBRARY}\n`));
  app.get('/library/:lib', (c) => (lib(c) ? redirect(c, `/library/${LIBRARY}/`) : noLib(c)));
  app.get('/library/:lib/', (c) => (lib(c) ? text(['DESCRIPTION', 'R', 'data', 'info', 'man'].join('\n') + '\n') : noLib(c)));
  app.get('/library/:lib/DESCRIPTION', (c) =>
    lib(c)
      ? text(`Package: ${LIBRARY}\nVersion: ${version}\nTitle: Gridded indicators for Africa south of the Sahara\nLicense: MIT\n`)
      : noLib(c),
  );
  const info = (c: Context) => {
    if (!lib(c)) return noLib(c);
    const base = new URL(c.req.url).origin;
    const pages = METHODS.map((m) => manText(m, LIBRARY, base)).join('\n' + '_'.repeat(72) + '\n\n');
    return text(packageInfo(METHODS, LIBRARY, version) + '\n' + '_'.repeat(72) + '\n\n' + pages);
  };
  app.get('/library/:lib/info', info);
  app.get('/library/:lib/info/', info);

  // ---- R/: the methods -------------------------------------------------------------------
  app.get('/library/:lib/R', (c) => (lib(c) ? redirect(c, `/library/${LIBRARY}/R/`) : noLib(c)));
  app.get('/library/:lib/R/', (c) => (lib(c) ? text(METHODS.map((m) => m.name).join('\n') + '\n') : noLib(c)));
  const unknownMethod = (name: string) =>
    errorResponse(404, `object '${name}' not found`, `get(${JSON.stringify(name)}, envir = asNamespace("${LIBRARY}"), inherits = FALSE)`);
  const showMethod = (c: Context) => {
    if (!lib(c)) return noLib(c);
    const m = METHOD_BY_NAME.get(c.req.param('method')!);
    if (!m) return unknownMethod(c.req.param('method')!);
    const f = c.req.param('format');
    if (f !== undefined && f !== 'print' && f !== 'text') return notFound(c, `Invalid output format for objects: ${f}`);
    return text(`${usage(m)}\n\n# ${m.title}. POST to this URL to call it; documentation: ${prefix}/library/${LIBRARY}/man/${m.name}/text\n`);
  };
  app.get('/library/:lib/R/:method', showMethod);
  app.get('/library/:lib/R/:method/:format', showMethod);

  const call = async (c: Context): Promise<Response> => {
    if (!lib(c)) return noLib(c);
    const name = c.req.param('method')!;
    const m = METHOD_BY_NAME.get(name);
    if (!m) return unknownMethod(name);
    const format = c.req.param('format');
    if (format !== undefined && !['json', 'print', 'csv', 'console'].includes(format)) {
      return notFound(c, `Invalid output format for a call: ${format} (use json, print, csv or console).`);
    }
    let raw: RawArgs;
    let callText: string;
    try {
      const bytes = await readBody(c.req.raw, max);
      const ct = c.req.header('content-type') ?? null;
      if (ct && ct.toLowerCase().startsWith('multipart/form-data')) {
        const fd = await new Response(bytes as BodyInit, { headers: { 'content-type': ct } }).formData().catch(() => {
          throw new BodyError(400, 'Malformed multipart/form-data body.');
        });
        raw = parseFormData(fd);
      } else {
        raw = parseBody(ct, new TextDecoder('utf-8', { fatal: false }).decode(bytes));
      }
      callText = deparseCall(name, raw);
    } catch (e) {
      if (e instanceof BodyError) return errorResponse(e.status, e.message);
      if (isIndapiError(e) && e.code === 'UNPARSABLE') {
        return errorResponse(400, e.message, deparseCall('parse', [['text', String(e.detail?.text ?? '')]]));
      }
      throw e;
    }
    const timeout = AbortSignal.timeout(opts.timeoutMs ?? 300_000);
    const signal = AbortSignal.any ? AbortSignal.any([c.req.raw.signal, timeout]) : timeout;
    let result: MethodResult;
    let bound: Record<string, unknown>;
    const t = now();
    try {
      bound = bindArgs(name, m.args, raw);
      result = await m.run({ engine: await engine(), genFile: await genFile(), signal, requestUrl: c.req.url, now: t }, bound);
    } catch (e) {
      if (isIndapiError(e)) {
        if (e.code === 'ABORTED' && timeout.aborted) return errorResponse(503, `The call took longer than ${(opts.timeoutMs ?? 300_000) / 1000} s and was stopped.`, callText);
        return errorResponse(statusFor(e.code), e.message, (e.detail?.call as string | undefined) ?? callText);
      }
      return errorResponse(500, `Internal error: ${messageOf(e)}`, callText);
    }
    const key = newSessionKey();
    const printed = printValue(result.value);
    const data: SessionData = {
      key,
      created: t.toISOString(),
      method: name,
      source: callText,
      value: result.value ?? null,
      print: printed,
      warnings: result.warnings ?? [],
      messages: [],
      info: await sessionInfo(key, t, name),
      files: result.files ?? [],
      graphics: result.graphics ?? [],
      zipName: result.zipName,
    };
    try {
      await store.put(data, signal);
    } catch (e) {
      return errorResponse(500, `Could not store the session: ${messageOf(e)}`, callText);
    }
    const location = abs(c, `/tmp/${key}/`);
    const headers = { Location: location, 'X-ocpu-session': key };
    if (format === 'json') {
      return new Response(jsonText(result.value ?? null, new URL(c.req.url).searchParams), { status: 201, headers: { ...headers, 'Content-Type': 'application/json' } });
    }
    if (format === 'print') return text(printed + '\n', 201, headers);
    if (format === 'console') return text(consoleText(data), 201, headers);
    if (format === 'csv') {
      try {
        return new Response(toCsv(result.value), { status: 201, headers: { ...headers, 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${name}.csv"` } });
      } catch (e) {
        return errorResponse(400, messageOf(e), callText);
      }
    }
    const meta: SessionMeta = { ...data, files: data.files.map((f) => ({ name: f.name, mediaType: f.mediaType, size: f.bytes.byteLength })), graphics: data.graphics.length };
    const body = sessionEntries(meta).map((p) => `${prefix}/tmp/${key}/${p}`).join('\n') + '\n';
    return text(body, 201, headers);
  };
  app.post('/library/:lib/R/:method', call);
  app.post('/library/:lib/R/:method/:format', call);

  async function sessionInfo(key: string, t: Date, method: string): Promise<string> {
    const extra = opts.runtimeInfo ? await opts.runtimeInfo() : '';
    return [
      `${LIBRARY} ${version}: OpenCPU-compatible HTTP interface (TypeScript, no R)`,
      `Session: ${key}`,
      `Created: ${t.toISOString()}`,
      `Method: ${method}`,
      extra.trim(),
      '',
    ]
      .filter((l, i, a) => l !== '' || i === a.length - 1)
      .join('\n');
  }

  // ---- man/ --------------------------------------------------------------------------------
  app.get('/library/:lib/man', (c) => (lib(c) ? redirect(c, `/library/${LIBRARY}/man/`) : noLib(c)));
  app.get('/library/:lib/man/', (c) => (lib(c) ? text(METHODS.map((m) => m.name).join('\n') + '\n') : noLib(c)));
  const noDoc = (topic: string) =>
    errorResponse(404, `No documentation for '${topic}' in specified packages and libraries:\nyou could try '??${topic}'`);
  app.get('/library/:lib/man/:topic', (c) => {
    if (!lib(c)) return noLib(c);
    const topic = c.req.param('topic');
    return METHOD_BY_NAME.has(topic) ? redirect(c, `/library/${LIBRARY}/man/${topic}/text`) : noDoc(topic);
  });
  app.get('/library/:lib/man/:topic/:format', (c) => {
    if (!lib(c)) return noLib(c);
    const m = METHOD_BY_NAME.get(c.req.param('topic'));
    if (!m) return noDoc(c.req.param('topic'));
    const base = new URL(c.req.url).origin;
    const f = c.req.param('format');
    if (f === 'text') return text(manText(m, LIBRARY, base));
    if (f === 'html') return new Response(manHtml(m, LIBRARY, base), { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
    return notFound(c, `Unknown man format: /${f} (use text or html)`);
  });

  // ---- data/: the catalog --------------------------------------------------------------------
  app.get('/library/:lib/data', (c) => (lib(c) ? redirect(c, `/library/${LIBRARY}/data/`) : noLib(c)));
  app.get('/library/:lib/data/', (c) => (lib(c) ? text('vi\n') : noLib(c)));
  app.get('/library/:lib/data/vi', (c) => (lib(c) ? redirect(c, `/library/${LIBRARY}/data/vi/csv`) : noLib(c)));
  app.get('/library/:lib/data/vi/:format', async (c) => {
    if (!lib(c)) return noLib(c);
    const f = c.req.param('format');
    const e = await engine();
    if (f === 'csv') {
      const csv = await e.catalogCsv({ signal: c.req.raw.signal });
      return new Response(csv, { headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename="vi.csv"' } });
    }
    if (f === 'json') return Response.json(await e.catalog({ signal: c.req.raw.signal }));
    return notFound(c, `Invalid output format for objects: ${f} (use csv or json)`);
  });

  // ---- tmp/: sessions ----------------------------------------------------------------------------
  const getSession = async (c: Context): Promise<SessionMeta | Response> => {
    const key = c.req.param('key')!;
    if (!isSessionKey(key)) return errorResponse(404, `Session not found: ${key}`);
    const s = await store.get(key, c.req.raw.signal);
    return s ?? errorResponse(404, `Session not found: ${key}`);
  };
  app.get('/tmp/:key', async (c) => {
    const s = await getSession(c);
    return s instanceof Response ? s : redirect(c, `/tmp/${s.key}/`);
  });
  app.get('/tmp/:key/', async (c) => {
    const s = await getSession(c);
    if (s instanceof Response) return s;
    return text([...new Set(sessionEntries(s))].sort().join('\n') + '\n');
  });
  const textResource = (pick: (s: SessionMeta) => string) => async (c: Context) => {
    const s = await getSession(c);
    return s instanceof Response ? s : text(pick(s));
  };
  app.get('/tmp/:key/stdout', textResource((s) => s.print + '\n'));
  app.get('/tmp/:key/warnings', textResource((s) => (s.warnings.length ? s.warnings.map((w) => `Warning message:\n${w}`).join('\n') + '\n' : '')));
  app.get('/tmp/:key/messages', textResource((s) => s.messages.join('\n') + (s.messages.length ? '\n' : '')));
  app.get('/tmp/:key/source', textResource((s) => s.source + '\n'));
  app.get('/tmp/:key/console', textResource((s) => consoleText(s)));
  app.get('/tmp/:key/info', textResource((s) => s.info));

  app.get('/tmp/:key/R', async (c) => {
    const s = await getSession(c);
    return s instanceof Response ? s : redirect(c, `/tmp/${s.key}/R/`);
  });
  app.get('/tmp/:key/R/', textResource(() => '.val\n'));
  const valResource = async (c: Context) => {
    const s = await getSession(c);
    if (s instanceof Response) return s;
    const obj = c.req.param('object');
    if (obj !== '.val') return errorResponse(404, `object '${obj}' not found`);
    const f = c.req.param('format') ?? 'print';
    switch (f) {
      case 'print':
        return text(s.print + '\n');
      case 'text':
        return text(typeof s.value === 'string' ? s.value : s.print + '\n');
      case 'json':
        return new Response(jsonText(s.value, new URL(c.req.url).searchParams), { headers: { 'Content-Type': 'application/json' } });
      case 'csv':
        try {
          return new Response(toCsv(s.value), { headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename=".val.csv"' } });
        } catch (e) {
          return errorResponse(400, messageOf(e));
        }
      case 'tab':
      case 'md':
      case 'rds':
        try {
          if (f === 'tab') return new Response(toTab(s.value), { headers: { 'Content-Type': TEXT, 'Content-Disposition': 'attachment; filename=".val.tab"' } });
          if (f === 'md') return text(toMarkdown(s.value));
          const bytes = toRds(s.value);
          return new Response(bytes as BodyInit, {
            headers: { 'Content-Type': 'application/octet-stream', 'Content-Disposition': 'attachment; filename=".val.rds"', 'Content-Length': String(bytes.byteLength) },
          });
        } catch (e) {
          if (e instanceof FormatError) return errorResponse(400, e.message);
          throw e;
        }
      default:
        return notFound(c, `Invalid output format for objects: ${f} (use print, text, json, csv, tab, md or rds)`);
    }
  };
  app.get('/tmp/:key/R/:object', valResource);
  app.get('/tmp/:key/R/:object/:format', valResource);

  app.get('/tmp/:key/files', async (c) => {
    const s = await getSession(c);
    return s instanceof Response ? s : redirect(c, `/tmp/${s.key}/files/`);
  });
  app.get('/tmp/:key/files/', textResource((s) => s.files.map((f) => f.name).join('\n') + (s.files.length ? '\n' : '')));
  app.get('/tmp/:key/files/:name', async (c) => {
    const s = await getSession(c);
    if (s instanceof Response) return s;
    const name = c.req.param('name');
    // Names are matched exactly against the session's own list: nothing else is ever read.
    if (!s.files.some((f) => f.name === name)) return errorResponse(404, `File not found: files/${name}`);
    const f = await store.readFile(s.key, name, c.req.raw.signal);
    if (!f) return errorResponse(404, `File not found: files/${name}`);
    return new Response(f.bytes as BodyInit, { headers: { 'Content-Type': f.mediaType, 'Content-Length': String(f.bytes.byteLength) } });
  });

  app.get('/tmp/:key/graphics', async (c) => {
    const s = await getSession(c);
    return s instanceof Response ? s : redirect(c, `/tmp/${s.key}/graphics/`);
  });
  app.get('/tmp/:key/graphics/', textResource((s) => (s.graphics ? [...Array.from({ length: s.graphics }, (_, i) => String(i + 1)), 'last'].join('\n') + '\n' : '')));
  const graphic = async (c: Context) => {
    const s = await getSession(c);
    if (s instanceof Response) return s;
    const n = c.req.param('n')!;
    const index = n === 'last' ? s.graphics : /^[1-9][0-9]*$/.test(n) ? Number(n) : NaN;
    if (!(index >= 1 && index <= s.graphics)) return errorResponse(404, `Graphic not found: graphics/${n} (this session has ${s.graphics}).`);
    const f = c.req.param('format');
    if (f === undefined) return redirect(c, `/tmp/${s.key}/graphics/${n}/png`);
    const g = await store.readGraphic(s.key, index, c.req.raw.signal);
    if (!g) return errorResponse(404, `Graphic not found: graphics/${n}`);
    if (f === 'png') return new Response(g.png as BodyInit, { headers: { 'Content-Type': 'image/png' } });
    if (f === 'svg') return new Response(g.svg, { headers: { 'Content-Type': 'image/svg+xml' } });
    return notFound(c, `Invalid output format for graphics: ${f} (use png or svg)`);
  };
  app.get('/tmp/:key/graphics/:n', graphic);
  app.get('/tmp/:key/graphics/:n/:format', graphic);

  app.get('/tmp/:key/zip', async (c) => {
    const s = await getSession(c);
    if (s instanceof Response) return s;
    if (!s.files.length) return errorResponse(404, `Session ${s.key} has no files to zip (request a file format).`);
    const zip = new JSZip();
    for (const fi of s.files) {
      const f = await store.readFile(s.key, fi.name, c.req.raw.signal);
      if (f) zip.file(f.name, f.bytes, { date: new Date(s.created) });
    }
    const bytes = await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE', compressionOptions: { level: 6 } });
    const name = (s.zipName ?? `${s.key}.zip`).replace(/["\\\r\n]/g, '_');
    return new Response(bytes as BodyInit, {
      headers: { 'Content-Type': 'application/zip', 'Content-Disposition': `attachment; filename="${name}"`, 'Content-Length': String(bytes.byteLength) },
    });
  });
  // Session keys are capabilities: the list of sessions is never served.
  app.get('/tmp', (c) => redirect(c, '/tmp/'));
  app.get('/tmp/', () => errorResponse(404, 'Sessions are not listed; use the key returned by a call (X-ocpu-session).'));

  app.notFound((c) => {
    const m = c.req.method;
    if (m !== 'GET' && m !== 'HEAD' && m !== 'POST') return errorResponse(405, `Method: ${m} invalid on ${new URL(c.req.url).pathname}`);
    if (m === 'POST') return errorResponse(405, `Method: POST invalid on ${new URL(c.req.url).pathname} (POST only calls functions under library/${LIBRARY}/R/).`);
    return notFound(c);
  });
  app.onError((e) => {
    if (isIndapiError(e)) return errorResponse(statusFor(e.code), e.message);
    return errorResponse(500, `Internal error: ${messageOf(e)}`);
  });

  return async (req: Request): Promise<Response> => {
    if (req.method === 'OPTIONS') return preflight();
    const url = new URL(req.url);
    // Encoded slashes, backslashes or NULs in the path never name a resource.
    if (/%2f|%5c|%00|\\/i.test(url.pathname)) return withCors(errorResponse(400, `Invalid path: ${url.pathname}`));
    if (url.pathname === prefix && (req.method === 'GET' || req.method === 'HEAD')) {
      const loc = new URL(prefix + '/', req.url).href;
      return withCors(text(`Redirect to ${loc}\n`, 302, { Location: loc }));
    }
    if (url.pathname === prefix + '/' && (req.method === 'GET' || req.method === 'HEAD')) return withCors(text('library/\ntmp/\n'));
    try {
      const res = await app.fetch(req);
      return withCors(req.method === 'HEAD' ? new Response(null, res) : res);
    } catch (e) {
      return withCors(errorResponse(500, `Internal error: ${messageOf(e)}`));
    }
  };
}

/**
 * JSON of a value with jsonlite's `toJSON` options that OpenCPU passes from the query
 * string: `pretty` (default TRUE) and `dataframe` (`rows` default, `columns`, `values`).
 */
export function jsonText(value: unknown, q: URLSearchParams): string {
  const pretty = q.get('pretty');
  const compact = pretty !== null && /^(false|f|0)$/i.test(pretty);
  let v = value;
  const df = q.get('dataframe');
  if (isTable(v) && (df === 'columns' || df === 'values')) {
    const rows = v;
    const cols = tableColumns(rows);
    v = df === 'columns' ? Object.fromEntries(cols.map((c) => [c, rows.map((r) => r[c] ?? null)])) : rows.map((r) => cols.map((c) => r[c] ?? null));
  }
  return JSON.stringify(v, null, compact ? undefined : 2) + '\n';
}

function consoleText(s: { source: string; value: unknown; print: string; warnings: string[] }): string {
  const isList = s.value !== null && typeof s.value === 'object' && !Array.isArray(s.value);
  const lines = [`> ${s.source}`, isList ? consoleValue(s.value) : s.print];
  for (const w of s.warnings) lines.push(`Warning message:\n${w}`);
  return lines.join('\n') + '\n';
}
