/**
 * Reading and accumulating a query: the layers a query names, read over its selection's
 * window, each cell given its group, the groups counted and each variable accumulated
 * (`accumulate.ts`).
 */
import type { CallOptions } from '../api';
import type { CogStore, LayerData } from '../cog/store';
import { IndapiError, throwIfAborted } from '../errors';
import type { VarRecord } from '../types';
import { countGroups, VarAgg, withCellLists, type CellLists, type Frame } from './accumulate';
import { readLayer, type Ctx } from './context';
import { intervalIndex } from '../r/labels';
import type { BySpec, VarSpec } from './plan';
import type { Selection } from './select';
import { ZonalAgg } from './zonal';
import { cellAreaKm2 } from '../area';

/** Everything a query computed, for rows, cells and tables. */
export interface Computed {
  /** The selection used. */
  sel: Selection;
  /** The variables. */
  vars: VarSpec[];
  /** The by dimensions. */
  bys: BySpec[];
  /** Group index per cell and group sizes. */
  frame: Frame;
  /** One accumulator per variable, or null when not aggregated. */
  aggs: VarAgg[] | null;
  /** Per window cell data of each variable, in `vars` order. */
  varData: Array<LayerData>;
  /** Per window cell data of each `by` code, in `bys` order. */
  byData: Array<LayerData>;
  /** Per window cell ISO3 raster value. */
  iso: Int32Array;
  /** Slots per block: product of (n + 1) over the by dimensions. */
  P: number;
  /** The zonal operations per variable (`zonal.ts`), in `vars` order, null for a variable without any; absent when none asked. */
  zonal?: Array<ZonalAgg | null>;
}

/**
 * Reads the layers of a query over a selection and accumulates them per group (block x
 * by-combination; each by dimension has its n groups plus its NA group, index n).
 * @param aggregate false: only group the cells (per-cell output without by)
 * @param groups caller's group per window cell (-1: none), one group per summary block
 *   (`sel.blocks`), without `bys` (the catchment's bands x sources); cells without an ISO3
 *   value of the selection stay out
 * @throws IndapiError TOO_LARGE over 16,000,000 groups, IO, ABORTED
 */
export async function compute(store: CogStore, c: Ctx, sel: Selection, vars: VarSpec[], bys: BySpec[], aggregate: boolean, signal?: AbortSignal, onProgress?: CallOptions['onProgress'], groups?: Int32Array): Promise<Computed> {
  const win = sel.win;
  const N = Math.max(0, win[2] - win[0]) * Math.max(0, win[3] - win[1]);
  const isoRec = c.cat.need('ISO3');
  // other columns the formulas name (weights, areas, helper columns), read as the vars are
  const colRecs = new Map<string, VarRecord>();
  if (aggregate) for (const v of vars) for (const r of v.columnRecs) colRecs.set(r.varCode, r);
  const zw = aggregate ? vars.find((v) => v.zonal?.weights)?.zonal!.weights : undefined;
  if (zw) colRecs.set(zw.varCode, zw);
  const total = new Set([isoRec.varCode, ...bys.map((b) => b.code), ...vars.map((v) => v.code), ...colRecs.keys()]).size;
  let done = 0;
  const tick = <T>(p: Promise<T>) => p.then((x) => { onProgress?.(++done, total); return x; });
  const empty = N === 0;
  const reads = new Map<string, Promise<LayerData>>();
  const read = (rec: VarRecord) => {
    let p = reads.get(rec.varCode);
    if (!p) {
      p = empty ? Promise.resolve<LayerData>(rec.type === 'class' ? new Int32Array(0) : new Float64Array(0)) : tick(readLayer(store, c, rec, win, signal));
      reads.set(rec.varCode, p);
    }
    return p;
  };
  const [iso, byData, varData, wData] = await Promise.all([
    read(isoRec) as Promise<Int32Array>,
    Promise.all(bys.map((b) => read(b.rec))),
    Promise.all(vars.map((v) => read(v.rec))),
    Promise.all([...colRecs.values()].map((r) => read(r).then((d) => [r.varCode, d] as const))),
  ]);
  throwIfAborted(signal);
  // group index per cell
  // each by dimension has n groups plus its NA group (index n: no key), as R's cut()/by give
  const P = bys.reduce((p, b) => p * (b.n + 1), 1);
  const S = P;
  const C = sel.blocks.length;
  if (C * S > 16_000_000) throw new IndapiError('TOO_LARGE', `The 'by' variables make ${C * S} groups; at most 16,000,000 are supported.`);
  const key = groups || sel.weight || sel.mask ? null : frameKey(sel, bys);
  const oneClass = bys.length === 1 && bys[0].kind === 'class' ? { cls: byData[0] as Int32Array, lut: bys[0].lut!, filtered: !!bys[0].filtered, n: bys[0].n } : null;
  const frame = (key !== null && cachedFrame(iso, byData, key)) ||
    (key !== null && (bys.length === 0 || oneClass) ? listFrame(iso, sel.isoBlock, S, C, oneClass) : countGroups(groupIndex(sel, bys, iso, byData, S, groups), sel.weight, C, S));
  if (key !== null) rememberFrame(iso, byData, key, withCellLists(frame));
  let aggs: VarAgg[] | null = null;
  if (aggregate) {
    const colData = new Map(wData);
    aggs = vars.map((v, k) => {
      let lut: Int32Array | undefined;
      if (v.rec.type === 'class') {
        const maxV = v.classes!.reduce((m, e) => Math.max(m, e.value), 0);
        lut = new Int32Array(maxV + 1).fill(-1);
        v.classes!.forEach((e, i) => { if (e.value >= 0) lut![e.value] = i; });
      }
      const cols = new Map<string, LayerData>([[v.code, varData[k]]]);
      for (const r of v.columnRecs) cols.set(r.varCode, colData.get(r.varCode)!);
      return new VarAgg(v, frame, varData[k], cols, lut);
    });
  }
  const zonal = aggregate && vars.some((v) => v.zonal) ? zonalAggs(c, sel, vars, frame, varData, zw ? colDataOf(wData, zw.varCode) : null) : undefined;
  return { sel, vars, bys, frame, aggs, varData, byData, iso, P, zonal };
}

function colDataOf(wData: ReadonlyArray<readonly [string, LayerData]>, code: string): Float32Array | Float64Array | null {
  const d = wData.find(([k]) => k === code)?.[1];
  return d && !(d instanceof Int32Array) ? d : null;
}

/** The zonal operations of each variable over a window frame (cell areas by window row). */
function zonalAggs(c: Ctx, sel: Selection, vars: VarSpec[], frame: Frame, varData: LayerData[], weights: Float32Array | Float64Array | null): Array<ZonalAgg | null> {
  const [, y0, x1] = sel.win;
  const w = Math.max(1, x1 - sel.win[0]);
  const rows = Math.max(0, sel.win[3] - y0);
  const areas = new Float64Array(rows);
  for (let r = 0; r < rows; r++) areas[r] = cellAreaKm2(y0 + r + c.grid.rowOffset);
  const areaOf = (i: number) => areas[Math.floor(i / w)];
  return vars.map((v, k) => (v.zonal ? new ZonalAgg(v, v.zonal, frame, varData[k], weights, areaOf) : null));
}

/** Group index per window cell (-1: not selected): block x by-combination, or the caller's groups. */
function groupIndex(sel: Selection, bys: BySpec[], iso: Int32Array, byData: Array<LayerData>, S: number, groups?: Int32Array): Int32Array {
  const N = iso.length;
  const g = new Int32Array(N);
  const { isoBlock, weight, mask } = sel;
  const base = blockIndex(iso, isoBlock, weight, mask, S);
  if (groups) for (let i = 0; i < N; i++) g[i] = base[i] < 0 ? -1 : groups[i];
  else if (bys.length === 0) g.set(base);
  else if (bys.length === 1 && bys[0].kind === 'class') groupClass(base, byData[0] as Int32Array, bys[0].lut!, !!bys[0].filtered, bys[0].n, g);
  else {
    for (let i = 0; i < N; i++) {
      const b = base[i];
      if (b < 0) { g[i] = -1; continue; }
      let combo = 0;
      let drop = false;
      for (let k = 0; k < bys.length; k++) {
        const d = bys[k];
        let idx: number;
        if (d.kind === 'class') {
          const cv = (byData[k] as Int32Array)[i];
          idx = cv >= 0 && cv < d.lut!.length ? d.lut![cv] : -1;
        } else idx = intervalIndex(d.breaks!, (byData[k] as Float64Array)[i]);
        if (idx < 0) {
          if (d.filtered) { drop = true; break; }
          idx = d.n; // the NA group of this dimension
        }
        combo = combo * (d.n + 1) + idx;
      }
      g[i] = drop ? -1 : b + combo;
    }
  }
  return g;
}

/**
 * Frames of earlier queries (group per cell, group sizes, per-group cell lists), per ISO3
 * window array: the store hands out the same array for the same layer and window while it
 * keeps it, so a frame lives as long as the windows it was computed from (and a republished
 * bundle, read into new arrays, never meets an old frame). Only frames without coverage
 * weights, id mask or caller groups are kept; a few per window.
 */
const frames = new WeakMap<Int32Array, Map<string, { byData: Array<LayerData>; frame: Frame }>>();
/** Most frames kept per ISO3 window. */
const FRAMES_PER_WINDOW = 8;

/** What a frame depends on besides the layers' data: summary blocks and each by dimension's groups. */
function frameKey(sel: Selection, bys: BySpec[]): string {
  const parts = [sel.win.join(','), sel.blocks.length, sel.isoBlock.join(',')];
  for (const b of bys) {
    parts.push(b.code, b.kind, b.n, b.filtered ? 1 : 0, b.kind === 'class' ? b.lut!.join(',') : b.breaks!.join(','));
  }
  return parts.join('|');
}

/** A frame computed from these very arrays under the same key, or undefined. */
function cachedFrame(iso: Int32Array, byData: Array<LayerData>, key: string): Frame | undefined {
  const e = frames.get(iso)?.get(key);
  return e && e.byData.length === byData.length && e.byData.every((d, k) => d === byData[k]) ? e.frame : undefined;
}

/** Keeps a frame for later queries over the same arrays (the oldest dropped past FRAMES_PER_WINDOW). */
function rememberFrame(iso: Int32Array, byData: Array<LayerData>, key: string, frame: Frame): void {
  let m = frames.get(iso);
  if (!m) frames.set(iso, (m = new Map()));
  m.delete(key);
  m.set(key, { byData, frame });
  if (m.size > FRAMES_PER_WINDOW) m.delete(m.keys().next().value!);
}

/** Per cell: summary block times slots (b * S), or -1 when the cell is not selected. */
export function blockIndex(iso: Int32Array, isoBlock: Int32Array, weight: Float32Array | null, mask: Uint8Array | null, S: number): Int32Array {
  const N = iso.length;
  const out = new Int32Array(N);
  const nIso = isoBlock.length;
  for (let i = 0; i < N; i++) {
    const v = iso[i];
    const b = v >= 0 && v < nIso ? isoBlock[v] : -1;
    out[i] = b < 0 ? -1 : b * S;
  }
  if (weight) for (let i = 0; i < N; i++) if (!(weight[i] > 0)) out[i] = -1;
  if (mask) for (let i = 0; i < N; i++) if (!mask[i]) out[i] = -1;
  return out;
}

/** Group index for a single class `by` dimension of `n` classes (index n: the NA group). */
export function groupClass(base: Int32Array, cls: Int32Array, lut: Int32Array, filtered: boolean, n: number, g: Int32Array): void {
  const N = base.length, L = lut.length;
  for (let i = 0; i < N; i++) {
    const b = base[i];
    if (b < 0) { g[i] = -1; continue; }
    const cv = cls[i];
    const idx = cv >= 0 && cv < L ? lut[cv] : -1;
    g[i] = idx >= 0 ? b + idx : filtered ? -1 : b + n;
  }
}

/** One class `by` dimension for {@link listFrame}: class value per cell, class value -> group (-1 none), filtered, n groups. */
export interface OneClass {
  cls: Int32Array;
  lut: Int32Array;
  filtered: boolean;
  n: number;
}

/**
 * The frame of the common query (no caller groups, coverage weights or id mask; no `by` or one
 * class `by`) with its cell lists, in two passes over the window instead of five (cold queries,
 * issue 26.5): the group of each cell (as {@link blockIndex} then {@link groupClass}) with the
 * group sizes counted, then the cells scattered into their groups' lists in ascending order. The
 * same frame as `withCellLists(countGroups(groupIndex(...)))`.
 * @param isoBlock summary block per ISO3 value (-1: not selected)
 * @param S slots per block; C summary blocks
 */
export function listFrame(iso: Int32Array, isoBlock: Int32Array, S: number, C: number, by: OneClass | null): Frame {
  const N = iso.length, G = C * S, nIso = isoBlock.length;
  const sel = new Int32Array(N);
  const off = new Int32Array(G + 1); // off[g + 1]: cells of group g
  if (by) {
    const { cls, lut, filtered, n } = by, L = lut.length, na = filtered ? -1 : n;
    for (let i = 0; i < N; i++) {
      const v = iso[i];
      const b = v >= 0 && v < nIso ? isoBlock[v] : -1;
      let g = -1;
      if (b >= 0) {
        const cv = cls[i];
        const k = cv >= 0 && cv < L ? lut[cv] : -1;
        g = k >= 0 ? b * S + k : na < 0 ? -1 : b * S + na;
      }
      sel[i] = g;
      if (g >= 0) off[g + 1]++;
    }
  } else {
    for (let i = 0; i < N; i++) {
      const v = iso[i];
      const b = v >= 0 && v < nIso ? isoBlock[v] : -1;
      const g = b < 0 ? -1 : b * S;
      sel[i] = g;
      if (g >= 0) off[g + 1]++;
    }
  }
  const groupN = new Float64Array(G + C);
  for (let g = 0; g < G; g++) groupN[g] = off[g + 1];
  for (let c = 0; c < C; c++) { let t = 0; for (let k = 0; k < S; k++) t += groupN[c * S + k]; groupN[G + c] = t; }
  for (let g = 0; g < G; g++) off[g + 1] += off[g];
  const pos = off.slice(0, G);
  const idx = new Int32Array(off[G]);
  for (let i = 0; i < N; i++) { const g = sel[i]; if (g >= 0) idx[pos[g]++] = i; }
  const lists: CellLists = { off, idx };
  return { sel, weight: null, C, S, groupN, lists };
}
