/**
 * Source points of a catchment on the grid: each point's cell, checked (finite, on the grid,
 * given once), and a point on a no-data cell of the friction surface (sea, a lake, outside
 * the countries) moved to the nearest passable cell within `snapKm`.
 *
 * "Nearest" is by the WGS84 geodesic distance from the point to the nearest point of the
 * cell (0 inside it), so a cell counts when any part of it lies within `snapKm`; ties go to
 * the cell whose centre is nearer. The distance reported is to the centre of the cell used,
 * where travel then starts.
 */
import { IndapiError } from '../errors';
import { cellCentre, pointToColRow, type GridDef } from '../grid';
import { geodesicDistanceM } from './geodesic';
import { deparse, SHORT } from '../r/deparse';

/** Most source points of one computation. */
export const MAX_SOURCES = 1000;

/** A source point located on the grid. */
export interface LocatedSource {
  /** Cell index (row * width + col) travel starts from. */
  cell: number;
  /** Set when the point was on a no-data cell and moved: the centre used and its distance from the point, km. */
  snapped?: { lon: number; lat: number; km: number };
}

/** Coordinates for messages: 4 decimals. */
export function fmtPoint(lon: number, lat: number): string {
  return `(${lon.toFixed(4)}, ${lat.toFixed(4)})`;
}

const passable = (f: number): boolean => f >= 0 && f < Infinity;

/** "'xy' row 3" or "'xy' row 3 (Mombasa)": where a source is, for messages. */
function rowText(argName: string, k: number, names?: readonly string[]): string {
  return `'${argName}' row ${k + 1}${names?.[k] ? ` (${names[k]})` : ''}`;
}

/**
 * Locates source points on the grid, moving those on no-data cells (see the module docs).
 * Every point is checked before any is used: nothing is computed half-way.
 * @param grid the grid
 * @param points [longitude, latitude] pairs, degrees (EPSG:4326)
 * @param friction friction per cell (NaN, negative or infinite: no-data, a barrier)
 * @param opts argument named in errors (default "xy"), `snapKm` (default 0: no move), source names for messages
 * @throws IndapiError BAD_ARGUMENT naming the argument and row: no point, over {@link MAX_SOURCES},
 *   not finite, the same point twice, on no-data with no passable cell within snapKm; OUTSIDE_GRID
 */
export function locateSources(
  grid: GridDef, points: ReadonlyArray<readonly [number, number]>, friction: Float32Array | Float64Array,
  opts: { argName?: string; snapKm?: number; names?: readonly string[] } = {},
): LocatedSource[] {
  const argName = opts.argName ?? 'xy';
  const snapKm = opts.snapKm ?? 0;
  if (!points.length) throw new IndapiError('BAD_ARGUMENT', `'${argName}' gives no source point.`, { arg: argName });
  if (points.length > MAX_SOURCES) throw new IndapiError('BAD_ARGUMENT', `'${argName}' gives ${points.length} source points; at most ${MAX_SOURCES} are allowed.`, { arg: argName });
  const seen = new Map<string, number>();
  return points.map(([lon, lat], k) => {
    const where = rowText(argName, k, opts.names);
    if (!Number.isFinite(lon) || !Number.isFinite(lat)) throw new IndapiError('BAD_ARGUMENT', `${where}: coordinates must be finite numbers (longitude, latitude in degrees), got ${deparse(lon, SHORT)}, ${deparse(lat, SHORT)}.`, { arg: argName, row: k + 1 });
    const key = `${lon},${lat}`;
    const prev = seen.get(key);
    if (prev !== undefined) throw new IndapiError('BAD_ARGUMENT', `'${argName}' rows ${prev + 1} and ${k + 1} are the same point ${fmtPoint(lon, lat)}; give each source once.`, { arg: argName, row: k + 1 });
    seen.set(key, k);
    const cr = pointToColRow(grid, lon, lat);
    if (!cr) throw new IndapiError('OUTSIDE_GRID', `${where}: the point ${fmtPoint(lon, lat)} lies outside the grid of the bundle [${grid.xmin}, ${grid.ymin}, ${grid.xmax}, ${grid.ymax}] (EPSG:4326, longitude first).`, { arg: argName, row: k + 1 });
    const i = cr[1] * grid.width + cr[0];
    if (passable(friction[i])) return { cell: i };
    const near = nearestPassable(grid, friction, lon, lat, snapKm);
    if (!near) {
      throw new IndapiError('BAD_ARGUMENT', `${where}: the point ${fmtPoint(lon, lat)} lies on a no-data cell of the friction surface (sea, a lake or outside the countries), which travel cannot cross, and no passable cell lies within snap_km = ${snapKm} km. Move the point onto land or raise snap_km.`, { arg: argName, row: k + 1 });
    }
    return near;
  });
}

/**
 * The passable cell nearest to a point within `snapKm` (see the module docs), or null.
 * Scans the square of cells that can hold such a cell (a few cells for 10 km on 9 km cells).
 */
export function nearestPassable(grid: GridDef, friction: Float32Array | Float64Array, lon: number, lat: number, snapKm: number): LocatedSource | null {
  if (!(snapKm > 0)) return null;
  const cs = grid.cellSizeDeg;
  const cr = pointToColRow(grid, lon, lat);
  if (!cr) return null;
  // cells a snapKm disc can reach: by the shorter side of a cell here (east-west shrinks with latitude)
  const sideKm = Math.min(geodesicDistanceM(0, lat, cs, lat), geodesicDistanceM(0, lat, 0, lat > 0 ? lat - cs : lat + cs)) / 1000;
  const reach = Math.min(Math.ceil(snapKm / Math.max(sideKm, 1e-3)) + 1, 1000);
  let best: { edge: number; centre: number; i: number } | null = null;
  for (let r = Math.max(0, cr[1] - reach); r <= Math.min(grid.height - 1, cr[1] + reach); r++) {
    for (let c = Math.max(0, cr[0] - reach); c <= Math.min(grid.width - 1, cr[0] + reach); c++) {
      const i = r * grid.width + c;
      if (!passable(friction[i])) continue;
      const x0 = grid.xmin + c * cs, y1 = grid.ymax - r * cs;
      const px = Math.min(Math.max(lon, x0), x0 + cs), py = Math.min(Math.max(lat, y1 - cs), y1);
      const edge = geodesicDistanceM(lon, lat, px, py) / 1000;
      if (edge > snapKm) continue;
      const [cx, cy] = cellCentre(grid, c, r);
      const centre = geodesicDistanceM(lon, lat, cx, cy) / 1000;
      if (!best || edge < best.edge || (edge === best.edge && centre < best.centre)) best = { edge, centre, i };
    }
  }
  if (!best) return null;
  const [cx, cy] = cellCentre(grid, best.i % grid.width, Math.floor(best.i / grid.width));
  return { cell: best.i, snapped: { lon: cx, lat: cy, km: best.centre } };
}
