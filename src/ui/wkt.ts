/**
 * WKT <-> GeoJSON for showing areas on the map and writing drawn shapes (OGC 06-103r4
 * Simple Features WKT: POINT, MULTIPOINT, POLYGON, MULTIPOLYGON, GEOMETRYCOLLECTION of
 * those; 2D). The query engine has its own validating parser; this one is for display and
 * reports the character position of the first problem.
 */
import type { Feature, FeatureCollection, Geometry, Position } from 'geojson';

/** A parse failure with the 0-based character position. */
export class WktSyntaxError extends Error {
  constructor(message: string, readonly position: number) { super(`${message} at position ${position + 1}`); }
}

/** Parses WKT into a list of GeoJSON geometries (collections flattened). @throws WktSyntaxError */
export function parseWktGeometries(wkt: string): Geometry[] {
  let i = 0;
  const s = wkt;
  const ws = () => { while (i < s.length && /\s/.test(s[i])) i++; };
  const word = () => { ws(); const m = /^[A-Za-z]+/.exec(s.slice(i)); if (!m) throw new WktSyntaxError('Expected a geometry type', i); i += m[0].length; return m[0].toUpperCase(); };
  const ch = (c: string) => { ws(); if (s[i] !== c) throw new WktSyntaxError(`Expected "${c}"${i < s.length ? ` but found "${s[i]}"` : ' but the text ended'}`, i); i++; };
  const peek = () => { ws(); return s[i]; };
  const num = () => { ws(); const m = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/.exec(s.slice(i)); if (!m) throw new WktSyntaxError('Expected a number', i); i += m[0].length; return Number(m[0]); };
  const pos = (): Position => {
    const at = i; const x = num(); const y = num();
    if (x < -180 || x > 180 || y < -90 || y > 90) throw new WktSyntaxError(`Coordinate ${x} ${y} is not longitude latitude in degrees`, at);
    return [x, y];
  };
  const list = <T>(item: () => T): T[] => { ch('('); const out = [item()]; while (peek() === ',') { i++; out.push(item()); } ch(')'); return out; };
  const ring = () => {
    const at = i; const r = list(pos);
    if (r.length < 4) throw new WktSyntaxError('A polygon ring needs at least 4 points', at);
    const a = r[0], b = r[r.length - 1];
    if (a[0] !== b[0] || a[1] !== b[1]) throw new WktSyntaxError('A polygon ring must end at its first point', at);
    return r;
  };
  const empty = () => { ws(); if (/^EMPTY\b/i.test(s.slice(i))) { i += 5; return true; } return false; };
  const geom = (): Geometry[] => {
    const t = word();
    if (empty()) return [];
    switch (t) {
      case 'POINT': { ch('('); const p = pos(); ch(')'); return [{ type: 'Point', coordinates: p }]; }
      case 'MULTIPOINT': return [{ type: 'MultiPoint', coordinates: list(() => (peek() === '(' ? (() => { ch('('); const p = pos(); ch(')'); return p; })() : pos())) }];
      case 'POLYGON': return [{ type: 'Polygon', coordinates: list(ring) }];
      case 'MULTIPOLYGON': return [{ type: 'MultiPolygon', coordinates: list(() => list(ring)) }];
      case 'GEOMETRYCOLLECTION': return list(geom).flat();
      default: throw new WktSyntaxError(`Unsupported geometry type ${t} (use POINT, MULTIPOINT, POLYGON, MULTIPOLYGON or GEOMETRYCOLLECTION)`, i - t.length);
    }
  };
  const out = geom();
  ws();
  if (i < s.length) throw new WktSyntaxError(`Unexpected text "${s.slice(i, i + 12)}"`, i);
  return out;
}

/** WKT to a FeatureCollection (one feature per geometry). @throws WktSyntaxError */
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
