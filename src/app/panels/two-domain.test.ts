import { describe, expect, test } from 'vitest';
import type { Row } from '../../core/types';
import { shareColumn, sliceRows, splitDomains, unitOrder, withShares } from './two-domain';

// Cell area of two Ethiopian provinces by ELEVATION intervals (0, 1500, 6000), with the NA group and the country total
const ROWS: Row[] = [
  { ISO3: 'ETH', ADM1_NAME_ALT: 'Somali', ELEVATION: '(0,1.5e+03]', AREA_TOTAL: 290000 },
  { ISO3: 'ETH', ADM1_NAME_ALT: 'Somali', ELEVATION: '(1.5e+03,6e+03]', AREA_TOTAL: 10000 },
  { ISO3: 'ETH', ADM1_NAME_ALT: 'Oromiya', ELEVATION: '(0,1.5e+03]', AREA_TOTAL: 100000 },
  { ISO3: 'ETH', ADM1_NAME_ALT: 'Oromiya', ELEVATION: '(1.5e+03,6e+03]', AREA_TOTAL: 190000 },
  { ISO3: 'ETH', ADM1_NAME_ALT: 'Oromiya', ELEVATION: null, AREA_TOTAL: 10000 },
  { ISO3: 'ETH', total: 1, AREA_TOTAL: 600000 },
];
const ORDERS = { ELEVATION: ['(0,1.5e+03]', '(1.5e+03,6e+03]'] };

describe('summaries by two domains', () => {
  test('the units run along the bars, the intervals in colours, whatever the request order', () => {
    expect(splitDomains(ROWS, ['ADM1_NAME_ALT', 'ELEVATION'], ORDERS)).toEqual({ unit: 'ADM1_NAME_ALT', group: 'ELEVATION' });
    expect(splitDomains(ROWS, ['ELEVATION', 'ADM1_NAME_ALT'], ORDERS)).toEqual({ unit: 'ADM1_NAME_ALT', group: 'ELEVATION' });
    expect(splitDomains(ROWS, ['ADM1_NAME_ALT'], ORDERS)).toBeNull();
  });
  test('shares of each unit\'s total (its NA group included) add to 100; the total row gets none', () => {
    const d = { unit: 'ADM1_NAME_ALT', group: 'ELEVATION' };
    const s = withShares(ROWS, d, 'AREA_TOTAL');
    const col = shareColumn('AREA_TOTAL');
    const want = [290000 / 300000 * 100, 10000 / 300000 * 100, 100 / 3, 190 / 3, 10 / 3];
    want.forEach((w, i) => expect(s[i][col]).toBeCloseTo(w, 10));
    expect(s[5][col]).toBeUndefined();
    // Somali's bar above 1,500 m is its area above 1,500 m, not its whole area
    expect(sliceRows(s, d, '(1.5e+03,6e+03]').map((r) => [r.ADM1_NAME_ALT, r.AREA_TOTAL])).toEqual([['Somali', 10000], ['Oromiya', 190000]]);
    expect(unitOrder(ROWS.slice(0, 4), 'AREA_TOTAL', (r) => String(r.ADM1_NAME_ALT))).toEqual(['Somali', 'Oromiya']); // 300,000 km² against 290,000
  });
});
