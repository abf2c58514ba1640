import { describe, expect, it } from 'vitest';
import type { RasterLevel } from '../../src/core/map/mercator';
import { changeLayer } from './change-layer';
import type { CogLayer } from './layers';

/** A layer of fixed levels (values per level), counting reads. */
function fixed(code: string, levels: number[][], cellDeg = [1, 2]): CogLayer & { reads: number } {
  const read = new Map<number, RasterLevel>();
  const mk = (i: number): RasterLevel => ({ width: levels[i].length, height: 1, bbox: [0, 0, 2, 1], values: new Float32Array(levels[i]) });
  const l = {
    code, levelCellDeg: cellDeg, reads: 0,
    level: async (i: number) => { l.reads++; const x = mk(i); read.set(i, x); return x; },
    peek: (i: number) => read.get(i),
    loaded: () => [...read.keys()],
    bytes: () => 0,
  };
  return l;
}

describe('the change layer of two years', () => {
  it('level i is the per-cell change of both years at level i, computed once', async () => {
    const a = fixed('A_2000', [[10, 0], [5]]), b = fixed('A_2010', [[15, 3], [4]]);
    const c = changeLayer('change~pct~A_2000~A_2010', a, b, 'pct');
    expect(c.peek(0)).toBeUndefined();
    const l0 = await c.level(0);
    expect([...l0.values]).toEqual([50, NaN]); // no % change from 0
    expect(await c.level(0)).toBe(l0);
    expect(a.reads).toBe(1);
    expect([...(await c.level(1)).values]).toEqual([-20]);
    expect(c.loaded().sort()).toEqual([0, 1]);
    expect(c.bytes()).toBe(3 * 8);
  });

  it('peek computes from levels both years have read, and never starts a read', async () => {
    const a = fixed('A_2000', [[1, 2], [1]]), b = fixed('A_2010', [[2, 2], [1]]);
    const c = changeLayer('k', a, b, 'diff');
    await a.level(0);
    expect(c.peek(0)).toBeUndefined();
    await b.level(0);
    expect([...c.peek(0)!.values]).toEqual([1, 0]);
    expect(a.reads + b.reads).toBe(2);
  });

  it('peek answers the level a read computed (the same object), and nothing while it is pending', async () => {
    const a = fixed('A_2000', [[1, 2]], [1]), b = fixed('A_2010', [[3, 5]], [1]);
    const c = changeLayer('k', a, b, 'diff');
    const p = c.level(0);
    expect(c.bytes()).toBe(0); // nothing computed yet
    const l = await p;
    expect(c.peek(0)).toBe(l);
    expect(c.bytes()).toBe(2 * 8);
    expect(a.reads + b.reads).toBe(2);
  });

  it('a failed read is dropped, so the next call reads again', async () => {
    const a = fixed('A_2000', [[1, 2]], [1]), b = fixed('A_2010', [[3, 5]], [1]);
    let fail = true;
    const flaky: CogLayer = { ...b, level: async (i: number) => { if (fail) throw new Error('network'); return b.level(i); } };
    const c = changeLayer('k', a, flaky, 'pct');
    await expect(c.level(0)).rejects.toThrow('network');
    await new Promise((r) => setTimeout(r, 0));
    expect(c.loaded()).toEqual([]);
    fail = false;
    expect([...(await c.level(0)).values]).toEqual([200, 150]);
    expect(c.loaded()).toEqual([0]);
  });

  it('two COGs with other levels are not one grid', () => {
    expect(() => changeLayer('k', fixed('A', [[1]], [1, 2]), fixed('B', [[1]], [1, 4]), 'diff')).toThrow(/not on the same grid/);
  });
});
