/** The engine over HTTP range requests (FetchSource), as browsers and workers run it. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { join, normalize } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createEngine } from '../../src/core/engine';
import { fetchSourceFactory, fetchTextLoader, FetchSource } from '../../src/core/io/fetch-source';
import { createNodeEngine } from '../../src/node/engine';

const BUNDLE = join(__dirname, 'fixtures/bundle');
let server: Server;
let base = '';
const ranges: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let path = normalize(decodeURIComponent(new URL(req.url!, 'http://x').pathname)).replace(/^\/+/, '');
    if (path.startsWith('offline/')) { res.writeHead(503, { 'Content-Type': 'text/plain', 'X-Indapi3-Error': 'OFFLINE' }).end('Offline: cog/ISO3.tif is not stored on this device.\n'); return; }
    const noRanges = path.startsWith('norange/');
    if (noRanges) path = path.slice('norange/'.length);
    let body: Buffer;
    try { body = readFileSync(join(BUNDLE, path)); } catch { res.writeHead(404).end(); return; }
    const m = /bytes=(\d+)-(\d+)/.exec(req.headers.range ?? '');
    if (m && !noRanges) {
      ranges.push(`${path} ${m[1]}-${m[2]}`);
      const a = Number(m[1]), b = Math.min(Number(m[2]), body.length - 1);
      res.writeHead(206, { 'Content-Range': `bytes ${a}-${b}/${body.length}`, 'Content-Length': b - a + 1 }).end(body.subarray(a, b + 1));
    } else res.writeHead(200, { 'Content-Length': body.length }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('FetchSource', () => {
  it('gives the same answers as file reads, with range requests only for what the query touches', async () => {
    const e = createEngine({ source: fetchSourceFactory(base), text: fetchTextLoader(base) });
    const args = { var: ['ELEVATION', 'TRI'], iso3: ['UGA'], by: ['ADM1_NAME_ALT'] };
    expect(await e.getLayer(args)).toEqual(await createNodeEngine(BUNDLE).getLayer(args));
    expect(ranges.some((r) => r.startsWith('cog/ELEVATION.tif'))).toBe(true);
    expect(ranges.some((r) => r.startsWith('cog/SLOPE.tif'))).toBe(false);
  });
  it('reports HTTP failures as IO errors and aborts as ABORTED', async () => {
    await expect(new FetchSource(`${base}cog/NOPE.tif`).getBytes(0, 10)).rejects.toMatchObject({ code: 'IO' });
    const ac = new AbortController();
    ac.abort();
    await expect(new FetchSource(`${base}cog/ISO3.tif`).getBytes(0, 10, ac.signal)).rejects.toMatchObject({ code: 'ABORTED' });
    expect(await new FetchSource(`${base}cog/ISO3.tif`).size()).toBe(readFileSync(join(BUNDLE, 'cog/ISO3.tif')).length);
  });
  it('refuses a host that ignores Range (200 with the whole file) with BAD_BUNDLE, and relays the service worker\'s error code and message', async () => {
    await expect(new FetchSource(`${base}norange/cog/ISO3.tif`).getBytes(0, 10)).rejects.toMatchObject({ code: 'BAD_BUNDLE', message: expect.stringContaining('byte ranges') });
    await expect(new FetchSource(`${base}offline/cog/ISO3.tif`).getBytes(0, 10)).rejects.toMatchObject({ code: 'OFFLINE', message: 'Offline: cog/ISO3.tif is not stored on this device.' });
    await expect(fetchTextLoader(`${base}offline/`)('vi.csv')).rejects.toMatchObject({ code: 'OFFLINE' });
  });
});
