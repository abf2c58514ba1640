import { expect, test } from 'vitest';
import { buildChoropleth, quantileBreaks } from './choropleth';
import type { Row } from '../core/types';

test('quantile breaks are increasing and cover the values', () => {
  expect(quantileBreaks([5, 1, 3, 2, 4, 6, 7, 8], 4)).toEqual([1, 3, 5, 6, 8]);
  expect(quantileBreaks([2, 2, 2], 3)).toEqual([2, 2]);
  expect(quantileBreaks([1, 9, 9], 6)).toEqual([1, 1, 9]);
});

test('rows join on unit labels, disambiguated by ISO3', () => {
  const table = [
    { value: 10, label: 'Central', iso3: 'KEN' },
    { value: 11, label: 'Central', iso3: 'UGA' },
    { value: 12, label: 'Coast', iso3: 'KEN' },
  ];
  const rows: Row[] = [
    { ISO3: 'KEN', ADM0_NAME: 'Kenya', ADM1_NAME_ALT: 'Central', X: 1 },
    { ISO3: 'KEN', ADM0_NAME: 'Kenya', ADM1_NAME_ALT: 'Coast', X: 9 },
    { ISO3: 'KEN', ADM0_NAME: 'Kenya', X: 5 },
    { ADM1_NAME_ALT: 'Central', X: 3 },
  ];
  const c = buildChoropleth(rows, 'ADM1_NAME_ALT', 'X', table);
  expect(c.pairs.map((p) => p[0])).toEqual([10, 12]);
  expect(c.pairs[0][1]).not.toBe(c.pairs[1][1]);
  expect(c.unmatched).toBe(1);
});
