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
import { IndexedCellHeap } from './heap';
import { locateSources, MAX_SOURCES, type LocatedSource } from './sources';
import type { CatchmentOrigin, Neighbours } from '../api/catchment';

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

/** Per-run buffers over the N cells of a grid: see {@link workspace}. */
interface Workspace {
  /** Best time so far, minutes (Infinity between runs). */
  dist: Float64Array;
  /** Source of the best time so far. */
  from: Int16Array;
  /** Heap slot of each cell (-1 between runs). */
  pos: Int32Array;
  /** Cells in the order they were settled. */
  order: Int32Array;
}

/** Reusable per-grid-size buffers: dist all Infinity and pos all -1 between runs. */
const workspaces = new Map<number, Workspace>();

/**
 * Buffers of a run over N cells, kept between runs (one computation at a time per thread:
 * the run is synchronous) so a small catchment does not pay for allocating and filling
 * full-grid arrays; the run resets the cells it touched.
 */
function workspace(N: number): Workspace {
  let w = workspaces.get(N);
  if (!w) {
    if (workspaces.size > 4) workspaces.clear();
    w = { dist: new Float64Array(N).fill(Infinity), from: new Int16Array(N), pos: new Int32Array(N).fill(-1), order: new Int32Array(N) };
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
  const { dist, from } = ws;
  const heap = new IndexedCellHeap(ws.pos, 4096);
  located.forEach((src, k) => {
    const start = (j: number, t: number) => { if (t < dist[j] && t <= maxM) { dist[j] = t; from[j] = k; heap.set(j, t); } };
    if (opts.origin === 'point' && !src.snapped) pointStarts(grid, fr, src.cell, points[k][0], points[k][1], n16, start);
    else start(src.cell, 0);
  });
  const run = { settled: 0 };
  try {
    return settle(surface, steps, n16, maxM, ws, heap, run, opts, located);
  } finally {
    // leave the shared workspace clean (also after an abort): the settled cells, then those still in the heap
    for (let k = 0; k < run.settled; k++) dist[ws.order[k]] = Infinity;
    heap.clear((j) => { dist[j] = Infinity; });
  }
}

/** The moves of the graph as tables: column and row step, index offset, crossed cells, step length per row. */
interface Moves {
  /** Moves: 8 king's, then (16 neighbours) 8 knight's. */
  n: number;
  dc: Int32Array;
  dr: Int32Array;
  /** Index offset of the cell reached (dr * width + dc). */
  off: Int32Array;
  /** Knight's moves: index offsets of the two cells crossed (in the order their frictions are added). */
  a: Int32Array;
  b: Int32Array;
  /** Step length in metres of move k from row r: `len[r * 16 + k]` (NaN where the row reached is outside the grid). */
  len: Float64Array;
}

/** Move tables by step table and width (the steps are per grid height). */
const moveCache = new WeakMap<RowSteps, Map<number, Moves>>();

/**
 * The moves of a grid of width W, in the order the definition relaxes them (the king's
 * moves west, east, north, north-west, north-east, south, south-west, south-east; then the
 * knight's moves), with their lengths per row from `steps`.
 */
function movesOf(steps: RowSteps, W: number, H: number): Moves {
  let byW = moveCache.get(steps);
  if (!byW) { byW = new Map(); moveCache.set(steps, byW); }
  const hit = byW.get(W);
  if (hit) return hit;
  const { ewM, nsM, diagM } = steps;
  const kn = steps.knightNsM ?? new Float64Array(0), ke = steps.knightEwM ?? new Float64Array(0);
  // [dc, dr, length of a step from row r, crossed a (dc, dr), crossed b (dc, dr)]
  type M = [number, number, (r: number) => number, number, number, number, number];
  const list: M[] = [
    [-1, 0, (r) => ewM[r], 0, 0, 0, 0], [1, 0, (r) => ewM[r], 0, 0, 0, 0],
    [0, -1, (r) => nsM[r - 1], 0, 0, 0, 0], [-1, -1, (r) => diagM[r - 1], 0, 0, 0, 0], [1, -1, (r) => diagM[r - 1], 0, 0, 0, 0],
    [0, 1, (r) => nsM[r], 0, 0, 0, 0], [-1, 1, (r) => diagM[r], 0, 0, 0, 0], [1, 1, (r) => diagM[r], 0, 0, 0, 0],
    [-1, -2, (r) => kn[r - 2], 0, -1, -1, -1], [1, -2, (r) => kn[r - 2], 0, -1, 1, -1],
    [-1, 2, (r) => kn[r], 0, 1, -1, 1], [1, 2, (r) => kn[r], 0, 1, 1, 1],
    [-2, -1, (r) => ke[r - 1], -1, 0, -1, -1], [2, -1, (r) => ke[r - 1], 1, 0, 1, -1],
    [-2, 1, (r) => ke[r], -1, 0, -1, 1], [2, 1, (r) => ke[r], 1, 0, 1, 1],
  ];
  const n = list.length;
  const m: Moves = { n, dc: new Int32Array(n), dr: new Int32Array(n), off: new Int32Array(n), a: new Int32Array(n), b: new Int32Array(n), len: new Float64Array(16 * H) };
  list.forEach(([dc, dr, len, ac, ar, bc, br], k) => {
    m.dc[k] = dc; m.dr[k] = dr; m.off[k] = dr * W + dc; m.a[k] = ar * W + ac; m.b[k] = br * W + bc;
    for (let r = 0; r < H; r++) m.len[r * 16 + k] = r + dr >= 0 && r + dr < H ? len(r) : NaN;
  });
  byW.set(W, m);
  return m;
}

/** Friction as float64 with NaN for every barrier (no-data, negative, infinite), by input array. */
const passCache = new WeakMap<Float32Array | Float64Array, Float64Array>();

/** The friction with barriers as NaN: a step's friction sum is NaN when it touches one. */
function passable(fr: Float32Array | Float64Array): Float64Array {
  let p = passCache.get(fr);
  if (!p) {
    p = new Float64Array(fr.length);
    for (let i = 0; i < fr.length; i++) { const f = fr[i]; p[i] = f >= 0 && f < Infinity ? f : NaN; }
    passCache.set(fr, p);
  }
  return p;
}

/**
 * The Dijkstra loop of {@link travelTimeMinutes} over the seeded heap (decrease-key: each cell
 * is popped once, when its time is final). The moves come from tables ({@link movesOf}); a
 * step costs its length times the mean friction of the cells it touches, added to the cell's
 * time in the order of operations of the definition; a barrier makes the friction sum NaN,
 * which no comparison lets through. `run.settled` counts the cells of `ws.order` to reset,
 * also when an abort throws.
 */
function settle(
  surface: FrictionSurface, steps: RowSteps, n16: boolean, maxM: number,
  ws: Workspace, heap: IndexedCellHeap, run: { settled: number }, opts: TravelTimeOptions, located: LocatedSource[],
): TravelTime {
  const { grid } = surface;
  const fr = passable(surface.minutesPerMetre);
  const W = grid.width, H = grid.height, N = W * H;
  const mv = movesOf(steps, W, H);
  const K = n16 ? mv.n : 8;
  const { dc: mdc, off, a: ma, b: mb, len } = mv;
  const { dist, from, order } = ws;
  let settled = 0;
  let c0 = W, r0 = H, c1 = -1, r1 = -1;
  const minutes = new Float32Array(N).fill(NaN);
  const source = new Int16Array(N).fill(-1);
  while (heap.size && heap.peekKey() <= maxM) {
    const i = heap.pop();
    order[settled++] = i;
    if ((settled & 0xffff) === 0) { run.settled = settled; throwIfAborted(opts.signal); opts.onProgress?.(settled, N); }
    const r = (i / W) | 0, c = i - r * W;
    if (c < c0) c0 = c; if (c > c1) c1 = c; if (r < r0) r0 = r; if (r > r1) r1 = r;
    const d = dist[i], f = fr[i], s = from[i];
    minutes[i] = d;
    source[i] = s;
    // a settled cell is never lowered again (its time is final and costs are >= 0): no check needed
    const row = r * 16;
    for (let k = 0; k < 8; k++) {
      const cc = c + mdc[k], m = len[row + k]; // m NaN: the row reached is outside the grid
      if (cc < 0 || cc >= W || !(m > 0)) continue;
      const j = i + off[k];
      const nd = d + m * 0.5 * (f + fr[j]);
      if (nd < dist[j] && nd <= maxM) { dist[j] = nd; from[j] = s; heap.set(j, nd); }
    }
    for (let k = 8; k < K; k++) {
      const cc = c + mdc[k], m = len[row + k];
      if (cc < 0 || cc >= W || !(m > 0)) continue;
      const j = i + off[k];
      const nd = d + m * 0.25 * (f + fr[j] + fr[i + ma[k]] + fr[i + mb[k]]);
      if (nd < dist[j] && nd <= maxM) { dist[j] = nd; from[j] = s; heap.set(j, nd); }
    }
  }
  run.settled = settled;
  opts.onProgress?.(settled, N);
  const window: [number, number, number, number] = c1 < 0 ? [0, 0, 0, 0] : [c0, r0, c1 + 1, r1 + 1];
  return { minutes, source, sourceCells: located.map((x) => x.cell), located, settled, window };
}
