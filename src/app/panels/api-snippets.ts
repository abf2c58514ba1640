/**
 * Equivalent HTTP calls for a query: curl, R (httr) and JavaScript fetch, against the
 * OpenCPU-style contract (`<base>/ocpu/library/indapi3/R/<method>[/json]`, JSON body).
 */
import { deparse, FULL, R_TEXT } from '../../core/r/deparse';

/** Endpoint of a method; `json` appends /json (value as JSON), else a session listing. */
export function endpoint(apiBase: string, method: string, json: boolean): string {
  return `${apiBase.replace(/\/$/, '')}/library/indapi3/R/${method}${json ? '/json' : ''}`;
}

const shq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** curl command. */
export function curlSnippet(apiBase: string, method: string, args: Record<string, unknown>, json = true): string {
  return `curl -sS -X POST ${shq(endpoint(apiBase, method, json))} \\\n  -H 'Content-Type: application/json' \\\n  -d ${shq(JSON.stringify(args))}`;
}

/**
 * R httr snippet (JSON body, value parsed with jsonlite). The body is the core deparser's R text
 * of the arguments curl sends (JSON's values: undefined ones left out), runs of whole numbers as
 * `from:to` (`year = 2000:2017`); httr writes it back to that JSON (jsonlite, length-one vectors
 * unboxed: the contract reads "KEN" and ["KEN"] alike).
 */
export function httrSnippet(apiBase: string, method: string, args: Record<string, unknown>): string {
  const body = JSON.parse(JSON.stringify(args)) as unknown;
  return [
    'library(httr)',
    'library(jsonlite)',
    `r <- POST(${JSON.stringify(endpoint(apiBase, method, true))},`,
    `  body = ${deparse(body, FULL, R_TEXT)},`,
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
