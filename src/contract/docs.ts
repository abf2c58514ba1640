/**
 * Method documentation as R's help system renders it: plain text in the layout of
 * `tools::Rd2txt` (man/<method>/text), HTML (man/<method>/html), and the package index
 * (`library/indapi3/info`). Generated from the method registry, `methods/index.ts`.
 */
import { DEFAULT_LIMITS as L } from './limits';
import type { MethodSpec } from './methods';
import { CHEAP_METHODS } from './run';

/** Arguments a limit applies to (see `limits.ts`). */
const LIMITED_ARGS = new Set(['by', 'ids', 'wkt', 'domains', 'collapse']);

/**
 * The limits of a call, as one paragraph of the help pages of the methods that take a
 * limited argument (`man/indapi` among them); the values come from `DEFAULT_LIMITS`.
 */
export function limitsText(m: MethodSpec): string | undefined {
  if (!m.args.some((a) => LIMITED_ARGS.has(a.name))) return undefined;
  const n = (x: number) => x.toLocaleString('en-US');
  return (
    `Limits (checked before any work; a call over one answers 400 naming the argument, 413 for ids and vertices): argument values nested at most ${L.maxDepth} levels deep; ` +
    `\`by\` at most ${L.maxByCodes} codes and ${n(L.maxByValues)} breaks or classes per code; \`ids\` at most ${n(L.maxIds)} cell ids; ` +
    (m.args.some((a) => a.name === 'minutes') ? `\`minutes\` at most ${L.maxMinutesBreaks} breaks; ` : '') +
    `WKT \`wkt\` at most ${n(L.maxVertices)} vertices in all and ${n(L.maxShapes)} shapes summarised one by one (GEOMETRYCOLLECTION members; a MULTIPOINT is one); \`domains\` at most ${n(L.maxDomains)} features (GeoJSON features or WKT entries, collections by member) and ${n(L.maxDomainVertices)} vertices in all; both at most ${L.maxWktDepth} levels of parentheses, 5,000,000 characters per WKT string and polygon edges crossing at most ${n(L.maxEdgeCells)} grid cells in all (5-arc-minute rows plus columns each edge spans). ` +
    `A per-cell answer (\`collapse = FALSE\`) holds at most ${n(L.maxCellRows)} cells and a session's value at most ${L.maxValueBytes / 1048576} MB as JSON: ` +
    'for more, ask for a file (`format = "csv"` or `"tif"`) or a smaller area. The Node server also bounds the bytes of one session and of all sessions (README, "Limits").'
  );
}

/**
 * Jobs (`jobs.ts`), one paragraph of the help pages of the methods that read the grid: the
 * request header, the answers and their statuses.
 */
export const JOBS_TEXT =
  'As a job: sent with the header `Prefer: respond-async` (RFC 7240) the call is checked (400 naming the argument, at once), then answers 202 Accepted ' +
  'with `Location` (the session URL), `X-ocpu-session` and its state as JSON, and runs in the background. `GET /ocpu/tmp/<key>/status` answers ' +
  '`{ "state": "queued" | "running" | "done" | "failed" | "cancelled", "progress": 0..1, "message" }` (progress per feature or layer from the engine; ' +
  'a failed job has the 400 message the call would have answered, and `status`); when done the session is like any other. `DELETE /ocpu/tmp/<key>/` ' +
  'cancels a queued or running job (200, no session is kept; 409 for a finished one). Past the node\'s cap of running and queued jobs the call answers 503 with `Retry-After`.';

/** The details paragraphs of a help page, the limits and jobs last. */
function detailsOf(m: MethodSpec): string[] {
  const lim = limitsText(m);
  const out = lim ? [...m.details, lim] : [...m.details];
  if (!CHEAP_METHODS.has(m.name)) out.push(JOBS_TEXT);
  return out;
}

/** Usage line, e.g. `category(q = NULL, as.list = FALSE)`. */
export function usage(m: MethodSpec): string {
  return `${m.name}(${m.args.map((a) => (a.required || a.default === undefined ? a.name : `${a.name} = ${a.default}`)).join(', ')})`;
}

function wrap(text: string, width: number, indent: string, first = indent): string {
  const words = text.replace(/`/g, '').split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const w of words) {
    if (!empty && line.length + 1 + w.length > width) {
      lines.push(line);
      line = indent + w;
    } else {
      line += (empty ? '' : ' ') + w;
    }
    empty = false;
  }
  lines.push(line);
  return lines.join('\n');
}

/** Resolves `{base}` in examples. */
function ex(s: string, base: string): string {
  return s.split('{base}').join(base);
}

/** Help page as text, laid out like R's `Rd2txt`. */
export function manText(m: MethodSpec, library: string, base = 'http://localhost:8080'): string {
  const W = 72;
  const head = `${m.name}`;
  const pkg = `package:${library}`;
  const right = 'R Documentation';
  const gap = Math.max(1, Math.floor((W - head.length - pkg.length - right.length) / 2));
  const out: string[] = [];
  out.push(head + ' '.repeat(gap) + pkg + ' '.repeat(gap) + right, '', m.title, '');
  out.push('Description:', '', wrap(m.description, W, '     '), '');
  out.push('Usage:', '', wrap(usage(m), W, '       ', '     '), '');
  out.push('Arguments:', '');
  const nameW = Math.max(...m.args.map((a) => a.name.length));
  for (const a of m.args) {
    const lead = ' '.repeat(Math.max(0, nameW - a.name.length) + 1) + a.name + ': ';
    out.push(wrap(a.doc, W, ' '.repeat(nameW + 3), lead), '');
  }
  out.push('Details:', '');
  for (const d of detailsOf(m)) out.push(wrap(d, W, '     '), '');
  out.push('Value:', '', wrap(m.value, W, '     '), '');
  out.push('Examples:', '');
  for (const e of m.examples) out.push('     ' + ex(e, base));
  out.push('');
  return out.join('\n');
}

/** Escapes text for HTML. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function md(s: string): string {
  return escapeHtml(s).replace(/`([^`]+)`/g, '<code>$1</code>');
}

/** Help page as a standalone HTML document. */
export function manHtml(m: MethodSpec, library: string, base = 'http://localhost:8080'): string {
  const rows = m.args.map((a) => `<tr><td><code>${escapeHtml(a.name)}</code></td><td>${md(a.doc)}</td></tr>`).join('\n');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>R: ${escapeHtml(m.title)}</title>
<style>body{font-family:sans-serif;max-width:52em;margin:1em auto;padding:0 1em;line-height:1.45}pre,code{background:#f4f4f4}pre{padding:.5em;overflow-x:auto}td{vertical-align:top;padding:.2em .6em}</style>
</head><body>
<table width="100%"><tr><td>${escapeHtml(m.name)} {${escapeHtml(library)}}</td><td style="text-align:right">R Documentation</td></tr></table>
<h2>${escapeHtml(m.title)}</h2>
<h3>Description</h3>
<p>${md(m.description)}</p>
<h3>Usage</h3>
<pre><code>${escapeHtml(usage(m))}</code></pre>
<h3>Arguments</h3>
<table>
${rows}
</table>
<h3>Details</h3>
${detailsOf(m).map((d) => `<p>${md(d)}</p>`).join('\n')}
<h3>Value</h3>
<p>${md(m.value)}</p>
<h3>Examples</h3>
<pre><code>${m.examples.map((e) => escapeHtml(ex(e, base))).join('\n')}</code></pre>
</body></html>
`;
}

/** The package index: every method with its title and usage (library/indapi3/info). */
export function packageInfo(methods: readonly MethodSpec[], library: string, version: string): string {
  const out: string[] = [
    `Information on package '${library}'`,
    '',
    'Description:',
    '',
    `Package:            ${library}`,
    `Version:            ${version}`,
    'Title:              Gridded indicators for Africa south of the Sahara',
    'Description:        Lists, describes, queries, summarises and downloads spatially',
    '                    explicit indicators on a 5 arc-minute grid, over the HTTP',
    '                    interface of the original R/OpenCPU service.',
    'License:            MIT (code); each indicator carries its own data licence',
    '',
    'Index:',
    '',
  ];
  const w = Math.max(...methods.map((m) => m.name.length)) + 2;
  for (const m of methods) out.push(wrap(m.title, 76, ' '.repeat(w), m.name.padEnd(w)));
  out.push('', 'Usage:', '');
  for (const m of methods) out.push(wrap(usage(m), 76, '      ', '  '));
  out.push(
    '',
    'Documentation of each method: man/<method>/text or man/<method>/html.',
    'Calls: POST R/<method> (session listing) or R/<method>/json (value as JSON).',
    '',
  );
  return out.join('\n');
}
