import { describe, expect, test } from 'vitest';
import { cutLabels } from '../../core/r/labels';
import { intervalBounds, intervalText, requestBreaks } from './intervals';
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
