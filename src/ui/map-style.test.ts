import { expect, test } from 'vitest';
import { passes, styleValue, type ExprContext } from '../core/map/style-eval';
import { baseStyle, EMPTY } from './map-style';

test('every paint and layout value and filter of the app style compiles with the style spec (the export draws them all)', () => {
  const c: ExprContext = { zoom: 5, props: {}, geometryType: 'Polygon' };
  let n = 0;
  for (const l of baseStyle(EMPTY).layers as Array<{ type: string; paint?: Record<string, unknown>; layout?: Record<string, unknown>; filter?: unknown }>) {
    for (const g of ['paint', 'layout'] as const) for (const [p, v] of Object.entries(l[g] ?? {})) { styleValue(l.type, g, p, v, c); n++; }
    passes(l.filter, c);
  }
  expect(n).toBeGreaterThan(5);
});
