import { expect, test } from 'vitest';
import { appendWkt, geometryToWkt, parseWktGeometries } from './wkt';

test('parses the supported WKT types and writes them back', () => {
  const g = parseWktGeometries('GEOMETRYCOLLECTION(POINT(36.8 -1.3), POLYGON((36 -1,37 -1,37 0,36 0,36 -1)), MULTIPOINT((1 2),(3 4)))');
  expect(g.map((x) => x.type)).toEqual(['Point', 'Polygon', 'MultiPoint']);
  expect(geometryToWkt(g[1])).toBe('POLYGON ((36 -1, 37 -1, 37 0, 36 0, 36 -1))');
  expect(parseWktGeometries(geometryToWkt(g[2]))).toEqual([g[2]]);
});

test('reports the column of the first error (core parser)', () => {
  expect(() => parseWktGeometries('POINT(36.8 x)')).toThrow(/column 12/);
});

test('appending drawn shapes makes a collection', () => {
  const w = appendWkt('POINT (1 2)', { type: 'Point', coordinates: [3, 4] });
  expect(w).toBe('GEOMETRYCOLLECTION (POINT (1 2), POINT (3 4))');
  expect(appendWkt('', { type: 'Point', coordinates: [3, 4] })).toBe('POINT (3 4)');
});
