import { describe, expect, test } from 'vitest';
import { nameKey, shapeNames, shapesOf, shapesWkt, uploadKind, UploadError } from './upload';

// Fixture shapes (made up) around Nairobi.
const sq = [[36.7, -1.4], [36.9, -1.4], [36.9, -1.2], [36.7, -1.2], [36.7, -1.4]];
const fc = {
  type: 'FeatureCollection',
  features: [
    { type: 'Feature', properties: { name: 'Fixture square' }, geometry: { type: 'Polygon', coordinates: [sq] } },
    { type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: [[36, -1], [37, -1]] } },
    { type: 'Feature', properties: { NAME: 'Fixture point' }, geometry: { type: 'Point', coordinates: [36.8, -1.3, 1600] } },
  ],
};

describe('uploaded shapes', () => {
  test('polygons and points kept with their names, lines left out with a note, z dropped', () => {
    const s = shapesOf(fc);
    expect(s.names).toEqual(['Fixture square', 'Fixture point']);
    expect(s.notes).toEqual(['1 line feature left out (only polygons and points are summarised).']);
    expect(shapesWkt(s.geometries)).toBe('GEOMETRYCOLLECTION (POLYGON ((36.7 -1.4, 36.9 -1.4, 36.9 -1.2, 36.7 -1.2, 36.7 -1.4)), POINT (36.8 -1.3))');
  });
  test('a feature of several parts stays one shape', () => {
    const g = { type: 'GeometryCollection', geometries: [{ type: 'Polygon', coordinates: [sq] }, { type: 'Polygon', coordinates: [sq.map(([x, y]) => [x + 1, y])] }] };
    expect(shapesWkt(shapesOf(g).geometries)).toMatch(/^MULTIPOLYGON \(\(\(36.7 -1.4/);
  });
  test('no polygons or points, projected coordinates, a crs member: clear errors', () => {
    const err = (f: () => unknown) => { try { f(); } catch (e) { return e as UploadError; } throw new Error('no error'); };
    expect(err(() => shapesOf({ type: 'LineString', coordinates: [[0, 0], [1, 1]] })).code).toBe('NO_SHAPES');
    expect(err(() => shapesOf({ type: 'Point', coordinates: [3_800_000, -150_000] })).code).toBe('BAD_CRS');
    const e = err(() => shapesOf({ ...fc, crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::32737' } } }));
    expect(e.code).toBe('BAD_CRS');
    expect(e.message).toContain('EPSG::32737');
    expect(shapesOf({ ...fc, crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:OGC:1.3:CRS84' } } }).geometries).toHaveLength(2);
  });
  test('kinds by name and first bytes', () => {
    const b = (s: string) => new TextEncoder().encode(s);
    expect(uploadKind('a.geojson', b('{'))).toBe('geojson');
    expect(uploadKind('a.zip', new Uint8Array([0x50, 0x4b, 3, 4]))).toBe('zip');
    expect(uploadKind('a.kmz', new Uint8Array([0x50, 0x4b, 3, 4]))).toBe('kmz');
    expect(uploadKind('a.kml', b('<?xml'))).toBe('kml');
    expect(uploadKind('a.txt', b('  {"type"'))).toBe('geojson');
    expect(uploadKind('a.csv', b('x,y'))).toBeNull();
  });
  test('names: first name-like property (name, ADM*_NAME, id; any case), else the number; a chosen property', () => {
    expect(nameKey({ id: 7, Name: 'A' })).toBe('Name');
    expect(nameKey({ ADM2_NAME: 'B', id: 3 })).toBe('ADM2_NAME');
    expect(nameKey({ fid: 3, ID: 'x1' })).toBe('ID');
    expect(nameKey({ area: 5 })).toBeUndefined();
    const props = [{ name: 'North', code: 'N1' }, { name: '', code: 'S1' }, { code: 'E1' }];
    expect(shapeNames(props)).toEqual(['North', '2', '3']);
    expect(shapeNames(props, 'code')).toEqual(['N1', 'S1', 'E1']);
    const s = shapesOf(fc);
    expect(s.keys).toEqual(['name', 'NAME']);
    expect(s.props).toHaveLength(2);
  });
});
