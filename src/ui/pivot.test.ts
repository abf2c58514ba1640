import { describe, expect, test } from 'vitest';
import type { Row } from '../core/types';
import type { CellResult, Engine, TableResult } from '../core/api';
import { ALL_SELECTED, fetchTableData, tablePivot, YEAR_DOMAIN, NA_KEY, pivotCsv, pivotGrid, pivotPercent, pivotRows, type Pivot } from './pivot';

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
    expect(b.totalLabel).toBe('Total');
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

describe('totals over every selected country ("All selected")', () => {
  // Fixture rows (made-up values): two countries and their union; the union's totals are the
  // engine's figures over all cells, here deliberately not the mean or sum of the countries'.
  const two = (rs: Row[]): Row[] => [...rs, ...rs.map((r) => ({ ...r, ISO3: 'BBB', ADM0_NAME: 'Otherland', V: (r.V as number) * 2 }))];
  const pooled = (rs: Row[], k: number): Row[] => rs.map(({ ISO3: _i, ADM0_NAME: _n, ...r }) => ({ ...r, V: (r.V as number) + k }));
  const all = { cells: pooled(cells, 1), rowTotals: pooled(rowTotals, 2), colTotals: pooled(colTotals, 3) };

  test('a last block with the union\'s own cells, row totals, column totals and total, labelled in the grid', () => {
    const p = pivotRows({ cells: two(cells), rowTotals: two(rowTotals), colTotals: two(colTotals), rowKey: 'R', colKey: 'C', value: 'V', all });
    expect(p.blocks.map((b) => [b.iso3, b.name, b.totalLabel, !!b.all])).toEqual([
      ['AAA', 'Fixtureland', 'Fixtureland total', false], ['BBB', 'Otherland', 'Otherland total', false], ['', ALL_SELECTED, `${ALL_SELECTED} total`, true],
    ]);
    const u = p.blocks[2];
    expect(u.total).toBe(51 + 0 * 2); // the union's overall row of the cells summary (50 + 1), not 50 + 100 nor their mean
    expect(u.rows).toEqual([{ key: 'North', values: [80 + 1, 20 + 1, null], total: 62 }, { key: 'South', values: [null, 11, 6], total: 11 }]);
    expect(u.colTotals).toEqual([83, 18, 8]);
    const g = pivotGrid(p, { row: 'Region', country: 'ISO3' });
    expect(g.at(-1)).toEqual([ALL_SELECTED, `${ALL_SELECTED} total`, 83, 18, 8, 51]);
    expect(g.at(-3)).toEqual([ALL_SELECTED, 'North', 81, 21, null, 62]);
  });

  test('missing totals stay missing (null), a 0 (sum over cells without values, as R) stays 0', () => {
    const p = pivotRows({
      cells: [{ total: 1, V: 0 }, { R: 'a', C: 'x', V: 0 }, { R: 'b', C: 'x' }],
      rowTotals: [{ total: 1, V: 0 }, { R: 'a', V: 0 }, { R: 'b' }], colTotals: [{ total: 1 }, { C: 'x' }],
      rowKey: 'R', colKey: 'C', value: 'V', single: 'EAF',
    });
    expect(p.blocks[0].rows).toEqual([{ key: 'a', values: [0], total: 0 }, { key: 'b', values: [null], total: null }]);
    expect(p.blocks[0].colTotals).toEqual([null]);
    expect(p.blocks[0].total).toBe(0); // the cells summary's overall row comes first
  });

  test('rows by a unit layer: the union block keeps only its totals row; units of several countries in one block carry their country', () => {
    const unit = (rs: Row[]) => rs.map((r) => (r.R === undefined ? r : { ...r, ISO3: r.R === 'North' ? 'AAA' : 'BBB' }));
    const p = pivotRows({ cells: two(cells), rowTotals: two(rowTotals), colTotals: two(colTotals), rowKey: 'R', colKey: 'C', value: 'V', all: { cells: unit(all.cells), rowTotals: unit(all.rowTotals), colTotals: all.colTotals } });
    expect(p.blocks[2].rows).toEqual([]);
    expect(p.blocks[2].total).toBe(51);
    const q = pivotRows({ cells: unit(all.cells), rowTotals: unit(all.rowTotals), colTotals: all.colTotals, rowKey: 'R', colKey: 'C', value: 'V', single: ALL_SELECTED });
    expect(q.blocks[0].rows.map((r) => r.key)).toEqual(['North (AAA)', 'South (BBB)']);
  });
});

// ---- the queries, with a recording fixture engine (made-up rows); with the real engine and R:
// tests/engine/table-totals.interop.test.ts

function recorder() {
  const calls: Array<{ method: string; args: any }> = [];
  const t = (rows: Row[]): TableResult => ({ rows, columns: [], meta: [] });
  const engine: Pick<Engine, 'getLayerTable' | 'getLayerCells'> = {
    getLayerTable: async (a) => { calls.push({ method: 'getLayerTable', args: a }); return t([{ total: 1, V: 1 }]); },
    getLayerCells: async (a) => {
      calls.push({ method: 'getLayerCells', args: a });
      // a 2 x 2 window at global row 1000, column 2000, with three selected cells
      return { grid: { crs: 'EPSG:4326', cellSizeDeg: 1 / 12, xmin: 0, ymin: 0, xmax: 1 / 6, ymax: 1 / 6, width: 2, height: 2, colOffset: 2000, rowOffset: 1000 }, mask: Uint8Array.from([1, 0, 1, 1]), layers: [], meta: [] } as CellResult;
    },
  };
  return { calls, engine };
}

describe('fetchTableData: one engine call per total kind', () => {
  test('one code: cells, row totals, column totals', async () => {
    const f = recorder();
    const d = await fetchTableData(f.engine, { value: 'V', iso3: ['KEN'], row: 'R', col: 'C' });
    expect(f.calls.map((c) => `${c.method}:${JSON.stringify(c.args.by)}`)).toEqual(['getLayerTable:["R","C"]', 'getLayerTable:["R"]', 'getLayerTable:["C"]']);
    expect(d.union).toBe(false);
    expect(d.all).toBeUndefined();
  });

  test('several codes: per code and over the union of their cells (the engine pools them)', async () => {
    const f = recorder();
    const d = await fetchTableData(f.engine, { value: 'V', iso3: ['KEN', 'ETH'], row: 'R', col: 'C' });
    expect(f.calls).toHaveLength(6);
    expect(f.calls.every((c) => c.method === 'getLayerTable')).toBe(true);
    const tables = f.calls.map((c) => c.args);
    expect(tables.filter((a) => !a.pooled).map((a) => [a.by, a.iso3])).toEqual([[['R', 'C'], ['KEN', 'ETH']], [['R'], ['KEN', 'ETH']], [['C'], ['KEN', 'ETH']]]);
    expect(tables.filter((a) => a.pooled).map((a) => [a.by, a.iso3])).toEqual([[['R', 'C'], ['KEN', 'ETH']], [['R'], ['KEN', 'ETH']], [['C'], ['KEN', 'ETH']]]);
    expect(d.all).toBeDefined();
  });

  test('several codes and the country as a domain: only the union\'s three summaries', async () => {
    const f = recorder();
    const d = await fetchTableData(f.engine, { value: 'V', iso3: ['KEN', 'ETH'], row: 'R', col: 'ISO3' });
    expect(f.calls.map((c) => c.method)).toEqual(['getLayerTable', 'getLayerTable', 'getLayerTable']);
    expect(f.calls.every((c) => c.args.pooled === true)).toBe(true);
    expect(d.union).toBe(true);
  });
});

describe('pivotCsv (the Table download)', () => {
  test('text a spreadsheet would run gets a leading \', numbers stay numbers (issue 25 item 7)', () => {
    const csv = pivotCsv([['Region', '=HYPERLINK("http://x")', 'Total'], ['@SUM(1)', -1.5, null], ['-2+3+cmd|x', 2, -3]]);
    expect(csv).toBe('Region,"\'=HYPERLINK(""http://x"")",Total\r\n"\'@SUM(1)",-1.5,\r\n"\'-2+3+cmd|x",2,-3\r\n');
  });
});

describe('pivotPercent: row, column and total percentage views with consistent totals', () => {
  // Cell area (km2) of two provinces by two elevation zones, with totals as the engine gives them for a sum
  const base: Pivot = {
    colKeys: ['low', 'high'], totalCol: 'Total',
    blocks: [{ iso3: 'ETH', name: 'Ethiopia', totalLabel: 'Total', total: 600, colTotals: [400, 200],
      rows: [{ key: 'Somali', values: [290, 10], total: 300 }, { key: 'Oromiya', values: [110, 190], total: 300 }] }],
  };
  const sum = (xs: Array<number | null>) => xs.reduce<number>((s, x) => s + (x ?? 0), 0);
  test('row %: each row adds to its 100; the totals row is each column\'s share of the whole', () => {
    const b = pivotPercent(base, 'row').blocks[0];
    for (const r of b.rows) { expect(sum(r.values)).toBeCloseTo(100, 10); expect(r.total).toBe(100); }
    expect(b.rows[0].values[0]).toBeCloseTo(96.667, 3);
    expect(b.colTotals[0]).toBeCloseTo(400 / 6, 10);
    expect(sum(b.colTotals)).toBeCloseTo(100, 10);
    expect(b.total).toBe(100);
  });
  test('column %: each column adds to its 100; the totals column is each row\'s share', () => {
    const b = pivotPercent(base, 'col').blocks[0];
    expect(b.rows[0].values[0]! + b.rows[1].values[0]!).toBeCloseTo(100, 10);
    expect(b.rows[0].values[1]! + b.rows[1].values[1]!).toBeCloseTo(100, 10);
    expect(b.colTotals).toEqual([100, 100]);
    expect(b.rows.map((r) => r.total)).toEqual([50, 50]);
  });
  test('% of total: every cell over the block total, all cells add to 100; missing or 0 denominators give null', () => {
    const b = pivotPercent(base, 'total').blocks[0];
    expect(sum(b.rows.flatMap((r) => r.values))).toBeCloseTo(100, 10);
    expect(b.total).toBe(100);
    const z = pivotPercent({ ...base, blocks: [{ ...base.blocks[0], rows: [{ key: 'x', values: [null, 5], total: 0 }] }] }, 'row').blocks[0];
    expect(z.rows[0].values).toEqual([null, null]);
  });
});

describe('years of a series as a domain', () => {
  // a long answer by [R] over two years, as the engine gives it (made-up values): each year's overall row is total: 1
  const long: Row[] = [
    { ISO3: 'AAA', total: 1, year: 2000, S: 10 },
    { ISO3: 'AAA', R: 'North', year: 2000, S: 4 },
    { ISO3: 'AAA', R: 'South', year: 2000, S: 6 },
    { ISO3: 'AAA', total: 1, year: 2017, S: 15 },
    { ISO3: 'AAA', R: 'North', year: 2017, S: 7 },
  ];
  const engine = (calls: any[]): Pick<Engine, 'getLayerTable'> => ({
    getLayerTable: async (a) => { calls.push(a); return { rows: long, columns: [], meta: [] }; },
  });

  test('one long query by the other domain; years as columns with their totals, none over years', async () => {
    const calls: any[] = [];
    const a = { value: 'S', iso3: ['AAA'], row: 'R', col: YEAR_DOMAIN, years: [2000, 2017] };
    const d = await fetchTableData(engine(calls), a, {}, async () => ['South', 'North']);
    expect(calls.map((c) => [c.var, c.by, c.year])).toEqual([[['S'], ['R'], [2000, 2017]]]);
    const p = tablePivot(a, d);
    expect(p.colKeys).toEqual(['2000', '2017']);
    expect(p.blocks[0].rows).toEqual([
      { key: 'South', values: [6, null], total: null },
      { key: 'North', values: [4, 7], total: null },
    ]);
    expect(p.blocks[0].colTotals).toEqual([10, 15]);
    expect(p.blocks[0].total).toBeNull();
  });

  test('years as rows, in increasing order', async () => {
    const a = { value: 'S', iso3: ['AAA'], row: YEAR_DOMAIN, col: 'R', years: [2000, 2017] };
    const p = tablePivot(a, await fetchTableData(engine([]), a));
    expect(p.blocks[0].rows).toEqual([
      { key: '2000', values: [4, 6], total: 10 },
      { key: '2017', values: [7, null], total: 15 },
    ]);
    expect(p.blocks[0].colTotals).toEqual([null, null]);
  });
});
