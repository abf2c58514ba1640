/**
 * The 5-arc-minute grid shared by every layer of the bundle.
 *
 * EPSG:4326, cell-registered on the global 1/12-degree lattice: cell edges at multiples
 * of 1/12 degree, cell centres at odd multiples of 1/24 degree. `CELL5M` is the
 * row-major index of a cell on the global 4320 x 2160 grid (row 0 touches 90N,
 * column 0 touches 180W), as in HarvestChoice's CELL5M.
 *
 * A bundle covers a window of that lattice given in its manifest.json `grid`: the embedded
 * bundle [xmin, ymin, xmax, ymax] = [-26, -35, 64, 28] degrees ({@link SSA_GRID}: 1080 columns
 * x 756 rows = 816,480 cells, global column offset 1848, row offset 744); an ingested bundle
 * the bounding box of its table's cells ({@link gridFromCellExtent}) or a fixed window.
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

/** The whole global lattice as a window [-180, -90, 180, 90] (4320 x 2160 cells, offsets 0). */
export const GLOBAL_GRID: GridDef = {
  crs: 'EPSG:4326',
  cellSizeDeg: CELL_SIZE_DEG,
  xmin: -180,
  ymin: -90,
  xmax: 180,
  ymax: 90,
  width: GLOBAL_WIDTH,
  height: GLOBAL_HEIGHT,
  colOffset: 0,
  rowOffset: 0,
};

/**
 * A fixed window holding every territory of the 49 countries of Africa south of the Sahara
 * the original covers, outer islands included: [-26, -48, 73, 28] degrees, 1188 x 912 cells
 * (Cape Verde to the British Indian Ocean Territory's Chagos, about 71-72.5 E; Mauritania's
 * north to South Africa's Prince Edward Islands, about 46.5-47 S, and Saint Helena's Gough
 * Island, about 40.3 S). `indapi3-ingest --window ssa` uses it instead of the table's extent.
 */
export const SSA_ALL_GRID: GridDef = gridFromCellExtent(1848, 744, 1848 + 1188 - 1, 744 + 912 - 1);

/**
 * The window of a rectangle of global cells (cell-registered: edges on multiples of 1/12 degree).
 * @param col0 global column of the west-most cell (0 at 180 W)
 * @param row0 global row of the north-most cell (0 at 90 N)
 * @param col1 global column of the east-most cell (inclusive)
 * @param row1 global row of the south-most cell (inclusive)
 * @throws RangeError when the rectangle is empty or leaves the global grid
 */
export function gridFromCellExtent(col0: number, row0: number, col1: number, row1: number): GridDef {
  if (![col0, row0, col1, row1].every(Number.isInteger) || col0 < 0 || row0 < 0 || col1 >= GLOBAL_WIDTH || row1 >= GLOBAL_HEIGHT || col1 < col0 || row1 < row0) {
    throw new RangeError(`gridFromCellExtent: bad cell rectangle ${col0},${row0} .. ${col1},${row1}`);
  }
  // edges as one correctly rounded division (exact for whole and half degrees)
  return {
    crs: 'EPSG:4326',
    cellSizeDeg: CELL_SIZE_DEG,
    xmin: (col0 - GLOBAL_WIDTH / 2) / 12,
    ymin: (GLOBAL_HEIGHT / 2 - row1 - 1) / 12,
    xmax: (col1 + 1 - GLOBAL_WIDTH / 2) / 12,
    ymax: (GLOBAL_HEIGHT / 2 - row0) / 12,
    width: col1 - col0 + 1,
    height: row1 - row0 + 1,
    colOffset: col0,
    rowOffset: row0,
  };
}

/**
 * The smallest window of the lattice containing a rectangle in degrees (edges snapped outward
 * to multiples of 1/12 degree).
 * @param xminDeg west edge, degrees longitude (likewise ymin south, xmax east, ymax north)
 * @throws RangeError when the rectangle is empty or not within [-180, -90, 180, 90]
 */
export function gridFromBoundsDeg(xminDeg: number, yminDeg: number, xmaxDeg: number, ymaxDeg: number): GridDef {
  const snap = (v: number, up: boolean) => {
    const k = v * 12, r = Math.round(k);
    return Math.abs(k - r) < 1e-6 ? r : up ? Math.ceil(k) : Math.floor(k);
  };
  const c0 = snap(xminDeg, false) + GLOBAL_WIDTH / 2, c1 = snap(xmaxDeg, true) + GLOBAL_WIDTH / 2 - 1;
  const r0 = GLOBAL_HEIGHT / 2 - snap(ymaxDeg, true), r1 = GLOBAL_HEIGHT / 2 - snap(yminDeg, false) - 1;
  return gridFromCellExtent(c0, r0, c1, r1);
}

/**
 * The window a bundle's manifest.json `grid` describes, checked against the lattice: offsets,
 * size and edges must agree (edges = offsets / 12). Missing or invalid: `fallback`.
 * @param grid the manifest's `grid` member (any JSON value)
 * @param fallback the window to use when `grid` is absent or invalid (e.g. {@link SSA_GRID})
 */
export function gridFromManifest(grid: unknown, fallback: GridDef): GridDef {
  const g = grid as Partial<GridDef> | null;
  if (!g || typeof g !== 'object') return fallback;
  const { colOffset, rowOffset, width, height } = g;
  if (![colOffset, rowOffset, width, height].every((v) => Number.isInteger(v))) return fallback;
  if (typeof g.cellSizeDeg === 'number' && Math.abs(g.cellSizeDeg - CELL_SIZE_DEG) > 1e-12) return fallback;
  try {
    const w = gridFromCellExtent(colOffset!, rowOffset!, colOffset! + width! - 1, rowOffset! + height! - 1);
    if (typeof g.xmin === 'number' && Math.abs(g.xmin - w.xmin) > 1e-9) return fallback;
    if (typeof g.ymax === 'number' && Math.abs(g.ymax - w.ymax) > 1e-9) return fallback;
    return w;
  } catch {
    return fallback;
  }
}

/**
 * Global column and row of a CELL5M id (no range check).
 * @param id CELL5M id (row-major on the 4320 x 2160 grid)
 */
export function globalColRow(id: number): [col: number, row: number] {
  return [id % GLOBAL_WIDTH, Math.floor(id / GLOBAL_WIDTH)];
}

/**
 * The window as text, [xmin, ymin, xmax, ymax] in degrees (for messages).
 */
export function gridText(grid: GridDef): string {
  const f = (v: number) => String(Math.round(v * 1e6) / 1e6);
  return `[${f(grid.xmin)}, ${f(grid.ymin)}, ${f(grid.xmax)}, ${f(grid.ymax)}]`;
}

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
