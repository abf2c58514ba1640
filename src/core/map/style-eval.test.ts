import { describe, expect, test } from 'vitest';
import { passes, styleValue, UnsupportedExpression, type ExprContext } from './style-eval';

const at = (zoom: number, props: Record<string, unknown> = {}, geometryType = 'LineString'): ExprContext => ({ zoom, props, geometryType });

describe('style values of the app map, evaluated by the style spec', () => {
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
    const w = (z: number, cls: number) => styleValue('line', 'paint', 'line-width', width, at(z, { class: cls })) as number;
    expect(w(3, 1)).toBeCloseTo(0.8, 12);
    expect(w(5.5, 1)).toBeCloseTo(1.4, 12); // halfway from 0.8 to 2
    expect(w(5.5, 2)).toBeCloseTo(0.8, 12); // halfway from 0.4 to 1.2
    expect(w(1, 2)).toBeCloseTo(0.4, 12);
    expect(w(12, 1)).toBe(2);
  });

  test('colours come back as canvas rgba strings; match on the unit with a default', () => {
    const fill = ['match', ['get', 'value'], 3, '#ff0000', 7, '#00ff00', 'rgba(0,0,0,0)'];
    expect(styleValue('fill', 'paint', 'fill-color', fill, at(5, { value: 7 }, 'Polygon'))).toBe('rgba(0,255,0,1)');
    expect(styleValue('fill', 'paint', 'fill-color', fill, at(5, { value: 8 }, 'Polygon'))).toBe('rgba(0,0,0,0)');
    expect(styleValue('fill', 'paint', 'fill-color', '#abcdef', at(5))).toBe('rgba(171,205,239,1)');
    expect(passes(['==', ['geometry-type'], 'Polygon'], at(5, {}, 'Polygon'))).toBe(true);
    expect(passes(['==', ['geometry-type'], 'Polygon'], at(5, {}, 'Point'))).toBe(false);
  });

  test('exponential interpolation, step, case, coalesce and colour interpolation', () => {
    expect(styleValue('line', 'paint', 'line-width', ['interpolate', ['exponential', 2], ['zoom'], 0, 0, 2, 3], at(1))).toBeCloseTo(1, 12);
    expect(styleValue('line', 'layout', 'line-join', ['step', ['zoom'], 'bevel', 3, 'round', 6, 'miter'], at(4))).toBe('round');
    expect(styleValue('circle', 'paint', 'circle-radius', ['case', ['==', ['get', 'k'], 1], 4, 2], at(0, { k: 1 }, 'Point'))).toBe(4);
    expect(styleValue('circle', 'paint', 'circle-radius', ['coalesce', ['get', 'nope'], 5], at(0, {}, 'Point'))).toBe(5);
    // interpolated colours (the old subset refused them): halfway from black to white
    expect(styleValue('fill', 'paint', 'fill-color', ['interpolate', ['linear'], ['zoom'], 0, '#000000', 2, '#ffffff'], at(1))).toBe('rgba(128,128,128,1)');
  });

  test('what needs a live map or does not compile is refused, so the export can draw the map another way', () => {
    expect(() => styleValue('fill', 'paint', 'fill-color', ['feature-state', 'hover'], at(0))).toThrow(UnsupportedExpression);
    expect(() => styleValue('fill', 'paint', 'fill-color', ['no-such-operator', 1], at(0))).toThrow(UnsupportedExpression);
    expect(() => styleValue('fill', 'paint', 'no-such-property', 1, at(0))).toThrow(UnsupportedExpression);
    expect(() => passes(['no-such-operator'], at(0))).toThrow(UnsupportedExpression);
  });

});
