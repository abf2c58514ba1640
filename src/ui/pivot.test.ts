import { describe, expect, test } from 'vitest';
import type { Row } from '../core/types';
import { NA_KEY, pivotGrid, pivotRows } from './pivot';

// Fixture rows (made-up values) shaped as getLayer answers them: a mean indicator, so totals
// are not sums of cells and must come from the totals' own rows.
const cells: Row[] = [
  { ISO3: 'AAA', ADM0_NAME: 'Fixtureland', total: 1, V: 50 },
  { ISO3: 'AAA', ADM0_NAME: 'Fixtureland', R: 'North', C: 'high', V: 80 },
  { ISO3: 'AAA', ADM0_NAME: 'Fixtureland', R: 'North', C: 'low', V: 20 },
  { ISO3: 'AAA', ADM0_NAME: 'Fixtureland', R: 'South', C: 'low', V: 10 },
  { ISO3: 'AAA', ADM0_NAME: 'Fixtureland', R: 'South', C: null, V: 5 },
];
const rowTotals: Row[] = [
  { ISO3: 'AAA', ADM0_NAME: 'Fixtureland', total: 1, V: 50 },
  { ISO3: 'AAA', ADM0_NAME: 'Fixtureland', R: 'North', V: 60 },
  { ISO3: 'AAA', ADM0_NAME: 'Fixtureland', R: 'South', V: 9 },
];
const colTotals: Row[] = [
  { ISO3: 'AAA', ADM0_NAME: 'Fixtureland', total: 1, V: 50 },
  { ISO3: 'AAA', ADM0_NAME: 'Fixtureland', C: 'low', V: 15 },
  { ISO3: 'AAA', ADM0_NAME: 'Fixtureland', C: 'high', V: 80 },
  { ISO3: 'AAA', ADM0_NAME: 'Fixtureland', C: null, V: 5 },
];

describe('pivotRows', () => {
  test('cells by row x column, totals from the totals queries, key orders, NA last', () => {
    const p = pivotRows({ cells, rowTotals, colTotals, rowKey: 'R', colKey: 'C', value: 'V', colOrder: ['low', 'high'] });
    expect(p.colKeys).toEqual(['low', 'high', NA_KEY]);
    expect(p.blocks).toHaveLength(1);
    const b = p.blocks[0];
    expect(b.name).toBe('Fixtureland');
    expect(b.rows).toEqual([
      { key: 'North', values: [20, 80, null], total: 60 },
      { key: 'South', values: [10, null, 5], total: 9 },
    ]);
    expect(b.colTotals).toEqual([15, 80, 5]);
    expect(b.total).toBe(50);
  });

  test('one block per country, and the flat grid has a country column then', () => {
    const two = (rs: Row[]): Row[] => [...rs, ...rs.map((r) => ({ ...r, ISO3: 'BBB', ADM0_NAME: 'Otherland', V: (r.V as number) * 2 }))];
    const p = pivotRows({ cells: two(cells), rowTotals: two(rowTotals), colTotals: two(colTotals), rowKey: 'R', colKey: 'C', value: 'V' });
    expect(p.blocks.map((b) => b.iso3)).toEqual(['AAA', 'BBB']);
    expect(p.blocks[1].total).toBe(100);
    const g = pivotGrid(p, { row: 'Region', country: 'ISO3' });
    expect(g[0]).toEqual(['ISO3', 'Region', 'high', 'low', NA_KEY, 'Total']);
    expect(g[3]).toEqual(['AAA', 'Fixtureland total', 80, 15, 5, 50]);
    expect(g[6]).toEqual(['BBB', 'Otherland total', 160, 30, 10, 100]);
    expect(pivotGrid(pivotRows({ cells, rowTotals, colTotals, rowKey: 'R', colKey: 'C', value: 'V' }), { row: 'Region' })[0][0]).toBe('Region');
  });
});

describe('pivotRows with the country as a domain', () => {
  test('single block: ISO3 is a key, not a block', () => {
    const c: Row[] = [{ total: 1, V: 9 }, { G: 'low', ISO3: 'AAA', V: 4 }, { G: 'high', ISO3: 'BBB', V: 5 }];
    const p = pivotRows({ cells: c, rowTotals: [{ total: 1, V: 9 }, { G: 'low', V: 4 }, { G: 'high', V: 5 }], colTotals: [{ total: 1, V: 9 }, { ISO3: 'AAA', V: 4 }, { ISO3: 'BBB', V: 5 }], rowKey: 'G', colKey: 'ISO3', value: 'V', single: 'EAF' });
    expect(p.blocks).toHaveLength(1);
    expect(p.blocks[0]).toMatchObject({ name: 'EAF', total: 9, colTotals: [4, 5] });
    expect(p.blocks[0].rows).toEqual([{ key: 'high', values: [null, 5], total: 5 }, { key: 'low', values: [4, null], total: 4 }]);
  });
});
