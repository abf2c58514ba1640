/**
 * Error messages show the values a caller sent as R shows them (`deparse`), never as
 * JavaScript's `String(value)` ("got [object Object]", seen in a battery of hostile
 * requests): every argument of every method is sent a named list, a list of lists and a
 * vector holding NA, on the real bundle when there is one, and no answer is a 5xx or says
 * "[object Object]".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { METHODS } from '../../src/contract/methods';
import { createServerFetch } from '../../src/node/server';
import { contractBackend } from './backend';

let dir: string;
let handle: (req: Request) => Promise<Response>;
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'indapi3-msg-'));
  handle = createServerFetch({ ...(await contractBackend()), sessionDir: dir, log: false });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Valid companions so that the odd argument is the one checked. */
const BASE: Record<string, Record<string, unknown>> = {
  catchment: { xy: [36.82, -1.29], minutes: [0, 60] },
  classify: { var: 'ELEVATION', domains: { a: 'POINT(36.8 -1.3)' } },
  describe: { var: 'ELEVATION' },
  getLayer: { var: 'ELEVATION', iso3: 'KEN' },
  getLayerWKT: { var: 'ELEVATION', wkt: 'POINT(36.8 -1.3)' },
  indapi: { var: 'ELEVATION', iso3: 'KEN' },
  similar: { x: 'Eastern', var: 'ELEVATION', by: 1, iso3: 'KEN' },
  genFile: { var: 'ELEVATION', iso3: 'KEN' },
};

const ODD: unknown[] = [{ a: { b: 1 } }, [{ a: 1 }, { b: [2, 3] }], [1, null, 'x']];

test('no error message of any method and argument says [object Object]', async () => {
  const seen: string[] = [];
  for (const m of METHODS) {
    for (const spec of m.args) {
      for (const odd of ODD) {
        const body = { ...BASE[m.name], [spec.name]: odd };
        const res = await handle(new Request(`http://localhost/ocpu/library/indapi3/R/${m.name}/json`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }));
        const text = await res.text();
        const what = `${m.name}(${spec.name} = ${JSON.stringify(odd)}) -> ${res.status}: ${text.split('\n')[0]}`;
        seen.push(what);
        expect(res.status, what).toBeLessThan(500);
        expect(text, what).not.toContain('[object Object]');
        expect(text, what).not.toContain('undefined');
      }
    }
  }
  if (process.env.SHOW_MESSAGES) console.log(seen.join("\n"));
  // the odd values were refused with a message naming the argument, as R would
  expect(seen.filter((s) => / -> 400: /.test(s)).length).toBeGreaterThan(seen.length / 2);
}, 300_000);
