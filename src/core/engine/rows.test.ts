import { describe, expect, it } from 'vitest';
import type { ColumnInfo } from '../api';
import type { BySpec, VarSpec } from './plan';
import { decode, fmtValue, keyOf, rankOf, withCells } from './rows';

const dim = (n: number, labels: string[], rank: number[]) => ({ n, labels, rank: Int32Array.from(rank) }) as unknown as BySpec;

describe('rows helpers', () => {
  it('decode splits a slot into per-dimension indices (each dimension n + 1 wide, NA last)', () => {
    const bys = [dim(2, ['a', 'b'], [0, 1]), dim(3, ['x', 'y', 'z'], [2, 0, 1])];
    // slot = i0 * 4 + i1
    expect(decode(bys, 0)).toEqual([0, 0]);
    expect(decode(bys, 7)).toEqual([1, 3]);
    expect(decode(bys, 10)).toEqual([2, 2]);
  });

  it('rankOf puts the NA group last; keyOf writes it as null', () => {
    const d = dim(3, ['x', 'y', 'z'], [2, 0, 1]);
    expect([0, 1, 2, 3].map((i) => rankOf(d, i))).toEqual([2, 0, 1, 3]);
    expect([0, 3].map((i) => keyOf(d, i))).toEqual(['x', null]);
  });

  it('fmtValue rounds numbers to the record decimals as R, keeps text, drops NA', () => {
    const v = { rec: { dec: 1 } } as unknown as VarSpec;
    expect(fmtValue(v, 2.25)).toBe(2.2);
    expect(fmtValue(v, 'Forest')).toBe('Forest');
    expect(fmtValue(v, NaN)).toBeUndefined();
    expect(fmtValue(v, undefined)).toBeUndefined();
  });

  it('withCells adds the cells column only when an NA-group row carries it', () => {
    const cols: ColumnInfo[] = [{ name: 'A', role: 'value', label: 'A', unit: '', type: 'number' }];
    expect(withCells(cols, [{ A: 1 }])).toBe(cols);
    expect(withCells(cols, [{ A: 1, cells: 3 }]).map((c) => c.name)).toEqual(['A', 'cells']);
  });
});
