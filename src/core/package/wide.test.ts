import { describe, expect, it } from 'vitest';
import type { ColumnInfo, TableResult } from '../types';
import { hasYearColumn, wideByYear } from './wide';

const col = (name: string, role: ColumnInfo['role'], type: ColumnInfo['type'] = 'number'): ColumnInfo => ({ name, role, label: name, unit: role === 'value' ? 'millions' : '', type });
// long output as the engine gives it over a series: keys, `year`, values (NGA/ETH pop, ERI has no value)
const long: TableResult = {
  columns: [col('ISO3', 'key', 'string'), col('year', 'key', 'integer'), col('PWT_POP', 'value')],
  rows: [
    { ISO3: 'NGA', year: 2000, PWT_POP: 122.4 },
    { ISO3: 'ETH', year: 2000, PWT_POP: 66.2 },
    { ISO3: 'ERI', year: 2000 },
    { ISO3: 'NGA', year: 2017, PWT_POP: 190.9 },
    { ISO3: 'ETH', year: 2017, PWT_POP: 106.4 },
    { ISO3: 'ERI', year: 2017 },
  ],
  meta: [],
};

describe('wideByYear', () => {
  it('gives one row per unit and one column per value and year, NA kept absent', () => {
    const w = wideByYear(long);
    expect(w.columns.map((c) => c.name)).toEqual(['ISO3', 'PWT_POP_2000', 'PWT_POP_2017']);
    expect(w.columns[1]).toMatchObject({ role: 'value', unit: 'millions', label: 'PWT_POP, 2000' });
    expect(w.rows).toEqual([
      { ISO3: 'NGA', PWT_POP_2000: 122.4, PWT_POP_2017: 190.9 },
      { ISO3: 'ETH', PWT_POP_2000: 66.2, PWT_POP_2017: 106.4 },
      { ISO3: 'ERI' },
    ]);
  });

  it('tells units apart by every key and orders years increasing', () => {
    const t: TableResult = {
      columns: [col('ISO3', 'key', 'string'), col('ADM1', 'key', 'string'), col('year', 'key', 'integer'), col('A', 'value'), col('A_sd', 'value')],
      rows: [
        { ISO3: 'KEN', ADM1: 'x', year: 2005, A: 2, A_sd: 0.2 },
        { ISO3: 'KEN', ADM1: 'y', year: 2005, A: 3 },
        { ISO3: 'KEN', ADM1: 'x', year: 2000, A: 1, A_sd: 0.1 },
      ],
      meta: [],
    };
    const w = wideByYear(t);
    expect(w.columns.map((c) => c.name)).toEqual(['ISO3', 'ADM1', 'A_2000', 'A_2005', 'A_sd_2000', 'A_sd_2005']);
    expect(w.rows).toEqual([
      { ISO3: 'KEN', ADM1: 'x', A_2000: 1, A_2005: 2, A_sd_2000: 0.1, A_sd_2005: 0.2 },
      { ISO3: 'KEN', ADM1: 'y', A_2005: 3 },
    ]);
  });

  it('leaves a table without a year column as it is', () => {
    const t: TableResult = { columns: [col('ISO3', 'key', 'string'), col('A', 'value')], rows: [{ ISO3: 'KEN', A: 1 }], meta: [] };
    expect(hasYearColumn(t)).toBe(false);
    expect(wideByYear(t)).toBe(t);
    expect(hasYearColumn(long)).toBe(true);
  });
});
