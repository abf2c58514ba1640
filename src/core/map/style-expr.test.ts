import { describe, expect, test } from 'vitest';
import { evalExpr, passes, UnsupportedExpression, type ExprContext } from './style-expr';

const at = (zoom: number, props: Record<string, unknown> = {}, geometryType = 'LineString'): ExprContext => ({ zoom, props, geometryType });

describe('style expressions of the app map', () => {
  // the rivers layer of src/ui/map-style.ts
  const filter = ['any', ['==', ['get', 'class'], 1], ['>=', ['zoom'], 4]];
  const width = ['interpolate', ['linear'], ['zoom'], 3, ['match', ['get', 'class'], 1, 0.8, 0.4], 8, ['match', ['get', 'class'], 1, 2, 1.2]];

  test('the rivers filter: major rivers always, the others from zoom 4', () => {
    expect(passes(filter, at(3, { class: 1 }))).toBe(true);
    expect(passes(filter, at(3, { class: 2 }))).toBe(false);
    expect(passes(filter, at(4, { class: 2 }))).toBe(true);
    expect(passes(undefined, at(0))).toBe(true);
  });

  test('the rivers width: linear in zoom between its stops, clamped outside them', () => {
    expect(evalExpr(width, at(3, { class: 1 }))).toBeCloseTo(0.8, 12);
    expect(evalExpr(width, at(5.5, { class: 1 }))).toBeCloseTo(1.4, 12); // halfway from 0.8 to 2
    expect(evalExpr(width, at(5.5, { class: 2 }))).toBeCloseTo(0.8, 12); // halfway from 0.4 to 1.2
    expect(evalExpr(width, at(1, { class: 2 }))).toBeCloseTo(0.4, 12);
    expect(evalExpr(width, at(12, { class: 1 }))).toBe(2);
  });

  test('the choropleth colour: match on the unit, a default for the others', () => {
    const fill = ['match', ['get', 'value'], 3, '#ff0000', 7, '#00ff00', 'rgba(0,0,0,0)'];
    expect(evalExpr(fill, at(5, { value: 7 }))).toBe('#00ff00');
    expect(evalExpr(fill, at(5, { value: 8 }))).toBe('rgba(0,0,0,0)');
    expect(evalExpr(['match', ['get', 'iso3'], ['KEN', 'UGA'], 'a', 'b'], at(5, { iso3: 'UGA' }))).toBe('a');
    expect(passes(['==', ['geometry-type'], 'Polygon'], at(5, {}, 'Polygon'))).toBe(true);
  });

  test('exponential interpolation, step, case and coalesce', () => {
    expect(evalExpr(['interpolate', ['exponential', 2], ['zoom'], 0, 0, 2, 3], at(1))).toBeCloseTo(1, 12); // (2^1 - 1) / (2^2 - 1) * 3
    expect(evalExpr(['step', ['zoom'], 'a', 3, 'b', 6, 'c'], at(4))).toBe('b');
    expect(evalExpr(['case', ['==', ['get', 'k'], 1], 'one', 'other'], at(0, { k: 1 }))).toBe('one');
    expect(evalExpr(['coalesce', ['get', 'nope'], 5], at(0))).toBe(5);
  });

  test('anything else is refused, so the export can draw the map another way', () => {
    expect(() => evalExpr(['feature-state', 'hover'], at(0))).toThrow(UnsupportedExpression);
    expect(() => evalExpr({ stops: [[0, 1]] }, at(0))).toThrow(UnsupportedExpression);
  });
});
