/**
 * Per-group cell lists (CSR, issue 26 item 5): accumulations over a frame's cell lists give
 * bitwise the values of the per-cell passes (same terms, same order, same compensation), for
 * every formula shape with a list loop (weighted.mean, sum, mean, sum(A*W)/sum(W), extra
 * stats sum, mean, sd), NA weights and empty groups included; and compute() reuses a frame
 * for the same windows and query shape.
 */
import { describe, expect, it } from 'vitest';
import type { VarRecord } from '../types';
import { countGroups, VarAgg, withCellLists } from './accumulate';
import { parseAggFun } from '../r/expr';
import type { VarSpec } from './plan';

const N = 20_000, C = 3, S = 40;
let seed = 7;
const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
const sel = new Int32Array(N), x = new Float64Array(N), w = new Float64Array(N);
for (let i = 0; i < N; i++) {
  // a third unselected; groups 5 and 77 never used (empty)
  const g = rnd() < 1 / 3 ? -1 : Math.floor(rnd() * C * S);
  sel[i] = g === 5 || g === 77 ? -1 : g;
  x[i] = rnd() < 0.1 ? NaN : (rnd() - 0.3) * 10 ** Math.floor(rnd() * 8);
  w[i] = rnd() < 0.02 ? NaN : rnd() < 0.1 ? 0 : rnd() * 97.3;
}
const FORMULAS = ['weighted.mean(X, W, na.rm=TRUE)', 'weighted.mean(X, W)', 'sum(X, na.rm=TRUE)', 'mean(X, na.rm=TRUE)', 'sum(X*W, na.rm=TRUE)/sum(W+0*X, na.rm=TRUE)'];

function agg(formula: string, lists: boolean): VarAgg {
  const frame = countGroups(sel, null, C, S);
  if (lists) withCellLists(frame);
  expect(!!frame.lists).toBe(lists);
  const spec: VarSpec = { code: 'X', rec: { varCode: 'X', type: 'continuous', dec: 2 } as VarRecord, formula: parseAggFun(formula), columnRecs: [], stats: ['sum', 'mean', 'sd', 'count'] };
  return new VarAgg(spec, frame, x, new Map([['X', x], ['W', w]]));
}

describe('cell lists', () => {
  for (const f of FORMULAS) {
    it(`${f}: the same doubles as the per-cell pass, per group and per summary`, () => {
      const a = agg(f, false), b = agg(f, true);
      for (let t = 0; t < C * S + C; t++) {
        expect(Object.is(b.numeric(t), a.numeric(t)), `${f} group ${t}: ${b.numeric(t)} vs ${a.numeric(t)}`).toBe(true);
        for (const s of ['sum', 'mean', 'sd', 'count']) expect(b.stat(s, t), `${s} ${t}`).toBe(a.stat(s, t));
      }
    });
  }

  it('lists hold each group\'s cells in ascending order; frames with coverage weights get none', () => {
    const frame = withCellLists(countGroups(sel, null, C, S));
    const { off, idx } = frame.lists!;
    for (let g = 0; g < C * S; g++) {
      const cells = [...idx.subarray(off[g], off[g + 1])];
      expect(cells).toEqual([...sel.keys()].filter((i) => sel[i] === g));
    }
    expect(withCellLists(countGroups(sel, new Float32Array(N).fill(1), C, S)).lists).toBeUndefined();
  });
});
