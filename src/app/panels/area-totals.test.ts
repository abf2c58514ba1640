import { expect, test } from 'vitest';
import { areasWithTotals, SHAPE_TOTAL } from './area-totals';
import type { TableResult } from '../../core/api';

// Fixture engine: made-up rows; classify gives the whole-shape rows.
const fixture = (rows: TableResult['rows'], totals: TableResult['rows']) => {
  const calls: string[] = [];
  return {
    calls,
    engine: {
      getLayerWKT: async () => { calls.push('wkt'); return { rows, columns: [], meta: [] }; },
      classify: async (a: any) => { calls.push(`classify:${a.key}:${a.domains.features.length}`); return { rows: totals, columns: [], meta: [] }; },
    },
  };
};

test('a shape across borders gets the engine total of the whole shape first; one-country shapes none', async () => {
  const f = fixture(
    [{ feature: 1, ISO3: 'KEN', A: 10 }, { feature: 1, ISO3: 'UGA', A: 30 }, { feature: 2, ISO3: 'KEN', A: 5 }],
    [{ feature: 1, A: 25 }, { feature: 2, A: 5 }],
  );
  const r = await areasWithTotals(f.engine as any, { var: ['A'], wkt: 'GEOMETRYCOLLECTION (POLYGON ((33 -2, 35 -2, 35 0, 33 -2)), POINT (36 -1))' }, {});
  expect(f.calls).toEqual(['wkt', 'classify:feature:2']);
  expect(r.rows).toEqual([{ feature: 1, A: 25, [SHAPE_TOTAL]: 1 }, { feature: 1, ISO3: 'KEN', A: 10 }, { feature: 1, ISO3: 'UGA', A: 30 }, { feature: 2, ISO3: 'KEN', A: 5 }]);
  const g = fixture([{ feature: 1, ISO3: 'KEN', A: 10 }], []);
  await areasWithTotals(g.engine as any, { var: ['A'], wkt: 'POINT (36 -1)' }, {});
  expect(g.calls).toEqual(['wkt']);
});
