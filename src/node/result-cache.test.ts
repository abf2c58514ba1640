import { expect, test } from 'vitest';
import type { CallOutput, MethodCall, MethodRunner } from '../contract/run';
import { IndapiError } from '../core/errors';
import { cachedRunner, callKey, MAX_KEY_SOURCE_BYTES } from './result-cache';

function call(args: Record<string, unknown>, method = 'indapi'): MethodCall {
  return { method, args, source: `${method}()`, requestUrl: 'http://x/ocpu/library/indapi3/R/indapi/json', now: new Date().toISOString() };
}

/** A fixture runner: counts runs, answers after `release()` (or at once), honours the signal. */
function fakeRunner() {
  let runs = 0;
  const aborted: string[] = [];
  const pending: Array<() => void> = [];
  let hold = false;
  const runner: MethodRunner = {
    inline: new Set(['category']),
    run(c, signal) {
      runs++;
      return new Promise<CallOutput>((resolve, reject) => {
        const done = () => {
          if (c.args.fail) reject(new IndapiError('BAD_ARGUMENT', 'fixture failure'));
          else resolve({ value: { n: runs, args: c.args }, print: 'x', valueBytes: 10, files: [{ name: 'a.tif', mediaType: 'image/tiff', bytes: new Uint8Array(Number(c.args.bytes ?? 4)) }] });
        };
        signal.addEventListener('abort', () => { aborted.push(String(c.args.var)); reject(new IndapiError('ABORTED', 'aborted')); }, { once: true });
        if (hold) pending.push(done);
        else done();
      });
    },
  };
  return { runner, runs: () => runs, aborted, hold: (h: boolean) => (hold = h), release: () => pending.splice(0).forEach((f) => f()) };
}

test('the key does not depend on the order of arguments, and does on values, method, URL and bundle', () => {
  const a = callKey(call({ var: 'ELEVATION', by: ['ISO3', 'ADM1'] }));
  expect(a).toMatch(/^[0-9a-f]{64}$/);
  expect(callKey(call({ by: ['ISO3', 'ADM1'], var: 'ELEVATION' }))).toBe(a);
  expect(callKey(call({ var: 'ELEVATION', by: ['ADM1', 'ISO3'] }))).not.toBe(a);
  expect(callKey(call({ var: 'ELEVATION', by: ['ISO3', 'ADM1'] }, 'getLayer'))).not.toBe(a);
  expect(callKey({ ...call({ var: 'ELEVATION', by: ['ISO3', 'ADM1'] }), requestUrl: 'http://y/' })).not.toBe(a);
  expect(callKey(call({ var: 'ELEVATION', by: ['ISO3', 'ADM1'] }), 'other bundle')).not.toBe(a);
  expect(callKey({ ...call({ var: 'ELEVATION', by: ['ISO3', 'ADM1'] }), now: '2000-01-01T00:00:00Z' })).toBe(a); // the time is not part of it
  expect(callKey(call({ wkt: 'x'.repeat(MAX_KEY_SOURCE_BYTES) }))).toBeUndefined();
});

test('a repeated call is computed once; its later answers come from the cache', async () => {
  const f = fakeRunner();
  const r = cachedRunner(f.runner, { maxBytes: 1 << 20 });
  const one = await r.run(call({ var: 'A' }), new AbortController().signal);
  const two = await r.run(call({ var: 'A' }), new AbortController().signal);
  expect(two).toBe(one);
  expect(f.runs()).toBe(1);
  await r.run(call({ var: 'B' }), new AbortController().signal);
  expect(f.runs()).toBe(2);
  expect(r.stats()).toMatchObject({ hits: 1, misses: 2, entries: 2 });
  expect(r.inline).toBe(f.runner.inline);
});

test('calls arriving while the first runs join it (single flight)', async () => {
  const f = fakeRunner();
  f.hold(true);
  const r = cachedRunner(f.runner, { maxBytes: 1 << 20 });
  const ps = Array.from({ length: 5 }, () => r.run(call({ var: 'A' }), new AbortController().signal));
  await expect.poll(() => f.runs()).toBe(1);
  f.release();
  const outs = await Promise.all(ps);
  expect(new Set(outs).size).toBe(1);
  expect(f.runs()).toBe(1);
  expect(r.stats()).toMatchObject({ joined: 4, misses: 1 });
});

test('errors are not cached: the next call runs again', async () => {
  const f = fakeRunner();
  const r = cachedRunner(f.runner, { maxBytes: 1 << 20 });
  await expect(r.run(call({ var: 'A', fail: true }), new AbortController().signal)).rejects.toThrow('fixture failure');
  await expect(r.run(call({ var: 'A', fail: true }), new AbortController().signal)).rejects.toThrow('fixture failure');
  expect(f.runs()).toBe(2);
  expect(r.stats().entries).toBe(0);
});

test('a caller that leaves stops waiting at once; the work stops only when every caller has left', async () => {
  const f = fakeRunner();
  f.hold(true);
  const r = cachedRunner(f.runner, { maxBytes: 1 << 20 });
  const a = new AbortController(), b = new AbortController();
  const pa = r.run(call({ var: 'A' }), a.signal);
  const pb = r.run(call({ var: 'A' }), b.signal);
  a.abort();
  await expect(pa).rejects.toMatchObject({ code: 'ABORTED' });
  expect(f.aborted).toEqual([]); // b still waits: the shared run goes on
  b.abort();
  await expect(pb).rejects.toMatchObject({ code: 'ABORTED' });
  expect(f.aborted).toEqual(['A']);
  // the abandoned run is forgotten: a new caller starts afresh
  f.hold(false);
  await expect(r.run(call({ var: 'A' }), new AbortController().signal)).resolves.toMatchObject({ value: { n: 2 } });
});

test('an output over an eighth of the cache is not kept; with 0 bytes nothing is', async () => {
  const f = fakeRunner();
  const r = cachedRunner(f.runner, { maxBytes: 8000 });
  await r.run(call({ var: 'A', bytes: 2000 }), new AbortController().signal);
  await r.run(call({ var: 'A', bytes: 2000 }), new AbortController().signal);
  expect(f.runs()).toBe(2);
  const off = cachedRunner(f.runner, { maxBytes: 0 });
  await off.run(call({ var: 'B' }), new AbortController().signal);
  await off.run(call({ var: 'B' }), new AbortController().signal);
  expect(f.runs()).toBe(4);
});

test('the cache is bounded in bytes: least recently used outputs go first', async () => {
  const f = fakeRunner();
  const r = cachedRunner(f.runner, { maxBytes: 8 * 900 });
  for (const v of ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J']) await r.run(call({ var: v, bytes: 500 }), new AbortController().signal);
  expect(r.stats().bytes).toBeLessThanOrEqual(8 * 900);
  expect(r.stats().entries).toBeLessThan(10);
  const before = f.runs();
  await r.run(call({ var: 'J', bytes: 500 }), new AbortController().signal); // the newest is kept
  expect(f.runs()).toBe(before);
  await r.run(call({ var: 'A', bytes: 500 }), new AbortController().signal); // the oldest went
  expect(f.runs()).toBe(before + 1);
});
