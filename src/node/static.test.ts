import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseRange, safeJoin, serveFile } from './static';

let root: string;
let file: string;
const content = 'abcdefghijklmnopqrstuvwxyz';
beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'indapi3-static-'));
  mkdirSync(path.join(root, 'cog'));
  file = path.join(root, 'cog', 'X.tif');
  writeFileSync(file, content);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const get = (headers: Record<string, string> = {}, method = 'GET') => new Request('http://x/data/cog/X.tif', { method, headers });

describe('parseRange', () => {
  test.each([
    ['bytes=0-9', 100, [0, 9]],
    ['bytes=90-', 100, [90, 99]],
    ['bytes=-10', 100, [90, 99]],
    ['bytes=95-200', 100, [95, 99]],
    ['bytes=-200', 100, [0, 99]],
    ['bytes=100-', 100, 'unsatisfiable'],
    ['bytes=-0', 100, 'unsatisfiable'],
    ['bytes=5-2', 100, undefined],
    ['bytes=0-1,5-6', 100, undefined],
    ['items=0-1', 100, undefined],
  ] as const)('%s of %d', (h, size, want) => {
    expect(parseRange(h, size)).toEqual(want);
  });
});

describe('safeJoin', () => {
  test('stays inside the root', () => {
    expect(safeJoin(root, '/cog/X.tif')).toBe(file);
    expect(safeJoin(root, '/../etc/passwd')).toBeUndefined();
    expect(safeJoin(root, '/cog/%2e%2e/%2e%2e/etc/passwd')).toBeUndefined();
    expect(safeJoin(root, '/cog%2fX.tif')).toBeUndefined();
    expect(safeJoin(root, '/cog%5cX.tif')).toBeUndefined();
    expect(safeJoin(root, '/a%00b')).toBeUndefined();
    expect(safeJoin(root, '/%E0%A4%A')).toBeUndefined();
  });
});

describe('serveFile', () => {
  test('whole file with validators', async () => {
    const r = (await serveFile(get(), file))!;
    expect(r.status).toBe(200);
    expect(r.headers.get('content-length')).toBe('26');
    expect(r.headers.get('accept-ranges')).toBe('bytes');
    expect(r.headers.get('content-type')).toBe('image/tiff');
    expect(r.headers.get('etag')).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(await r.text()).toBe(content);
  });

  test('range -> 206 with Content-Range', async () => {
    const r = (await serveFile(get({ Range: 'bytes=2-5' }), file))!;
    expect(r.status).toBe(206);
    expect(r.headers.get('content-range')).toBe('bytes 2-5/26');
    expect(r.headers.get('content-length')).toBe('4');
    expect(await r.text()).toBe('cdef');
    const tail = (await serveFile(get({ Range: 'bytes=-3' }), file))!;
    expect(await tail.text()).toBe('xyz');
  });

  test('unsatisfiable range -> 416', async () => {
    const r = (await serveFile(get({ Range: 'bytes=100-200' }), file))!;
    expect(r.status).toBe(416);
    expect(r.headers.get('content-range')).toBe('bytes */26');
  });

  test('If-None-Match -> 304; If-Range with a stale tag -> whole file', async () => {
    const etag = (await serveFile(get(), file))!.headers.get('etag')!;
    expect((await serveFile(get({ 'If-None-Match': etag }), file))!.status).toBe(304);
    expect((await serveFile(get({ 'If-None-Match': '"other"' }), file))!.status).toBe(200);
    expect((await serveFile(get({ Range: 'bytes=0-1', 'If-Range': etag }), file))!.status).toBe(206);
    expect((await serveFile(get({ Range: 'bytes=0-1', 'If-Range': '"stale"' }), file))!.status).toBe(200);
  });

  test('HEAD has headers and no body; folders and missing files are undefined', async () => {
    const r = (await serveFile(get({}, 'HEAD'), file))!;
    expect(r.status).toBe(200);
    expect(r.headers.get('content-length')).toBe('26');
    expect(await r.text()).toBe('');
    expect(await serveFile(get(), path.join(root, 'cog'))).toBeUndefined();
    expect(await serveFile(get(), path.join(root, 'nope'))).toBeUndefined();
  });
});
