/**
 * Shared preparation of per-cell layers for the raster writers (GeoTIFF, ESRI ASCII grid,
 * R raster grd) and the map plot: window georeferencing, class indices and no-data.
 */
import type { CellLayer, CellResult } from '../api';
import type { GridDef } from '../grid';
import type { ClassEntry, VarRecord } from '../types';

/** Georeferencing of a window, computed from the global lattice so edges are exact multiples of the cell size. */
export interface WindowGeo {
  /** Columns. */
  width: number;
  /** Rows. */
  height: number;
  /** Cell size, degrees. */
  cellSize: number;
  /** West edge, degrees. */
  xmin: number;
  /** East edge, degrees. */
  xmax: number;
  /** South edge, degrees. */
  ymin: number;
  /** North edge, degrees. */
  ymax: number;
}

/** Window georeferencing of a grid: edges from the global column/row offsets (x = (col - 2160) / 12, y = (1080 - row) / 12 for 1/12-degree cells). */
export function windowGeo(grid: GridDef): WindowGeo {
  const perDeg = Math.round(1 / grid.cellSizeDeg);
  const exact = Math.abs(perDeg * grid.cellSizeDeg - 1) < 1e-12;
  // (offset - 180 * perDeg) / perDeg: one rounding, no cancellation near 0 degrees.
  const x0 = exact ? (grid.colOffset - 180 * perDeg) / perDeg : grid.xmin;
  const y1 = exact ? (90 * perDeg - grid.rowOffset) / perDeg : grid.ymax;
  return {
    width: grid.width,
    height: grid.height,
    cellSize: grid.cellSizeDeg,
    xmin: x0,
    ymax: y1,
    xmax: exact ? (grid.colOffset + grid.width - 180 * perDeg) / perDeg : grid.xmax,
    ymin: exact ? (90 * perDeg - grid.rowOffset - grid.height) / perDeg : grid.ymin,
  };
}

/** A class layer as 0-based class indices. */
export interface ClassIndexed {
  /** Classes in index order (the layer's class table, then values missing from it). */
  classes: ClassEntry[];
  /** Index per cell, -1 for no data or unselected. */
  index: Int32Array;
}

/**
 * Class indices of a class layer: index i = position of the cell's class value in the
 * layer's class table (values missing from the table are appended with their value as label).
 * Cells outside the mask are no data.
 */
export function classIndices(layer: CellLayer, mask: Uint8Array): ClassIndexed {
  const classes: ClassEntry[] = [...(layer.classes ?? [])];
  const pos = new Map<number, number>();
  classes.forEach((c, i) => {
    if (!pos.has(Number(c.value))) pos.set(Number(c.value), i);
  });
  const index = new Int32Array(layer.values.length);
  for (let i = 0; i < layer.values.length; i++) {
    const v = layer.values[i];
    if (!mask[i] || Number.isNaN(v)) {
      index[i] = -1;
      continue;
    }
    let k = pos.get(v);
    if (k === undefined) {
      k = classes.length;
      classes.push({ value: v, label: String(v) });
      pos.set(v, k);
    }
    index[i] = k;
  }
  return { classes, index };
}

/**
 * Pixel codes of a class layer for tif/asc: 0-based class indices ({@link classIndices}), or
 * with `valuesAreIds` the class values themselves (non-negative integers), the classes then
 * padded so that position = value (padding: label '', `padding` true).
 */
export function classCodes(layer: CellLayer, mask: Uint8Array): ClassIndexed & { padding: boolean[] } {
  const ix = classIndices(layer, mask);
  if (!layer.valuesAreIds) return { ...ix, padding: ix.classes.map(() => false) };
  let max = -1;
  for (const c of ix.classes) max = Math.max(max, Number(c.value));
  const classes: ClassEntry[] = Array.from({ length: max + 1 }, (_, v) => ({ value: v, label: '' }));
  const padding = classes.map(() => true);
  for (const c of ix.classes) {
    classes[Number(c.value)] = c;
    padding[Number(c.value)] = false;
  }
  const index = Int32Array.from(ix.index, (k) => (k < 0 ? -1 : Number(ix.classes[k].value)));
  return { classes, index, padding };
}

/** Continuous values with unselected cells set to NaN. */
export function maskedValues(layer: CellLayer, mask: Uint8Array): Float64Array {
  const out = new Float64Array(layer.values.length);
  for (let i = 0; i < out.length; i++) out[i] = mask[i] ? layer.values[i] : NaN;
  return out;
}

/** Number of selected cells. */
export function countSelected(cells: CellResult): number {
  let n = 0;
  for (let i = 0; i < cells.mask.length; i++) n += cells.mask[i] ? 1 : 0;
  return n;
}

/** Colours of a class layer's classes: the class table's colours, else the catalog's `classColors` matched by `classBreaks` value. */
export function classColors(classes: ClassEntry[], rec: VarRecord | undefined): Array<string | undefined> {
  const fromCatalog = new Map<number, string>();
  if (rec && rec.classBreaks && rec.classColors) {
    const vals = rec.classBreaks.split('|').map(Number);
    const cols = rec.classColors.split('|');
    vals.forEach((v, i) => {
      if (cols[i]) fromCatalog.set(v, cols[i]);
    });
  }
  return classes.map((c) => (c.color ? String(c.color) : fromCatalog.get(Number(c.value))));
}

/** Minimum and maximum of the finite values (NaN, NaN when none). */
export function minMax(values: ArrayLike<number>): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Number.isNaN(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return lo <= hi ? [lo, hi] : [NaN, NaN];
}
