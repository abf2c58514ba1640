/**
 * Summaries of a group with cells but no non-missing value, as R gives them:
 * `sum(x, na.rm=TRUE)` and the stat `sum` are 0, `count` is 0, every other aggregation and
 * stat is missing (R's NaN / NA / ±Inf); groups with values are unchanged.
 */
import { describe, expect, it } from 'vitest';
import type { VarRecord } from '../types';
import { countGroups, VarAgg } from './accumulate';
import { parseAggFun, type AggName } from '../r/expr';

type AggFn = AggName;
import type { VarSpec } from './plan';

const STATS = ['count', 'sum', 'mean', 'min', 'max', 'sd', 'p50', 'majority', 'minority', 'hist'];
const rec = (type: 'continuous' | 'class'): VarRecord => ({ varCode: 'X', type, dec: 2 }) as VarRecord;

// Two groups of one block (S = 2) plus its summary at index 2: group 0 has values 1, 2, 3;
// group 1 has two cells whose values are all missing; the summary pools both.
const sel = new Int32Array([0, 0, 0, 1, 1]);
const vals = new Float64Array([1, 2, 3, NaN, NaN]);
const wts = new Float64Array([1, 1, 2, 5, 5]);

function agg(fn: AggFn, weight: Float32Array | null = null): VarAgg {
  const frame = countGroups(sel, weight, 1, 2);
  const formula = parseAggFun(fn === 'weighted.mean' ? 'weighted.mean(X, W, na.rm=TRUE)' : `${fn}(X, na.rm=TRUE)`);
  const spec: VarSpec = { code: 'X', rec: rec('continuous'), formula, columnRecs: [], stats: STATS };
  return new VarAgg(spec, frame, vals, new Map([['X', vals], ['W', wts]]), undefined);
}

describe('VarAgg: groups without values', () => {
  const expected: Record<string, number> = { sum: 6, mean: 2, 'weighted.mean': 9 / 4, min: 1, max: 3, median: 2 };
  for (const fn of Object.keys(expected) as AggFn[]) {
    it(`${fn}: ${fn === 'sum' ? '0 (R)' : 'missing'} for a group with cells but no value, unchanged otherwise`, () => {
      const a = agg(fn);
      if (fn === 'sum') {
        expect(a.numeric(1)).toBe(0);
        expect(a.value(1)).toBe(0);
      } else {
        expect(a.numeric(1)).toBeNaN();
        expect(a.value(1)).toBeUndefined();
      }
      expect(a.numeric(0)).toBeCloseTo(expected[fn], 12);
      expect(a.value(2)).toBeCloseTo(expected[fn], 12);
    });
  }

  it('sum with coverage weights: 0 without values, weighted otherwise', () => {
    const a = agg('sum', new Float32Array([1, 0.5, 1, 1, 1]));
    expect(a.value(1)).toBe(0);
    expect(a.value(0)).toBe(1 + 1 + 3);
  });

  it('extra stats: all missing but count and sum, which are 0', () => {
    const a = agg('sum');
    for (const s of STATS) expect(a.stat(s, 1), s).toBe(s === 'count' || s === 'sum' ? 0 : undefined);
    expect(a.stat('sum', 0)).toBe(6);
    expect(a.stat('count', 2)).toBe(3);
  });

  it('dominant (class variable): missing for a group without class values, count 0', () => {
    const frame = countGroups(sel, null, 1, 2);
    const classes = [{ value: 1, label: 'a' }, { value: 2, label: 'b' }];
    const spec: VarSpec = { code: 'X', rec: rec('class'), formula: parseAggFun('dominant(X)'), columnRecs: [], classes, stats: ['count', 'majority'] };
    const lut = new Int32Array([-1, 0, 1]);
    const a = new VarAgg(spec, frame, new Int32Array([2, 2, 1, -1, -1]), undefined, lut);
    expect(a.numeric(1)).toBeNaN();
    expect(a.value(1)).toBeUndefined();
    expect(a.stat('majority', 1)).toBeUndefined();
    expect(a.stat('count', 1)).toBe(0);
    expect(a.value(0)).toBe('b');
  });
});

describe('VarAgg: catalog formulas evaluated as R', () => {
  // same cells: group 0 has X = 1, 2, 3; group 1 only NA values of X; W is a weight everywhere
  const W = new Float64Array([1, 1, 2, 5, 5]);
  const run = (f: string, cols: Record<string, Float64Array>, weight: Float32Array | null = null) => {
    const frame = countGroups(sel, weight, 1, 2);
    const spec: VarSpec = { code: 'X', rec: rec('continuous'), formula: parseAggFun(f), columnRecs: [], stats: [] };
    const a = new VarAgg(spec, frame, vals, new Map(Object.entries({ X: vals, W, ...cols })), undefined);
    return [0, 1, 2].map((t) => a.numeric(t));
  };

  it('sum(X*W)/sum(W) counts W where X is NA (R); sum(X*W)/sum(W + 0*X) does not', () => {
    expect(run('sum(X*W, na.rm=TRUE)/sum(W, na.rm=TRUE)', {})).toEqual([9 / 4, 0, 9 / 14]);
    const both = run('sum(X*W, na.rm=TRUE)/sum(W + 0*X, na.rm=TRUE)', {});
    expect(both[0]).toBe(9 / 4);
    expect(both[1]).toBeNaN(); // 0/0
    expect(both[2]).toBe(9 / 4);
  });

  it('weighted.mean is NA when a weight is NA where X is not; cells with X NA are dropped', () => {
    const r = run('weighted.mean(X, V, na.rm=TRUE)', { V: new Float64Array([1, NaN, 2, 5, 5]) });
    expect(r.every((v) => Number.isNaN(v))).toBe(true);
    expect(run('weighted.mean(X, W, na.rm=TRUE)', {})[2]).toBe(9 / 4);
    // weight 0: out of the numerator, in the divisor
    expect(run('weighted.mean(X, V, na.rm=TRUE)', { V: new Float64Array([0, 1, 1, NaN, NaN]) })[0]).toBe(5 / 2);
  });

  it('coverage fractions scale each term of a sum and the weights', () => {
    const f = new Float32Array([1, 0.5, 1, 1, 1]);
    expect(run('sum(X*W, na.rm=TRUE)/sum(W, na.rm=TRUE)', {}, f)[0]).toBe((1 + 0.5 * 2 + 6) / 3.5);
    expect(run('sum(X*W, na.rm=TRUE)/sum(W + 0*X, na.rm=TRUE)', {}, f)[0]).toBe((1 + 0.5 * 2 + 6) / 3.5);
    expect(run('weighted.mean(X, W, na.rm=TRUE)', {}, f)[0]).toBe((1 + 0.5 * 2 + 6) / 3.5);
    expect(run('mean(X*W - 0, na.rm=TRUE)', {}, f)[0]).toBe((1 + 0.5 * 2 + 6) / 2.5);
  });

  it('without na.rm any NA is NA; x/0 and min of nothing are non-finite, so missing', () => {
    const r = run('sum(X)', {});
    expect(r[0]).toBe(6);
    expect(r[1]).toBeNaN();
    expect(run('sum(X, na.rm=TRUE)/sum(Z, na.rm=TRUE)', { Z: new Float64Array(5) })[0]).toBeNaN(); // 6/0 = Inf
    const range = run('max(X, na.rm=TRUE) - min(X, na.rm=TRUE)', {});
    expect(range[0]).toBe(2);
    expect(range[1]).toBeNaN(); // -Inf - Inf
    expect(run('-median(X, na.rm=T) * 2 + 1', {})[0]).toBe(-3);
    expect(run('median(X*2, na.rm=T)', {})[2]).toBe(4);
  });
});
