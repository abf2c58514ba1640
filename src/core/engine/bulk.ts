/**
 * Many domains at once (`classify` with thousands of features): each domain's coverage (its
 * cells and coverage fractions, `../wkt/raster.ts`) is computed once and kept in a bounded LRU
 * keyed by a hash of the geometry, so later calls over the same polygons (other layers, other
 * statistics) reuse it; the domains' cells are then gathered into one frame (a block per
 * domain, cells in each domain's row-major order, the same terms in the same order as one
 * query per domain) and every variable is read once over the union window and accumulated for
 * all domains in one pass (`accumulate.ts`, `zonal.ts`). Same rows as one query per domain.
 */
import type { Geometry } from 'geojson';
import type { CallOptions, ColumnInfo, TableResult } from '../api';
import { cellAreaKm2 } from '../area';
import type { CogStore, LayerData } from '../cog/store';
import { IndapiError, throwIfAborted } from '../errors';
import { gridText, type GridDef } from '../grid';
import { hashText } from '../hash';
import type { Row, VarRecord } from '../types';
import { geometryCells, type CellWeights } from '../wkt/raster';
import { countGroups, VarAgg } from './accumulate';
import type { Computed } from './compute';
import { readLayer, type Ctx } from './context';
import type { VarSpec } from './plan';
import { binRows, columns, metaOf, valueFields } from './rows';
import { emptySelection } from './select';
import { ZonalAgg } from './zonal';

/** Most bytes of coverage kept (cell weights of cached geometries). */
export const COVERAGE_CACHE_BYTES = 128 * 1024 * 1024;

/** LRU of geometry coverage, bounded in bytes; `hits` and `misses` for tests and the benchmark. */
export class CoverageCache {
  private readonly m = new Map<string, CellWeights | null>();
  private bytes = 0;
  hits = 0;
  misses = 0;
  constructor(private readonly maxBytes = COVERAGE_CACHE_BYTES) {}

  /**
   * The coverage of a geometry on a grid (null: no cell), computed once per geometry, grid and rule.
   * @throws IndapiError what geometryCells throws (TOO_LARGE, BAD_WKT); failures are not cached
   */
  get(g: Geometry, grid: GridDef, exact: boolean): CellWeights | null {
    const key = `${exact ? 'x' : 'c'}|${gridText(grid)}|${hashText(JSON.stringify(g))}`;
    if (this.m.has(key)) {
      const v = this.m.get(key)!;
      this.m.delete(key); this.m.set(key, v);
      this.hits++;
      return v;
    }
    this.misses++;
    const v = geometryCells(g, grid, exact);
    const size = 64 + (v ? v.weight.byteLength : 0);
    if (size > this.maxBytes) return v;
    this.m.set(key, v);
    this.bytes += size;
    for (const [k, old] of this.m) {
      if (this.bytes <= this.maxBytes) break;
      this.m.delete(k);
      this.bytes -= 64 + (old ? old.weight.byteLength : 0);
    }
    return v;
  }

  /** Forgets every entry (the benchmark's cold runs). */
  clear(): void { this.m.clear(); this.bytes = 0; }

  /** Entries kept. */
  get size(): number { return this.m.size; }
}

/** The process's coverage cache (shared by the engines of a thread: coverage depends on geometry and grid only). */
export const coverageCache = new CoverageCache();

/** Gathered cells of all domains: union-window index, domain, coverage fraction, per entry. */
interface Gathered { win: [number, number, number, number]; gi: Int32Array; sel: Int32Array; wt: Float32Array; D: number }

/** Gathers the domains' cells with an ISO3 value (as a pooled selection keeps them), each domain in its window's row-major order. */
function gather(cov: Array<CellWeights | null>, iso: Int32Array, isoOk: Uint8Array, win: [number, number, number, number]): Gathered {
  const W = win[2] - win[0];
  let n = 0;
  for (const cw of cov) if (cw) n += cw.weight.length;
  const gi = new Int32Array(n), sel = new Int32Array(n), wt = new Float32Array(n);
  let e = 0;
  cov.forEach((cw, d) => {
    if (!cw) return;
    const [x0, y0, x1] = cw.win, w = x1 - x0, f = cw.weight;
    for (let i = 0; i < f.length; i++) {
      if (!(f[i] > 0)) continue;
      const u = (y0 + Math.floor(i / w) - win[1]) * W + (x0 + (i % w) - win[0]);
      const v = iso[u];
      if (!(v >= 0 && v < isoOk.length && isoOk[v])) continue;
      gi[e] = u; sel[e] = d; wt[e] = f[i]; e++;
    }
  });
  return { win, gi: gi.subarray(0, e), sel: sel.subarray(0, e), wt: wt.subarray(0, e), D: cov.length };
}

/** A layer's values at the gathered cells (Float64, NaN none; class records Int32, -1 none). */
function pick(data: LayerData, gi: Int32Array): LayerData {
  const out = data instanceof Int32Array ? new Int32Array(gi.length) : new Float64Array(gi.length);
  for (let j = 0; j < gi.length; j++) out[j] = data[gi[j]];
  return out;
}

/**
 * Summaries of `vars` over many domains, pooled per domain (classify, no `by`): one row per
 * domain with cells (a domain that selects no cell with a country gives its key only; one off
 * the grid gives no row), rows as {@link summariseDomains} gives them.
 * @throws IndapiError OUTSIDE_GRID when every domain lies outside the grid, TOO_LARGE, IO, ABORTED
 */
export async function summariseMany(store: CogStore, c: Ctx, list: Array<{ key: Row; geom: Geometry }>, vars: VarSpec[], exact: boolean, keyCols: ColumnInfo[], o: CallOptions, cache = coverageCache): Promise<TableResult> {
  const cov: Array<CellWeights | null> = [];
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let k = 0; k < list.length; k++) {
    if (k % 256 === 0) throwIfAborted(o.signal);
    const cw = cache.get(list[k].geom, c.grid, exact);
    cov.push(cw);
    if (!cw) continue;
    x0 = Math.min(x0, cw.win[0]); y0 = Math.min(y0, cw.win[1]); x1 = Math.max(x1, cw.win[2]); y1 = Math.max(y1, cw.win[3]);
  }
  if (x0 === Infinity) throw new IndapiError('OUTSIDE_GRID', `The geometry lies outside the grid of the bundle ${gridText(c.grid)} (EPSG:4326, longitude first).`);
  const win: [number, number, number, number] = [x0, y0, x1, y1];
  const iso = (await readLayer(store, c, c.cat.need('ISO3'), win, o.signal)) as Int32Array;
  const isoOk = new Uint8Array(c.isoIndex.length);
  for (const e of c.isoClasses) if (e.value >= 0 && e.value < isoOk.length) isoOk[e.value] = 1;
  const g = gather(cov, iso, isoOk, win);
  const D = list.length;
  const frame = countGroups(g.sel, g.wt, D, 1);
  const areaOf = (j: number) => cellAreaKm2(win[1] + Math.floor(g.gi[j] / (win[2] - win[0])) + c.grid.rowOffset);
  const rows: Row[] = list.map((d) => ({ ...d.key }));
  const base = { sel: { ...emptySelection(false), win }, bys: [], frame, varData: [], byData: [], iso: new Int32Array(0), P: 1 };
  const zw = vars.find((v) => v.zonal?.weights)?.zonal!.weights;
  const wData = zw ? pick(await readLayer(store, c, zw, win, o.signal), g.gi) as Float64Array : null;
  for (const [k, v] of vars.entries()) {
    throwIfAborted(o.signal);
    const recs: VarRecord[] = [v.rec, ...v.columnRecs];
    const cols = new Map<string, LayerData>();
    for (const r of recs) if (!cols.has(r.varCode)) cols.set(r.varCode, pick(await readLayer(store, c, r, win, o.signal), g.gi));
    const vals = cols.get(v.code)!;
    let lut: Int32Array | undefined;
    if (v.rec.type === 'class') {
      lut = new Int32Array(v.classes!.reduce((m, e) => Math.max(m, e.value), 0) + 1).fill(-1);
      v.classes!.forEach((e, i) => { if (e.value >= 0) lut![e.value] = i; });
    }
    const agg = new VarAgg(v, frame, vals, cols, lut);
    const za = v.zonal ? new ZonalAgg(v, v.zonal, frame, vals, wData, areaOf) : null;
    const cp = { ...base, vars: [v], aggs: [agg], zonal: [za] } as Computed;
    for (let d = 0; d < D; d++) if (frame.groupN[D + d] > 0) valueFields(cp, D + d, rows[d]);
    o.onProgress?.(k + 1, vars.length);
  }
  const shown = { ...base, vars, aggs: null, zonal: undefined, sel: { ...base.sel, blocks: [null] } } as Computed;
  const kept = rows.filter((_, d) => cov[d] !== null);
  return { rows: binRows(shown, kept), columns: columns(c, shown, keyCols), meta: metaOf(c, shown) };
}
