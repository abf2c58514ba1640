/**
 * Per-cell layers of a computed query (`getLayerCells`): the grid clipped to the bounding box
 * of the selected cells, a mask, one value layer per variable (a group's summary when
 * aggregated by a domain) and key layers (ISO3, then each by).
 */
import type { CellLayer, CellResult } from '../api';
import { IndapiError } from '../errors';
import type { GridDef } from '../grid';
import type { ClassEntry } from '../types';
import type { Computed } from './compute';
import type { Ctx } from './context';
import { intervalIndex, roundR } from '../r/labels';
import { metaOf } from './rows';

/** The selected cells' bounding box inside the window: columns x0..x1, rows y0..y1 (inclusive), and the window width. */
interface Clip { x0: number; y0: number; x1: number; y1: number; ww: number; w: number; h: number }

/**
 * Bounding box of the selected cells of a computed query, in window cells.
 * @throws IndapiError EMPTY_SELECTION when no cell is selected
 */
function clipOf(cp: Computed): Clip {
  const [wx0, , wx1] = cp.sel.win;
  const ww = wx1 - wx0;
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let i = 0; i < cp.frame.sel.length; i++) {
    if (cp.frame.sel[i] < 0) continue;
    const cx = i % ww, cy = (i - cx) / ww;
    if (cx < x0) x0 = cx; if (cx > x1) x1 = cx;
    if (cy < y0) y0 = cy; if (cy > y1) y1 = cy;
  }
  if (x0 === Infinity) throw new IndapiError('EMPTY_SELECTION', 'The query selects no cell with data.');
  return { x0, y0, x1, y1, ww, w: x1 - x0 + 1, h: y1 - y0 + 1 };
}

/** The bundle grid cut to the clip (degrees and global offsets). */
function clipGrid(g: GridDef, cp: Computed, k: Clip): GridDef {
  const [wx0, wy0] = cp.sel.win;
  const cs = g.cellSizeDeg;
  return {
    ...g,
    xmin: g.xmin + (wx0 + k.x0) * cs, xmax: g.xmin + (wx0 + k.x1 + 1) * cs,
    ymax: g.ymax - (wy0 + k.y0) * cs, ymin: g.ymax - (wy0 + k.y1 + 1) * cs,
    width: k.w, height: k.h, colOffset: g.colOffset + wx0 + k.x0, rowOffset: g.rowOffset + wy0 + k.y0,
  };
}

/** Calls `f(windowIndex, clipIndex)` for every selected cell of the clip. */
function eachSelected(cp: Computed, k: Clip, f: (i: number, j: number) => void): void {
  for (let r = 0; r < k.h; r++) {
    for (let q = 0; q < k.w; q++) {
      const i = (k.y0 + r) * k.ww + (k.x0 + q);
      if (cp.frame.sel[i] >= 0) f(i, r * k.w + q);
    }
  }
}

/** Value layer of variable `k`: the cell's value, or its group's summary when aggregated (NaN = none). */
function valueLayer(cp: Computed, clip: Clip, k: number): CellLayer {
  const v = cp.vars[k];
  const values = new Float64Array(clip.w * clip.h).fill(NaN);
  const data = cp.varData[k];
  const agg = cp.aggs?.[k];
  const memo = new Map<number, number>();
  eachSelected(cp, clip, (i, j) => {
    const g = cp.frame.sel[i];
    let x: number;
    if (agg) { // a cell without a key in some by dimension carries its NA group's summary
      let m = memo.get(g);
      if (m === undefined) {
        m = agg.numeric(g);
        if (v.rec.type !== 'class' && Number.isFinite(m)) m = roundR(m, v.rec.dec);
        memo.set(g, m);
      }
      x = m;
    } else if (v.rec.type === 'class') {
      const cv = (data as Int32Array)[i];
      x = cv < 0 ? NaN : cv;
    } else x = (data as Float64Array)[i];
    values[j] = x;
  });
  return { code: v.code, type: v.rec.type, values, classes: v.classes };
}

/** Key layers: ISO3, then each by (class value, or 1-based interval index). */
async function keyLayers(c: Ctx, cp: Computed, clip: Clip): Promise<CellLayer[]> {
  const keyLayer = (code: string, classes: ClassEntry[], key: (i: number) => number): CellLayer => {
    const values = new Float64Array(clip.w * clip.h).fill(NaN);
    eachSelected(cp, clip, (i, j) => { values[j] = key(i); });
    return { code, type: 'class', values, classes };
  };
  const keys: CellLayer[] = [keyLayer('ISO3', c.isoClasses, (i) => (c.isoIndex[cp.iso[i]] >= 0 ? cp.iso[i] : NaN))];
  for (let k = 0; k < cp.bys.length; k++) {
    const d = cp.bys[k];
    if (d.kind === 'class') {
      const table = new Map((await c.cat.classes(d.code)).map((e) => [e.value, e]));
      const classes = d.values!.map((v, j) => table.get(v) ?? { value: v, label: d.labels[j] });
      const data = cp.byData[k] as Int32Array, lut = d.lut!;
      keys.push(keyLayer(d.key, classes, (i) => { const v = data[i]; return v >= 0 && v < lut.length && lut[v] >= 0 ? v : NaN; }));
    } else {
      const data = cp.byData[k] as Float64Array, br = d.breaks!;
      const classes = d.labels.map((label, j) => ({ value: j + 1, label }));
      keys.push(keyLayer(d.key, classes, (i) => { const j = intervalIndex(br, data[i]); return j < 0 ? NaN : j + 1; }));
    }
  }
  return keys;
}

/**
 * The per-cell result of a computed query, clipped to its selected cells.
 * @throws IndapiError EMPTY_SELECTION when no cell is selected
 */
export async function cellResult(c: Ctx, cp: Computed): Promise<CellResult> {
  const clip = clipOf(cp);
  const mask = new Uint8Array(clip.w * clip.h);
  eachSelected(cp, clip, (_i, j) => { mask[j] = 1; });
  const layers = cp.vars.map((_, k) => valueLayer(cp, clip, k));
  return { grid: clipGrid(c.grid, cp, clip), mask, layers, keys: await keyLayers(c, cp, clip), meta: metaOf(c, cp) };
}
