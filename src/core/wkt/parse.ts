/**
 * Well-Known Text parser (OGC 06-103r4 Simple Features, section 7) for the geometries the
 * service accepts: POINT, MULTIPOINT, POLYGON (with holes), MULTIPOLYGON and
 * GEOMETRYCOLLECTION of those, each possibly EMPTY. Z, M and ZM coordinates are accepted
 * and their extra ordinates dropped. Output is GeoJSON geometry (RFC 7946), coordinates in
 * degrees (x = longitude, y = latitude, EPSG:4326 axis order as the service used).
 */
import type { Geometry, GeometryCollection, MultiPoint, MultiPolygon, Point, Polygon, Position } from 'geojson';
import { IndapiError } from '../errors';

/** Most vertices a WKT text may carry (all geometries together). */
export const MAX_WKT_VERTICES = 100_000;
/** Longest WKT text accepted, in characters. */
export const MAX_WKT_LENGTH = 5_000_000;

type Tok = { t: 'word' | 'num' | '(' | ')' | ',' | 'end'; v: string; pos: number };

function tokenize(s: string): Tok[] {
  const out: Tok[] = [];
  const re = /\s*(?:([A-Za-z]+)|([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)|([(),])|(\S))/y;
  let m: RegExpExecArray | null;
  re.lastIndex = 0;
  while (re.lastIndex < s.length && (m = re.exec(s))) {
    const pos = m.index + m[0].length - (m[1] ?? m[2] ?? m[3] ?? m[4] ?? '').length;
    if (m[1]) out.push({ t: 'word', v: m[1].toUpperCase(), pos });
    else if (m[2]) out.push({ t: 'num', v: m[2], pos });
    else if (m[3]) out.push({ t: m[3] as '(' | ')' | ',', v: m[3], pos });
    else if (m[4]) throw bad(pos, `unexpected character '${m[4]}'`);
    else break;
  }
  out.push({ t: 'end', v: 'end of text', pos: s.length });
  return out;
}

function bad(pos: number, what: string): IndapiError {
  return new IndapiError('BAD_WKT', `WKT does not parse at column ${pos + 1}: ${what}.`, { column: pos + 1 });
}

/**
 * Parses WKT into a GeoJSON geometry.
 * @throws IndapiError BAD_WKT with the column (1-based) of the offending token;
 *   TOO_LARGE above {@link MAX_WKT_VERTICES} vertices or {@link MAX_WKT_LENGTH} characters
 */
export function parseWkt(text: string): Geometry {
  if (typeof text !== 'string' || text.trim() === '') throw new IndapiError('BAD_WKT', 'WKT is empty.');
  if (text.length > MAX_WKT_LENGTH) throw new IndapiError('TOO_LARGE', `WKT is longer than ${MAX_WKT_LENGTH} characters.`);
  const toks = tokenize(text);
  let i = 0;
  let vertices = 0;
  let dimSeen = 0;
  const peek = () => toks[i];
  const next = () => toks[i++];
  const expect = (t: Tok['t']) => {
    const k = next();
    if (k.t !== t) throw bad(k.pos, `expected '${t === 'num' ? 'a number' : t}' but found '${k.v}'`);
    return k;
  };

  /** Optional Z / M / ZM after the type name; returns the number of ordinates expected or 0 for "any of 2-4". */
  function dims(): number {
    const k = peek();
    if (k.t === 'word' && (k.v === 'Z' || k.v === 'M')) { next(); return 3; }
    if (k.t === 'word' && k.v === 'ZM') { next(); return 4; }
    return 0;
  }
  function isEmpty(): boolean {
    const k = peek();
    if (k.t === 'word' && k.v === 'EMPTY') { next(); return true; }
    return false;
  }
  function position(nd: number): Position {
    const first = expect('num');
    const xs = [Number(first.v)];
    while (peek().t === 'num') xs.push(Number(next().v));
    if (xs.length < 2) throw bad(peek().pos, `expected a second coordinate but found '${peek().v}'`);
    if (xs.length > 4) throw bad(first.pos, `too many coordinates (${xs.length}) in a point`);
    // Undeclared dimension: the first point of the geometry sets it, the others must agree.
    const want = nd || dimSeen;
    if (want && xs.length !== want) throw bad(first.pos, `expected ${want} coordinates in a point but found ${xs.length}`);
    if (!nd && !dimSeen) dimSeen = xs.length;
    if (!xs.every(Number.isFinite)) throw bad(first.pos, 'a coordinate is not a finite number');
    if (++vertices > MAX_WKT_VERTICES) {
      throw new IndapiError('TOO_LARGE', `WKT has more than ${MAX_WKT_VERTICES} vertices.`, { limit: MAX_WKT_VERTICES });
    }
    return [xs[0], xs[1]];
  }
  function ring(nd: number): Position[] {
    const open = expect('(');
    const pts = [position(nd)];
    while (peek().t === ',') { next(); pts.push(position(nd)); }
    expect(')');
    if (pts.length < 4) throw bad(open.pos, `a polygon ring needs at least 4 points, found ${pts.length}`);
    const [a, b] = [pts[0], pts[pts.length - 1]];
    if (a[0] !== b[0] || a[1] !== b[1]) throw bad(open.pos, 'a polygon ring must be closed (first point = last point)');
    return pts;
  }
  function polygonBody(nd: number): Position[][] {
    expect('(');
    const rings = [ring(nd)];
    while (peek().t === ',') { next(); rings.push(ring(nd)); }
    expect(')');
    return rings;
  }
  function geometry(): Geometry {
    dimSeen = 0;
    const k = next();
    if (k.t !== 'word') throw bad(k.pos, `expected a geometry type but found '${k.v}'`);
    switch (k.v) {
      case 'POINT': {
        const nd = dims();
        if (isEmpty()) return { type: 'MultiPoint', coordinates: [] } as MultiPoint;
        expect('(');
        const p = position(nd);
        expect(')');
        return { type: 'Point', coordinates: p } as Point;
      }
      case 'MULTIPOINT': {
        const nd = dims();
        if (isEmpty()) return { type: 'MultiPoint', coordinates: [] } as MultiPoint;
        expect('(');
        const pts: Position[] = [];
        do {
          // both MULTIPOINT ((1 2), (3 4)) and MULTIPOINT (1 2, 3 4) occur in the wild
          if (peek().t === '(') { next(); pts.push(position(nd)); expect(')'); }
          else if (peek().t === 'word' && peek().v === 'EMPTY') next();
          else pts.push(position(nd));
        } while (peek().t === ',' && next());
        expect(')');
        return { type: 'MultiPoint', coordinates: pts } as MultiPoint;
      }
      case 'POLYGON': {
        const nd = dims();
        if (isEmpty()) return { type: 'MultiPolygon', coordinates: [] } as MultiPolygon;
        return { type: 'Polygon', coordinates: polygonBody(nd) } as Polygon;
      }
      case 'MULTIPOLYGON': {
        const nd = dims();
        if (isEmpty()) return { type: 'MultiPolygon', coordinates: [] } as MultiPolygon;
        expect('(');
        const polys: Position[][][] = [];
        do {
          if (peek().t === 'word' && peek().v === 'EMPTY') next();
          else polys.push(polygonBody(nd));
        } while (peek().t === ',' && next());
        expect(')');
        return { type: 'MultiPolygon', coordinates: polys } as MultiPolygon;
      }
      case 'GEOMETRYCOLLECTION': {
        dims();
        if (isEmpty()) return { type: 'GeometryCollection', geometries: [] } as GeometryCollection;
        expect('(');
        const gs: Geometry[] = [geometry()];
        while (peek().t === ',') { next(); gs.push(geometry()); }
        expect(')');
        return { type: 'GeometryCollection', geometries: gs } as GeometryCollection;
      }
      case 'LINESTRING': case 'MULTILINESTRING': case 'CIRCULARSTRING': case 'TRIANGLE': case 'TIN': case 'POLYHEDRALSURFACE':
        throw bad(k.pos, `${k.v} is not supported (use POINT, MULTIPOINT, POLYGON, MULTIPOLYGON or GEOMETRYCOLLECTION)`);
      default:
        throw bad(k.pos, `unknown geometry type '${k.v}'`);
    }
  }
  // Optional EWKT SRID prefix "SRID=4326;" is not accepted: the CRS is EPSG:4326 by definition.
  const g = geometry();
  const end = peek();
  if (end.t !== 'end') throw bad(end.pos, `unexpected '${end.v}' after the geometry`);
  return g;
}
