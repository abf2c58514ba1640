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

test('the live map\'s code waits for the preview (releaseLiveMap), at most the fallback delay', async () => {
  vi.useFakeTimers();
  try {
    let released = false;
    void m.liveMapReleased(5000).then(() => { released = true; });
    await vi.advanceTimersByTimeAsync(4000);
    expect(released).toBe(false);
    m.releaseLiveMap();
    m.releaseLiveMap(); // idempotent
    await vi.advanceTimersByTimeAsync(0);
    expect(released).toBe(true);
    vi.resetModules();
    const fresh = await import('./first-map');
    let late = false;
    void fresh.liveMapReleased(5000).then(() => { late = true; });
    await vi.advanceTimersByTimeAsync(5100);
    expect(late).toBe(true); // a preview that never draws holds nothing back for long
  } finally {
    vi.useRealTimers();
  }
});

test('a run asked for before the live map holds its code back until it ends (at most maxMs); after the release, holding does nothing', async () => {
  vi.useFakeTimers();
  try {
    let released = false;
    void m.liveMapReleased(60_000).then(() => { released = true; });
    let end!: () => void;
    m.holdLiveMap(new Promise<void>((res) => (end = res)), 10_000);
    m.releaseLiveMap(); // the preview is drawn
    await vi.advanceTimersByTimeAsync(100);
    expect(released).toBe(false);
    end();
    await vi.advanceTimersByTimeAsync(0);
    expect(released).toBe(true);
    // a run that never ends holds it back at most maxMs
    vi.resetModules();
    const fresh = await import('./first-map');
    let late = false;
    void fresh.liveMapReleased(60_000).then(() => { late = true; });
    fresh.holdLiveMap(new Promise(() => undefined), 3000);
    fresh.releaseLiveMap();
    await vi.advanceTimersByTimeAsync(2900);
    expect(late).toBe(false);
    await vi.advanceTimersByTimeAsync(200);
    expect(late).toBe(true);
  } finally {
    vi.useRealTimers();
  }
});
