import { describe, expect, it } from 'vitest';
import { float32Text, valueText, formulaCodes, originalViRow, ORIGINAL_VI_FIELDS, quote } from './format';
import type { VarRecord } from '../../core/types';

describe('export formatting', () => {
  it('writes the shortest decimal that reads back to the same Float32', () => {
    for (const x of [1606.3, 0.1, 76.179, 3655.39, -153.25, 1e-7, 123456.789, 62.907]) {
      const v = Math.fround(x);
      const s = float32Text(v);
      expect(Math.fround(Number(s))).toBe(v);
      expect(s.replace(/^-|\.|e.*$/g, '').replace(/^0+/, '').length).toBeLessThanOrEqual(9);
    }
    expect(float32Text(Math.fround(1606.3))).toBe('1606.3');
    expect(float32Text(434)).toBe('434');
  });

  it('writes other doubles (scaled integer and Float64 layers) as the shortest decimal of the double itself', () => {
    for (const x of [23.45, 1234567.891, -0.05, 0.123456789]) expect(Number(valueText(x))).toBe(x);
    expect(valueText(23.45)).toBe('23.45');
    expect(valueText(1234567.891)).toBe('1234567.891');
    expect(valueText(Math.fround(1606.3))).toBe('1606.3');
  });

  it('quotes strings RFC 4180 style', () => {
    expect(quote('Highland "warm", cool')).toBe('"Highland ""warm"", cool"');
  });

  it('lists the columns a formula names', () => {
    expect(formulaCodes('weighted.mean(ELEVATION, AREA_TOTAL, na.rm=TRUE)')).toEqual(['ELEVATION', 'AREA_TOTAL']);
    expect(formulaCodes('(sum(A*W, na.rm = T)/sum(W, na.rm=TRUE))*100')).toEqual(['A', 'W']);
    expect(formulaCodes('names(sort(table(ZONE), decreasing=T)[1])')).toEqual(['ZONE']);
  });

  it('writes every original catalog field, keeping the record date and formula', () => {
    const r = { varCode: 'X1', varLabel: 'L', type: 'class', unit: '', dec: 0, aggFunR: 'dominant(X1)', published: '2026-11-21', license: 'CC0' } as unknown as VarRecord;
    const row = originalViRow(r, 4);
    for (const f of ORIGINAL_VI_FIELDS) expect(row).toHaveProperty(f);
    expect(row).toMatchObject({ published: '2026-11-21', dPublished: '2026-11-21', aggFunR: 'dominant(X1)', aggCodes: 'X1', id: '5', license: 'CC0', aggFun: 'dominant' });
  });
});
