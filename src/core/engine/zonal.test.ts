import { describe, expect, it } from 'vitest';
import type { Row, VarRecord } from '../types';
import { checkZonalApplies, explodeHistogram, quantileSuffix, weightedQuantile, ZonalAgg, zonalColumns, zonalPlanOf, type ZonalVar } from './zonal';

const rec = (code: string, type: 'class' | 'continuous' = 'continuous'): VarRecord => ({ varCode: code, varLabel: code, unit: 'm', dec: 3, type } as unknown as VarRecord);
const lookup = (code: string) => (code === 'W' ? rec('W') : code === 'CLS' ? rec('CLS', 'class') : undefined);

describe('zonalPlanOf: the arguments, 400 naming each', () => {
  it('parses weights, q, quantile_type, bins, range', () => {
    const p = zonalPlanOf(['quantile', 'weighted_mean', 'mean'], { weights: 'W', q: [0.5, 0.025], quantileType: 'weighted', bins: [3], range: [0, 9] }, lookup);
    expect(p.ops).toEqual(['quantile', 'weighted_mean']);
    expect(p.weights?.varCode).toBe('W');
    expect(p.q).toEqual([0.5, 0.025]);
    expect(p.quantileType).toBe('weighted');
    expect(p.bins).toEqual({ count: 3, range: [0, 9] });
    expect(zonalPlanOf(['histogram'], { bins: [0, 1, 5] }, lookup).bins).toEqual({ edges: [0, 1, 5] });
    expect(quantileSuffix(0.025)).toBe('q2.5');
    expect(quantileSuffix(0.1)).toBe('q10');
  });
  it.each([
    [['weighted_mean'], {}, 'weights'],
    [['weighted_sum'], { weights: 'NOPE' }, 'weights'],
    [['weighted_frac'], { weights: 'CLS' }, 'weights'],
    [['quantile'], { q: [1.5] }, 'q'],
    [['quantile'], { q: ['x'] }, 'q'],
    [['quantile'], { quantileType: '6' }, 'quantile_type'],
    [['histogram'], { bins: [0] }, 'bins'],
    [['histogram'], { bins: [2.5] }, 'bins'],
    [['histogram'], { bins: [3, 1] }, 'bins'],
    [['histogram'], { range: [5, 1] }, 'range'],
    [['histogram'], { bins: [0, 1, 2], range: [0, 1] }, 'range'],
  ])('%j %j is refused naming %s', (stats, args, name) => {
    expect(() => zonalPlanOf(stats, args, lookup)).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT', message: expect.stringContaining(`'${name}'`) }));
  });
});

describe('checkZonalApplies: an operation that applies to none of the variables is a 400 naming stats', () => {
  const cont = { code: 'ELEVATION', rec: rec('ELEVATION') }, cls = { code: 'CLS', rec: rec('CLS', 'class') };
  it('refuses frac and weighted_frac over continuous layers only, and stdev over class layers only', () => {
    for (const op of ['frac', 'weighted_frac']) expect(() => checkZonalApplies([op], [cont])).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT', message: expect.stringMatching(/^'stats' asks for .*frac, which applies to class layers only, but ELEVATION is continuous/) }));
    expect(() => checkZonalApplies(['stdev'], [cls])).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT', message: expect.stringContaining("'stats' asks for stdev") }));
  });
  it('accepts a mix (each variable gets the operations that apply to it) and the operations of any layer', () => {
    expect(() => checkZonalApplies(['frac', 'stdev'], [cont, cls])).not.toThrow();
    expect(() => checkZonalApplies(['area_km2', 'variety'], [cont])).not.toThrow();
  });
});

describe('weightedQuantile (Hmisc::wtd.quantile, normwt = FALSE)', () => {
  it('with unit weights is R quantile(type = 7)', () => {
    const x = Float64Array.from([1, 2, 3, 4, 10]);
    const w = new Float64Array(5).fill(1);
    // R: quantile(c(1,2,3,4,10), c(.1,.5,.9)) = 1.4 3 7.6
    expect([0.1, 0.5, 0.9].map((p) => weightedQuantile(x, w, p))).toEqual([1.4, 3, expect.closeTo(7.6, 12)]);
  });
  it('counts each value w times: weights 2,1 equal the values repeated', () => {
    // Hmisc::wtd.quantile(c(1, 5), c(2, 1), 0.5) = 1 (as quantile(c(1, 1, 5), 0.5))
    expect(weightedQuantile(Float64Array.from([1, 5]), Float64Array.from([2, 1]), 0.5)).toBe(1);
    // quantile(c(1, 1, 5), 0.75) = 3
    expect(weightedQuantile(Float64Array.from([1, 5]), Float64Array.from([2, 1]), 0.75)).toBe(3);
  });
});

describe('ZonalAgg over a frame', () => {
  // two zones (group 0: cells 0..3, group 1: cells 4..5), one block (S = 2, C = 1): summary t = 2
  const frame = { sel: Int32Array.from([0, 0, 0, 0, 1, 1, -1]), weight: Float32Array.from([1, 1, 0.5, 1, 1, 1, 1]), C: 1, S: 2 };
  const v: ZonalVar = { code: 'X', rec: rec('X') };
  const x = Float64Array.from([1, 3, 5, NaN, 2, 2, 99]);
  const w = Float64Array.from([1, 2, 2, 1, NaN, 1, 1]);
  const area = () => 10;
  it('computes variance (population), stdev, cv, weighted mean and sum, validity, area, variety', () => {
    const plan = zonalPlanOf(['variance', 'stdev', 'cv', 'weighted_mean', 'weighted_sum', 'valid_percent', 'nodata', 'area_km2', 'variety'], { weights: 'W' }, lookup);
    const a = new ZonalAgg(v, plan, frame, x, w, area);
    const r: Row = {};
    a.fields(0, r);
    // values 1, 3, 5 with f 1, 1, 0.5: m = (1 + 3 + 2.5) / 2.5 = 2.6; var = (1.6^2 + 0.4^2 + 0.5 * 2.4^2) / 2.5
    const m = 2.6, vr = (1.6 ** 2 + 0.4 ** 2 + 0.5 * 2.4 ** 2) / 2.5;
    expect(r.X_variance).toBeCloseTo(vr, 6);
    expect(r.X_stdev).toBeCloseTo(Math.sqrt(vr), 4);
    expect(r.X_cv).toBeCloseTo(Math.sqrt(vr) / m, 5);
    // f W x: 1*1*1 + 1*2*3 + 0.5*2*5 = 12; f W: 1 + 2 + 1 = 4
    expect(r.X_weighted_sum).toBe(12);
    expect(r.X_weighted_mean).toBe(3);
    expect(r.X_nodata).toBe(1);
    expect(r.X_valid_percent).toBeCloseTo((100 * 2.5) / 3.5, 4);
    expect(r.X_area_km2).toBe(35);
    expect(r.X_variety).toBe(3);
    const s: Row = {};
    a.fields(2, s); // the summary: both zones
    expect(s.X_variety).toBe(4);
    expect(s.X_area_km2).toBe(55);
  });
  it('frac of a class variable sums to 1; weighted_frac by weights', () => {
    const cv: ZonalVar = { code: 'C', rec: rec('C', 'class'), classes: [{ value: 1, label: 'a' }, { value: 2, label: 'b' }] };
    const cls = Int32Array.from([1, 2, 2, -1, 1, 1, 1]);
    const plan = zonalPlanOf(['frac', 'weighted_frac'], { weights: 'W' }, lookup);
    const r: Row = {};
    new ZonalAgg(cv, plan, frame, cls, w, area).fields(0, r);
    expect(r['C_frac_a']).toBeCloseTo(1 / 2.5, 6);
    expect(r['C_frac_b']).toBeCloseTo(1.5 / 2.5, 6);
    expect(r['C_weighted_frac_a']).toBeCloseTo(1 / 4, 6);
    expect(zonalColumns(cv, plan).map((c) => c.name)).toEqual(['C_frac_a', 'C_frac_b', 'C_weighted_frac_a', 'C_weighted_frac_b']);
  });
  it('histogram: one row per bin, right-closed, coverage-weighted', () => {
    const plan = zonalPlanOf(['histogram'], { bins: [0, 2, 4, 6] }, lookup);
    const r: Row = { zone: 'z' };
    new ZonalAgg(v, plan, frame, x, null, area).fields(0, r);
    const rows = explodeHistogram([r], () => 3);
    expect(rows.map((q) => [q.bin, q.X_bin_lower, q.X_bin_upper, q.X_histogram])).toEqual([[1, 0, 2, 1], [2, 2, 4, 1], [3, 4, 6, 0.5]]);
    expect(JSON.stringify(rows[0])).toBe('{"zone":"z","bin":1,"X_bin_lower":0,"X_bin_upper":2,"X_histogram":1}');
  });
});
