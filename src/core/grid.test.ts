import { describe, expect, it } from 'vitest';
import { GLOBAL_GRID, SSA_ALL_GRID, SSA_GRID, cellCentre, cellId, cellToColRow, gridFromBoundsDeg, gridFromCellExtent, gridFromManifest, gridText, pointToColRow } from './grid';
import { windowFromCells } from './ingest/window';

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

describe('bundle windows', () => {
  it('gridFromCellExtent: edges from the global offsets; the embedded window and the fixed SSA window', () => {
    expect(gridFromCellExtent(1848, 744, 1848 + 1079, 744 + 755)).toEqual(SSA_GRID);
    expect(SSA_ALL_GRID).toMatchObject({ xmin: -26, ymin: -48, xmax: 73, ymax: 28, width: 1188, height: 912, colOffset: 1848, rowOffset: 744 });
    const g = gridFromCellExtent(2012, 1525, 2030, 1670);
    expect(g.xmin).toBe((2012 - 2160) / 12);
    expect(g.ymax).toBe((1080 - 1525) / 12);
    expect([g.width, g.height]).toEqual([19, 146]);
    expect(() => gridFromCellExtent(5, 0, 4, 0)).toThrow(RangeError);
    expect(() => gridFromCellExtent(0, 0, 4320, 0)).toThrow(RangeError);
  });

  it('gridFromBoundsDeg snaps outward to the 1/12-degree lattice', () => {
    expect(gridFromBoundsDeg(-26, -35, 64, 28)).toEqual(SSA_GRID);
    const g = gridFromBoundsDeg(71.8, -7.4, 72.45, -5.2);
    expect(g.xmin).toBeCloseTo(71.75, 12);
    expect(g.xmax).toBeCloseTo(72.5, 12);
    expect(g.ymin).toBeCloseTo(-7.4166666667, 9);
    expect(g.ymax).toBeCloseTo(-5.1666666667, 9);
  });

  it('gridFromManifest checks the manifest grid against the lattice, else the fallback', () => {
    expect(gridFromManifest({ ...SSA_ALL_GRID }, SSA_GRID)).toEqual(SSA_ALL_GRID);
    expect(gridFromManifest(undefined, SSA_GRID)).toBe(SSA_GRID);
    expect(gridFromManifest({ ...SSA_ALL_GRID, xmin: 0 }, SSA_GRID)).toBe(SSA_GRID); // edge disagrees with the offset
    expect(gridFromManifest({ ...SSA_ALL_GRID, width: 1.5 }, SSA_GRID)).toBe(SSA_GRID);
    expect(gridText(SSA_ALL_GRID)).toBe('[-26, -48, 73, 28]');
  });

  it('windowFromCells cuts the bounding box of the valid cells and re-indexes rows and countries', () => {
    const ids = [cellId(GLOBAL_GRID, 100, 50), cellId(GLOBAL_GRID, 103, 52), -1];
    const cellOf = Int32Array.from(ids.map((id) => (id < 0 ? -1 : id))); // on GLOBAL_GRID the index is the CELL5M id
    const country = { name: 'X', cells: 2, ext: [100, 50, 103, 52] as [number, number, number, number] };
    const w = windowFromCells(GLOBAL_GRID, cellOf, [country]);
    expect(w).toMatchObject({ colOffset: 100, rowOffset: 50, width: 4, height: 3 });
    expect(Array.from(cellOf)).toEqual([0, 2 * 4 + 3, -1]);
    expect(country.ext).toEqual([0, 0, 3, 2]);
    expect(windowFromCells(GLOBAL_GRID, Int32Array.from([-1]), [])).toBe(GLOBAL_GRID);
  });

  it('cellCentre is an odd multiple of 1/24 degree, correctly rounded', () => {
    const [x, y] = cellCentre(GLOBAL_GRID, 2012, 1525);
    expect(x).toBe((2012 * 2 + 1 - 4320) / 24);
    expect(y).toBe((2160 - (1525 * 2 + 1)) / 24);
  });
});
