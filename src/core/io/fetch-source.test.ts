// FetchSource with checkEtag over an in-memory host whose file is republished mid-read: the
// read that would mix versions fails with BUNDLE_CHANGED, and the COG store re-opens the file.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CogStore } from '../cog/store';
import { FetchSource, fetchSourceFactory } from './fetch-source';

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
    const store = new CogStore({ source: fetchSourceFactory('http://host/', { fetch: h.fetch, checkEtag: true }) });
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
