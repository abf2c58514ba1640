import { describe, expect, it, test } from 'vitest';
import { adminLevel, buildChoropleth, countryChoropleth, quantileBreaks, unitsWithout } from './choropleth';
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

test('ADM2 rows join on the district and its first-level unit; a summary by code joins on the key table\'s code', () => {
  // FIXTURE class table of ADM2_NAME_ALT: "Centre" in three ADM1 units of two countries
  const table = [
    { value: 1, label: 'Centre', iso3: 'CIV', adm1: 'Lagunes', code: 'CI.01.01' },
    { value: 2, label: 'Centre', iso3: 'CIV', adm1: 'Nord', code: 'CI.02.01' },
    { value: 3, label: 'Centre', iso3: 'STP', adm1: 'Nord', code: 'ST.01.01' },
    { value: 4, label: 'Korhogo', iso3: 'CIV', adm1: 'Nord', code: 'CI.02.02' },
  ];
  const rows: Row[] = [
    { ISO3: 'CIV', ADM1_NAME_ALT: 'Lagunes', ADM2_NAME_ALT: 'Centre', X: 1 },
    { ISO3: 'CIV', ADM1_NAME_ALT: 'Nord', ADM2_NAME_ALT: 'Centre', X: 2 },
    { ISO3: 'STP', ADM1_NAME_ALT: 'Nord', ADM2_NAME_ALT: 'Centre', X: 3 },
    { ISO3: 'CIV', ADM1_NAME_ALT: 'Nord', ADM2_NAME_ALT: 'Korhogo', X: 4 },
  ];
  const c = buildChoropleth(rows, 'ADM2_NAME_ALT', 'X', table);
  expect([...c.values]).toEqual([[1, 1], [2, 2], [3, 3], [4, 4]]);
  expect(c.unmatched).toBe(0);
  // a summary by ADM2_CODE_ALT (its own values differ): joined on `code`, drawn with the key layer's values
  const byCode: Row[] = [{ ISO3: 'CIV', ADM2_CODE_ALT: 'CI.02.01', X: 7 }, { ISO3: 'STP', ADM2_CODE_ALT: 'ST.01.01', X: 8 }, { ISO3: 'STP', ADM2_CODE_ALT: 'XX', X: 9 }];
  const k = buildChoropleth(byCode, 'ADM2_CODE_ALT', 'X', table, 2, undefined, 'code');
  expect([...k.values]).toEqual([[2, 7], [3, 8]]);
  expect(k.unmatched).toBe(1);
  expect(adminLevel('ADM2_CODE_ALT')).toBe(2);
  expect(adminLevel('ADM1_NAME_ALT')).toBe(1);
  expect(adminLevel('ISO3')).toBe(null);
});

test('a summary by country colours the country outlines by ISO3 (ADM0_NAME resolved by name)', () => {
  const rows: Row[] = [{ ISO3: 'KEN', v: 1 }, { ADM0_NAME: 'Uganda', v: 3 }, { ISO3: 'TZA', v: 2 }, { ADM0_NAME: 'Atlantis', v: 9 }];
  const c = countryChoropleth(rows, 'v', new Map([['Uganda', 'UGA']]), 0);
  expect(c.pairs.map((p) => p[0]).sort()).toEqual(['KEN', 'TZA', 'UGA']);
  expect(c.values.get('UGA')).toBe(3);
  expect(c.legend.length).toBeGreaterThan(0);
});

describe('a map of one interval of a two-domain summary', () => {
  it('the units without the interval are the summary\'s units missing from the mapped ones (grey on the map, with a legend entry)', () => {
    const t = [{ value: 1, label: 'Central', iso3: 'KEN' }, { value: 2, label: 'Eastern', iso3: 'KEN' }, { value: 3, label: 'Coast', iso3: 'KEN' }, { value: 4, label: 'Kampala', iso3: 'UGA' }];
    const units = [
      { ISO3: 'KEN', ADM1_NAME_ALT: 'Central', ELEV_ZONE: '(2000,3000]', ELEVATION: 2400 },
      { ISO3: 'KEN', ADM1_NAME_ALT: 'Central', ELEV_ZONE: '(1000,2000]', ELEVATION: 1600 },
      { ISO3: 'KEN', ADM1_NAME_ALT: 'Coast', ELEV_ZONE: '[0,1000]', ELEVATION: 200 },
      { ISO3: 'KEN', ADM1_NAME_ALT: 'Eastern', ELEV_ZONE: '(2000,3000]', ELEVATION: 2620 },
    ];
    // mapped: the units with (2000,3000]; Coast has none; Kampala is not in the summary
    expect(unitsWithout(units, 'ADM1_NAME_ALT', t, 'label', new Map([[1, 2400], [2, 2620]]))).toEqual([3]);
    expect(unitsWithout(units, 'ADM1_NAME_ALT', t, 'label', new Map([[1, 2400], [2, 2620], [3, 200]]))).toEqual([]);
  });
});
