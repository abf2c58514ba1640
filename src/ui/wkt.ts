/**
 * WKT <-> GeoJSON for showing areas on the map and writing drawn shapes (OGC 06-103r4
 * Simple Features WKT: POINT, MULTIPOINT, POLYGON, MULTIPOLYGON, GEOMETRYCOLLECTION of
 * those). Parsing and validation use the core's parser (the engine's), so messages
 * match what the query would report.
 */
import type { Feature, FeatureCollection, Geometry, Position } from 'geojson';
import { parseWkt } from '../core/wkt/parse';

/**
 * Parses WKT with the core parser into a flat list of geometries (collections flattened).
 * @throws IndapiError BAD_WKT with the column of the offending token
 */
export function parseWktGeometries(wkt: string): Geometry[] {
  const flat = (g: Geometry): Geometry[] => (g.type === 'GeometryCollection' ? g.geometries.flatMap(flat) : [g]);
  return flat(parseWkt(wkt));
}

/** WKT to a FeatureCollection (one feature per geometry). @throws IndapiError BAD_WKT */
export function wktToFeatures(wkt: string): FeatureCollection {
  return { type: 'FeatureCollection', features: parseWktGeometries(wkt).map((g, k): Feature => ({ type: 'Feature', properties: { id: k + 1 }, geometry: g })) };
}

const fmt = (p: Position) => `${+p[0].toFixed(6)} ${+p[1].toFixed(6)}`;
const ringTxt = (r: Position[]) => `(${r.map(fmt).join(', ')})`;

/** GeoJSON geometry (Point, MultiPoint, Polygon, MultiPolygon) to WKT. */
export function geometryToWkt(g: Geometry): string {
  switch (g.type) {
    case 'Point': return `POINT (${fmt(g.coordinates)})`;
    case 'MultiPoint': return `MULTIPOINT (${g.coordinates.map((p) => `(${fmt(p)})`).join(', ')})`;
    case 'Polygon': return `POLYGON (${g.coordinates.map(ringTxt).join(', ')})`;
    case 'MultiPolygon': return `MULTIPOLYGON (${g.coordinates.map((pl) => `(${pl.map(ringTxt).join(', ')})`).join(', ')})`;
    case 'GeometryCollection': return `GEOMETRYCOLLECTION (${g.geometries.map(geometryToWkt).join(', ')})`;
    default: throw new Error(`Unsupported geometry ${g.type}`);
  }
}

/** Adds a geometry to a WKT text: one shape stays as is, several become a GEOMETRYCOLLECTION. */
export function appendWkt(wkt: string, g: Geometry): string {
  const existing = wkt.trim() ? parseWktGeometries(wkt) : [];
  const all = [...existing, g];
  return all.length === 1 ? geometryToWkt(all[0]) : geometryToWkt({ type: 'GeometryCollection', geometries: all });
}
