/**
 * Equivalent HTTP calls for a query: curl, R (httr) and JavaScript fetch, against the
 * OpenCPU-style contract (`<base>/ocpu/library/indapi3/R/<method>[/json]`, JSON body).
 */
import { yearsR } from '../years-choice';

/** Endpoint of a method; `json` appends /json (value as JSON), else a session listing. */
export function endpoint(apiBase: string, method: string, json: boolean): string {
  return `${apiBase.replace(/\/$/, '')}/library/indapi3/R/${method}${json ? '/json' : ''}`;
}

const shq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** curl command. */
export function curlSnippet(apiBase: string, method: string, args: Record<string, unknown>, json = true): string {
  return `curl -sS -X POST ${shq(endpoint(apiBase, method, json))} \\\n  -H 'Content-Type: application/json' \\\n  -d ${shq(JSON.stringify(args))}`;
}

/** True for a non-empty list of whole years. */
const isYears = (x: unknown): x is number[] => Array.isArray(x) && x.length > 0 && x.every((y) => Number.isInteger(y));

/** R value literal of a JSON value (vectors as c(...), objects as list(...); an object's `year` as the API's R text, `2000:2017`). */
export function rLiteral(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return v.length === 1 ? `list(${rLiteral(v[0])})` : `c(${v.map(rLiteral).join(', ')})`;
  return `list(${Object.entries(v as Record<string, unknown>).map(([k, x]) => `${/^[A-Za-z.][A-Za-z0-9._]*$/.test(k) ? k : JSON.stringify(k)} = ${k === 'year' && isYears(x) ? yearsR(x) : Array.isArray(x) ? `c(${x.map(rLiteral).join(', ')})` : rLiteral(x)}`).join(', ')})`;
}

/** R httr snippet (JSON body, value parsed with jsonlite). */
export function httrSnippet(apiBase: string, method: string, args: Record<string, unknown>): string {
  return [
    'library(httr)',
    'library(jsonlite)',
    `r <- POST(${JSON.stringify(endpoint(apiBase, method, true))},`,
    `  body = ${rLiteral(args)},`,
    '  encode = "json")',
    'stop_for_status(r)',
    'x <- fromJSON(content(r, as = "text", encoding = "UTF-8"))',
    'head(x)',
  ].join('\n');
}

/** Session variant: POST without /json, then fetch files or the ZIP from the listed session. */
export function sessionSnippet(apiBase: string, method: string, args: Record<string, unknown>): string {
  return `${curlSnippet(apiBase, method, args, false)}\n# prints session paths, one per line, e.g. /ocpu/tmp/<session_id>/R/.val\n# then: curl -sS -o result.zip '${apiBase.replace(/\/ocpu\/?$/, '')}/ocpu/tmp/<session_id>/zip'`;
}
