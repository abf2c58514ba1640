/**
 * The "reproduce it" commands of every data package README run as printed: the Node server
 * (real engine and writers on the bundle in public/data) makes packages in several formats
 * for a request sent to another origin (`Host: indapi.example.org:9999`, as a README made in
 * the browser names the page's origin); the test unzips each package (jszip), takes the `sh`
 * block of README.md, rewrites only the host:port of its `BASE=` line to the test server and
 * runs it with bash and /usr/bin/curl. The POST must answer the session listing, the ZIP it
 * fetches must hold the same files (the data file byte for byte where it has no time stamp),
 * and the JSON line must give the values. The request carries a `'` (in `dir`, accepted and
 * ignored by the service) to check the shell quoting.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import JSZip from 'jszip';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/node/server';

let tmp: string;
let srv: RunningServer;
const FOREIGN = 'indapi.example.org:9999';
const ARGS = { var: ['ELEVATION', 'ELEV_ZONE'], iso3: ['KEN'], by: ['ADM1_NAME_ALT'], dir: "it's ignored" };

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'indapi3-curl-'));
  mkdirSync(path.join(tmp, 'dist'), { recursive: true });
  writeFileSync(path.join(tmp, 'dist', 'index.html'), '<!doctype html><h1>fixture shell</h1>');
  srv = await startServer({ port: 0, host: '127.0.0.1', distDir: path.join(tmp, 'dist'), dataDir: path.resolve('public/data'), sessionDir: path.join(tmp, 'sessions'), log: false });
});
afterAll(async () => {
  await srv?.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** POST with a Host header of another origin (fetch may not set Host). */
function postForeign(pathname: string, body: string): Promise<{ status: number; session: string; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: srv.port, path: pathname, method: 'POST', headers: { Host: FOREIGN, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, session: String(res.headers['x-ocpu-session'] ?? ''), text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function zipOf(session: string): Promise<JSZip> {
  const r = await fetch(`http://127.0.0.1:${srv.port}/ocpu/tmp/${session}/zip`);
  expect(r.status).toBe(200);
  return JSZip.loadAsync(new Uint8Array(await r.arrayBuffer()));
}

/** The `sh` block after the "Reproduce it" paragraph. */
function shBlock(readme: string): string {
  const m = /Reproduce it[^\n]*\n\n```sh\n([\s\S]*?)\n```/.exec(readme);
  expect(m, 'README.md has a sh block after "Reproduce it"').not.toBeNull();
  return m![1];
}

describe('README curl commands run as printed', () => {
  for (const format of ['csv', 'dta', 'rda', 'tif', 'json']) {
    it(`${format}: the POST lists the session, the ZIP holds the same files, the JSON line gives the values`, async () => {
      const made = await postForeign('/ocpu/library/indapi3/R/indapi', JSON.stringify({ ...ARGS, format }));
      expect(made.status, made.text).toBe(201);
      const zip = await zipOf(made.session);
      const names = Object.keys(zip.files).sort();
      const readme = await zip.file('README.md')!.async('string');
      const block = shBlock(readme);
      // the README names the origin the request was sent to
      expect(block).toContain(`BASE='http://${FOREIGN}/ocpu'`);
      expect(block).toContain(`"format":"${format}"`);
      const script = block.replace(`http://${FOREIGN}/`, `http://127.0.0.1:${srv.port}/`);
      const cwd = mkdtempSync(path.join(tmp, `run-${format}-`));
      // async: the server runs in this process and must keep answering while curl runs
      const { stdout: out } = await promisify(execFile)('bash', ['-c', `set -euo pipefail\nexport PATH=/usr/bin:/bin\n${script}`], { cwd, encoding: 'utf8', timeout: 120_000 });
      // 1. the session listing: one path per line, the data files among them
      const listing = out.split('\n').filter((l) => l.startsWith('/ocpu/tmp/'));
      expect(listing.length).toBeGreaterThan(3);
      const dataFile = names.find((n) => /\.(csv|dta|rda|tif|geojson)$/.test(n) && n !== 'meta.csv')!;
      expect(listing.some((l) => l.endsWith(`/files/${dataFile}`))).toBe(true);
      // 2. the ZIP it fetched: same files, the data file the same (byte for byte without a time stamp)
      const zipName = /curl -s -o '([^']+)'/.exec(block)![1];
      expect(existsSync(path.join(cwd, zipName))).toBe(true);
      const again = await JSZip.loadAsync(readFileSync(path.join(cwd, zipName)));
      expect(Object.keys(again.files).sort()).toEqual(names);
      const a = await zip.file(dataFile)!.async('uint8array');
      const b = await again.file(dataFile)!.async('uint8array');
      if (['csv', 'tif', 'json'].includes(format)) expect(Buffer.from(b).equals(Buffer.from(a))).toBe(true);
      // dta and rda carry the creation minute (fixed width): compare the uncompressed sizes
      else if (format === 'rda') expect(gunzipSync(b).byteLength).toBe(gunzipSync(a).byteLength);
      else expect(b.byteLength).toBe(a.byteLength);
      // 3. the values as JSON: the provinces' rows
      const json = JSON.parse(out.slice(out.search(/^\[/m)));
      expect(json.some((r: Record<string, unknown>) => typeof r.ADM1_NAME_ALT === 'string' && typeof r.ELEVATION === 'number')).toBe(true);
    }, 180_000);
  }
});
