import { mkdtempSync, promises as fsp, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { newSessionKey, type SessionData } from '../contract/sessions';
import { createDiskSessionStore, isSafeFileName } from './disk-sessions';

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
