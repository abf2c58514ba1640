// getLayerWKT `totals`: a shape that crosses borders gets its whole-shape row (no ISO3) before its
// per-country rows, computed from the cells; checked on the embedded bundle against the
// arithmetic of its own per-country rows (a sum is the sum of the parts; an area-weighted mean is
// the parts' means weighted by their areas), which no averaging of country summaries satisfies.
import { expect, test } from 'vitest';
import { createNodeEngine } from '../../src/node/engine';

const engine = createNodeEngine('public/data');
// around Busia, across the Kenya-Uganda border; and a shape inside Kenya (Nairobi)
const WKT = 'GEOMETRYCOLLECTION (POLYGON ((33.9 0.1, 35.2 0.1, 35.2 0.9, 33.9 0.9, 33.9 0.1)), POLYGON ((36.6 -1.5, 37.1 -1.5, 37.1 -1.1, 36.6 -1.1, 36.6 -1.5)))';

test('a border-crossing shape gets one whole-shape row first; a shape in one country none', async () => {
  const t = await engine.getLayerWKT({ var: ['AREA_TOTAL', 'ELEVATION'], wkt: WKT, totals: true });
  const f1 = t.rows.filter((r) => r.feature === 1);
  expect(f1.map((r) => r.ISO3 ?? null)).toEqual([null, 'KEN', 'UGA']);
  expect(f1[0].ADM0_NAME).toBeUndefined();
  const parts = f1.slice(1);
  const area = parts.reduce((s, r) => s + Number(r.AREA_TOTAL), 0);
  expect(Number(f1[0].AREA_TOTAL)).toBeCloseTo(area, 0);
  const elev = parts.reduce((s, r) => s + Number(r.ELEVATION) * Number(r.AREA_TOTAL), 0) / area;
  expect(Math.abs(Number(f1[0].ELEVATION) - elev)).toBeLessThan(1); // rounding of the parts only
  const plainMean = parts.reduce((s, r) => s + Number(r.ELEVATION), 0) / parts.length;
  expect(Math.abs(plainMean - elev)).toBeGreaterThan(1); // the unweighted average of the parts would be wrong here
  expect(t.rows.filter((r) => r.feature === 2).map((r) => r.ISO3)).toEqual(['KEN']);
});

test('without totals the rows are per country only, as the original getLayerWKT', async () => {
  const t = await engine.getLayerWKT({ var: ['AREA_TOTAL'], wkt: WKT });
  expect(t.rows.every((r) => typeof r.ISO3 === 'string')).toBe(true);
  expect(t.rows.filter((r) => r.feature === 1)).toHaveLength(2);
});
