/**
 * Accumulated travel time (minutes) from source points over a friction surface: Dijkstra's
 * algorithm on the 8-neighbour graph of a cell-registered EPSG:4326 grid.
 *
 * Definition (as R `gdistance` with its geographic correction and Earth Engine
 * `cumulativeCost` define it): the cost of a step between two neighbouring cells is the
 * geodesic distance between their centres on WGS84 (metres, {@link rowSteps}) times the mean
 * of the two cells' friction (minutes per metre); a cell's time is the least sum of step costs
 * over all paths from any source (multiple sources: the nearest wins, all start at 0).
 * No-data cells (NaN, negative or infinite friction) are barriers: never entered, never
 * crossed. Cells whose time exceeds `maxMinutes` are not settled and read NaN, as do cells
 * that cannot be reached.
 */
import { IndapiError, throwIfAborted } from '../errors';
import { cellCentre, pointToColRow, type GridDef } from '../grid';
import { rowSteps, type RowSteps } from './geodesic';
import { CellHeap } from './heap';

/** A friction surface on a grid. */
export interface FrictionSurface {
  /** The grid (a window of the global CELL5M lattice, or any cell-registered EPSG:4326 grid). */
  grid: GridDef;
  /** Minutes needed to cross one metre, per cell, row-major, north row first; NaN = no-data (barrier). */
  minutesPerMetre: Float32Array;
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
  /** Precomputed step lengths of this grid (default: computed, about 1 ms per 1000 rows). */
  steps?: RowSteps;
}

/** Result of {@link travelTimeMinutes}. */
export interface TravelTime {
  /** Minutes per cell of the input grid, row-major; NaN where unreachable or beyond `maxMinutes`. */
  minutes: Float32Array;
  /** Cell index (row * width + col) of each source, in input order. */
  sourceCells: number[];
  /** Cells settled (time <= maxMinutes). */
  settled: number;
  /** Bounding box of the settled cells as a pixel window [col0, row0, col1, row1) (empty: all 0). */
  window: [number, number, number, number];
}

/** Most source points of one computation. */
export const MAX_SOURCES = 1000;

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
const workspaces = new Map<number, { dist: Float64Array; done: Uint8Array }>();

/**
 * Buffers of a run over N cells, kept between runs (one computation at a time per thread:
 * the run is synchronous) so a small catchment does not pay for allocating and filling
 * full-grid arrays; the run resets the cells it touched.
 */
function workspace(N: number): { dist: Float64Array; done: Uint8Array } {
  let w = workspaces.get(N);
  if (!w) {
    if (workspaces.size > 4) workspaces.clear();
    w = { dist: new Float64Array(N).fill(Infinity), done: new Uint8Array(N) };
    workspaces.set(N, w);
  }
  return w;
}

/**
 * Snaps source points to the cells that contain them.
 * @param grid the grid
 * @param points [longitude, latitude] pairs, degrees (EPSG:4326)
 * @param friction friction values (a source on a no-data cell is an error)
 * @param argName argument named in errors
 * @returns cell indices (row * width + col), in input order
 * @throws IndapiError BAD_ARGUMENT (no point, too many, not finite, on a barrier), OUTSIDE_GRID
 */
export function snapSources(grid: GridDef, points: ReadonlyArray<readonly [number, number]>, friction: Float32Array, argName = 'xy'): number[] {
  if (!points.length) throw new IndapiError('BAD_ARGUMENT', `'${argName}' gives no source point.`, { arg: argName });
  if (points.length > MAX_SOURCES) throw new IndapiError('BAD_ARGUMENT', `'${argName}' gives ${points.length} source points; at most ${MAX_SOURCES} are allowed.`, { arg: argName });
  return points.map(([lon, lat]) => {
    if (!Number.isFinite(lon) || !Number.isFinite(lat)) throw new IndapiError('BAD_ARGUMENT', `'${argName}': coordinates must be finite numbers (longitude, latitude in degrees), got ${lon}, ${lat}.`, { arg: argName });
    const cr = pointToColRow(grid, lon, lat);
    if (!cr) throw new IndapiError('OUTSIDE_GRID', `'${argName}': the point (${lon}, ${lat}) lies outside the grid of the bundle [${grid.xmin}, ${grid.ymin}, ${grid.xmax}, ${grid.ymax}] (EPSG:4326, longitude first).`, { arg: argName });
    const i = cr[1] * grid.width + cr[0];
    const f = friction[i];
    if (!(f >= 0 && f < Infinity)) throw new IndapiError('BAD_ARGUMENT', `'${argName}': the point (${lon}, ${lat}) lies on a cell the friction surface cannot cross (no-data: sea, a lake or outside the countries).`, { arg: argName });
    return i;
  });
}

/**
 * Accumulated travel time from source points, minutes (see the module docs for the definition).
 * @param surface friction surface (minutes per metre)
 * @param points source points, [longitude, latitude] degrees, snapped to the cell containing them
 * @param opts largest time, abort signal, progress
 * @throws IndapiError BAD_ARGUMENT (also over MAX_SOURCES) / OUTSIDE_GRID for bad sources, ABORTED
 */
export function travelTimeMinutes(surface: FrictionSurface, points: ReadonlyArray<readonly [number, number]>, opts: TravelTimeOptions): TravelTime {
  const { grid, minutesPerMetre: fr } = surface;
  const W = grid.width, H = grid.height, N = W * H;
  if (fr.length !== N) throw new IndapiError('INTERNAL', `friction has ${fr.length} cells, the grid ${N}.`);
  const maxM = opts.maxMinutes;
  if (!(maxM >= 0)) throw new IndapiError('BAD_ARGUMENT', `maxMinutes must be a number >= 0, got ${maxM}.`);
  throwIfAborted(opts.signal);
  const sourceCells = snapSources(grid, points, fr, opts.argName);
  const { ewM, nsM, diagM } = opts.steps ?? gridSteps(grid);
  const { dist, done } = workspace(N);
  const heap = new CellHeap(4096);
  // cells whose dist was lowered (to reset the shared workspace afterwards), grown as needed
  let touched = new Int32Array(1024);
  let nTouched = 0;
  const lower = (j: number, nd: number) => {
    if (dist[j] === Infinity) {
      if (nTouched === touched.length) { const t = new Int32Array(nTouched * 2); t.set(touched); touched = t; }
      touched[nTouched++] = j;
    }
    dist[j] = nd;
    heap.push(nd, j);
  };
  for (const s of sourceCells) if (dist[s] !== 0) lower(s, 0);
  // relax one neighbour j of a cell at time d with friction f over a step of m metres
  const relax = (j: number, m: number, d: number, f: number) => {
    if (done[j]) return;
    const g = fr[j];
    if (!(g >= 0 && g < Infinity)) return;
    const nd = d + m * 0.5 * (f + g);
    if (nd < dist[j] && nd <= maxM) lower(j, nd);
  };
  let settled = 0;
  let c0 = W, r0 = H, c1 = -1, r1 = -1;
  const minutes = new Float32Array(N).fill(NaN);
  try {
    while (heap.size) {
      if (heap.peekKey() > maxM) break;
      const i = heap.pop();
      if (done[i]) continue;
      done[i] = 1;
      settled++;
      if ((settled & 0xffff) === 0) { throwIfAborted(opts.signal); opts.onProgress?.(settled, N); }
      const r = (i / W) | 0, c = i - r * W;
      if (c < c0) c0 = c; if (c > c1) c1 = c; if (r < r0) r0 = r; if (r > r1) r1 = r;
      const d = dist[i], f = fr[i];
      minutes[i] = d;
      const west = c > 0, east = c < W - 1;
      if (west) relax(i - 1, ewM[r], d, f);
      if (east) relax(i + 1, ewM[r], d, f);
      if (r > 0) {
        const up = i - W, ns = nsM[r - 1], dg = diagM[r - 1];
        relax(up, ns, d, f);
        if (west) relax(up - 1, dg, d, f);
        if (east) relax(up + 1, dg, d, f);
      }
      if (r < H - 1) {
        const dn = i + W, ns = nsM[r], dg = diagM[r];
        relax(dn, ns, d, f);
        if (west) relax(dn - 1, dg, d, f);
        if (east) relax(dn + 1, dg, d, f);
      }
    }
  } finally {
    // leave the shared workspace clean (also after an abort)
    for (let k = 0; k < nTouched; k++) { const j = touched[k]; dist[j] = Infinity; done[j] = 0; }
  }
  opts.onProgress?.(settled, N);
  const window: [number, number, number, number] = c1 < 0 ? [0, 0, 0, 0] : [c0, r0, c1 + 1, r1 + 1];
  return { minutes, sourceCells, settled, window };
}
