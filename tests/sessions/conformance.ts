/**
 * The session store conformance suite: the same cases on every store (memory, disk,
 * IndexedDB, Redis), each under the shared lifecycle. A store's test file calls
 * {@link sessionConformance} with a factory.
 */
import { createHash } from 'node:crypto';
import { expect, test } from 'vitest';
import { isIndapiError } from '../../src/core/errors';
import { statusOf } from '../../src/contract/status';
import { newSessionKey, type SessionData, type SessionStore } from '../../src/contract/sessions';

/** Limits a case asks of a new store. */
export interface StoreLimits {
  ttlMs?: number;
  quotaBytes?: number;
  maxSessionBytes?: number;
}

/** How a test file makes its store. */
export interface StoreFactory {
  /** A new, empty store with these limits. */
  make(limits?: StoreLimits): Promise<SessionStore>;
  /**
   * Starts writing `data` and kills the writer in the middle (a process killed, a
   * connection cut, a transaction aborted); resolves when the writer is gone.
   */
  crashMidWrite(store: SessionStore, data: SessionData): Promise<void>;
  /** Sessions of about this many bytes each fill the quota of {@link make}'s `quotaBytes` (default 200 kB). */
  evictionSessionBytes?: number;
  /** Which sessions the quota deletes first: the least recently used (default), or the oldest (Redis' volatile-ttl). */
  evicts?: 'least-recently-used' | 'oldest';
}

const enc = new TextEncoder();

/** sha256 hex of bytes (compares large files quickly). */
export const digest = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** A session with a value, print, two files, a graphic and a given payload size (bytes of the first file). */
export function sampleSession(payloadBytes = 1000, created = new Date()): SessionData {
  const big = new Uint8Array(payloadBytes);
  for (let i = 0; i < big.length; i++) big[i] = (i * 31 + 7) & 0xff;
  return {
    key: newSessionKey(),
    created: created.toISOString(),
    method: 'indapi',
    source: 'indapi(var = "ELEVATION", iso3 = "KEN")',
    value: [{ NAME: 'Nairobi', ELEVATION: 1661.5 }, { NAME: 'Kisumu', ELEVATION: 1131 }],
    print: '     NAME ELEVATION\n1 Nairobi    1661.5\n2  Kisumu    1131.0',
    warnings: ['one warning'],
    messages: [],
    info: 'Runtime: test',
    files: [
      { name: 'data.bin', mediaType: 'application/octet-stream', bytes: big },
      { name: 'a.csv', mediaType: 'text/csv', bytes: enc.encode('NAME,ELEVATION\nNairobi,1661.5\n') },
    ],
    graphics: [{ svg: '<svg xmlns="http://www.w3.org/2000/svg"/>', png: new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]) }],
    zipName: 'ELEVATION-KEN.csv.zip',
  };
}

/** Every part of a session read back, for whole-or-nothing comparisons. */
export async function readWhole(s: SessionStore, key: string) {
  const meta = await s.get(key);
  if (!meta) return undefined;
  const files = await Promise.all(meta.files.map((f) => s.readFile(key, f.name)));
  const graphics = await Promise.all(Array.from({ length: meta.graphics }, (_x, i) => s.readGraphic(key, i + 1)));
  return {
    meta: { ...meta, zipBytes: undefined },
    value: await s.readValue(key),
    print: await s.readPrint(key),
    files: files.map((f) => f && { name: f.name, mediaType: f.mediaType, sha256: digest(f.bytes) }),
    graphics: graphics.map((g) => g && { svg: g.svg, png: Array.from(g.png) }),
  };
}

/** What {@link readWhole} must give for `d`. */
function expectedWhole(d: SessionData) {
  return {
    value: { value: d.value },
    print: d.print,
    files: d.files.map((f) => ({ name: f.name, mediaType: f.mediaType, sha256: digest(f.bytes) })),
    graphics: d.graphics.map((g) => ({ svg: g.svg, png: Array.from(g.png) })),
  };
}

/** Registers the conformance cases for one store. */
export function sessionConformance(name: string, f: StoreFactory): void {
  test(`${name}: create, then read every sub-resource back`, async () => {
    const s = await f.make();
    const d = sampleSession(5000);
    await s.put(d);
    const m = await s.get(d.key);
    expect(m).toMatchObject({ key: d.key, created: d.created, method: 'indapi', source: d.source, warnings: ['one warning'], info: 'Runtime: test', graphics: 1, zipName: d.zipName });
    expect(m!.files).toEqual([
      { name: 'data.bin', mediaType: 'application/octet-stream', size: 5000 },
      { name: 'a.csv', mediaType: 'text/csv', size: d.files[1].bytes.byteLength },
    ]);
    expect(await readWhole(s, d.key)).toMatchObject(expectedWhole(d));
    expect(await s.readFile(d.key, 'missing.csv')).toBeUndefined();
    expect(await s.readGraphic(d.key, 2)).toBeUndefined();
    expect(await s.list()).toContain(d.key);
    expect(await s.readZip!(d.key)).toBeUndefined();
    const zip = enc.encode('PK-zip-bytes');
    await s.putZip!(d.key, zip);
    expect(Array.from((await s.readZip!(d.key))!)).toEqual(Array.from(zip));
    expect((await s.get(d.key))!.zipBytes).toBe(zip.byteLength);
    await s.delete(d.key);
    expect(await s.get(d.key)).toBeUndefined();
    expect(await s.readValue(d.key)).toBeUndefined();
    expect(await s.readFile(d.key, 'a.csv')).toBeUndefined();
    expect(await s.list()).not.toContain(d.key);
    const other = newSessionKey();
    expect(await s.get(other)).toBeUndefined();
    expect(await s.readPrint(other)).toBeUndefined();
  });

  test(`${name}: the ZIP is kept once; concurrent builders all read the first kept bytes`, async () => {
    const s = await f.make();
    const d = sampleSession(100);
    await s.put(d);
    const zips = [1, 2, 3, 4].map((i) => enc.encode(`zip number ${i}`));
    await Promise.all(zips.map((z) => s.putZip!(d.key, z)));
    const kept = Array.from((await s.readZip!(d.key))!);
    expect(zips.map((z) => Array.from(z))).toContainEqual(kept);
    await s.putZip!(d.key, enc.encode('a later, different zip'));
    expect(Array.from((await s.readZip!(d.key))!)).toEqual(kept);
    expect((await s.get(d.key))!.zipBytes).toBe(kept.length);
  });

  test(`${name}: a session past its lifetime reads as missing and goes at cleanup`, async () => {
    const ttlMs = 60_000;
    const s = await f.make({ ttlMs });
    const old = sampleSession(100, new Date(Date.now() - 2 * ttlMs));
    const fresh = sampleSession(100);
    await s.put(old);
    await s.put(fresh);
    expect(await s.get(old.key)).toBeUndefined();
    expect(await s.readValue(old.key)).toBeUndefined();
    expect(await s.readFile(old.key, 'a.csv')).toBeUndefined();
    await s.cleanup!();
    expect(await s.list()).not.toContain(old.key);
    expect(await s.get(fresh.key)).toBeDefined();
  });

  test(`${name}: past the quota the ${f.evicts ?? 'least-recently-used'} sessions go`, async () => {
    const lru = (f.evicts ?? 'least-recently-used') === 'least-recently-used';
    const each = f.evictionSessionBytes ?? 200_000;
    const s = await f.make({ quotaBytes: each * 4, maxSessionBytes: each * 2 });
    const keys: string[] = [];
    for (let i = 0; i < 12; i++) {
      const d = sampleSession(each);
      await s.put(d);
      keys.push(d.key);
      if (lru && i >= 1) expect(await s.get(keys[1])).toBeDefined(); // the second session stays recently used
    }
    const alive = await Promise.all(keys.map(async (k) => !!(await s.get(k))));
    expect(alive[0]).toBe(false);
    expect(alive[1]).toBe(lru);
    expect(alive[11]).toBe(true);
    expect(alive.filter(Boolean).length).toBeLessThanOrEqual(6);
    expect(await readWhole(s, keys[11])).toBeDefined();
  });

  test(`${name}: a session over the one-session cap is refused with a 400 and nothing is kept`, async () => {
    const s = await f.make({ quotaBytes: 4_000_000, maxSessionBytes: 50_000 });
    const d = sampleSession(60_000);
    const e = await s.put(d).then(() => undefined, (x: unknown) => x);
    expect(isIndapiError(e) && e.code).toBe('BAD_ARGUMENT');
    expect(statusOf(e)).toBe(400);
    expect(String((e as Error).message)).toMatch(/MB one session may keep/);
    expect(await s.get(d.key)).toBeUndefined();
    expect(await s.list()).not.toContain(d.key);
    const small = sampleSession(1000);
    await s.put(small);
    expect(await s.get(small.key)).toBeDefined();
  });

  test(`${name}: concurrent writers each store a whole session`, async () => {
    const s = await f.make();
    const ds = Array.from({ length: 24 }, (_x, i) => sampleSession(1000 + i * 97));
    await Promise.all(ds.map((d) => s.put(d)));
    const back = await Promise.all(ds.map((d) => readWhole(s, d.key)));
    back.forEach((b, i) => expect(b).toMatchObject(expectedWhole(ds[i])));
  });

  test(`${name}: a writer killed mid-write leaves nothing; readers meanwhile see all or nothing`, async () => {
    const s = await f.make({ quotaBytes: 64_000_000, maxSessionBytes: 16_000_000 });
    const d = sampleSession(1_500_000);
    const seen: Array<'none' | 'whole' | 'half'> = [];
    let stop = false;
    const want = expectedWhole(d);
    const reader = (async () => {
      while (!stop) {
        const w = await readWhole(s, d.key).catch(() => undefined);
        if (!w) seen.push('none');
        else seen.push(JSON.stringify([w.value, w.print, w.files, w.graphics]) === JSON.stringify([want.value, want.print, want.files, want.graphics]) ? 'whole' : 'half');
        await new Promise((r) => setTimeout(r, 2));
      }
    })();
    await f.crashMidWrite(s, d);
    stop = true;
    await reader;
    expect(seen).not.toContain('half');
    expect(await s.get(d.key)).toBeUndefined();
    expect(await s.readFile(d.key, 'data.bin')).toBeUndefined();
    // a whole write of a big session, read concurrently: never half
    const d2 = sampleSession(1_000_000);
    const want2 = expectedWhole(d2);
    const polls: boolean[] = [];
    const put = s.put(d2);
    for (let i = 0; i < 20; i++) {
      const w = await readWhole(s, d2.key);
      if (w) polls.push(JSON.stringify(w.files) === JSON.stringify(want2.files));
    }
    await put;
    expect(polls.every(Boolean)).toBe(true);
    expect(await readWhole(s, d2.key)).toMatchObject(want2);
  });
}
