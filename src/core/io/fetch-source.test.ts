// FetchSource with checkEtag over an in-memory host whose file is republished mid-read: the
// read that would mix versions fails with BUNDLE_CHANGED, and the COG store re-opens the file.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CogStore } from '../cog/store';
import { bodyMatches, FetchSource, fetchSourceFactory } from './fetch-source';

const COG = join(__dirname, '../../../tests/engine/fixtures/bundle/cog');

/** A host serving one changeable file with strong ETags, honouring If-Match (412) like RFC 9110. */
function host(first: Uint8Array, etag: string) {
  const state = { body: first, etag, requests: [] as Array<Record<string, string>> };
  const fetch = (async (_url: string, init?: RequestInit) => {
    const h = Object.fromEntries(Object.entries((init?.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]));
    state.requests.push(h);
    if (h['if-match'] && h['if-match'] !== state.etag) return new Response('precondition failed', { status: 412, headers: { ETag: state.etag } });
    const m = /bytes=(\d+)-(\d+)/.exec(h.range ?? '')!;
    const a = Number(m[1]), b = Math.min(Number(m[2]), state.body.length - 1);
    return new Response(state.body.slice(a, b + 1), { status: 206, headers: { ETag: state.etag, 'Content-Range': `bytes ${a}-${b}/${state.body.length}` } });
  }) as typeof globalThis.fetch;
  return { state, fetch, republish(body: Uint8Array, tag: string) { state.body = body; state.etag = tag; } };
}

describe('FetchSource checkEtag', () => {
  const bytes = new Uint8Array(readFileSync(join(COG, 'ELEVATION.tif')));

  it('sends If-Match with the first ETag; 412 or another ETag is BUNDLE_CHANGED; reset takes the new version', async () => {
    const h = host(bytes, '"v1"');
    const s = new FetchSource('http://host/cog/ELEVATION.tif', { fetch: h.fetch, checkEtag: true });
    await s.getBytes(0, 16);
    expect(h.state.requests[0]['if-match']).toBeUndefined();
    await s.getBytes(16, 16);
    expect(h.state.requests[1]['if-match']).toBe('"v1"');
    h.republish(bytes, '"v2"');
    await expect(s.getBytes(0, 16)).rejects.toMatchObject({ code: 'BUNDLE_CHANGED', detail: { expected: '"v1"', got: '"v2"' } });
    s.reset();
    expect((await s.getBytes(0, 16)).byteLength).toBe(16);
  });

  it('a host that ignores If-Match but answers another ETag is caught too', async () => {
    const h = host(bytes, '"v1"');
    const plain = (async (u: string, init?: RequestInit) => {
      const { ['If-Match']: _drop, ...rest } = (init?.headers ?? {}) as Record<string, string>;
      return h.fetch(u, { ...init, headers: rest });
    }) as typeof globalThis.fetch;
    const s = new FetchSource('http://host/x.tif', { fetch: plain, checkEtag: true });
    await s.getBytes(0, 8);
    h.republish(bytes, '"v2"');
    await expect(s.getBytes(0, 8)).rejects.toMatchObject({ code: 'BUNDLE_CHANGED' });
  });

  it('without checkEtag (browsers) nothing is sent or compared', async () => {
    const h = host(bytes, '"v1"');
    const s = new FetchSource('http://host/x.tif', { fetch: h.fetch });
    await s.getBytes(0, 8);
    h.republish(bytes, '"v2"');
    await s.getBytes(0, 8);
    expect(h.state.requests.every((r) => r['if-match'] === undefined)).toBe(true);
  });
});

describe('CogStore over a republished COG', () => {
  const v1 = new Uint8Array(readFileSync(join(COG, 'ELEVATION.tif')));
  const v2 = new Uint8Array(readFileSync(join(COG, 'TRI.tif')));

  it('never mixes the old header with new blocks: the read fails with BUNDLE_CHANGED, the next re-opens the file', async () => {
    const h = host(v1, '"v1"');
    // a small header read, so that the blocks are read after it (a block inside the kept header bytes is the old file's, consistent with its header)
    const store = new CogStore({ source: fetchSourceFactory('http://host/', { fetch: h.fetch, checkEtag: true }), headerBytes: 256 });
    const info = await store.info('cog/x.tif');
    const last: [number, number, number, number] = [info.width - 8, info.height - 8, info.width, info.height];
    await store.readFloat('cog/x.tif', [0, 0, 8, 8]);
    h.republish(v2, '"v2"');
    await expect(store.readFloat('cog/x.tif', last)).rejects.toMatchObject({ code: 'BUNDLE_CHANGED' });
    // re-opened: the same answers as a store that only ever saw the new file
    const fresh = new CogStore({ source: fetchSourceFactory('http://host/', { fetch: host(v2, '"v2"').fetch }) });
    expect(Array.from(await store.readFloat('cog/x.tif', last))).toEqual(Array.from(await fresh.readFloat('cog/x.tif', last)));
    expect(Array.from(await store.readFloat('cog/x.tif', [0, 0, 8, 8]))).toEqual(Array.from(await fresh.readFloat('cog/x.tif', [0, 0, 8, 8])));
  });
});

describe('FetchSource: a 206 whose body is shorter than its Content-Range', () => {
  const file = new Uint8Array(Array.from({ length: 100 }, (_, i) => i));
  /** A host whose first answers to a range carry the right Content-Range and an empty body (as Chromium's HTTP cache gave for a range held in part), until asked with `cache: 'no-store'` or after `bad` such answers. */
  function flakyCache(bad: number) {
    const seen: Array<RequestCache | undefined> = [];
    let left = bad;
    const fetch = (async (_url: string, init?: RequestInit) => {
      seen.push(init?.cache);
      const m = /bytes=(\d+)-(\d+)/.exec((init?.headers as Record<string, string>).Range)!;
      const a = Number(m[1]), b = Math.min(Number(m[2]), file.length - 1);
      const empty = init?.cache !== 'no-store' || left-- > 1;
      return new Response(empty ? new Uint8Array(0) : file.slice(a, b + 1), { status: 206, headers: { 'Content-Range': `bytes ${a}-${b}/${file.length}` } });
    }) as typeof globalThis.fetch;
    return { fetch, seen };
  }

  it('asks again without the HTTP cache and returns the bytes', async () => {
    const h = flakyCache(1);
    const got = new Uint8Array(await new FetchSource('http://x/a.tif', { fetch: h.fetch }).getBytes(10, 5));
    expect([...got]).toEqual([10, 11, 12, 13, 14]);
    expect(h.seen).toEqual([undefined, 'no-store']);
  });

  it('fails with IO naming the range when the second answer is short too', async () => {
    const h = flakyCache(2);
    await expect(new FetchSource('http://x/a.tif', { fetch: h.fetch }).getBytes(10, 5)).rejects.toMatchObject({ code: 'IO', message: expect.stringContaining('bytes 10-14') });
  });

  it('bodyMatches: Content-Range decides; without it a non-empty body up to the length (end of file)', () => {
    expect(bodyMatches(5, 'bytes 10-14/100', 10, 5)).toBe(true);
    expect(bodyMatches(0, 'bytes 10-14/100', 10, 5)).toBe(false);
    expect(bodyMatches(5, 'bytes 11-15/100', 10, 5)).toBe(false);
    expect(bodyMatches(3, 'bytes 97-99/100', 97, 5)).toBe(true); // cut at the end of the file
    expect(bodyMatches(3, null, 97, 5)).toBe(true);
    expect(bodyMatches(0, null, 10, 5)).toBe(false);
    expect(bodyMatches(6, null, 10, 5)).toBe(false);
  });
});
