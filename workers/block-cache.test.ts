import { describe, expect, test } from 'vitest';
import { BlockCache, blockSpan, checkRangeResponse, RangeResponseError, type BlockStore, type FileRef, type IndexEntry } from './block-cache';

/** A made-up file (fixture): byte i = i mod 251. */
const fileBytes = (n: number) => Uint8Array.from({ length: n }, (_, i) => i % 251);
const FILE: FileRef = { path: 'cog/FIXTURE.tif', sha256: 'aa', bytes: 1000 };
const BODY = fileBytes(FILE.bytes);

function memStore(opts: { quotaBytes?: number } = {}) {
  const m = new Map<string, ArrayBuffer>();
  const store: BlockStore & { m: Map<string, ArrayBuffer> } = {
    m,
    async get(k) { return m.get(k); },
    async put(k, d) {
      const used = [...m.values()].reduce((s, b) => s + b.byteLength, 0);
      if (opts.quotaBytes !== undefined && used + d.byteLength > opts.quotaBytes) throw new DOMException('full', 'QuotaExceededError');
      m.set(k, d);
    },
    async delete(k) { m.delete(k); },
    async keys() { return [...m.keys()]; },
  };
  return store;
}

function setup(o: { budget?: number; quotaBytes?: number; online?: () => boolean; body?: Uint8Array } = {}) {
  const store = memStore({ quotaBytes: o.quotaBytes });
  const calls: string[] = [];
  let t = 0;
  const quota: unknown[] = [];
  const cache = new BlockCache({
    store,
    blockSize: 100,
    budgetBytes: o.budget ?? 10_000,
    now: () => ++t,
    onQuota: (e) => quota.push(e),
    fetchRange: async (f, s, e) => {
      if (o.online && !o.online()) throw new TypeError('Failed to fetch');
      calls.push(`${f.path} ${s}-${e}`);
      return (o.body ?? BODY).slice(s, e + 1).buffer;
    },
  });
  return { cache, store, calls, quota };
}

describe('block cache', () => {
  test('block span of a byte range', () => {
    expect(blockSpan(0, 99, 100)).toEqual([0, 0]);
    expect(blockSpan(99, 100, 100)).toEqual([0, 1]);
    expect(blockSpan(250, 999, 100)).toEqual([2, 9]);
  });

  test('a range is fetched block-aligned once, then answered from the cache (also offline)', async () => {
    let online = true;
    const { cache, calls } = setup({ online: () => online });
    const first = await cache.read(FILE, 150, 420);
    expect(first.hit).toBe(false);
    expect(first.data).toEqual(BODY.slice(150, 421));
    expect(calls).toEqual(['cog/FIXTURE.tif 100-499']);
    online = false;
    const again = await cache.read(FILE, 160, 399);
    expect(again.hit).toBe(true);
    expect(again.data).toEqual(BODY.slice(160, 400));
    await expect(cache.read(FILE, 600, 700)).rejects.toThrow('Failed to fetch');
    expect(await cache.covers(FILE, 100, 499)).toBe(true);
    expect(await cache.covers(FILE, 100, 500)).toBe(false);
  });

  test('only the missing runs are fetched; the last block is cut at the end of the file', async () => {
    const { cache, calls } = setup();
    await cache.read(FILE, 200, 299);
    await cache.read(FILE, 500, 599);
    calls.length = 0;
    const r = await cache.read(FILE, 0, 5000);
    expect(r.data).toEqual(BODY);
    expect(calls).toEqual(['cog/FIXTURE.tif 0-199', 'cog/FIXTURE.tif 300-499', 'cog/FIXTURE.tif 600-999']);
    expect(cache.bytes).toBe(1000);
  });

  test('evicts least recently used blocks to stay within the budget', async () => {
    const { cache, store, calls } = setup({ budget: 300 });
    await cache.read(FILE, 0, 99); // block 0
    await cache.read(FILE, 100, 199); // block 1
    await cache.read(FILE, 200, 299); // block 2
    await cache.read(FILE, 0, 10); // touch block 0: block 1 is now the oldest
    await cache.read(FILE, 300, 399); // block 3 evicts block 1
    expect(cache.bytes).toBe(300);
    expect([...store.m.keys()].sort()).toEqual(['aa/0', 'aa/2', 'aa/3']);
    calls.length = 0;
    await cache.read(FILE, 0, 99);
    expect(calls).toEqual([]);
    await cache.setBudget(100);
    expect(cache.bytes).toBe(100);
    expect([...store.m.keys()]).toEqual(['aa/0']);
  });

  test('a full quota evicts and continues; when nothing can be stored, the read still succeeds and the failure is reported', async () => {
    const a = setup({ quotaBytes: 400 });
    await a.cache.read(FILE, 0, 399);
    const r = await a.cache.read(FILE, 400, 499);
    expect(r.data).toEqual(BODY.slice(400, 500));
    expect(a.quota).toHaveLength(0);
    expect(a.cache.bytes).toBeLessThanOrEqual(400);
    expect(await a.cache.covers(FILE, 400, 499)).toBe(true);
    const b = setup({ quotaBytes: 50 });
    const r2 = await b.cache.read(FILE, 0, 99);
    expect(r2.data).toEqual(BODY.slice(0, 100));
    expect(b.quota).toHaveLength(1);
    expect(b.cache.bytes).toBe(0);
    expect(b.store.m.size).toBe(0);
  });

  test('a quota eviction cannot satisfy: one block is given up, then nothing more is evicted, what is cached answers offline, reported once', async () => {
    const limits: { quotaBytes?: number } = { quotaBytes: 300 };
    const store = memStore(limits);
    const quota: unknown[] = [];
    let online = true;
    let t = 0;
    const cache = new BlockCache({
      store, blockSize: 100, budgetBytes: 10_000, now: () => ++t, onQuota: (e) => quota.push(e),
      fetchRange: async (_f, s, e) => { if (!online) throw new TypeError('Failed to fetch'); return BODY.slice(s, e + 1).buffer; },
    });
    await cache.read(FILE, 0, 299);
    expect(cache.bytes).toBe(300);
    limits.quotaBytes = 150; // other data now fills the origin: no block fits, even after evicting one
    const r = await cache.read(FILE, 300, 699);
    expect(r.data).toEqual(BODY.slice(300, 700));
    expect(quota).toHaveLength(1);
    expect(cache.bytes).toBe(200); // the least recently used block was tried, the rest stays
    expect([...store.m.keys()].sort()).toEqual(['aa/1', 'aa/2']);
    online = false;
    expect((await cache.read(FILE, 100, 299)).data).toEqual(BODY.slice(100, 300));
    // space freed (a budget change): blocks are stored again
    online = true;
    limits.quotaBytes = undefined;
    await cache.setBudget(10_000);
    await cache.read(FILE, 300, 399);
    expect(await cache.covers(FILE, 300, 399)).toBe(true);
    expect(quota).toHaveLength(1);
  });

  test('a file whose sha256 changed is fetched anew; retain drops blocks of files no longer in the manifest', async () => {
    const { cache, calls } = setup();
    await cache.read(FILE, 0, 99);
    const v2 = { ...FILE, sha256: 'bb' };
    calls.length = 0;
    await cache.read(v2, 0, 99);
    expect(calls).toEqual(['cog/FIXTURE.tif 0-99']);
    const other: FileRef = { path: 'cog/OTHER.tif', sha256: 'cc', bytes: 1000 };
    await cache.read(other, 0, 199);
    expect((await cache.usage()).map((u) => [u.path, u.sha256, u.bytes, u.blocks])).toEqual([
      ['cog/OTHER.tif', 'cc', 200, 2],
      ['cog/FIXTURE.tif', 'bb', 100, 1],
      ['cog/FIXTURE.tif', 'aa', 100, 1],
    ]);
    expect(await cache.retain(new Set(['bb', 'cc']))).toBe(100);
    expect(await cache.evictFile('cc')).toBe(200);
    expect(cache.bytes).toBe(100);
    expect(await cache.clear()).toBe(100);
    expect(cache.bytes).toBe(0);
  });

  test('the index persists; blocks the index does not know are dropped; a corrupted block is refetched', async () => {
    const saved: IndexEntry[][] = [];
    const store = memStore();
    const mk = () => new BlockCache({
      store, blockSize: 100, fetchRange: async (_f, s, e) => BODY.slice(s, e + 1).buffer,
      index: { load: async () => saved.at(-1), save: async (e) => void saved.push(e) },
    });
    const c1 = mk();
    await c1.read(FILE, 0, 199);
    await c1.flush();
    store.m.set('zz/0', new ArrayBuffer(10)); // orphan
    store.m.set('aa/1', new ArrayBuffer(3)); // truncated
    const c2 = mk();
    await c2.init();
    expect(c2.bytes).toBe(200);
    expect(store.m.has('zz/0')).toBe(false);
    const r = await c2.read(FILE, 100, 199);
    expect(r.hit).toBe(false);
    expect(r.data).toEqual(BODY.slice(100, 200));
    expect(store.m.get('aa/1')!.byteLength).toBe(100);
  });
});

describe('range answers from the network', () => {
  test('206 with the expected Content-Range passes; 200 (no range support), wrong size and errors fail', () => {
    expect(() => checkRangeResponse(206, 'bytes 0-99/1000', FILE, 0, 99)).not.toThrow();
    expect(() => checkRangeResponse(206, 'bytes 900-999/1000', FILE, 900, 1099)).not.toThrow();
    const kind = (f: () => void) => { try { f(); } catch (e) { return e instanceof RangeResponseError ? e.kind : 'other'; } return 'ok'; };
    expect(kind(() => checkRangeResponse(200, null, FILE, 0, 99))).toBe('NO_RANGES');
    expect(kind(() => checkRangeResponse(206, null, FILE, 0, 99))).toBe('NO_RANGES');
    expect(kind(() => checkRangeResponse(206, 'bytes 0-99/2000', FILE, 0, 99))).toBe('SIZE');
    expect(kind(() => checkRangeResponse(404, null, FILE, 0, 99))).toBe('HTTP');
  });
});
