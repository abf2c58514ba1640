import { describe, expect, test } from 'vitest';
import type { CellResult } from '../../core/api';
import { cellAreaKm2, cellHistograms, histBars, quadAreaKm2 } from './hist';

// Fixture per-cell result (made-up values): a 3 x 2 window whose rows are global rows 1080
// (just south of the equator) and 1081.
const grid = { crs: 'EPSG:4326' as const, cellSizeDeg: 1 / 12, xmin: 0, ymin: -1 / 6, xmax: 0.25, ymax: 0, width: 3, height: 2, colOffset: 2160, rowOffset: 1080 };
const fixture = (values: number[], iso: number[]): CellResult => ({
  grid, mask: Uint8Array.from(values.map(() => 1)), meta: [],
  layers: [{ code: 'V', type: 'continuous', values: Float64Array.from(values) }],
  keys: [{ code: 'ISO3', type: 'class', values: Float64Array.from(iso), classes: [{ value: 1, label: 'AAA' }, { value: 2, label: 'BBB' }] }],
});

describe('cell areas', () => {
  test('WGS84 5′ cells: 85.48 km² at the equator, 70.37 km² north of 35° S (the bundle\'s AREA_TOTAL layer: tests/engine/hist-area.test.ts)', () => {
    expect(cellAreaKm2(1080)).toBeCloseTo(85.4796, 4); // 0 .. 1/12° S: 9.2766 km x 9.2143 km
    expect(cellAreaKm2(1079)).toBeCloseTo(cellAreaKm2(1080), 10); // symmetric about the equator
    expect(cellAreaKm2(90 * 12 + 35 * 12 - 1)).toBeCloseTo(70.3654, 4); // the row touching 35° S from the north
    // the whole globe: 4 pi R_q^2 with the authalic radius 6371.0072 km
    expect(quadAreaKm2(90, -90, 360)).toBeCloseTo(4 * Math.PI * 6371.0072 ** 2, -2);
    expect(cellAreaKm2(-1)).toBeNaN();
  });
});

describe('cellHistograms', () => {
  test('10 equal bins between min and max (the maximum in the last), counts and km² per bin, one histogram per group', () => {
    const h = cellHistograms(fixture([0, 10, 5, NaN, 10, 1], [1, 1, 1, 2, 2, 2]), [{ name: 'all', members: null }, { name: 'BBB', members: new Set(['BBB']) }]);
    const [all, bbb] = h;
    expect(all.min).toBe(0);
    expect(all.max).toBe(10);
    expect(all.bins.map((b) => b.cells)).toEqual([1, 1, 0, 0, 0, 1, 0, 0, 0, 2]);
    const top = cellAreaKm2(1080), bottom = cellAreaKm2(1081);
    expect(all.bins[9].km2).toBeCloseTo(top + bottom, 9); // 10 in row 0 and 10 in row 1
    expect(all.bins[1].km2).toBeCloseTo(bottom, 9);
    expect(all.bins.reduce((s, b) => s + b.km2, 0)).toBeCloseTo(3 * top + 2 * bottom, 9); // the NaN cell left out
    expect(bbb.min).toBe(1);
    expect(bbb.bins.map((b) => b.cells)).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect(bbb.bins[9].hi).toBe(10);
  });
  test('one value everywhere: one bin; no values: no bins', () => {
    const [h] = cellHistograms(fixture([3, 3, 3, 3, 3, 3], [1, 1, 1, 1, 1, 1]), [{ name: 'x', members: null }]);
    expect(h.bins).toEqual([{ lo: 3, hi: 3, cells: 6, km2: 3 * cellAreaKm2(1080) + 3 * cellAreaKm2(1081) }]);
    expect(cellHistograms(fixture([NaN, NaN, NaN, NaN, NaN, NaN], [1, 1, 1, 1, 1, 1]), [{ name: 'x', members: null }])[0].bins).toEqual([]);
  });
  test('bars: labels with the decimals, cells and km² (0.1)', () => {
    const [h] = cellHistograms(fixture([0, 10, 5, NaN, 10, 1], [1, 1, 1, 2, 2, 2]), [{ name: 'all', members: null }]);
    const b = histBars(h, 0);
    expect(b).toHaveLength(10);
    expect(b[0]).toEqual({ bin: '0 – 1', cells: 1, km2: Math.round(cellAreaKm2(1080) * 10) / 10 });
    expect(b[9].bin).toBe('9 – 10');
  });
});
