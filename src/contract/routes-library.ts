/**
 * The contract's read-only library routes: `library/`, `library/indapi3/` (DESCRIPTION,
 * info), `R/` listings and method usage, `man/` help pages and `data/vi` (the catalog).
 */
import type { Context, Hono } from 'hono';
import { manHtml, manText, packageInfo, usage } from './docs';
import { errorResponse, LIBRARY, text, type RouteContext } from './http';
import { METHOD_BY_NAME, METHODS } from './methods';

/** 404 of an unknown method, as R's `get()` fails. */
export function unknownMethod(name: string): Response {
  return errorResponse(404, `object '${name}' not found`, `get(${JSON.stringify(name)}, envir = asNamespace("${LIBRARY}"), inherits = FALSE)`);
}

/** Adds the library, R listing, man and data routes. */
export function addLibraryRoutes(app: Hono, rc: RouteContext): void {
  const { lib, noLib, redirect, notFound, prefix } = rc;
  app.get('/library', (c) => redirect(c, '/library/'));
  app.get('/library/', () => text(`${LIBRARY}\n`));
  app.get('/library/:lib', (c) => (lib(c) ? redirect(c, `/library/${LIBRARY}/`) : noLib(c)));
  app.get('/library/:lib/', (c) => (lib(c) ? text(['DESCRIPTION', 'R', 'data', 'info', 'man'].join('\n') + '\n') : noLib(c)));
  app.get('/library/:lib/DESCRIPTION', (c) =>
    lib(c)
      ? text(`Package: ${LIBRARY}\nVersion: ${rc.version}\nTitle: Gridded indicators for Africa south of the Sahara\nLicense: MIT\n`)
      : noLib(c),
  );
  const info = (c: Context) => {
    if (!lib(c)) return noLib(c);
    const pages = METHODS.map((m) => manText(m, LIBRARY, rc.origin(c))).join('\n' + '_'.repeat(72) + '\n\n');
    return text(packageInfo(METHODS, LIBRARY, rc.version) + '\n' + '_'.repeat(72) + '\n\n' + pages);
  };
  app.get('/library/:lib/info', info);
  app.get('/library/:lib/info/', info);

  app.get('/library/:lib/R', (c) => (lib(c) ? redirect(c, `/library/${LIBRARY}/R/`) : noLib(c)));
  app.get('/library/:lib/R/', (c) => (lib(c) ? text(METHODS.map((m) => m.name).join('\n') + '\n') : noLib(c)));
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

  addManRoutes(app, rc);
  addDataRoutes(app, rc);
}

function addManRoutes(app: Hono, rc: RouteContext): void {
  const { lib, noLib, redirect, notFound } = rc;
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
    const base = rc.origin(c);
    const f = c.req.param('format');
    if (f === 'text') return text(manText(m, LIBRARY, base));
    if (f === 'html') return new Response(manHtml(m, LIBRARY, base), { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
    return notFound(c, `Unknown man format: /${f} (use text or html)`);
  });
}

function addDataRoutes(app: Hono, rc: RouteContext): void {
  const { lib, noLib, redirect, notFound } = rc;
  app.get('/library/:lib/data', (c) => (lib(c) ? redirect(c, `/library/${LIBRARY}/data/`) : noLib(c)));
  app.get('/library/:lib/data/', (c) => (lib(c) ? text('vi\n') : noLib(c)));
  app.get('/library/:lib/data/vi', (c) => (lib(c) ? redirect(c, `/library/${LIBRARY}/data/vi/csv`) : noLib(c)));
  app.get('/library/:lib/data/vi/:format', async (c) => {
    if (!lib(c)) return noLib(c);
    const f = c.req.param('format');
    const e = await rc.engine();
    if (f === 'csv') {
      const csv = await e.catalogCsv({ signal: c.req.raw.signal });
      return new Response(csv, { headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename="vi.csv"' } });
    }
    if (f === 'json') return Response.json(await e.catalog({ signal: c.req.raw.signal }));
    return notFound(c, `Invalid output format for objects: ${f} (use csv or json)`);
  });
}
