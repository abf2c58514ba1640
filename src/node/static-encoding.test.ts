/** Precompressed variants in {@link serveFile}: Accept-Encoding negotiation, Range, HEAD, 304, ETags per coding. */
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { acceptQ, serveFile } from './static';

let root: string;
let js: string;
let tif: string;
const text = 'export const x = ' + JSON.stringify('made-up text '.repeat(400)) + ';\n';
beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'indapi3-static-enc-'));
  js = path.join(root, 'app.js');
  writeFileSync(js, text);
  writeFileSync(js + '.br', brotliCompressSync(text));
  writeFileSync(js + '.gz', gzipSync(text));
  tif = path.join(root, 'X.tif');
  writeFileSync(tif, 'tiff bytes');
  writeFileSync(tif + '.gz', gzipSync('tiff bytes')); // never used: COGs are not compressible
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const req = (headers: Record<string, string> = {}, method = 'GET') => new Request('http://x/app.js', { method, headers });
const bytes = async (r: Response) => Buffer.from(await r.arrayBuffer());

describe('acceptQ', () => {
  test.each([
    [null, 'br', 0], [null, 'identity', 1],
    ['gzip, deflate, br', 'br', 1], ['gzip;q=0.8, br;q=0.5', 'br', 0.5], ['gzip;q=0.8, br;q=0.5', 'gzip', 0.8],
    ['*;q=0.3', 'br', 0.3], ['br;q=0', 'br', 0], ['identity;q=0, gzip', 'identity', 0], ['x-gzip', 'gzip', 1],
    ['gzip', 'identity', 1], ['*;q=0', 'identity', 0], ['BR', 'br', 1],
  ] as const)('%s -> %s = %d', (h, c, q) => expect(acceptQ(h, c)).toBe(q));
});

describe('serveFile with precompressed variants', () => {
  test('brotli when accepted, with its length, coding, Vary and its own ETag', async () => {
    const r = (await serveFile(req({ 'accept-encoding': 'gzip, deflate, br' }), js))!;
    expect(r.status).toBe(200);
    expect(r.headers.get('content-encoding')).toBe('br');
    expect(r.headers.get('vary')).toBe('Accept-Encoding');
    expect(r.headers.get('content-type')).toMatch(/javascript/);
    const b = await bytes(r);
    expect(Number(r.headers.get('content-length'))).toBe(b.length);
    expect(brotliDecompressSync(b).toString()).toBe(text);
    expect(r.headers.get('etag')).toMatch(/-br"$/);
  });

  test('gzip when brotli is not accepted or weighs less', async () => {
    for (const ae of ['gzip', 'gzip;q=0.9, br;q=0.5', 'br;q=0, *']) {
      const r = (await serveFile(req({ 'accept-encoding': ae }), js))!;
      expect(r.headers.get('content-encoding'), ae).toBe('gzip');
      const b = await bytes(r);
      expect(Number(r.headers.get('content-length'))).toBe(b.length);
      expect(gunzipSync(b).toString()).toBe(text);
      expect(r.headers.get('etag')).toMatch(/-gzip"$/);
    }
  });

  test('identity without Accept-Encoding, or when every coding is refused', async () => {
    for (const h of [{} as Record<string, string>, { 'accept-encoding': 'deflate' }, { 'accept-encoding': 'br;q=0, gzip;q=0' }, { 'accept-encoding': 'identity' }]) {
      const r = (await serveFile(req(h), js))!;
      expect(r.headers.get('content-encoding')).toBeNull();
      expect(r.headers.get('vary')).toBe('Accept-Encoding');
      expect((await bytes(r)).toString()).toBe(text);
      expect(Number(r.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    }
  });

  test('the three representations have three ETags', async () => {
    const tags = await Promise.all(['br', 'gzip', 'identity'].map(async (ae) => (await serveFile(req({ 'accept-encoding': ae }), js))!.headers.get('etag')));
    expect(new Set(tags).size).toBe(3);
  });

  test('a Range request gets identity bytes at identity offsets, even when br is accepted', async () => {
    const r = (await serveFile(req({ 'accept-encoding': 'br, gzip', range: 'bytes=7-12' }), js))!;
    expect(r.status).toBe(206);
    expect(r.headers.get('content-encoding')).toBeNull();
    expect(r.headers.get('vary')).toBe('Accept-Encoding');
    expect(r.headers.get('content-range')).toBe(`bytes 7-12/${Buffer.byteLength(text)}`);
    expect((await bytes(r)).toString()).toBe(text.slice(7, 13));
  });

  test('HEAD gives the headers of the negotiated representation and no body', async () => {
    const r = (await serveFile(req({ 'accept-encoding': 'br' }, 'HEAD'), js))!;
    expect(r.headers.get('content-encoding')).toBe('br');
    expect(Number(r.headers.get('content-length'))).toBe(brotliCompressSync(text).length);
    expect(r.body).toBeNull();
  });

  test('304 only for the ETag of the representation asked for', async () => {
    const br = (await serveFile(req({ 'accept-encoding': 'br' }), js))!.headers.get('etag')!;
    const same = (await serveFile(req({ 'accept-encoding': 'br', 'if-none-match': br }), js))!;
    expect(same.status).toBe(304);
    expect(same.headers.get('content-encoding')).toBe('br');
    const other = (await serveFile(req({ 'accept-encoding': 'gzip', 'if-none-match': br }), js))!;
    expect(other.status).toBe(200);
    expect(other.headers.get('content-encoding')).toBe('gzip');
  });

  test('a variant older than the file is not used', async () => {
    const stale = path.join(root, 'stale.js');
    writeFileSync(stale, text);
    writeFileSync(stale + '.br', brotliCompressSync('old'));
    const past = new Date(Date.now() - 60_000);
    utimesSync(stale + '.br', past, past);
    const r = (await serveFile(req({ 'accept-encoding': 'br' }), stale))!;
    expect(r.headers.get('content-encoding')).toBeNull();
    expect((await bytes(r)).toString()).toBe(text);
  });

  test('COGs are never sent with a content coding', async () => {
    const r = (await serveFile(new Request('http://x/X.tif', { headers: { 'accept-encoding': 'gzip, br' } }), tif))!;
    expect(r.headers.get('content-encoding')).toBeNull();
    expect(r.headers.get('vary')).toBeNull();
    expect((await bytes(r)).toString()).toBe('tiff bytes');
  });
});
