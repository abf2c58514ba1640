/**
 * `tmp/<key>/...`: a session's listing, texts, value in OpenCPU's object formats, files,
 * graphics and the ZIP of its files. Only the small metadata is read to route a request;
 * the value and the printed value are read only by the paths that show them, and the ZIP
 * is built once and kept by the store (HEAD answers from its size).
 */
import type { Context, Hono } from 'hono';
import { consoleText, errorResponse, jsonText, messageOf, sessionEntries, TEXT, text, type RouteContext } from './http';
import { FormatError, toMarkdown, toRds, toTab } from './rformats';
import { toCsv } from './rprint';
import { isSessionKey, type SessionMeta } from './sessions';

/** A sandbox for active content served from the API origin (HTML, SVG): no script, no same origin. */
export const SANDBOX_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; frame-ancestors 'none'; sandbox";

/** Media types a browser would run as a page: served as downloads, sandboxed. */
const ACTIVE = /^(text\/html|image\/svg\+xml|application\/xhtml\+xml|text\/xml|application\/xml)\b/i;

/** Adds the session routes. */
export function addSessionRoutes(app: Hono, rc: RouteContext): void {
  const getSession = async (c: Context): Promise<SessionMeta | Response> => {
    const key = c.req.param('key')!;
    if (!isSessionKey(key)) return errorResponse(404, `Session not found: ${key}`);
    const s = await rc.store.get(key, c.req.raw.signal);
    if (s) return s;
    // a job not finished (or failed, or cancelled): say so, and where its state is
    const job = await rc.jobs.status(key, c.req.raw.signal);
    if (job) return errorResponse(404, `Session ${key} is a job (${job.state}); its state is at ${rc.prefix}/tmp/${key}/status`);
    return errorResponse(404, `Session not found: ${key}`);
  };
  const redirectTo = (to: (s: SessionMeta) => string) => async (c: Context) => {
    const s = await getSession(c);
    return s instanceof Response ? s : rc.redirect(c, to(s));
  };
  const textResource = (pick: (s: SessionMeta) => string | Promise<string>) => async (c: Context) => {
    const s = await getSession(c);
    return s instanceof Response ? s : text(await pick(s));
  };
  const print = async (c: Context, s: SessionMeta) => (await rc.store.readPrint(s.key, c.req.raw.signal)) ?? '';
  const value = async (c: Context, s: SessionMeta) => (await rc.store.readValue(s.key, c.req.raw.signal))?.value ?? null;

  app.get('/tmp/:key', redirectTo((s) => `/tmp/${s.key}/`));
  app.get('/tmp/:key/', textResource((s) => [...new Set(sessionEntries(s))].sort().join('\n') + '\n'));
  app.get('/tmp/:key/stdout', async (c) => {
    const s = await getSession(c);
    return s instanceof Response ? s : text((await print(c, s)) + '\n');
  });
  app.get('/tmp/:key/warnings', textResource((s) => (s.warnings.length ? s.warnings.map((w) => `Warning message:\n${w}`).join('\n') + '\n' : '')));
  app.get('/tmp/:key/messages', textResource((s) => s.messages.join('\n') + (s.messages.length ? '\n' : '')));
  app.get('/tmp/:key/source', textResource((s) => s.source + '\n'));
  app.get('/tmp/:key/console', async (c) => {
    const s = await getSession(c);
    return s instanceof Response ? s : text(consoleText({ ...s, value: await value(c, s), print: await print(c, s) }));
  });
  app.get('/tmp/:key/info', textResource((s) => s.info));
  app.get('/tmp/:key/R', redirectTo((s) => `/tmp/${s.key}/R/`));
  app.get('/tmp/:key/R/', textResource(() => '.val\n'));
  const valResource = async (c: Context) => {
    const s = await getSession(c);
    if (s instanceof Response) return s;
    const obj = c.req.param('object');
    if (obj !== '.val') return errorResponse(404, `object '${obj}' not found`);
    const f = c.req.param('format') ?? 'print';
    if (f === 'print') return text((await print(c, s)) + '\n');
    if (!['text', 'json', 'csv', 'tab', 'md', 'rds'].includes(f)) return rc.notFound(c, `Invalid output format for objects: ${f} (use print, text, json, csv, tab, md or rds)`);
    const v = await value(c, s);
    if (f === 'text') return text(typeof v === 'string' ? v : (await print(c, s)) + '\n');
    return valueAs(c, f, v);
  };
  app.get('/tmp/:key/R/:object', valResource);
  app.get('/tmp/:key/R/:object/:format', valResource);
  addFileRoutes(app, rc, getSession, redirectTo, textResource);
}

/** The value in one of OpenCPU's object formats (json, csv, tab, md, rds). */
function valueAs(c: Context, f: string, v: unknown): Response {
  try {
    switch (f) {
      case 'json':
        return new Response(jsonText(v, new URL(c.req.url).searchParams), { headers: { 'Content-Type': 'application/json' } });
      case 'csv':
        return new Response(toCsv(v), { headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename=".val.csv"' } });
      case 'tab':
        return new Response(toTab(v), { headers: { 'Content-Type': TEXT, 'Content-Disposition': 'attachment; filename=".val.tab"' } });
      case 'md':
        return text(toMarkdown(v));
      default: {
        const bytes = toRds(v);
        return new Response(bytes as BodyInit, {
          headers: { 'Content-Type': 'application/octet-stream', 'Content-Disposition': 'attachment; filename=".val.rds"', 'Content-Length': String(bytes.byteLength) },
        });
      }
    }
  } catch (e) {
    if (e instanceof FormatError || f === 'csv') return errorResponse(400, messageOf(e));
    throw e;
  }
}

type GetSession = (c: Context) => Promise<SessionMeta | Response>;
type Handler = (c: Context) => Promise<Response>;

function addFileRoutes(
  app: Hono,
  rc: RouteContext,
  getSession: GetSession,
  redirectTo: (to: (s: SessionMeta) => string) => Handler,
  textResource: (pick: (s: SessionMeta) => string) => Handler,
): void {
  app.get('/tmp/:key/files', redirectTo((s) => `/tmp/${s.key}/files/`));
  app.get('/tmp/:key/files/', textResource((s) => s.files.map((f) => f.name).join('\n') + (s.files.length ? '\n' : '')));
  app.get('/tmp/:key/files/:name', async (c) => {
    const s = await getSession(c);
    if (s instanceof Response) return s;
    const name = c.req.param('name');
    // Names are matched exactly against the session's own list: nothing else is ever read.
    if (!s.files.some((f) => f.name === name)) return errorResponse(404, `File not found: files/${name}`);
    const f = await rc.store.readFile(s.key, name, c.req.raw.signal);
    if (!f) return errorResponse(404, `File not found: files/${name}`);
    const headers: Record<string, string> = { 'Content-Type': f.mediaType, 'Content-Length': String(f.bytes.byteLength) };
    if (ACTIVE.test(f.mediaType)) {
      headers['Content-Disposition'] = `attachment; filename="${name.replace(/["\\\r\n]/g, '_')}"`;
      headers['Content-Security-Policy'] = SANDBOX_CSP;
    }
    return new Response(f.bytes as BodyInit, { headers });
  });

  app.get('/tmp/:key/graphics', redirectTo((s) => `/tmp/${s.key}/graphics/`));
  app.get('/tmp/:key/graphics/', textResource((s) => (s.graphics ? [...Array.from({ length: s.graphics }, (_, i) => String(i + 1)), 'last'].join('\n') + '\n' : '')));
  const graphic = async (c: Context) => {
    const s = await getSession(c);
    if (s instanceof Response) return s;
    const n = c.req.param('n')!;
    const index = n === 'last' ? s.graphics : /^[1-9][0-9]*$/.test(n) ? Number(n) : NaN;
    if (!(index >= 1 && index <= s.graphics)) return errorResponse(404, `Graphic not found: graphics/${n} (this session has ${s.graphics}).`);
    const f = c.req.param('format');
    if (f === undefined) return rc.redirect(c, `/tmp/${s.key}/graphics/${n}/png`);
    if (f !== 'png' && f !== 'svg') return rc.notFound(c, `Invalid output format for graphics: ${f} (use png or svg)`);
    const g = await rc.store.readGraphic(s.key, index, c.req.raw.signal);
    if (!g) return errorResponse(404, `Graphic not found: graphics/${n}`);
    if (f === 'png') return new Response(g.png as BodyInit, { headers: { 'Content-Type': 'image/png' } });
    return new Response(g.svg, { headers: { 'Content-Type': 'image/svg+xml', 'Content-Security-Policy': SANDBOX_CSP } });
  };
  app.get('/tmp/:key/graphics/:n', graphic);
  app.get('/tmp/:key/graphics/:n/:format', graphic);
  app.get('/tmp/:key/zip', async (c) => {
    const s = await getSession(c);
    return s instanceof Response ? s : zipResponse(c, rc, s);
  });
}

/** The ZIP of a session's files: the kept archive, else built once with `zipFiles` and kept; HEAD answers from the kept size. */
async function zipResponse(c: Context, rc: RouteContext, s: SessionMeta): Promise<Response> {
  if (!s.files.length) return errorResponse(404, `Session ${s.key} has no files to zip (request a file format).`);
  const name = (s.zipName ?? `${s.key}.zip`).replace(/["\\\r\n]/g, '_');
  const headers = { 'Content-Type': 'application/zip', 'Content-Disposition': `attachment; filename="${name}"` };
  if (c.req.method === 'HEAD' && s.zipBytes) return new Response(null, { headers: { ...headers, 'Content-Length': String(s.zipBytes) } });
  const signal = c.req.raw.signal;
  let bytes = await rc.store.readZip?.(s.key, signal);
  if (!bytes) {
    const files = [];
    for (const fi of s.files) {
      const f = await rc.store.readFile(s.key, fi.name, signal);
      if (f) files.push(f);
    }
    const { zipFiles } = await import('../core/formats');
    bytes = await zipFiles(files, { signal }, new Date(s.created));
    await rc.store.putZip?.(s.key, bytes).catch(() => undefined);
  }
  return new Response(bytes as BodyInit, { headers: { ...headers, 'Content-Length': String(bytes.byteLength) } });
}
