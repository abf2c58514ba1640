import { describe, expect, it } from 'vitest';
import { blockIndex, groupClass } from './compute';

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
