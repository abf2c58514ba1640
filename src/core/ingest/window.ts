/**
 * The bundle window from the data: the bounding box of a table's cells on the 5-arc-minute
 * lattice (cell-registered, src/core/grid.ts), so that no real cell (e.g. the outer islands of
 * British Indian Ocean Territory, Saint Helena or South Africa) lies outside the bundle.
 */
import { gridFromCellExtent, type GridDef } from '../grid';
import type { CountryCells } from './classes';

/**
 * Cuts the window holding every valid cell out of the grid the rows were checked on, and
 * re-indexes the rows' cells and the countries' extents on it (in place).
 * @param checked the grid the cells were placed on during the read pass (e.g. GLOBAL_GRID)
 * @param cellOf per table row, the row-major index of its cell on `checked` (-1: no valid
 *   cell); rewritten to the index on the returned window
 * @param countries per-country cell extents in `checked` columns/rows; rewritten to the window
 * @returns the window (`checked` itself when no row has a valid cell)
 */
export function windowFromCells(checked: GridDef, cellOf: Int32Array, countries: Iterable<CountryCells>): GridDef {
  const W = checked.width;
  let c0 = Infinity, r0 = Infinity, c1 = -Infinity, r1 = -Infinity;
  for (let i = 0; i < cellOf.length; i++) {
    const k = cellOf[i];
    if (k < 0) continue;
    const c = k % W, r = (k - c) / W;
    if (c < c0) c0 = c;
    if (c > c1) c1 = c;
    if (r < r0) r0 = r;
    if (r > r1) r1 = r;
  }
  if (c1 < 0) return checked;
  const win = gridFromCellExtent(c0 + checked.colOffset, r0 + checked.rowOffset, c1 + checked.colOffset, r1 + checked.rowOffset);
  for (let i = 0; i < cellOf.length; i++) {
    const k = cellOf[i];
    if (k < 0) continue;
    const c = k % W, r = (k - c) / W;
    cellOf[i] = (r - r0) * win.width + (c - c0);
  }
  for (const cc of countries) {
    cc.ext[0] -= c0;
    cc.ext[2] -= c0;
    cc.ext[1] -= r0;
    cc.ext[3] -= r0;
  }
  return win;
}
