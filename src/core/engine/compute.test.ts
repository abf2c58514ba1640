import { describe, expect, it } from 'vitest';
import { blockIndex, groupClass, listFrame } from './compute';
import { countGroups, withCellLists } from './accumulate';

describe('blockIndex', () => {
  it('gives block x slots for selected countries, -1 for others, zero weights and unmasked cells', () => {
    const iso = new Int32Array([1, 2, 3, -1, 1, 1]);
    const isoBlock = new Int32Array([-1, 0, 1, -1]);
    expect(Array.from(blockIndex(iso, isoBlock, null, null, 10))).toEqual([0, 10, -1, -1, 0, 0]);
    const weight = new Float32Array([1, 1, 1, 1, 0, 0.5]);
    const mask = new Uint8Array([1, 0, 1, 1, 1, 1]);
    expect(Array.from(blockIndex(iso, isoBlock, weight, mask, 10))).toEqual([0, -1, -1, -1, -1, 0]);
  });
});

describe('groupClass', () => {
  it('adds the class group; a cell without a class goes to the NA group (n), or is dropped when filtered', () => {
    const base = new Int32Array([0, 0, 5, -1]);
    const cls = new Int32Array([7, 9, -1, 7]);
    const lut = new Int32Array(10).fill(-1);
    lut[7] = 0; lut[8] = 1;
    const g = new Int32Array(4);
    groupClass(base, cls, lut, false, 2, g);
    expect(Array.from(g)).toEqual([0, 2, 7, -1]);
    groupClass(base, cls, lut, true, 2, g);
    expect(Array.from(g)).toEqual([0, -1, -1, -1]);
  });
});

describe('listFrame (the cold path: two passes)', () => {
  it.each([false, true])('gives the frame and cell lists of blockIndex, groupClass, countGroups and withCellLists (filtered %s)', (filtered) => {
    let seed = 5;
    const rnd = (m: number) => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) % m);
    const N = 5000, C = 3, n = 6, S = n + 1;
    const iso = Int32Array.from({ length: N }, () => rnd(7) - 1); // -1..5
    const isoBlock = new Int32Array([-1, 0, 1, 2, -1]); // 5: past the table
    const cls = Int32Array.from({ length: N }, () => rnd(12) - 1); // -1..10; 9, 10 past the lut
    const lut = Int32Array.from({ length: 9 }, (_, v) => (v === 4 ? -1 : v < 4 ? v : v - 3));
    const g = new Int32Array(N);
    groupClass(blockIndex(iso, isoBlock, null, null, S), cls, lut, filtered, n, g);
    const want = withCellLists(countGroups(g, null, C, S));
    const got = listFrame(iso, isoBlock, S, C, { cls, lut, filtered, n });
    expect(Array.from(got.sel)).toEqual(Array.from(want.sel));
    expect(Array.from(got.groupN)).toEqual(Array.from(want.groupN));
    expect(Array.from(got.lists!.off)).toEqual(Array.from(want.lists!.off));
    expect(Array.from(got.lists!.idx)).toEqual(Array.from(want.lists!.idx));
    expect([got.C, got.S, got.weight]).toEqual([C, S, null]);
  });

  it('without a by: one group per summary block', () => {
    const iso = new Int32Array([1, 2, 3, -1, 1, 1, 9]);
    const isoBlock = new Int32Array([-1, 0, 1, -1]);
    const want = withCellLists(countGroups(blockIndex(iso, isoBlock, null, null, 1), null, 2, 1));
    const got = listFrame(iso, isoBlock, 1, 2, null);
    expect(Array.from(got.sel)).toEqual(Array.from(want.sel));
    expect(Array.from(got.groupN)).toEqual(Array.from(want.groupN));
    expect(Array.from(got.lists!.idx)).toEqual(Array.from(want.lists!.idx));
    expect(Array.from(got.lists!.off)).toEqual(Array.from(want.lists!.off));
  });
});
