import { describe, expect, it } from 'vitest';
import { changeCells, changeHeading, changeLayerCode, changeLevel, changeOf, changeRecord, changeTitle, parseChangeLayerCode } from './change';
import { changePalette, divergingBreaks, DIVERGING_COLORS, niceCeil } from './diverging';
import type { VarRecord } from '../types';
import { makeColorizer } from './palette';

describe('per-cell change of two years', () => {
  it('diff = to - from, pct = 100 (to - from) / from, cell by cell', () => {
    const from = new Float32Array([10, 4, 2.5, 100]);
    const to = new Float32Array([12, 1, 2.5, 50]);
    expect([...changeCells(from, to, 'diff')]).toEqual([2, -3, 0, -50]);
    expect([...changeCells(from, to, 'pct')]).toEqual([20, -75, 0, -50]);
  });

  it('no value (NaN) where either year has none or pct would divide by 0; diff from 0 is a value', () => {
    const from = [NaN, 5, 0, 0, Infinity];
    const to = [1, NaN, 3, 0, 2];
    expect([...changeCells(from, to, 'pct')].map(Number.isNaN)).toEqual([true, true, true, true, true]);
    expect([...changeCells(from, to, 'diff')]).toEqual([NaN, NaN, 3, 0, NaN]);
    expect(changeOf(0, 0, 'diff')).toBe(0);
    expect(changeOf(-2, -1, 'pct')).toBe(-50); // R: 100 * (-1 - -2) / -2
  });

  it('a level: same grid only; the change keeps its shape and bounds', () => {
    const a = { width: 2, height: 1, bbox: [0, 0, 2, 1] as [number, number, number, number], values: new Float32Array([1, 2]) };
    const b = { ...a, values: new Float32Array([3, 1]) };
    const c = changeLevel(a, b, 'diff');
    expect([c.width, c.height, c.bbox, [...c.values]]).toEqual([2, 1, [0, 0, 2, 1], [2, -1]]);
    expect(() => changeLevel(a, { ...b, width: 1, values: new Float32Array([1]) }, 'diff')).toThrow(/not on the same grid/);
    expect(() => changeLevel(a, { ...b, bbox: [0, 0, 2, 2] }, 'diff')).toThrow(/not on the same grid/);
    expect(() => changeCells([1], [1, 2], 'pct')).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
  });
});

describe('breaks symmetric about 0', () => {
  it('nice maxima: 1, 2, 2.5, 5 x 10^k', () => {
    expect(niceCeil(0.7)).toBe(1);
    expect(niceCeil(68.5)).toBe(100);
    expect(niceCeil(2.1)).toBe(2.5);
    expect(niceCeil(2)).toBe(2);
    expect(niceCeil(0)).toBe(1);
    expect(niceCeil(NaN)).toBe(1);
  });

  it('-m..m in thirds around the largest |change|; NaN skipped; ties at a break fall in the lower class', () => {
    expect(divergingBreaks([-3, 12])).toEqual([-20, -40 / 3, -20 / 3, 0, 20 / 3, 40 / 3, 20]);
    expect(divergingBreaks(new Float64Array([NaN, -4, NaN]))).toEqual([-5, -10 / 3, -5 / 3, 0, 5 / 3, 10 / 3, 5]);
    expect(divergingBreaks([])).toEqual([-1, -2 / 3, -1 / 3, 0, 1 / 3, 2 / 3, 1]);
    const p = changePalette([-30, 30], 0);
    expect(p.breaks).toEqual([-50, -100 / 3, -50 / 3, 0, 50 / 3, 100 / 3, 50]);
    const col = makeColorizer(p);
    const pack = (hex: string) => { const n = parseInt(hex.slice(1), 16); return ((255 << 24) | ((n & 255) << 16) | (n & 0xff00) | (n >> 16)) >>> 0; };
    // right-closed: 0 is the top of the last red class, a hair above it the first blue one
    expect(col(0)).toBe(pack(DIVERGING_COLORS[2]));
    expect(col(1e-9)).toBe(pack(DIVERGING_COLORS[3]));
    expect(col(-50)).toBe(pack(DIVERGING_COLORS[0]));
    expect(col(NaN)).toBe(0);
    expect(p.labels).toEqual(['[-50, -33.33]', '(-33.33, -16.67]', '(-16.67, 0]', '(0, +16.67]', '(+16.67, +33.33]', '(+33.33, +50]']);
  });

  it('RdBu, red (decrease) to blue (increase): ColorBrewer RdBu 6', () => {
    expect(DIVERGING_COLORS).toEqual(['#b2182b', '#ef8a62', '#fddbc7', '#d1e5f0', '#67a9cf', '#2166ac']);
  });
});

describe('change layer codes', () => {
  it('round-trip; catalog codes are not change codes', () => {
    const c = changeLayerCode('pct', 'NDVI_2000', 'NDVI_2010');
    expect(parseChangeLayerCode(c)).toEqual({ mode: 'pct', codeFrom: 'NDVI_2000', codeTo: 'NDVI_2010' });
    expect(parseChangeLayerCode('NDVI_2000')).toBeNull();
    expect(parseChangeLayerCode('change~ratio~A~B')).toBeNull();
  });
});

describe('what a change map is called (legend, hover, map export)', () => {
  it('the title names the mode, the series without a member\'s year, and both years', () => {
    expect(changeTitle('NDVI, 2010', 'pct', 2000, 2010)).toBe('Change (%) of NDVI, 2000–2010');
    expect(changeTitle('NDVI (2010)', 'diff', 2000, 2010)).toBe('Change of NDVI, 2000–2010');
    expect(changeTitle('Population (PWT 9.1)', 'pct', 1950, 2017)).toBe('Change (%) of Population (PWT 9.1), 1950–2017');
    expect(changeHeading(2000, 2010)).toBe('Change 2000–2010');
  });

  it('the record: the member\'s code and sources, the change\'s title, unit, decimals and years', () => {
    const member = { varCode: 'NDVI_2010', varLabel: 'NDVI, 2010', unit: 'index', dec: 3, year: '2010', yearEnd: '2010', sources: 'FIXTURE' } as unknown as VarRecord;
    expect(changeRecord(member, 'pct', 2000, 2010)).toMatchObject({ varCode: 'NDVI_2010', sources: 'FIXTURE', varLabel: 'Change (%) of NDVI, 2000–2010', unit: '% change', dec: 1, year: '2000', yearEnd: '2010' });
    expect(changeRecord(member, 'diff', 2005, 2010)).toMatchObject({ varLabel: 'Change of NDVI, 2005–2010', unit: 'index', dec: 3, year: '2005', yearEnd: '2010' });
    expect(member.varLabel).toBe('NDVI, 2010'); // not changed in place
  });
});
