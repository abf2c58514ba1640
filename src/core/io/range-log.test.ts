import { describe, expect, test } from 'vitest';
import { mergeRanges, RangeLog, storeRanges, type ReadRange } from './range-log';

describe('mergeRanges', () => {
  test('merges overlapping and touching ranges per URL, keeps gaps and other URLs apart', () => {
    const got = mergeRanges([['b', 0, 9], ['a', 20, 29], ['a', 0, 9], ['a', 10, 15], ['a', 14, 18], ['b', 11, 12]]);
    expect(got).toEqual([['a', 0, 18], ['a', 20, 29], ['b', 0, 9], ['b', 11, 12]]);
  });
});

describe('RangeLog', () => {
  test('records closed Range requests answered 206 for wanted URLs only', async () => {
    const answers: Record<string, number> = { 'http://h/data/cog/A.tif': 206, 'http://h/data/vi.csv': 200, 'http://h/data/cog/B.tif': 500 };
    const inner = (async (input: RequestInfo | URL) => new Response('x', { status: answers[String(input)] ?? 206 })) as typeof fetch;
    const log = new RangeLog((u) => u.includes('/cog/'));
    const f = log.wrap(inner);
    await f('http://h/data/cog/A.tif', { headers: { Range: 'bytes=0-99' } });
    await f('http://h/data/cog/A.tif', { headers: { Range: 'bytes=100-199' } });
    await f('http://h/data/cog/A.tif', { headers: { Range: 'bytes=500-' } }); // open: not recorded
    await f('http://h/data/cog/B.tif', { headers: { Range: 'bytes=0-9' } }); // failed
    await f('http://h/data/vi.csv');
    await f(new Request('http://h/data/cog/C.tif', { headers: { Range: 'bytes=5-6' } }));
    expect(log.take()).toEqual([['http://h/data/cog/A.tif', 0, 199], ['http://h/data/cog/C.tif', 5, 6]]);
  });
});

describe('storeRanges', () => {
  test('reads every range with its Range header, skipping failures', async () => {
    const seen: string[] = [];
    const doFetch = (async (url: string, init: RequestInit) => {
      const h = new Headers(init.headers).get('range')!;
      seen.push(`${url} ${h}`);
      if (url.endsWith('bad')) throw new TypeError('offline');
      return new Response('x', { status: 206 });
    }) as unknown as typeof fetch;
    const ranges: ReadRange[] = [['u1', 0, 9], ['bad', 0, 1], ['u2', 5, 7]];
    expect(await storeRanges(ranges, undefined, 2, doFetch)).toBe(2);
    expect(seen.sort()).toEqual(['bad bytes=0-1', 'u1 bytes=0-9', 'u2 bytes=5-7']);
  });
});
