/**
 * Interop: the API panel's R snippet (src/app/panels/api-snippets.ts) is R that R parses, and
 * its body, evaluated by R and encoded by httr as the snippet asks (`encode = "json"`: httr's own
 * `body_config`, jsonlite with length-one vectors unboxed), is the JSON curl sends.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { httrSnippet } from '../../src/app/panels/api-snippets';

const SCRIPT = String.raw`
suppressMessages({ library(httr); library(jsonlite) })
cases <- fromJSON(commandArgs(TRUE)[1], simplifyVector = FALSE)
out <- vapply(cases, function(s) {
  exprs <- parse(text = s$snippet) # the whole snippet parses
  b <- eval(parse(text = s$body)[[1]])
  rawToChar(httr:::body_config(b, encode = "json")$options$postfields)
}, "")
cat(toJSON(out))
`;

/** What jsonlite writes with `auto_unbox = TRUE`: length-one atomic vectors as scalars (the contract reads both alike). */
function unboxed(v: unknown): unknown {
  if (Array.isArray(v)) return v.length === 1 && (v[0] === null || typeof v[0] !== 'object') ? v[0] : v.map(unboxed);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unboxed(x)]));
  return v;
}

test('the R snippet parses in R and httr sends the arguments curl sends', () => {
  const cases: Array<Record<string, unknown>> = [
    { var: ['PWT_POP'], iso3: ['NGA', 'GHA'], year: Array.from({ length: 18 }, (_, i) => 2000 + i) },
    { var: ['AREA_TOTAL'], iso3: ['ETH'], by: { ADM1_NAME_ALT: ['Somali'], ELEVATION: [0, 1500, 6000] }, year: [2000, 2017] },
    { sources: [{ lon: 36.82, lat: -1.29, name: 'Nairobi "CBD"\\east' }, { lon: 39.67, lat: -4.04, name: 'Ségou' }], minutes: [60, 120, 240], exact: true },
    { sources: [{ lon: 36.82, lat: -1.29, name: 'one' }], year: [2005] },
  ];
  const dir = mkdtempSync(join(tmpdir(), 'snippets-'));
  try {
    const snippets = cases.map((a) => httrSnippet('http://localhost/ocpu', 'indapi', a));
    const input = snippets.map((snippet) => ({ snippet, body: /^ {2}body = (.*),$/m.exec(snippet)![1] }));
    const file = join(dir, 'cases.json');
    writeFileSync(file, JSON.stringify(input));
    writeFileSync(join(dir, 'run.R'), SCRIPT);
    const sent = JSON.parse(execFileSync('Rscript', [join(dir, 'run.R'), file], { encoding: 'utf8', timeout: 60_000 })) as string[];
    expect(sent).toHaveLength(cases.length);
    sent.forEach((json, i) => expect(JSON.parse(json)).toEqual(unboxed(cases[i])));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 90_000);
