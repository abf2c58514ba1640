import { describe, expect, test } from 'vitest';
import { FORMATS } from '../../core/formats/registry';
import { cellFormatsBlocked, mapsCells } from './download-years';

describe('download formats of a query over years', () => {
  test('several years or a change block the cell formats; one year or none does not', () => {
    expect(cellFormatsBlocked({})).toBeNull();
    expect(cellFormatsBlocked({ year: [2005] })).toBeNull();
    expect(cellFormatsBlocked({ year: 2005 })).toBeNull();
    expect(cellFormatsBlocked({ year: [2005, 2005] })).toBeNull();
    expect(cellFormatsBlocked({ year: Array.from({ length: 18 }, (_, i) => 2000 + i) })).toBe('18 years');
    expect(cellFormatsBlocked({ year: [2000, 2017], change: 'pct' })).toBe('a change between 2 years');
  });
  test('the cell formats are the ones the engine reads one year for (json, tif, asc, grd, plot, hist)', () => {
    expect(FORMATS.filter(mapsCells).map((f) => f.name).sort()).toEqual(['asc', 'grd', 'hist', 'json', 'plot', 'tif']);
  });
});
