import { describe, expect, it } from 'vitest';
import { SSA_GRID, cellCentre, cellId, cellToColRow, pointToColRow } from './grid';

describe('grid', () => {
  it('window offsets follow from the extent', () => {
    expect(SSA_GRID.colOffset).toBe((SSA_GRID.xmin + 180) * 12);
    expect(SSA_GRID.rowOffset).toBe((90 - SSA_GRID.ymax) * 12);
    expect(SSA_GRID.width).toBe((SSA_GRID.xmax - SSA_GRID.xmin) * 12);
    expect(SSA_GRID.height).toBe((SSA_GRID.ymax - SSA_GRID.ymin) * 12);
  });
  it('cell centres sit at odd multiples of 1/24 degree', () => {
    const [x, y] = cellCentre(SSA_GRID, 0, 0);
    expect(x).toBeCloseTo(-26 + 1 / 24, 12);
    expect(y).toBeCloseTo(28 - 1 / 24, 12);
    expect(Math.round(x * 24) % 2).not.toBe(0);
  });
  it('CELL5M round-trips and matches the global row-major layout', () => {
    const id = cellId(SSA_GRID, 10, 20);
    expect(id).toBe((20 + 744) * 4320 + 10 + 1848);
    expect(cellToColRow(SSA_GRID, id)).toEqual([10, 20]);
    expect(cellToColRow(SSA_GRID, 0)).toBeNull();
  });
  it('a point maps to the cell that contains it (Nairobi)', () => {
    const cr = pointToColRow(SSA_GRID, 36.8219, -1.2921)!;
    const [x, y] = cellCentre(SSA_GRID, cr[0], cr[1]);
    expect(Math.abs(x - 36.8219)).toBeLessThanOrEqual(1 / 24);
    expect(Math.abs(y + 1.2921)).toBeLessThanOrEqual(1 / 24);
    expect(pointToColRow(SSA_GRID, 70, 0)).toBeNull();
  });
});
