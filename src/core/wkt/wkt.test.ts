import { describe, expect, it } from 'vitest';
import type { Position } from 'geojson';
import { parseWkt, MAX_WKT_VERTICES } from './parse';
import { coverage, geometryCells, polygonCells } from './raster';
import type { GridDef } from '../grid';

const G: GridDef = { crs: 'EPSG:4326', cellSizeDeg: 1, xmin: 0, ymin: 0, xmax: 10, ymax: 10, width: 10, height: 10, colOffset: 0, rowOffset: 0 };

describe('parseWkt', () => {
  it('parses the supported types', () => {
    expect(parseWkt('POINT (30 10)')).toEqual({ type: 'Point', coordinates: [30, 10] });
    expect(parseWkt('point z (30 10 5)')).toEqual({ type: 'Point', coordinates: [30, 10] });
    expect(parseWkt('MULTIPOINT ((10 40), (40 30))')).toEqual({ type: 'MultiPoint', coordinates: [[10, 40], [40, 30]] });
    expect(parseWkt('MULTIPOINT (10 40, 40 30)')).toEqual({ type: 'MultiPoint', coordinates: [[10, 40], [40, 30]] });
    const p = parseWkt('POLYGON ((35 10, 45 45, 15 40, 10 20, 35 10), (20 30, 35 35, 30 20, 20 30))');
    expect(p.type).toBe('Polygon');
    expect((p as any).coordinates).toHaveLength(2);
    const mp = parseWkt('MULTIPOLYGON (((30 20, 45 40, 10 40, 30 20)), ((15 5, 40 10, 10 20, 5 10, 15 5)))');
    expect((mp as any).coordinates).toHaveLength(2);
    const gc = parseWkt('GEOMETRYCOLLECTION (POINT (40 10), POLYGON ((0 0, 1 0, 1 1, 0 0)))');
    expect((gc as any).geometries.map((g: any) => g.type)).toEqual(['Point', 'Polygon']);
    expect(parseWkt('POLYGON EMPTY')).toEqual({ type: 'MultiPolygon', coordinates: [] });
    expect(parseWkt('POINT ZM (1 2 3 4)')).toEqual({ type: 'Point', coordinates: [1, 2] });
  });
  it('says where it fails', () => {
    const cases: Array<[string, number]> = [
      ['POINT (30 10', 13],
      ['POINT (30, 10)', 10],
      ['POLYGN ((0 0, 1 0, 1 1, 0 0))', 1],
      ['POLYGON ((0 0, 1 0, 1 1, 0 1))', 10],
      ['POINT (1 2) x', 13],
      ['LINESTRING (0 0, 1 1)', 1],
      ['POINT (1 2 ; )', 12],
    ];
    for (const [t, col] of cases) {
      let err: any;
      try { parseWkt(t); } catch (e) { err = e; }
      expect(err?.code, t).toBe('BAD_WKT');
      expect(err.detail.column, t).toBe(col);
      expect(err.message).toContain(`column ${col}`);
    }
  });
  it('limits vertices', () => {
    const pts = Array.from({ length: MAX_WKT_VERTICES + 1 }, (_, i) => `${i % 10} 1`).join(',');
    expect(() => parseWkt(`MULTIPOINT (${pts})`)).toThrow(expect.objectContaining({ code: 'TOO_LARGE' }));
  });
});

/** Brute force: area of polygon (one ring) clipped to the unit square at (c, r) in (u, v) space, by Sutherland-Hodgman. */
function clipArea(ring: Position[], c: number, r: number): number {
  let pts = ring.slice(0, -1);
  const edges: Array<[(p: Position) => number]> = [[(p) => p[0] - c], [(p) => c + 1 - p[0]], [(p) => p[1] - r], [(p) => r + 1 - p[1]]];
  for (const [f] of edges) {
    const out: Position[] = [];
    for (let i = 0; i < pts.length; i++) {
      const a = pts[i], b = pts[(i + 1) % pts.length];
      const fa = f(a), fb = f(b);
      if (fa >= 0) out.push(a);
      if ((fa >= 0) !== (fb >= 0)) { const t = fa / (fa - fb); out.push([a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])]); }
    }
    pts = out;
    if (!pts.length) return 0;
  }
  let s = 0;
  for (let i = 0; i < pts.length; i++) { const a = pts[i], b = pts[(i + 1) % pts.length]; s += a[0] * b[1] - b[0] * a[1]; }
  return Math.abs(s) / 2;
}

describe('coverage fractions', () => {
  it('match brute-force clipping for convex and concave rings', () => {
    const rings: Position[][] = [
      [[0.3, 0.2], [4.7, 1.1], [3.2, 4.9], [0.3, 0.2]],
      [[1.5, 0.5], [5.5, 0.5], [5.5, 3.5], [3.2, 1.7], [1.5, 3.5], [1.5, 0.5]],
      [[0.1, 0.1], [0.9, 3.6], [2.2, 0.4], [4.8, 4.2], [0.1, 4.9], [0.1, 0.1]].reverse(),
    ];
    for (const ring of rings) {
      const cov = coverage([Float64Array.from(ring.flat())], 6, 6);
      for (let r = 0; r < 6; r++) for (let c = 0; c < 6; c++) {
        expect(cov[r * 6 + c]).toBeCloseTo(clipArea(ring, c, r), 5);
      }
    }
  });
  it('subtract holes', () => {
    const outer = [0.5, 0.5, 4.5, 0.5, 4.5, 4.5, 0.5, 4.5, 0.5, 0.5];
    const hole = [1.25, 1.25, 1.25, 2.75, 2.75, 2.75, 2.75, 1.25, 1.25, 1.25];
    const cov = coverage([Float64Array.from(outer), Float64Array.from(hole)], 5, 5);
    expect(cov[0]).toBeCloseTo(0.25, 9);
    expect(cov[1 * 5 + 1]).toBeCloseTo(1 - 0.75 * 0.75, 6);
    expect(cov[2 * 5 + 2]).toBeCloseTo(1 - 0.75 * 0.75, 6);
    expect(cov[3 * 5 + 3]).toBeCloseTo(1, 9);
    const total = cov.reduce((a, b) => a + b, 0);
    expect(total).toBeCloseTo(16 - 1.5 * 1.5, 5);
  });
});

describe('geometry to cells', () => {
  it('takes cells whose centres are inside, excluding holes', () => {
    const g = parseWkt('POLYGON ((1 1, 6 1, 6 6, 1 6, 1 1), (2 2, 2 4, 4 4, 4 2, 2 2))');
    const s = geometryCells(g, G)!;
    expect(s.win).toEqual([1, 4, 6, 9]);
    const n = s.weight.reduce((a, b) => a + b, 0);
    expect(n).toBe(25 - 4);
  });
  it('never returns nothing for a shape smaller than a cell', () => {
    const s = geometryCells(parseWkt('POLYGON ((3.1 3.1, 3.3 3.1, 3.3 3.2, 3.1 3.1))'), G)!;
    expect(s.win).toEqual([3, 6, 4, 7]);
    // no centre inside: the covered fraction, never a whole cell
    expect(s.weight[0]).toBeCloseTo(0.01, 6);
    const e = geometryCells(parseWkt('POLYGON ((3.1 3.1, 3.3 3.1, 3.3 3.2, 3.1 3.1))'), G, true)!;
    expect(e.weight[0]).toBeCloseTo(0.01, 6);
    // straddling two cells, no centre inside: both touched cells, each with its covered fraction
    const t = geometryCells(parseWkt('POLYGON ((3.9 3.2, 4.1 3.2, 4.1 3.3, 3.9 3.3, 3.9 3.2))'), G)!;
    expect(t.win).toEqual([3, 6, 5, 7]);
    expect(Array.from(t.weight, (v) => Math.round(v * 1e6) / 1e6)).toEqual([0.01, 0.01]);
    // a part with a centre inside keeps weight 1; a sliver part of the same MULTIPOLYGON its fractions
    const m = geometryCells(parseWkt('MULTIPOLYGON (((1 1, 2 1, 2 2, 1 2, 1 1)), ((3.9 3.2, 4.1 3.2, 4.1 3.3, 3.9 3.3, 3.9 3.2)))'), G)!;
    const vals = Array.from(m.weight).filter((v) => v > 0).map((v) => Math.round(v * 1e6) / 1e6).sort();
    expect(vals).toEqual([0.01, 0.01, 1]);
  });
  it('points take the containing cell; outside the grid is null', () => {
    const s = geometryCells(parseWkt('MULTIPOINT ((0.5 9.5), (2 8))'), G)!;
    expect(s.win).toEqual([0, 0, 3, 3]); // (2, 8) lies on an edge: the cell south-east of it
    expect(Array.from(s.weight)).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect(geometryCells(parseWkt('POINT (50 50)'), G)).toBeNull();
    expect(polygonCells([[[20, 20], [21, 20], [21, 21], [20, 20]]], G, false)).toBeNull();
  });
});

describe('parseWkt dimensions', () => {
  it('rejects points whose number of coordinates differs from the first', () => {
    let err: any;
    try { parseWkt('POLYGON ((31 1, 32 1, 32 0 31 0, 31 1))'); } catch (e) { err = e; }
    expect(err?.code).toBe('BAD_WKT');
    expect(err.detail.column).toBe(23);
    expect(parseWkt('POLYGON ((0 0 1, 1 0 1, 1 1 1, 0 0 1))').type).toBe('Polygon');
  });
});
