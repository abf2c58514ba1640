/**
 * Accumulated travel time (minutes) from source points over a friction surface: Dijkstra's
 * algorithm on the 8- or 16-neighbour graph of a cell-registered EPSG:4326 grid, from many
 * sources at once (each cell remembers the source it is nearest to: the marketshed).
 *
 * Definition (as R `gdistance` with its geographic correction and Earth Engine
 * `cumulativeCost` define it): the cost of a step between two neighbouring cells is the
 * geodesic distance between their centres on WGS84 (metres, {@link rowSteps}) times the mean
 * of the two cells' friction (minutes per metre); a cell's time is the least sum of step costs
 * over all paths from any source (several sources: the nearest wins).
 * With 16 neighbours the knight's moves (two cells one way, one the other) are added, as
 * GRASS GIS `r.cost -k` adds them: such a step costs its geodesic length times the mean
 * friction of the four cells it touches (start, end and the two cells its line crosses),
 * and needs all four passable.
 * No-data cells (NaN, negative or infinite friction) are barriers: never entered, never
 * crossed. Cells whose time exceeds `maxMinutes` are not settled and read NaN, as do cells
 * that cannot be reached.
 *
 * Where travel starts (`origin`): "cell" puts the source cell at 0 minutes (issue 19's
 * answer); "point" counts from the point itself: the source cell's time is the geodesic
 * distance from the point to its centre times its friction, and each neighbour is reached
 * straight from the point (distance from the point to the neighbour's centre times the
 * mean friction, as a step). A source moved off a no-data cell starts at its new cell's centre.
 */
import { IndapiError, throwIfAborted } from '../errors';
import { cellCentre, type GridDef } from '../grid';
import { geodesicDistanceM, rowSteps, type RowSteps } from './geodesic';
import { CellHeap } from './heap';
import { locateSources, MAX_SOURCES, type LocatedSource } from './sources';
import type { CatchmentOrigin, Neighbours } from './types';

export { MAX_SOURCES };

/** A friction surface on a grid. */
export interface FrictionSurface {
  /** The grid (a window of the global CELL5M lattice, or any cell-registered EPSG:4326 grid). */
  grid: GridDef;
  /** Minutes needed to cross one metre, per cell, row-major, north row first; NaN = no-data (barrier). */
  minutesPerMetre: Float32Array | Float64Array;
}

/** Options of {@link travelTimeMinutes}. */
export interface TravelTimeOptions {
  /** Largest time computed, minutes (the largest band); Infinity for every reachable cell. */
  maxMinutes: number;
  /** Checked every 65,536 settled cells. @throws IndapiError ABORTED */
  signal?: AbortSignal;
  /** Called every 65,536 settled cells: (settled cells, cells of the grid). */
  onProgress?: (done: number, total: number) => void;
  /** Argument name used in error messages about the sources (default "xy"). */
  argName?: string;
  /** Source names, for error messages. */
  names?: readonly string[];
  /** Precomputed step lengths of this grid (default: computed, about 1 ms per 1000 rows). */
  steps?: RowSteps;
  /** 8 (default) or 16 neighbours (knight's moves). */
  neighbours?: Neighbours;
  /** Where travel starts (default "cell"). */
  origin?: CatchmentOrigin;
  /** A source on a no-data cell moves to the nearest passable cell within this distance, km (default 0: an error). */
  snapKm?: number;
}

/** Result of {@link travelTimeMinutes}. */
export interface TravelTime {
  /** Minutes per cell of the input grid, row-major; NaN where unreachable or beyond `maxMinutes`. */
  minutes: Float32Array;
  /** Nearest source per cell (index into the points; -1 where `minutes` is NaN). */
  source: Int16Array;
  /** Cell index (row * width + col) each source starts from, in input order. */
  sourceCells: number[];
  /** Each source as located (the move of a source on a no-data cell). */
  located: LocatedSource[];
  /** Cells settled (time <= maxMinutes). */
  settled: number;
  /** Bounding box of the settled cells as a pixel window [col0, row0, col1, row1) (empty: all 0). */
  window: [number, number, number, number];
}

/**
 * The step lengths of a grid (metres), per row: see {@link rowSteps}.
 * @param grid the grid
 */
export function gridSteps(grid: GridDef): RowSteps {
  const lat = new Float64Array(grid.height);
  for (let r = 0; r < grid.height; r++) lat[r] = cellCentre(grid, 0, r)[1];
  return rowSteps(lat, grid.cellSizeDeg);
}

/** Reusable per-grid-size buffers: dist all Infinity and done all 0 between runs. */
const workspaces = new Map<number, { dist: Float64Array; done: Uint8Array; from: Int16Array }>();

/**
 * Buffers of a run over N cells, kept between runs (one computation at a time per thread:
 * the run is synchronous) so a small catchment does not pay for allocating and filling
 * full-grid arrays; the run resets the cells it touched.
 */
function workspace(N: number): { dist: Float64Array; done: Uint8Array; from: Int16Array } {
  let w = workspaces.get(N);
  if (!w) {
    if (workspaces.size > 4) workspaces.clear();
    w = { dist: new Float64Array(N).fill(Infinity), done: new Uint8Array(N), from: new Int16Array(N) };
    workspaces.set(N, w);
  }
  return w;
}

/**
 * Source cells of points (the cell holding each point; no move off no-data cells).
 * @throws IndapiError as {@link locateSources}
 */
export function snapSources(grid: GridDef, points: ReadonlyArray<readonly [number, number]>, friction: Float32Array | Float64Array, argName = 'xy'): number[] {
  return locateSources(grid, points, friction, { argName }).map((s) => s.cell);
}

/** Neighbour offsets (dc, dr) of a cell: the king's moves, then the knight's moves. */
const KING: ReadonlyArray<readonly [number, number]> = [[-1, 0], [1, 0], [0, -1], [0, 1], [-1, -1], [1, -1], [-1, 1], [1, 1]];
const KNIGHT: ReadonlyArray<readonly [number, number]> = [[-1, -2], [1, -2], [-1, 2], [1, 2], [-2, -1], [2, -1], [-2, 1], [2, 1]];

/**
 * The cells a knight's move (dc, dr) from (c, r) crosses: the two cells its line passes
 * between, as GRASS r.cost counts them (e.g. two north, one west: north and north-west).
 */
function crossed(c: number, r: number, dc: number, dr: number): [number, number, number, number] {
  return Math.abs(dr) === 2 ? [c, r + dr / 2, c + dc, r + dr / 2] : [c + dc / 2, r, c + dc / 2, r + dr];
}

/**
 * Start times of the cells around a source point (origin "point"): its own cell from the
 * point to the centre, each passable neighbour straight from the point.
 */
function pointStarts(grid: GridDef, fr: Float32Array | Float64Array, cell: number, lon: number, lat: number, n16: boolean, start: (j: number, t: number) => void): void {
  const W = grid.width, H = grid.height;
  const c = cell % W, r = (cell / W) | 0;
  const f = fr[cell];
  const ok = (x: number, y: number) => x >= 0 && y >= 0 && x < W && y < H && fr[y * W + x] >= 0 && fr[y * W + x] < Infinity;
  const dist = (x: number, y: number) => { const [cx, cy] = cellCentre(grid, x, y); return geodesicDistanceM(lon, lat, cx, cy); };
  start(cell, dist(c, r) * f);
  for (const [dc, dr] of KING) {
    const x = c + dc, y = r + dr;
    if (ok(x, y)) start(y * W + x, dist(x, y) * 0.5 * (f + fr[y * W + x]));
  }
  if (!n16) return;
  for (const [dc, dr] of KNIGHT) {
    const x = c + dc, y = r + dr;
    const [ax, ay, bx, by] = crossed(c, r, dc, dr);
    if (ok(x, y) && ok(ax, ay) && ok(bx, by)) start(y * W + x, dist(x, y) * 0.25 * (f + fr[y * W + x] + fr[ay * W + ax] + fr[by * W + bx]));
  }
}

/**
 * Accumulated travel time from source points, minutes, and the nearest source of each cell
 * (see the module docs for the definition).
 * @param surface friction surface (minutes per metre)
 * @param points source points, [longitude, latitude] degrees
 * @param opts largest time, neighbours, origin, snapping, abort signal, progress
 * @throws IndapiError BAD_ARGUMENT (also over MAX_SOURCES) / OUTSIDE_GRID for bad sources
 *   (every source checked before any work), ABORTED
 */
export function travelTimeMinutes(surface: FrictionSurface, points: ReadonlyArray<readonly [number, number]>, opts: TravelTimeOptions): TravelTime {
  const { grid, minutesPerMetre: fr } = surface;
  const W = grid.width, H = grid.height, N = W * H;
  if (fr.length !== N) throw new IndapiError('INTERNAL', `friction has ${fr.length} cells, the grid ${N}.`);
  const maxM = opts.maxMinutes;
  if (!(maxM >= 0)) throw new IndapiError('BAD_ARGUMENT', `maxMinutes must be a number >= 0, got ${maxM}.`);
  throwIfAborted(opts.signal);
  const located = locateSources(grid, points, fr, { argName: opts.argName, snapKm: opts.snapKm, names: opts.names });
  const steps = opts.steps ?? gridSteps(grid);
  const n16 = opts.neighbours === 16;
  if (n16 && (!steps.knightNsM || !steps.knightEwM)) throw new IndapiError('INTERNAL', '16 neighbours need the knight steps (rowSteps).');
  const ws = workspace(N);
  const heap = new CellHeap(4096);
  // cells whose dist was lowered (to reset the shared workspace afterwards), grown as needed
  let touched = new Int32Array(1024);
  let nTouched = 0;
  const { dist, from } = ws;
  const lower = (j: number, nd: number, s: number) => {
    if (dist[j] === Infinity) {
      if (nTouched === touched.length) { const t = new Int32Array(nTouched * 2); t.set(touched); touched = t; }
      touched[nTouched++] = j;
    }
    dist[j] = nd;
    from[j] = s;
    heap.push(nd, j);
  };
  located.forEach((src, k) => {
    const start = (j: number, t: number) => { if (t < dist[j] && t <= maxM) lower(j, t, k); };
    if (opts.origin === 'point' && !src.snapped) pointStarts(grid, fr, src.cell, points[k][0], points[k][1], n16, start);
    else start(src.cell, 0);
  });
  try {
    return settle(surface, steps, n16, maxM, ws, heap, lower, opts, located);
  } finally {
    // leave the shared workspace clean (also after an abort)
    for (let k = 0; k < nTouched; k++) { const j = touched[k]; dist[j] = Infinity; ws.done[j] = 0; }
  }
}

/** The Dijkstra loop of {@link travelTimeMinutes} over the seeded heap. */
function settle(
  surface: FrictionSurface, steps: RowSteps, n16: boolean, maxM: number,
  ws: { dist: Float64Array; done: Uint8Array; from: Int16Array }, heap: CellHeap,
  lower: (j: number, nd: number, s: number) => void, opts: TravelTimeOptions, located: LocatedSource[],
): TravelTime {
  const { grid, minutesPerMetre: fr } = surface;
  const W = grid.width, H = grid.height, N = W * H;
  const { ewM, nsM, diagM } = steps;
  const knNs = steps.knightNsM ?? new Float64Array(0), knEw = steps.knightEwM ?? new Float64Array(0);
  const { dist, done, from } = ws;
  // relax one neighbour j of a cell at time d with friction f over a step of m metres
  // a settled cell is never lowered again (its time is final and costs are >= 0): no check needed
  const relax = (j: number, m: number, d: number, f: number, s: number) => {
    const g = fr[j];
    if (!(g >= 0 && g < Infinity)) return;
    const nd = d + m * 0.5 * (f + g);
    if (nd < dist[j] && nd <= maxM) lower(j, nd, s);
  };
  // a knight's move to j crossing cells a and b: the mean friction of the four cells
  const relaxK = (j: number, a: number, b: number, m: number, d: number, f: number, s: number) => {
    const g = fr[j], fa = fr[a], fb = fr[b];
    if (!(g >= 0 && g < Infinity && fa >= 0 && fa < Infinity && fb >= 0 && fb < Infinity)) return;
    const nd = d + m * 0.25 * (f + g + fa + fb);
    if (nd < dist[j] && nd <= maxM) lower(j, nd, s);
  };
  let settled = 0;
  let c0 = W, r0 = H, c1 = -1, r1 = -1;
  const minutes = new Float32Array(N).fill(NaN);
  const source = new Int16Array(N).fill(-1);
  while (heap.size) {
    const key = heap.peekKey();
    if (key > maxM) break;
    const i = heap.pop();
    // an entry left behind by a later lowering (the heap has no decrease-key)
    if (key > dist[i] || done[i]) continue;
    done[i] = 1;
    settled++;
    if ((settled & 0xffff) === 0) { throwIfAborted(opts.signal); opts.onProgress?.(settled, N); }
    const r = (i / W) | 0, c = i - r * W;
    if (c < c0) c0 = c; if (c > c1) c1 = c; if (r < r0) r0 = r; if (r > r1) r1 = r;
    const d = dist[i], f = fr[i];
    const s = from[i];
    minutes[i] = d;
    source[i] = s;
    const west = c > 0, east = c < W - 1;
    if (west) relax(i - 1, ewM[r], d, f, s);
    if (east) relax(i + 1, ewM[r], d, f, s);
    if (r > 0) {
      const up = i - W, ns = nsM[r - 1], dg = diagM[r - 1];
      relax(up, ns, d, f, s);
      if (west) relax(up - 1, dg, d, f, s);
      if (east) relax(up + 1, dg, d, f, s);
    }
    if (r < H - 1) {
      const dn = i + W, ns = nsM[r], dg = diagM[r];
      relax(dn, ns, d, f, s);
      if (west) relax(dn - 1, dg, d, f, s);
      if (east) relax(dn + 1, dg, d, f, s);
    }
    if (!n16) continue;
    // knight's moves: two rows and one column (crossing the cells one row away), then one row and two columns
    if (r > 1) {
      const up = i - W, m = knNs[r - 2];
      if (west) relaxK(up - W - 1, up, up - 1, m, d, f, s);
      if (east) relaxK(up - W + 1, up, up + 1, m, d, f, s);
    }
    if (r < H - 2) {
      const dn = i + W, m = knNs[r];
      if (west) relaxK(dn + W - 1, dn, dn - 1, m, d, f, s);
      if (east) relaxK(dn + W + 1, dn, dn + 1, m, d, f, s);
    }
    if (r > 0) {
      const m = knEw[r - 1], up = i - W;
      if (c > 1) relaxK(up - 2, i - 1, up - 1, m, d, f, s);
      if (c < W - 2) relaxK(up + 2, i + 1, up + 1, m, d, f, s);
    }
    if (r < H - 1) {
      const m = knEw[r], dn = i + W;
      if (c > 1) relaxK(dn - 2, i - 1, dn - 1, m, d, f, s);
      if (c < W - 2) relaxK(dn + 2, i + 1, dn + 1, m, d, f, s);
    }
  }
  opts.onProgress?.(settled, N);
  const window: [number, number, number, number] = c1 < 0 ? [0, 0, 0, 0] : [c0, r0, c1 + 1, r1 + 1];
  return { minutes, source, sourceCells: located.map((x) => x.cell), located, settled, window };
}
