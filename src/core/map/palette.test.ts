import { describe, expect, test } from 'vitest';
import { TRANSPARENT, intervalIndex, intervalLabels, legendOf, makeColorizer, paletteFor, quantileBreaks } from './palette';
import type { VarRecord } from '../types';

const rec = (o: Partial<VarRecord>): VarRecord => ({
  varCode: 'X', varLabel: 'X', varTitle: '', varDesc: '', unit: 'm', type: 'continuous', dec: 0, aggFunR: 'mean(X, na.rm=TRUE)',
  classBreaks: '', classLabels: '', classColors: '', cat1: '', cat2: '', cat3: '', year: '', yearEnd: '', sources: '', sourceMini: '',
  owner: '', citation: '', license: '', version: '', published: '', dataType: 'Float32', noData: '-9999', classTable: '', ...o,
});

describe('palettes', () => {
  test('right-closed intervals as R cut()', () => {
    const b = [0, 500, 1000, 6000];
    expect(intervalIndex(b, 500)).toBe(0);
    expect(intervalIndex(b, 500.01)).toBe(1);
    expect(intervalIndex(b, 1000)).toBe(1);
    expect(intervalIndex(b, 99999)).toBe(2);
    expect(intervalIndex(b, -5)).toBe(0);
    expect(intervalIndex(b, NaN)).toBe(-1);
    expect(intervalLabels([0, 0.5, 1])).toEqual(['(0,0.5]', '(0.5,1]']);
    expect(intervalLabels([0, 100, 1000, 5000])).toEqual(['(0,100]', '(100,1e+03]', '(1e+03,5e+03]']); // as the API (R cut, dig.lab 3)
  });

  test('continuous palette uses catalog colours, custom breaks get a ramp', () => {
    const p = paletteFor(rec({ classBreaks: '0|10|20', classColors: '#000000|#ffffff', classLabels: 'low|high' }));
    expect(p).toMatchObject({ kind: 'intervals', colors: ['#000000', '#ffffff'], labels: ['low', 'high'] });
    const c = makeColorizer(p);
    expect(c(15)).toBe(0xffffffff);
    expect(c(NaN)).toBe(0);
    const q = paletteFor(rec({ classBreaks: '0|10|20', classColors: '#000000|#ffffff' }), undefined, [0, 1, 2, 3]);
    expect(q.colors).toHaveLength(3);
    expect(q.labels).toEqual(['(0,1]', '(1,2]', '(2,3]']);
  });

  test('class palette falls back to the class table', () => {
    const p = paletteFor(rec({ type: 'class' }), [{ value: 3, label: 'KEN', color: '#ff0000' }, { value: 7, label: 'TZA' }]);
    expect(p.kind).toBe('classes');
    expect(p.labels).toEqual(['KEN', 'TZA']);
    const c = makeColorizer(p);
    expect(c(3)).toBe(0xff0000ff);
    expect(c(7)).not.toBe(0);
    expect(c(8)).toBe(0);
  });
});

describe('quantileBreaks (records without classBreaks)', () => {
  test('quantile classes over the non-missing values, every value inside an interval', () => {
    const vals = Float32Array.from([NaN, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, NaN]);
    const b = quantileBreaks(vals, 4, 0);
    expect(b).toEqual([0, 3, 6, 8, 10]);
    for (const v of vals) if (Number.isFinite(v)) expect(intervalIndex(b, v)).toBeGreaterThanOrEqual(0);
    expect(intervalIndex(b, 1)).toBe(0);
    expect(intervalIndex(b, 10)).toBe(3);
  });
  test('a constant or empty layer gives fewer than two breaks or one class', () => {
    expect(quantileBreaks([NaN, NaN], 5)).toEqual([]);
    expect(quantileBreaks([2, 2, 2], 5, 0).length).toBe(2);
  });
  test('paletteFor with them draws intervals instead of nothing', () => {
    const p = paletteFor(rec({ classBreaks: '' }), undefined, quantileBreaks([1, 5, 9, 20], 3, 0));
    expect(p.kind).toBe('intervals');
    expect(p.colors.length).toBe(3);
  });
});


describe('legendOf', () => {
  test('lists label and colour in order, leaving out entries with an empty label (colours no cell takes)', () => {
    const p = { kind: 'intervals' as const, breaks: [-0.5, 0.5, 1.5, 2.5], colors: ['#111111', '#222222', '#333333'], labels: ['a', '', 'c'] };
    expect(legendOf(p)).toEqual([{ label: 'a', color: '#111111' }, { label: 'c', color: '#333333' }]);
  });
});

describe('a one-interval mask (TRANSPARENT colours)', () => {
  test('values in (lo, hi] take the colour, all others none, including open ends and no data', () => {
    const c = makeColorizer({ kind: 'intervals', breaks: [-Infinity, 1500, 6000, Infinity], colors: [TRANSPARENT, '#d7191c', TRANSPARENT], labels: ['', 'cells', ''] });
    const red = ((255 << 24) | (0x1c << 16) | (0x19 << 8) | 0xd7) >>> 0;
    expect([c(-20), c(1500), c(1500.5), c(6000), c(6001), c(NaN)]).toEqual([0, 0, red, red, 0, 0]);
    const open = makeColorizer({ kind: 'intervals', breaks: [-Infinity, 2000, Infinity, Infinity], colors: [TRANSPARENT, '#d7191c', TRANSPARENT], labels: ['', 'x', ''] });
    expect([open(2000), open(5000)]).toEqual([0, red]);
  });
});
