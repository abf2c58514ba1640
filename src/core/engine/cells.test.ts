import { describe, expect, it } from 'vitest';
import { SSA_GRID } from '../grid';
import { cellResult } from './cells';
import type { Computed } from './compute';
import type { Ctx } from './context';

// A 4 x 3 window at column 10, row 20 of the grid; cells 5 and 6 (row 1, columns 1-2) selected.
const c = { grid: SSA_GRID, isoClasses: [{ value: 1, label: 'KEN' }], isoIndex: Int32Array.from([-1, 0]), cat: { get: () => undefined } } as unknown as Ctx;
const sel = new Int32Array(12).fill(-1);
sel[5] = 0; sel[6] = 0;
const cp = {
  sel: { win: [10, 20, 14, 23], weight: null, mask: null, isoBlock: new Int32Array(2), blocks: [null] },
  vars: [{ code: 'V', rec: { type: 'continuous', dec: 1 }, stats: [], columnRecs: [] }],
  bys: [],
  frame: { sel, weight: null, C: 1, S: 1, groupN: new Float64Array(2) },
  aggs: null,
  varData: [Float32Array.from({ length: 12 }, (_, i) => i + 0.25)],
  byData: [],
  iso: new Int32Array(12).fill(1),
  P: 1,
} as unknown as Computed;

describe('cellResult', () => {
  it('clips the grid to the selected cells, with a mask, the cell values and the ISO3 key', async () => {
    const r = await cellResult(c, cp);
    expect(r.grid).toMatchObject({ width: 2, height: 1, colOffset: SSA_GRID.colOffset + 11, rowOffset: SSA_GRID.rowOffset + 21 });
    expect(r.grid.xmin).toBeCloseTo(SSA_GRID.xmin + 11 / 12, 9);
    expect(Array.from(r.mask)).toEqual([1, 1]);
    expect(Array.from(r.layers[0].values)).toEqual([5.25, 6.25]);
    expect(Array.from(r.keys![0].values)).toEqual([1, 1]);
  });

  it('no selected cell is EMPTY_SELECTION', async () => {
    await expect(cellResult(c, { ...cp, frame: { ...cp.frame, sel: new Int32Array(12).fill(-1) } })).rejects.toMatchObject({ code: 'EMPTY_SELECTION' });
  });
});
