import { describe, expect, it } from 'vitest';
import { formSeries, parseNationalSeries } from '../bundle';
import { Catalog } from '../catalog';
import type { VarRecord } from '../types';
import { planYears, yearsText } from './years';

const rec = (varCode: string, extra: Partial<VarRecord> = {}): VarRecord => ({ varCode, type: 'continuous', dec: 1, aggFunR: `sum(${varCode}, na.rm=TRUE)`, year: '', ...extra } as VarRecord);
const table = parseNationalSeries('series,ISO3,year,value,source\nS_POP,KEN,2000,1.5,X\nS_POP,KEN,2001,2,X\nS_POP,UGA,2003,3,X\nS_LIFE,KEN,2001,60,X\n');
const cat = new Catalog(
  [rec('ELEVATION'), rec('PN00_TOT', { series: 'PN_TOT', year: '2000' }), rec('PN05_TOT', { series: 'PN_TOT', year: '2005' })],
  [],
  async () => [],
  { table, records: [rec('S_POP', { dataType: 'national', series: 'S_POP' }), rec('S_LIFE', { dataType: 'national', series: 'S_LIFE' })] },
);

describe('years of a query', () => {
  it('lists held years as runs', () => {
    expect(yearsText([1960, 1961, 1962, 1970, 1980, 1981])).toBe('1960-1962, 1970, 1980-1981');
  });

  it('knows national series (years of the table) and stems of vi.csv records (years of the records)', () => {
    expect(cat.seriesYears('S_POP')).toEqual([2000, 2001, 2003]);
    expect(cat.seriesYears('PN_TOT')).toEqual([2000, 2005]);
    expect(cat.seriesYears('ELEVATION')).toBeNull();
    expect(cat.seriesRecord('PN_TOT', 2005).varCode).toBe('PN05_TOT');
    expect(cat.seriesRecord('S_POP', 2001).varCode).toBe('S_POP');
  });

  it('leaves plain queries alone and defaults to the latest year every series holds', () => {
    expect(planYears(cat, { var: ['ELEVATION'] })).toBeNull();
    expect(planYears(cat, { var: ['S_POP'] })!.years).toEqual([2003]);
    expect(planYears(cat, { var: ['S_POP', 'S_LIFE'] })!.years).toEqual([2001]);
    expect(planYears(cat, { var: ['PN_TOT'], year: [2005, 2000, 2005] })!.years).toEqual([2000, 2005]);
  });

  it('refuses a year not held naming year and the years held, non-series codes, bad change', () => {
    expect(() => planYears(cat, { var: ['S_POP'], year: [2002] })).toThrow("'year': S_POP does not hold 2002; it holds 2000-2001, 2003.");
    expect(() => planYears(cat, { var: ['ELEVATION'], year: [2000] })).toThrow(/'year': no code of 'var' is a series/);
    expect(() => planYears(cat, { var: ['S_POP', 'ELEVATION'], year: [2000] })).toThrow(/ELEVATION is not a series/);
    expect(() => planYears(cat, { var: ['S_POP'], year: [2000], change: 'diff' })).toThrow(/exactly two years/);
    expect(() => planYears(cat, { var: ['S_POP'], year: [2000, 2001], change: 'ratio' as 'diff' })).toThrow(/'change' must be "diff" or "pct"/);
    expect(planYears(cat, { var: ['S_POP'], year: [2001, 2000], change: 'pct' })).toEqual({ years: [2001, 2000], change: 'pct', series: ['S_POP'] });
  });
});

describe('series formed from catalog records', () => {
  it('an explicit series column wins; <CODE>_<YYYY> codes and CELL5M two-digit years form series; distances do not', () => {
    const f = formSeries([
      { varCode: 'A_2000', series: 'MINE', year: '2000' }, { varCode: 'A_2005', year: '2005' },
      { varCode: 'W_2000' }, { varCode: 'W_2010' },
      { varCode: 'PN00_TOT', year: '2000', cat3: 'Pop', unit: 'people' }, { varCode: 'PN05_TOT', year: '2005', cat3: 'Pop', unit: 'people' },
      { varCode: 'PN10_TOT', year: '2010', cat3: 'Other item', unit: 'people' },
      { varCode: 'DIST_PLACE20K', year: '2020' }, { varCode: 'DIST_PLACE50K', year: '2020' },
      { varCode: 'PN14_POP', year: '2014' },
    ]);
    expect(f.map((s) => [s.stem, s.rule, s.members.map((m) => `${m.code} ${m.year}`)])).toEqual([
      ['MINE', 'column', ['A_2000 2000']],
      ['PN_TOT', 'two-digit-year', ['PN00_TOT 2000', 'PN05_TOT 2005']],
      ['W', 'year-suffix', ['W_2000 2000', 'W_2010 2010']],
    ]);
  });
});
