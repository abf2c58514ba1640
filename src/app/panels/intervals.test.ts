import { describe, expect, test } from 'vitest';
import { cutLabels } from '../../core/r/labels';
import { intervalBounds, intervalText, requestBreaks, sliceBounds } from './intervals';
import type { VarRecord } from '../../core/types';

describe('intervals as people read them (display only)', () => {
  test('the issue\'s case: breaks 0, 1500, 6000 in metres', () => {
    const breaks = [0, 1500, 6000];
    const labels = cutLabels(breaks);
    expect(labels).toEqual(['(0,1.5e+03]', '(1.5e+03,6e+03]']); // R's labels, unchanged (the API and downloads)
    expect(labels.map((l) => intervalText(l, 'm', breaks))).toEqual(['up to 1,500 m', '1,500-6,000 m']);
  });
  test('exact bounds from the breaks where R rounds to 3 significant digits', () => {
    const breaks = [0, 1234, 2345];
    expect(intervalText(cutLabels(breaks)[1], 'm', breaks)).toBe('1,234-2,345 m');
    expect(intervalText('(1.23e+03,2.35e+03]', 'm')).toBe('1,230-2,350 m'); // without them, the label's own numbers
  });
  test('open ends, negatives, no unit, not an interval', () => {
    expect(intervalText('(100,Inf]', 'people')).toBe('over 100 people');
    expect(intervalText('(-Inf,0]', 'm')).toBe('up to 0 m');
    expect(intervalText('(-500,-100]', 'm')).toBe('-500 to -100 m');
    expect(intervalText('(0.5,0.75]', '')).toBe('0.5-0.75');
    expect(intervalText('Highlands', 'm')).toBe('Highlands');
    expect(intervalBounds('[0,60]')).toEqual([0, 60]);
    expect(intervalBounds('Range_1')).toBeNull();
  });
  test('the request\'s breaks, else the catalog\'s', () => {
    const rec = { type: 'continuous', classBreaks: '-6000|0|200' } as VarRecord;
    expect(requestBreaks({ ELEVATION: [0, 1500, 6000] }, 'ELEVATION', rec)).toEqual([0, 1500, 6000]);
    expect(requestBreaks({ ELEVATION: null } as never, 'ELEVATION', rec)).toEqual([-6000, 0, 200]);
    expect(requestBreaks(['ELEVATION'], 'ELEVATION', rec)).toEqual([-6000, 0, 200]);
    expect(requestBreaks(['ELEV_ZONE'], 'ELEV_ZONE', { type: 'class', classBreaks: '1|2' } as VarRecord)).toBeNull();
  });
});

describe('sliceBounds: the interval a one-interval map paints', () => {
  const elev = { varCode: 'ELEVATION', type: 'continuous', classBreaks: '-500|0|500|1000|2000|6000' } as VarRecord;
  const byCode = new Map([['ELEVATION', elev], ['LAND_COVER', { varCode: 'LAND_COVER', type: 'class', classBreaks: '1|2' } as VarRecord]]);
  test('the request\'s breaks give the exact bounds (R\'s label rounds 1234 to 1.23e+03)', () => {
    const by = { ADM1_NAME_ALT: [], ELEVATION: [0, 1234, 6000] };
    expect(sliceBounds('(1.23e+03,6e+03]', 'ELEVATION', { var: ['AREA_TOTAL'], by }, byCode)).toEqual({ code: 'ELEVATION', lo: 1234, hi: 6000 });
  });
  test('the catalog\'s breaks without own ones; an open interval; a class layer or no interval: null', () => {
    expect(sliceBounds('(1e+03,2e+03]', 'ELEVATION', { var: ['AREA_TOTAL'], by: ['ADM1_NAME_ALT', 'ELEVATION'] }, byCode)).toEqual({ code: 'ELEVATION', lo: 1000, hi: 2000 });
    expect(sliceBounds('(2e+03,Inf]', 'ELEVATION', { var: ['AREA_TOTAL'], by: { ELEVATION: [0, 7] } }, byCode)).toEqual({ code: 'ELEVATION', lo: 2000, hi: Infinity });
    expect(sliceBounds('Cropland', 'LAND_COVER', { var: ['AREA_TOTAL'], by: ['LAND_COVER'] }, byCode)).toBeNull();
    expect(sliceBounds('NA', 'ELEVATION', { var: ['AREA_TOTAL'], by: ['ELEVATION'] }, byCode)).toBeNull();
  });
});
