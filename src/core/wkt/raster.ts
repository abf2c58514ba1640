/**
 * Geometry to grid cells.
 *
 * - Points select the cell containing them (a point on an edge belongs to the cell east /
 *   south of it, as {@link pointToColRow}).
 * - Polygons select, by default, the cells whose centre is inside (even-odd rule, so holes
 *   are excluded), each with weight 1. A polygon (a part of a MULTIPOLYGON or collection)
 *   that contains no cell centre takes the cells it covers weighted by the covered fraction,
 *   as with `exact`, so a shape smaller than a cell, or a thin sliver, never selects nothing
 *   and never counts more area than it covers. A polygon of zero area selects the cells
 *   holding its vertices with weight 1.
 * - With `exact`, every cell gets the fraction of its area the polygon covers, computed
 *   exactly in degree space (planar, as exactextract does on geographic grids) by summing,
 *   for each edge, the signed area between the edge and each cell row it passes, column by
 *   column (the shoelace formula restricted to cell squares).
 */
import type { Geometry, Position } from 'geojson';
import { IndapiError } from '../errors';
import type { GridDef } from '../grid';

/** Most cells a geometry's bounding box may span on the grid. */
export const MAX_WKT_CELLS = 1_000_000;

/** A window of the grid with a weight per cell. */
export interface CellWeights {
  /** Window [x0, y0, x1, y1): columns x0..x1-1, rows y0..y1-1 of the grid. */
  win: [number, number, number, number];
  /** Per window cell, row-major: 0 = not selected; else 1 (whole cell) or the covered fraction (exact, or a polygon covering no cell centre). */
  weight: Float32Array;
}

type Ring = Float64Array; // flat u0,v0,u1,v1,... in cell units of the window (u east, v south)

/**
 * Cells selected by a geometry, or null when it selects no cell of the grid.
 * @throws IndapiError TOO_LARGE when its bounding box spans more than {@link MAX_WKT_CELLS} cells
 */
export function geometryCells(g: Geometry, grid: GridDef, exact = false): CellWeights | null {
  const pts: Position[] = [];
  const polys: Position[][][] = [];
  collect(g, pts, polys);
  const parts: CellWeights[] = [];
  if (pts.length) {
    const p = pointCells(pts, grid);
    if (p) parts.push(p);
  }
  for (const poly of polys) {
    const p = polygonCells(poly, grid, exact);
    if (p) parts.push(p);
  }
  return union(parts);
}

function collect(g: Geometry, pts: Position[], polys: Position[][][]): void {
  switch (g.type) {
    case 'Point': pts.push(g.coordinates); break;
    case 'MultiPoint': pts.push(...g.coordinates); break;
    case 'Polygon': if (g.coordinates.length) polys.push(g.coordinates); break;
    case 'MultiPolygon': for (const p of g.coordinates) if (p.length) polys.push(p); break;
    case 'GeometryCollection': for (const m of g.geometries) collect(m, pts, polys); break;
    default: throw new IndapiError('BAD_WKT', `${g.type} geometries are not supported.`);
  }
}

/** Union of weighted windows: the bounding window, maximum weight per cell. */
export function union(parts: CellWeights[]): CellWeights | null {
  if (parts.length === 0) return null;
  if (parts.length === 1) return parts[0];
  const x0 = Math.min(...parts.map((p) => p.win[0])), y0 = Math.min(...parts.map((p) => p.win[1]));
  const x1 = Math.max(...parts.map((p) => p.win[2])), y1 = Math.max(...parts.map((p) => p.win[3]));
  const w = x1 - x0;
  if (w * (y1 - y0) > MAX_WKT_CELLS) throw tooLarge();
  const weight = new Float32Array(w * (y1 - y0));
  for (const p of parts) {
    const pw = p.win[2] - p.win[0];
    for (let r = p.win[1]; r < p.win[3]; r++) {
      for (let c = p.win[0]; c < p.win[2]; c++) {
        const v = p.weight[(r - p.win[1]) * pw + (c - p.win[0])];
        const k = (r - y0) * w + (c - x0);
        if (v > weight[k]) weight[k] = v;
      }
    }
  }
  return { win: [x0, y0, x1, y1], weight };
}

function tooLarge(): IndapiError {
  return new IndapiError('TOO_LARGE', `The geometry spans more than ${MAX_WKT_CELLS} grid cells.`, { limit: MAX_WKT_CELLS });
}

function pointCells(pts: Position[], grid: GridDef): CellWeights | null {
  const cells: Array<[number, number]> = [];
  for (const [x, y] of pts) {
    const c = Math.floor((x - grid.xmin) / grid.cellSizeDeg);
    const r = Math.floor((grid.ymax - y) / grid.cellSizeDeg);
    if (c >= 0 && r >= 0 && c < grid.width && r < grid.height) cells.push([c, r]);
  }
  if (!cells.length) return null;
  const x0 = Math.min(...cells.map((c) => c[0])), x1 = Math.max(...cells.map((c) => c[0])) + 1;
  const y0 = Math.min(...cells.map((c) => c[1])), y1 = Math.max(...cells.map((c) => c[1])) + 1;
  if ((x1 - x0) * (y1 - y0) > MAX_WKT_CELLS) throw tooLarge();
  const weight = new Float32Array((x1 - x0) * (y1 - y0));
  for (const [c, r] of cells) weight[(r - y0) * (x1 - x0) + (c - x0)] = 1;
  return { win: [x0, y0, x1, y1], weight };
}

/**
 * Cells of one polygon (outer ring then holes, degrees).
 * @returns null when the polygon lies outside the grid
 */
export function polygonCells(poly: Position[][], grid: GridDef, exact: boolean): CellWeights | null {
  const cs = grid.cellSizeDeg;
  let xmin = Infinity, xmax = -Infinity, ymin = Infinity, ymax = -Infinity;
  for (const p of poly[0]) {
    if (p[0] < xmin) xmin = p[0];
    if (p[0] > xmax) xmax = p[0];
    if (p[1] < ymin) ymin = p[1];
    if (p[1] > ymax) ymax = p[1];
  }
  const x0 = Math.max(0, Math.floor((xmin - grid.xmin) / cs));
  const x1 = Math.min(grid.width, Math.ceil((xmax - grid.xmin) / cs));
  const y0 = Math.max(0, Math.floor((grid.ymax - ymax) / cs));
  const y1 = Math.min(grid.height, Math.ceil((grid.ymax - ymin) / cs));
  // A degenerate (zero-width) box still touches the cell holding it.
  const X1 = x1 > x0 ? x1 : x0 + 1, Y1 = y1 > y0 ? y1 : y0 + 1;
  if (x0 >= grid.width || y0 >= grid.height || X1 <= 0 || Y1 <= 0 || xmax < grid.xmin || xmin > grid.xmax || ymax < grid.ymin || ymin > grid.ymax) return null;
  const w = X1 - x0, h = Y1 - y0;
  if (w * h > MAX_WKT_CELLS) throw tooLarge();
  const ox = grid.xmin + x0 * cs, oy = grid.ymax - y0 * cs;
  const rings: Ring[] = poly.map((ring) => {
    const r = new Float64Array(ring.length * 2);
    ring.forEach((p, i) => { r[2 * i] = (p[0] - ox) / cs; r[2 * i + 1] = (oy - p[1]) / cs; });
    return r;
  });
  let weight: Float32Array;
  if (exact) weight = coverage(rings, w, h);
  else {
    weight = centres(rings, w, h);
    // no centre inside: coverage fractions, so a sliver never counts whole cells
    if (!weight.some((v) => v > 0)) weight = coverage(rings, w, h);
  }
  if (!weight.some((v) => v > 0)) {
    // zero-area shapes: the cells holding its vertices
    for (const r of rings) {
      for (let i = 0; i < r.length; i += 2) {
        const c = Math.floor(r[i]), rr = Math.floor(r[i + 1]);
        if (c >= 0 && c < w && rr >= 0 && rr < h) weight[rr * w + c] = 1;
      }
    }
  }
  if (!weight.some((v) => v > 0)) return null;
  return { win: [x0, y0, X1, Y1], weight };
}

/** 1 for cells whose centre is inside the rings (even-odd rule), else 0. */
function centres(rings: Ring[], w: number, h: number): Float32Array {
  const out = new Float32Array(w * h);
  // bucket edges by the centre rows they cross
  const buckets: number[][] = Array.from({ length: h }, () => []);
  rings.forEach((r, ri) => {
    for (let i = 0; i + 3 < r.length; i += 2) {
      const v1 = r[i + 1], v2 = r[i + 3];
      if (v1 === v2) continue;
      const lo = Math.max(0, Math.ceil(Math.min(v1, v2) - 0.5)), hi = Math.min(h - 1, Math.floor(Math.max(v1, v2) - 0.5));
      for (let row = lo; row <= hi; row++) buckets[row].push(ri, i);
    }
  });
  const xs: number[] = [];
  for (let row = 0; row < h; row++) {
    const b = buckets[row];
    if (!b.length) continue;
    const vc = row + 0.5;
    xs.length = 0;
    for (let k = 0; k < b.length; k += 2) {
      const r = rings[b[k]], i = b[k + 1];
      const u1 = r[i], v1 = r[i + 1], u2 = r[i + 2], v2 = r[i + 3];
      if ((v1 > vc) !== (v2 > vc)) xs.push(u1 + ((vc - v1) * (u2 - u1)) / (v2 - v1));
    }
    xs.sort((a, b2) => a - b2);
    for (let k = 0; k + 1 < xs.length; k += 2) {
      const c0 = Math.max(0, Math.ceil(xs[k] - 0.5)), c1 = Math.min(w - 1, Math.ceil(xs[k + 1] - 0.5) - 1);
      for (let c = c0; c <= c1; c++) out[row * w + c] = 1;
    }
  }
  return out;
}

/** Covered fraction of each unit cell of a w x h window (rings in cell units, any orientation; holes after the outer ring). */
export function coverage(rings: Ring[], w: number, h: number): Float32Array {
  const acc = new Float64Array(w * h);
  const below = new Float64Array(w * (h + 1)); // column-wise "add to every row from here down"
  rings.forEach((r, ri) => {
    // signed total of this ring in the convention below: -sum (u2-u1)(v1+v2)/2
    let tot = 0;
    for (let i = 0; i + 3 < r.length; i += 2) tot -= ((r[i + 2] - r[i]) * (r[i + 1] + r[i + 3])) / 2;
    if (tot === 0) return;
    const m = (ri === 0 ? 1 : -1) * Math.sign(tot);
    for (let i = 0; i + 3 < r.length; i += 2) edge(r[i], r[i + 1], r[i + 2], r[i + 3], m, acc, below, w, h);
  });
  const out = new Float32Array(w * h);
  for (let c = 0; c < w; c++) {
    let run = 0;
    for (let row = 0; row < h; row++) {
      run += below[row * w + c];
      let v = acc[row * w + c] + run;
      if (v < 1e-9) v = 0;
      else if (v > 1) v = 1;
      out[row * w + c] = v;
    }
  }
  return out;
}

/**
 * Adds m * integral over u from u1 to u2 of L_r(v(u)) to each cell (r, c), where
 * L_r(v) = |[max(v, r), r + 1]| is the part of row r south of the edge.
 */
function edge(u1: number, v1: number, u2: number, v2: number, m: number, acc: Float64Array, below: Float64Array, w: number, h: number): void {
  if (u1 === u2) return;
  const dir = u2 > u1 ? m : -m;
  const ul = Math.min(u1, u2), ur = Math.max(u1, u2);
  const slope = (v2 - v1) / (u2 - u1);
  const c0 = Math.max(0, Math.floor(ul)), c1 = Math.min(w - 1, Math.ceil(ur) - 1);
  for (let c = c0; c <= c1; c++) {
    const ua = Math.max(ul, c), ub = Math.min(ur, c + 1);
    if (ub <= ua) continue;
    const va = v1 + (ua - u1) * slope, vb = v1 + (ub - u1) * slope;
    const vlo = Math.min(va, vb), vhi = Math.max(va, vb);
    const full = Math.ceil(vhi); // rows >= full lie wholly south of this piece
    const start = Math.max(0, full);
    if (start < h) below[start * w + c] += dir * (ub - ua);
    const rlo = Math.max(0, Math.floor(vlo)), rhi = Math.min(h - 1, full - 1);
    for (let row = rlo; row <= rhi; row++) {
      const a = integralClamp(ua, va, ub, vb, row);
      if (a !== 0) acc[row * w + c] += dir * a;
    }
  }
}

/** Antiderivative of g(v) = clamp(r + 1 - v, 0, 1): v below r, then r + (v - r) - (v - r)^2 / 2, then r + 1/2 past r + 1. */
function gInt(v: number, r: number): number {
  if (v <= r) return v;
  if (v >= r + 1) return r + 0.5;
  const d = v - r;
  return r + d - (d * d) / 2;
}

/**
 * Integral over [ua, ub] of clamp(r + 1 - v(u), 0, 1) for v linear from va to vb, in closed
 * form (no allocation: it runs once per edge piece and row, millions of times for a
 * 100,000-vertex polygon): du x (G(vb) - G(va)) / (vb - va), G the antiderivative of the clamp.
 */
function integralClamp(ua: number, va: number, ub: number, vb: number, r: number): number {
  const du = ub - ua;
  const dv = vb - va;
  if (Math.abs(dv) < 1e-12) return du * Math.min(1, Math.max(0, r + 1 - (va + vb) / 2));
  return (du * (gInt(vb, r) - gInt(va, r))) / dv;
}
