import { describe, expect, test } from 'vitest';
import { answerFromCached, manifestContentKey, parseRange } from './sw-data';

const body = Uint8Array.from({ length: 100 }, (_, i) => i);
const cached = () => new Response(body, { headers: { 'Content-Type': 'image/tiff', ETag: '"v1"' } });

describe('answers from a cached full file', () => {
  test('whole file', async () => {
    const r = await answerFromCached(cached(), null);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-length')).toBe('100');
    expect(r.headers.get('accept-ranges')).toBe('bytes');
    expect(r.headers.get('etag')).toBe('"v1"');
    expect(new Uint8Array(await r.arrayBuffer())).toEqual(body);
  });
  test('a range is sliced: 206 with Content-Range', async () => {
    const r = await answerFromCached(cached(), 'bytes=10-19');
    expect(r.status).toBe(206);
    expect(r.headers.get('content-range')).toBe('bytes 10-19/100');
    expect(r.headers.get('content-length')).toBe('10');
    expect(r.headers.get('x-indapi3-cache')).toBe('hit');
    expect(new Uint8Array(await r.arrayBuffer())).toEqual(body.slice(10, 20));
    const tail = await answerFromCached(cached(), 'bytes=-5');
    expect(new Uint8Array(await tail.arrayBuffer())).toEqual(body.slice(95));
    const open = await answerFromCached(cached(), 'bytes=98-');
    expect(new Uint8Array(await open.arrayBuffer())).toEqual(body.slice(98));
  });
  test('unsatisfiable -> 416; malformed -> whole file', async () => {
    const r = await answerFromCached(cached(), 'bytes=200-300');
    expect(r.status).toBe(416);
    expect(r.headers.get('content-range')).toBe('bytes */100');
    expect((await answerFromCached(cached(), 'bytes=5-1')).status).toBe(200);
    expect(parseRange('bytes=0-1,4-5', 100)).toBeUndefined();
  });
});

describe('manifestContentKey', () => {
  test('changes when a file changes, even under the same version', async () => {
    const a = { version: '2026.11.1', files: [{ path: 'cog/A.tif', bytes: 10, sha256: 'aa' }] } as any;
    const b = { version: '2026.11.1', files: [{ path: 'cog/A.tif', bytes: 10, sha256: 'bb' }] } as any;
    const ka = await manifestContentKey(a);
    expect(ka).toMatch(/^[0-9a-f]{12}$/);
    expect(await manifestContentKey({ ...a })).toBe(ka);
    expect(await manifestContentKey(b)).not.toBe(ka);
  });
});
