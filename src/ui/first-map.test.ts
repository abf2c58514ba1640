import { beforeEach, expect, test, vi } from 'vitest';

type Mod = typeof import('./first-map');
let m: Mod;
beforeEach(async () => {
  vi.resetModules();
  m = await import('./first-map');
});

test('waits for the first map, then resolves', async () => {
  let done = false;
  const p = m.afterFirstMap(undefined, 60_000).then(() => { done = true; });
  await new Promise((r) => setTimeout(r, 20));
  expect(done).toBe(false);
  expect(m.firstMapDrawn()).toBe(false);
  m.markFirstMap();
  m.markFirstMap(); // idempotent
  await p;
  expect(done).toBe(true);
  expect(m.firstMapDrawn()).toBe(true);
});

test('resolves at once (after an idle moment) once the map was drawn', async () => {
  m.markFirstMap();
  await expect(m.afterFirstMap()).resolves.toBeUndefined();
});

test('gives up waiting for a map that is never drawn after the fallback delay', async () => {
  vi.useFakeTimers();
  try {
    const p = m.afterFirstMap(undefined, 1000);
    await vi.advanceTimersByTimeAsync(1100);
    await expect(p).resolves.toBeUndefined();
  } finally {
    vi.useRealTimers();
  }
});

test('rejects when aborted', async () => {
  const ac = new AbortController();
  const p = m.afterFirstMap(ac.signal, 60_000);
  ac.abort(new Error('gone'));
  await expect(p).rejects.toThrow('gone');
});
