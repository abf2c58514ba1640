/**
 * The 5-arc-minute grid shared by every layer of the bundle.
 *
 * EPSG:4326, cell-registered on the global 1/12-degree lattice: cell edges at multiples
 * of 1/12 degree, cell centres at odd multiples of 1/24 degree. `CELL5M` is the
 * row-major index of a cell on the global 4320 x 2160 grid (row 0 touches 90N,
 * column 0 touches 180W), as in HarvestChoice's CELL5M.
 *
 * The bundle covers the window [xmin, ymin, xmax, ymax] = [-26, -35, 64, 28] degrees:
 * 1080 columns x 756 rows = 816,480 cells, global column offset 1848, row offset 744.
 */

/** Cell size in degrees (5 arc-minutes). */
export const CELL_SIZE_DEG = 1 / 12;
/** Columns of the global grid. */
export const GLOBAL_WIDTH = 4320;
/** Rows of the global grid. */
export const GLOBAL_HEIGHT = 2160;

/** A grid window in degrees and cells. All bundle COGs share one of these. */
export interface GridDef {
  /** Always "EPSG:4326". */
  crs: 'EPSG:4326';
  /** Cell size, degrees. */
  cellSizeDeg: number;
  /** West edge, degrees longitude. */
  xmin: number;
  /** South edge, degrees latitude. */
  ymin: number;
  /** East edge, degrees longitude. */
  xmax: number;
  /** North edge, degrees latitude. */
  ymax: number;
  /** Columns (cells). */
  width: number;
  /** Rows (cells). */
  height: number;
  /** Global column index of column 0 of this window. */
  colOffset: number;
  /** Global row index of row 0 of this window. */
  rowOffset: number;
}

/** The bundle's grid: [-26, -35, 64, 28] degrees, 1080 x 756 cells. */
export const SSA_GRID: GridDef = {
  crs: 'EPSG:4326',
  cellSizeDeg: CELL_SIZE_DEG,
  xmin: -26,
  ymin: -35,
  xmax: 64,
  ymax: 28,
  width: 1080,
  height: 756,
  colOffset: 1848,
  rowOffset: 744,
};

/**
 * CELL5M id of a cell given its window column and row.
 * @param grid the window
 * @param col column in the window (0-based)
 * @param row row in the window (0-based, north first)
 * @returns global row-major index (0 .. 4320*2160-1)
 */
export function cellId(grid: GridDef, col: number, row: number): number {
  return (row + grid.rowOffset) * GLOBAL_WIDTH + (col + grid.colOffset);
}

/**
 * Window column and row of a CELL5M id, or null when the cell lies outside the window.
 * @param grid the window
 * @param id CELL5M id
 */
export function cellToColRow(grid: GridDef, id: number): [col: number, row: number] | null {
  if (!Number.isInteger(id) || id < 0 || id >= GLOBAL_WIDTH * GLOBAL_HEIGHT) return null;
  const col = (id % GLOBAL_WIDTH) - grid.colOffset;
  const row = Math.floor(id / GLOBAL_WIDTH) - grid.rowOffset;
  if (col < 0 || row < 0 || col >= grid.width || row >= grid.height) return null;
  return [col, row];
}

/** Half-cells per degree: cell centres are odd multiples of 1 / HALF_CELLS_PER_DEG degree. */
export const HALF_CELLS_PER_DEG = 24;

/**
 * Centre of a window cell in degrees: [longitude, latitude].
 * Computed from the global lattice as one correctly rounded division, so centres are the
 * nearest doubles to the odd multiples of 1/24 degree.
 */
export function cellCentre(grid: GridDef, col: number, row: number): [lonDeg: number, latDeg: number] {
  const gc = col + grid.colOffset;
  const gr = row + grid.rowOffset;
  return [(gc * 2 + 1 - GLOBAL_WIDTH) / HALF_CELLS_PER_DEG, (GLOBAL_HEIGHT - (gr * 2 + 1)) / HALF_CELLS_PER_DEG];
}

/**
 * Window column and row of the cell containing a point, or null outside the window.
 * A point on a cell edge belongs to the cell east / south of the edge.
 * @param lonDeg longitude, degrees
 * @param latDeg latitude, degrees
 */
export function pointToColRow(grid: GridDef, lonDeg: number, latDeg: number): [col: number, row: number] | null {
  const col = Math.floor((lonDeg - grid.xmin) / grid.cellSizeDeg);
  const row = Math.floor((grid.ymax - latDeg) / grid.cellSizeDeg);
  if (!(col >= 0 && row >= 0 && col < grid.width && row < grid.height)) return null;
  return [col, row];
}
