import { mkdtempSync, promises as fsp, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { newSessionKey, type SessionData } from '../contract/sessions';
import { createDiskSessionStore, isSafeFileName, SMALL_SESSION_CHARS } from './disk-sessions';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'indapi3-disk-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const enc = new TextEncoder();
function session(created = new Date(), files = [{ name: 'a.csv', mediaType: 'text/csv', bytes: enc.encode('x,y\n1,2\n') }]): SessionData {
  return {
    key: newSessionKey(),
    created: created.toISOString(),
    method: 'indapi',
    source: 'indapi(var = "ELEVATION")',
    value: [{ ELEVATION: 1 }],
    print: '  ELEVATION\n1         1',
    warnings: [],
    messages: [],
    info: 'info',
    files,
    graphics: [{ svg: '<svg/>', png: new Uint8Array([137, 80, 78, 71]) }],
    zipName: 'ELEVATION-SSA.csv.zip',
  };
}

test('put then read back metadata, files and graphics', async () => {
  const s = createDiskSessionStore({ dir });
  const d = session();
  await s.put(d);
  const m = await s.get(d.key);
  expect(m?.files).toEqual([{ name: 'a.csv', mediaType: 'text/csv', size: 8 }]);
  expect(m?.graphics).toBe(1);
  expect(await s.readValue(d.key)).toEqual({ value: [{ ELEVATION: 1 }] });
  expect(await s.readPrint(d.key)).toBe(d.print);
  expect(new TextDecoder().decode((await s.readFile(d.key, 'a.csv'))!.bytes)).toBe('x,y\n1,2\n');
  expect((await s.readGraphic(d.key, 1))?.svg).toBe('<svg/>');
  expect(await s.readGraphic(d.key, 2)).toBeUndefined();
  expect(await s.list()).toEqual([d.key]);
  await s.delete(d.key);
  expect(await s.get(d.key)).toBeUndefined();
});

test('a failed write leaves nothing behind (atomic)', async () => {
  const s = createDiskSessionStore({ dir });
  const d = session();
  // A file whose bytes cannot be written: the write throws half-way.
  d.files.push({ name: 'b.csv', mediaType: 'text/csv', bytes: { byteLength: 1 } as unknown as Uint8Array });
  await expect(s.put(d)).rejects.toThrow();
  expect(readdirSync(dir)).toEqual([]);
  expect(await s.get(d.key)).toBeUndefined();
});

test('unsafe file names and keys are refused; reads never leave the session', async () => {
  const s = createDiskSessionStore({ dir });
  await expect(s.put(session(new Date(), [{ name: '../evil', mediaType: 'text/plain', bytes: enc.encode('x') }]))).rejects.toThrow(/Invalid file name/);
  const d = session();
  await s.put(d);
  await fsp.writeFile(path.join(dir, 'secret.txt'), 'secret');
  expect(await s.readFile(d.key, '../secret.txt')).toBeUndefined();
  expect(await s.readFile(d.key, '../../secret.txt')).toBeUndefined();
  expect(await s.get('../' + d.key)).toBeUndefined();
  expect(await s.get('x0' + 'g'.repeat(32))).toBeUndefined();
  for (const bad of ['', '.', '..', 'a/b', 'a\\b', 'a\0b']) expect(isSafeFileName(bad)).toBe(false);
  expect(isSafeFileName('getLayer-ELEVATION-KEN.csv')).toBe(true);
});

test('expired sessions are not found and cleanup deletes them and stale temp folders', async () => {
  const s = createDiskSessionStore({ dir, ttlMs: 1000 });
  const old = session(new Date(Date.now() - 5000));
  const fresh = session();
  await s.put(old);
  await s.put(fresh);
  expect(await s.get(old.key)).toBeUndefined();
  expect(await s.get(fresh.key)).toBeDefined();
  const stale = path.join(dir, `.tmp-${newSessionKey()}-abc`);
  await fsp.mkdir(stale);
  const past = new Date(Date.now() - 2 * 3600_000);
  await fsp.utimes(stale, past, past);
  const n = await s.cleanup();
  expect(n).toBeGreaterThanOrEqual(0);
  expect(readdirSync(dir).sort()).toEqual([fresh.key]);
  expect(await s.cleanup(new Date(Date.now() + 10_000))).toBe(1);
  expect(readdirSync(dir)).toEqual([]);
});

test('the quota evicts the least recently used sessions (issue 16, item 2)', async () => {
  const big = (n: number) => [{ name: 'a.csv', mediaType: 'text/csv', bytes: new Uint8Array(n) }];
  // 3 sessions of about 11 KB fit in 40 KB; a fourth evicts the least recently read.
  const s = createDiskSessionStore({ dir, quotaBytes: 40_000, maxSessionBytes: 20_000 });
  const [a, b, c, d] = [session(new Date(), big(10_000)), session(new Date(), big(10_000)), session(new Date(), big(10_000)), session(new Date(), big(10_000))];
  await s.put(a);
  await s.put(b);
  await s.put(c);
  expect(await s.get(a.key)).toBeDefined(); // a is now more recent than b
  await s.put(d);
  await expect.poll(() => readdirSync(dir).includes(b.key)).toBe(false);
  expect(readdirSync(dir).sort()).toEqual([a.key, c.key, d.key].sort());
  expect(await s.usedBytes()).toBeLessThanOrEqual(40_000);
  // One session over its own limit is refused with a message that points to a smaller request.
  await expect(s.put(session(new Date(), big(30_000)))).rejects.toThrow(/smaller area/);
});

test('the quota holds across a restart: the folder is indexed oldest first', async () => {
  const big = [{ name: 'a.csv', mediaType: 'text/csv', bytes: new Uint8Array(10_000) }];
  const first = createDiskSessionStore({ dir, quotaBytes: 40_000, maxSessionBytes: 20_000 });
  const old = session(new Date(), big);
  await first.put(old);
  const past = new Date(Date.now() - 60_000);
  await fsp.utimes(path.join(dir, old.key, 'meta.json'), past, past);
  const second = createDiskSessionStore({ dir, quotaBytes: 25_000, maxSessionBytes: 20_000 });
  const fresh = session(new Date(), big);
  await second.put(fresh);
  await second.put(session(new Date(), big));
  await expect.poll(() => readdirSync(dir).includes(old.key)).toBe(false);
  expect(readdirSync(dir)).toContain(fresh.key);
});

test('temporary folders of a killed server are removed at start, whatever their age (issue 16, item 6)', async () => {
  const dead = path.join(dir, `.tmp-999999999-${newSessionKey()}-abc`);
  const legacy = path.join(dir, `.tmp-${newSessionKey()}-abc`);
  const mine = path.join(dir, `.tmp-${process.pid}-${newSessionKey()}-abc`);
  for (const p of [dead, legacy, mine]) await fsp.mkdir(path.join(p, 'files'), { recursive: true });
  const s = createDiskSessionStore({ dir });
  await s.usedBytes(); // the folder has been read
  expect(readdirSync(dir)).toEqual([path.basename(mine)]); // a live process's write is left alone
});

test('metadata is kept apart from a large value: info and files never parse it; the ZIP is kept once built', async () => {
  const s = createDiskSessionStore({ dir });
  const d = session();
  d.value = Array.from({ length: 2000 }, (_, i) => ({ ELEVATION: i })); // over SMALL_SESSION_CHARS as JSON
  await s.put(d);
  expect(readdirSync(path.join(dir, d.key)).sort()).toEqual(['files', 'graphics', 'meta.json', 'print.txt', 'value.json']);
  expect(await fsp.readFile(path.join(dir, d.key, 'meta.json'), 'utf8')).not.toContain('"ELEVATION":1');
  await fsp.writeFile(path.join(dir, d.key, 'value.json'), '{ not json');
  expect((await s.get(d.key))?.info).toBe('info');
  expect(await s.readFile(d.key, 'a.csv')).toBeDefined();
  expect(await s.readPrint(d.key)).toBe(d.print);
  expect(await s.readZip(d.key)).toBeUndefined();
  await s.putZip(d.key, new Uint8Array([80, 75, 5, 6]));
  expect((await s.get(d.key))?.zipBytes).toBe(4);
  expect(await s.readZip(d.key)).toEqual(new Uint8Array([80, 75, 5, 6]));
});

test('a small session is one file: value and print inside meta.json, read back the same; get() does not show them', async () => {
  const s = createDiskSessionStore({ dir });
  const d = { ...session(), files: [], graphics: [] };
  expect(JSON.stringify(d.value).length + d.print.length).toBeLessThanOrEqual(SMALL_SESSION_CHARS);
  await s.put(d);
  expect(readdirSync(path.join(dir, d.key))).toEqual(['meta.json']);
  expect(await s.readValue(d.key)).toEqual({ value: [{ ELEVATION: 1 }] });
  expect(await s.readPrint(d.key)).toBe(d.print);
  const m = await s.get(d.key);
  expect(m && 'small' in m).toBe(false);
  expect(m?.files).toEqual([]);
  expect(await s.readFile(d.key, 'a.csv')).toBeUndefined();
  await s.putZip(d.key, new Uint8Array([80, 75, 5, 6])); // rewriting meta.json keeps the value
  expect(await s.readValue(d.key)).toEqual({ value: [{ ELEVATION: 1 }] });
  expect(await s.readPrint(d.key)).toBe(d.print);
});

test('the session folder removed under a running server is made again at the next put', async () => {
  const s = createDiskSessionStore({ dir });
  await s.put(session());
  rmSync(dir, { recursive: true, force: true });
  const d = session();
  await s.put(d);
  expect(await s.readValue(d.key)).toEqual({ value: [{ ELEVATION: 1 }] });
});

/** A session holding one file of `bytes` bytes. */
const sized = (bytes: number) => session(new Date(), [{ name: 'r.tif', mediaType: 'image/tiff', bytes: new Uint8Array(bytes) }]);

test('the quota is capped by the free space of the folder at start, and the cap is logged (issue 25 item 2)', async () => {
  const lines: string[] = [];
  const s = createDiskSessionStore({ dir, quotaBytes: 1024 * 1048576, freeBytes: () => 20 * 1048576, log: (l) => lines.push(l) });
  expect(lines).toEqual([expect.stringMatching(/quota of 1024\.0 MiB is capped to 18\.0 MiB: the file system of .* has 20\.0 MiB free/)]);
  // one session may take a quarter of the capped quota
  await expect(s.put(sized(5 * 1048576))).rejects.toMatchObject({ code: 'BAD_ARGUMENT', message: expect.stringContaining('4.5 MB one session may keep') });
  const quiet: string[] = [];
  createDiskSessionStore({ dir, quotaBytes: 1048576, freeBytes: () => 1e12, log: (l) => quiet.push(l) });
  expect(quiet).toEqual([]);
});

test('a full disk (ENOSPC): least recently used sessions go and the write is tried once more; else 503 Retry-After; recovers when space is back (issue 25 item 2)', async () => {
  let capacity = 2.5 * 1048576; // a small disk, as the injected writeFile counts it
  const usedOnDisk = async () => {
    let n = 0;
    const walk = async (p: string) => {
      for (const e of await fsp.readdir(p, { withFileTypes: true })) {
        if (e.isDirectory()) await walk(path.join(p, e.name));
        else n += (await fsp.stat(path.join(p, e.name))).size;
      }
    };
    await walk(dir);
    return n;
  };
  const writeFile = async (f: string, d: string | Uint8Array) => {
    if ((await usedOnDisk()) + d.length > capacity) throw Object.assign(new Error(`ENOSPC: no space left on device, write '${f}'`), { code: 'ENOSPC', errno: -28 });
    await fsp.writeFile(f, d);
  };
  const s = createDiskSessionStore({ dir, quotaBytes: 1024 * 1048576, maxSessionBytes: 64 * 1048576, freeBytes: () => 1e12, writeFile });
  const a = sized(1048576);
  const b = sized(1048576);
  const c = sized(1048576);
  await s.put(a);
  await s.put(b);
  await s.get(a.key); // a is now more recently used than b
  await s.put(c); // ENOSPC: b (least recently used) goes, then c is written
  expect(await s.get(b.key)).toBeUndefined();
  expect((await s.get(a.key))?.key).toBe(a.key);
  expect((await s.get(c.key))?.key).toBe(c.key);
  // another program fills the disk: evicting does not help, the call is told to come back
  capacity = 0;
  const err = await s.put(sized(1000)).catch((e: unknown) => e);
  expect(err).toMatchObject({ name: 'BusyError', retryAfterS: 30, message: "The server's disk is full, so the result could not be kept. Try again in 30 seconds." });
  expect(String((err as Error).message)).not.toMatch(/ENOSPC|errno/);
  expect(readdirSync(dir).filter((n) => n.startsWith('.tmp-'))).toEqual([]);
  // space is back: it works again, with nothing to reset
  capacity = 10 * 1048576;
  const d = sized(1048576);
  await s.put(d);
  expect((await s.get(d.key))?.key).toBe(d.key);
});

test('a call whose session cannot be kept for a full disk answers 503 with Retry-After and the plain message (issue 25 item 2)', async () => {
  const { createHandler } = await import('../contract/handler');
  const { createFakeEngine, fakeGenFile } = await import('../../tests/contract/fake-engine.fixture');
  const writeFile = async () => { throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }); };
  const handle = createHandler({ engine: createFakeEngine(), genFile: fakeGenFile, sessions: createDiskSessionStore({ dir, freeBytes: () => 1e12, writeFile }) });
  const r = await handle(new Request('http://localhost/ocpu/library/indapi3/R/describe', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"var": "ELEVATION"}' }));
  expect(r.status).toBe(503);
  expect(r.headers.get('retry-after')).toBe('30');
  expect(await r.text()).toBe("The server's disk is full, so the result could not be kept. Try again in 30 seconds.\n");
});
