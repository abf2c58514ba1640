/**
 * The query engine: every data method of the service (catalog, category, describe, the main
 * query, WKT areas, classify, similar) over the bundle's COGs, pure over injected I/O.
 *
 * Create one with {@link createEngine}; it works unchanged in Web Workers, service workers,
 * Node and tests. See the module docs of `plan.ts` (arguments), `accumulate.ts`
 * (aggregation semantics) and `../wkt/raster.ts` (geometry selection).
 */
import type { Feature, FeatureCollection, Geometry } from 'geojson';
import type { CallOptions, CategoryRow, CellLayer, CellResult, ColumnInfo, Engine, GetLayerWktArgs, TableResult } from '../api';
import { Catalog, describeRecord } from '../catalog';
import { CogStore, type PixelWindow } from '../cog/store';
import type { Inflate } from '../cog/tiff';
import { IndapiError, throwIfAborted } from '../errors';
import { cellCentre, cellId, globalColRow, gridFromManifest, gridText, SSA_GRID, type GridDef } from '../grid';
import type { SourceFactory, TextLoader } from '../io/source';
import type { ClassEntry, GetLayerArgs, Row, VarRecord } from '../types';
import { geometryCells, type CellWeights } from '../wkt/raster';
import { parseWkt } from '../wkt/parse';
import { countGroups, VarAgg, type Frame } from './accumulate';
import { intervalIndex, roundR } from './labels';
import { asList, byCodesOf, checkStats, digLabOf, planBy, planVars, type BySpec, type VarSpec } from './plan';

export { aggFormulaText, parseAggFun, simpleAggregate } from './expr';
export { cutLabels, formatG, labelDigits, roundR } from './labels';
export { DEFAULT_DIG_LAB, digLabOf, STAT_NAMES } from './plan';

/** Options of {@link createEngine}. */
export interface EngineOptions {
  /** Opens COGs relative to the bundle root. */
  source: SourceFactory;
  /** Reads text files (vi.csv, iso.csv, classes/*.csv, manifest.json) relative to the bundle root. */
  text: TextLoader;
  /** Block cache bound in bytes (decoded samples); default 256 MB. */
  cacheBytes?: number;
  /** zlib decompressor for DEFLATE tiles; default fflate. */
  inflate?: Inflate;
  /** Date written as DownloadedOn in describe records (ISO 8601); default today. */
  today?: () => string;
}

/** Most CELL5M ids a query may pass. */
export const MAX_IDS = 1_000_000;

/** The engine with its internals exposed for adapters, tests and the benchmark. */
export interface IndapiEngine extends Engine {
  /** The COG window store (cache statistics, clearing). */
  readonly store: CogStore;
  /** The bundle grid (from manifest.json, else SSA_GRID). */
  grid(opts?: CallOptions): Promise<GridDef>;
  /** The loaded catalog. */
  loadCatalog(opts?: CallOptions): Promise<Catalog>;
}

interface Ctx {
  cat: Catalog;
  grid: GridDef;
  viText: string;
  /** ISO3 classes sorted by label, and raster value -> position in that order. */
  isoClasses: ClassEntry[];
  isoIndex: Int32Array;
}

/** A resolved selection of cells on the grid. */
interface Selection {
  win: PixelWindow;
  /** Per window cell weight from a geometry, or null. */
  weight: Float32Array | null;
  /** Per window cell 1 = requested cell id, or null. */
  mask: Uint8Array | null;
  /** ISO3 value -> summary block (-1: not selected). */
  isoBlock: Int32Array;
  /** Summary blocks: countries (sorted by ISO3) when per country, else one pool. */
  blocks: Array<ClassEntry | null>;
}

/** Everything a query computed, for rows, cells and tables. */
interface Computed {
  sel: Selection;
  vars: VarSpec[];
  bys: BySpec[];
  frame: Frame;
  aggs: VarAgg[] | null;
  /** Per window cell data of vars, ISO3 and bys. */
  varData: Array<Float32Array | Int32Array>;
  /** Per window cell data of each `by` code, in `bys` order. */
  byData: Array<Float32Array | Int32Array>;
  iso: Int32Array;
  /** Per-dimension group index per cell (for per-cell rows). */
  P: number;
}

/**
 * Creates an engine over a bundle.
 * @param opts injected I/O and cache size
 */
export function createEngine(opts: EngineOptions): IndapiEngine {
  const store = new CogStore({ source: opts.source, inflate: opts.inflate, cacheBytes: opts.cacheBytes });
  const today = opts.today ?? (() => new Date().toISOString().slice(0, 10));
  let ctxP: Promise<Ctx> | null = null;

  function ctx(signal?: AbortSignal): Promise<Ctx> {
    throwIfAborted(signal);
    if (!ctxP) {
      const p = (async (): Promise<Ctx> => {
        const [viText, isoText, manifest] = await Promise.all([
          opts.text('vi.csv'),
          opts.text('iso.csv'),
          opts.text('manifest.json').catch(() => null),
        ]);
        const { parseVi, parseIso } = await import('../catalog');
        const cat = new Catalog(parseVi(viText), parseIso(isoText), opts.text);
        let grid = SSA_GRID;
        if (manifest) {
          try {
            const m = JSON.parse(manifest);
            grid = gridFromManifest(m?.grid, SSA_GRID);
          } catch {
            throw new IndapiError('IO', 'manifest.json is not valid JSON.');
          }
        }
        if (!cat.get('ISO3')) throw new IndapiError('IO', 'The catalog has no ISO3 layer (the country mask).');
        const isoClasses = [...(await cat.classes('ISO3'))].sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
        const maxV = isoClasses.reduce((m, c) => Math.max(m, c.value), 0);
        const isoIndex = new Int32Array(maxV + 1).fill(-1);
        isoClasses.forEach((c, i) => { if (c.value >= 0) isoIndex[c.value] = i; });
        return { cat, grid, viText, isoClasses, isoIndex };
      })();
      ctxP = p;
      p.catch(() => { if (ctxP === p) ctxP = null; });
    }
    return ctxP;
  }

  const cogPath = (code: string) => `cog/${code}.tif`;

  async function checkLayer(c: Ctx, code: string, signal?: AbortSignal): Promise<void> {
    const info = await store.info(cogPath(code), signal);
    if (info.width !== c.grid.width || info.height !== c.grid.height) {
      throw new IndapiError('IO', `cog/${code}.tif is ${info.width} x ${info.height} cells, not the bundle grid's ${c.grid.width} x ${c.grid.height}.`);
    }
  }

  async function readLayer(c: Ctx, rec: VarRecord, win: PixelWindow, signal?: AbortSignal): Promise<Float32Array | Int32Array> {
    await checkLayer(c, rec.varCode, signal);
    return rec.type === 'class' ? store.readInt(cogPath(rec.varCode), win, signal) : store.readFloat(cogPath(rec.varCode), win, signal);
  }

  /** Resolves iso3 / ids (or a geometry selection) into a selection. */
  function select(c: Ctx, args: { iso3?: unknown; ids?: unknown }, geom: CellWeights | null, perCountryDefault: boolean | null): Selection {
    const { grid, isoClasses } = c;
    const nIso = c.isoIndex.length;
    const full: PixelWindow = [0, 0, grid.width, grid.height];
    let iso3 = asList(args.iso3 ?? 'SSA', 'iso3').map((s) => s.toUpperCase());
    if (!iso3.length) iso3 = ['SSA'];
    const unknown = iso3.filter((s) => !c.cat.isoEntry(s));
    if (unknown.length) {
      throw new IndapiError('UNKNOWN_ISO3', `Unknown country or region code ${unknown.join(', ')}. Use ISO3 country codes of the bundle or the regions ${c.cat.iso.filter((e) => e.type === 'region').map((e) => e.code).join(', ')}.`, { codes: unknown });
    }
    const ids = args.ids === undefined || args.ids === null ? [] : Array.isArray(args.ids) ? args.ids : [args.ids];
    let members: Set<string> | null = null; // null = all
    let perCountry = false;
    if (ids.length === 0 && !iso3.includes('SSA')) {
      members = new Set<string>();
      let anyRegion = false;
      for (const s of iso3) {
        const e = c.cat.isoEntry(s)!;
        if (e.type === 'region') anyRegion = true;
        for (const m of e.members) members.add(m.toUpperCase());
      }
      perCountry = !anyRegion;
    }
    if (perCountryDefault !== null) perCountry = perCountryDefault;
    // summary blocks
    const isoBlock = new Int32Array(nIso).fill(-1);
    const blocks: Array<ClassEntry | null> = [];
    if (perCountry) {
      for (const e of isoClasses) {
        if (members && !members.has(e.label.toUpperCase())) continue;
        isoBlock[e.value] = blocks.length;
        blocks.push(e);
      }
    } else {
      blocks.push(null);
      for (const e of isoClasses) if (!members || members.has(e.label.toUpperCase())) isoBlock[e.value] = 0;
    }
    let win: PixelWindow = full;
    let mask: Uint8Array | null = null;
    let weight: Float32Array | null = null;
    if (geom) {
      win = geom.win;
      weight = geom.weight;
    } else if (ids.length) {
      if (ids.length > MAX_IDS) throw new IndapiError('TOO_LARGE', `At most ${MAX_IDS} cell ids may be given.`);
      const cells: number[] = [];
      let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
      for (const raw of ids) {
        const id = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
        if (typeof id !== 'number' || !Number.isInteger(id)) throw new IndapiError('BAD_ARGUMENT', `'ids' must be integer CELL5M ids, got '${String(raw)}'.`);
        const [gc, gr] = globalColRow(id), col = gc - grid.colOffset, row = gr - grid.rowOffset;
        if (id < 0 || col < 0 || row < 0 || col >= grid.width || row >= grid.height) continue;
        cells.push(col, row);
        if (col < x0) x0 = col; if (col > x1) x1 = col;
        if (row < y0) y0 = row; if (row > y1) y1 = row;
      }
      if (!cells.length) throw new IndapiError('EMPTY_SELECTION', 'None of the cell ids lies on the grid of the bundle.');
      win = [x0, y0, x1 + 1, y1 + 1];
      const w = x1 + 1 - x0;
      mask = new Uint8Array(w * (y1 + 1 - y0));
      for (let k = 0; k < cells.length; k += 2) mask[(cells[k + 1] - y0) * w + (cells[k] - x0)] = 1;
    } else if (members) {
      // union of member bboxes (degrees) -> pixel window
      let bx0 = Infinity, by0 = Infinity, bx1 = -Infinity, by1 = -Infinity;
      for (const m of members) {
        const e = c.cat.isoEntry(m);
        if (!e || !(e.bboxDeg[2] > e.bboxDeg[0])) continue;
        const cs = grid.cellSizeDeg;
        bx0 = Math.min(bx0, Math.floor((e.bboxDeg[0] - grid.xmin) / cs + 1e-6));
        bx1 = Math.max(bx1, Math.ceil((e.bboxDeg[2] - grid.xmin) / cs - 1e-6));
        by0 = Math.min(by0, Math.floor((grid.ymax - e.bboxDeg[3]) / cs + 1e-6));
        by1 = Math.max(by1, Math.ceil((grid.ymax - e.bboxDeg[1]) / cs - 1e-6));
      }
      if (bx0 === Infinity) win = [0, 0, 0, 0];
      else win = [Math.max(0, bx0), Math.max(0, by0), Math.min(grid.width, bx1), Math.min(grid.height, by1)];
    }
    return { win, weight, mask, isoBlock, blocks };
  }

  /** Reads the layers of a query and accumulates. */
  async function compute(c: Ctx, sel: Selection, vars: VarSpec[], bys: BySpec[], aggregate: boolean, signal?: AbortSignal, onProgress?: CallOptions['onProgress']): Promise<Computed> {
    const win = sel.win;
    const N = Math.max(0, win[2] - win[0]) * Math.max(0, win[3] - win[1]);
    const isoRec = c.cat.need('ISO3');
    // other columns the formulas name (weights, areas, helper columns), read as the vars are
    const colRecs = new Map<string, VarRecord>();
    if (aggregate) for (const v of vars) for (const r of v.columnRecs) colRecs.set(r.varCode, r);
    const total = new Set([isoRec.varCode, ...bys.map((b) => b.code), ...vars.map((v) => v.code), ...colRecs.keys()]).size;
    let done = 0;
    const tick = <T>(p: Promise<T>) => p.then((x) => { onProgress?.(++done, total); return x; });
    const empty = N === 0;
    const reads = new Map<string, Promise<Float32Array | Int32Array>>();
    const read = (rec: VarRecord) => {
      let p = reads.get(rec.varCode);
      if (!p) {
        p = empty ? Promise.resolve(rec.type === 'class' ? new Int32Array(0) : new Float32Array(0)) : tick(readLayer(c, rec, win, signal));
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
    const g = new Int32Array(N);
    const { isoBlock, weight, mask } = sel;
    const base = blockIndex(iso, isoBlock, weight, mask, S);
    if (bys.length === 0) g.set(base);
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
          } else idx = intervalIndex(d.breaks!, (byData[k] as Float32Array)[i]);
          if (idx < 0) {
            if (d.filtered) { drop = true; break; }
            idx = d.n; // the NA group of this dimension
          }
          combo = combo * (d.n + 1) + idx;
        }
        g[i] = drop ? -1 : b + combo;
      }
    }
    const frame = countGroups(g, weight, C, S);
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
        const cols = new Map<string, Float32Array | Int32Array>([[v.code, varData[k]]]);
        for (const r of v.columnRecs) cols.set(r.varCode, colData.get(r.varCode)!);
        return new VarAgg(v, frame, varData[k], cols, lut);
      });
    }
    return { sel, vars, bys, frame, aggs, varData, byData, iso, P };
  }

  // ---------- rows ----------

  function countryKeys(c: Ctx, e: ClassEntry): Row {
    const name = typeof e.name === 'string' && e.name ? e.name : (c.cat.isoEntry(e.label)?.name ?? e.label);
    return { ISO3: e.label, ADM0_NAME: name };
  }

  /** ISO3 and ADM0_NAME of a unit's country code (none when the code is empty). */
  function unitKeys(c: Ctx, iso3: string): Row {
    if (!iso3) return {};
    const e = c.isoClasses.find((x) => x.label.toUpperCase() === iso3);
    return e ? countryKeys(c, e) : { ISO3: iso3, ADM0_NAME: c.cat.isoEntry(iso3)?.name ?? iso3 };
  }

  function fmtValue(v: VarSpec, x: number | string | undefined): number | string | undefined {
    if (x === undefined) return undefined;
    if (typeof x === 'string') return x;
    return Number.isFinite(x) ? roundR(x, v.rec.dec) : undefined;
  }

  function valueFields(cp: Computed, t: number, row: Row): void {
    cp.vars.forEach((v, k) => {
      const x = fmtValue(v, cp.aggs![k].value(t));
      if (x !== undefined) row[v.code] = x;
      for (const s of v.stats) {
        const y = cp.aggs![k].stat(s, t);
        if (y === undefined) continue;
        row[`${v.code}_${s}`] = typeof y === 'string' ? y : s === 'count' ? roundR(y, 4) : roundR(y, v.rec.dec);
      }
    });
  }

  /** Decodes a slot into per-dimension indices (index `n` of a dimension: its NA group). */
  function decode(bys: BySpec[], combo: number): number[] {
    const idx = new Array<number>(bys.length);
    for (let k = bys.length - 1; k >= 0; k--) { const m = bys[k].n + 1; idx[k] = combo % m; combo = Math.floor(combo / m); }
    return idx;
  }

  /** Sort rank of a group index of a dimension: the NA group after every other. */
  function rankOf(d: BySpec, i: number): number {
    return i >= d.n ? d.n : d.rank[i];
  }

  /** Key of a group index as written in rows: the label, or null for the NA group. */
  function keyOf(d: BySpec, i: number): string | null {
    return i >= d.n ? null : d.labels[i];
  }

  /**
   * Summary rows of a computed query: per block (country, pool, or requested code) the overall
   * row (with `total: 1` when there is a `by`), then one row per present group sorted by keys.
   * @param blockKeys keys written on every row of a pooled block (a region among several codes)
   */
  function tableRows(c: Ctx, cp: Computed, blockKeys?: Row): Row[] {
    const rows: Row[] = [];
    const { frame, bys, P } = cp;
    const G = frame.C * frame.S;
    // rows by a unit layer (class table with an iso3 column) carry the unit's country, and the
    // unit's first-level name when the table has an adm1 column (second-level units)
    const unitDim = bys.findIndex((d) => d.iso3);
    const ud = unitDim >= 0 ? bys[unitDim] : null;
    const unitIso = (idx: number[]) => (ud && idx[unitDim] < ud.n ? ud.iso3![idx[unitDim]] : '\uffff');
    const unitAdm1 = (idx: number[]) => (ud?.adm1 && idx[unitDim] < ud.n ? ud.adm1[idx[unitDim]] : '\uffff');
    cp.sel.blocks.forEach((blk, b) => {
      if (!(frame.groupN[G + b] > 0)) return;
      const keys: Row = blk ? countryKeys(c, blk) : { ...(blockKeys ?? {}) };
      const sum: Row = { ...keys };
      if (bys.length) sum.total = 1;
      valueFields(cp, G + b, sum);
      rows.push(sum);
      if (!bys.length) return;
      const present: Array<[number, number[]]> = [];
      for (let s = 0; s < P; s++) if (frame.groupN[b * frame.S + s] > 0) present.push([s, decode(bys, s)]);
      present.sort((x, y) => {
        if (ud) {
          let a = unitIso(x[1]), z = unitIso(y[1]);
          if (a !== z) return a < z ? -1 : 1;
          a = unitAdm1(x[1]); z = unitAdm1(y[1]);
          if (a !== z) return a < z ? -1 : 1;
        }
        for (let k = 0; k < bys.length; k++) {
          const d = rankOf(bys[k], x[1][k]) - rankOf(bys[k], y[1][k]);
          if (d) return d;
        }
        return 0;
      });
      for (const [s, idx] of present) {
        let row: Row = { ...keys };
        if (ud && idx[unitDim] < ud.n) {
          if (!blk) row = unitKeys(c, unitIso(idx));
          if (ud.adm1) row.ADM1_NAME_ALT = unitAdm1(idx);
        }
        bys.forEach((d, k) => { row[d.key] = keyOf(d, idx[k]); });
        valueFields(cp, b * frame.S + s, row);
        // R's NA group: how many cells (coverage-weighted with WKT) fell outside the breaks / classes
        if (bys.some((d, k) => idx[k] >= d.n)) row.cells = roundR(frame.groupN[b * frame.S + s], 4);
        rows.push(row);
      }
    });
    return rows;
  }

  function columns(c: Ctx, cp: Computed, extra: ColumnInfo[] = [], perCell = false): ColumnInfo[] {
    const cols: ColumnInfo[] = [...extra];
    const keyCol = (code: string, label: string, type: ColumnInfo['type'] = 'string'): ColumnInfo => {
      const rec = c.cat.get(code);
      return { name: code, role: 'key', code: rec ? code : undefined, label: rec?.varLabel ?? label, unit: rec?.unit ?? '', type };
    };
    if (perCell) {
      cols.push({ name: 'CELL5M', role: 'key', label: 'Grid cell id (5 arc-minutes)', unit: '', type: 'integer' });
      cols.push({ name: 'X', role: 'key', label: 'Cell centre longitude', unit: 'degrees', type: 'number' });
      cols.push({ name: 'Y', role: 'key', label: 'Cell centre latitude', unit: 'degrees', type: 'number' });
    }
    if (cp.sel.blocks[0] !== null || perCell || cp.bys.some((d) => d.iso3)) {
      cols.push({ ...keyCol('ISO3', 'ISO3 country code'), classes: c.isoClasses });
      cols.push(keyCol('ADM0_NAME', 'Country name'));
    }
    const unitAdm1 = cp.bys.some((d) => d.adm1) && !cp.bys.some((d) => d.key === 'ADM1_NAME_ALT');
    if (unitAdm1) cols.push(keyCol('ADM1_NAME_ALT', 'First-level unit name'));
    if (cp.bys.length && !perCell) {
      cols.push({ name: 'total', role: 'key', label: 'Overall row (1) of a country, region or selection; missing on the rows by domain', unit: '', type: 'integer' });
    }
    for (const d of cp.bys) {
      cols.push({
        ...keyCol(d.code, d.rec.varLabel),
        name: d.key,
        classes: d.labels.map((l, i) => ({ value: d.values ? d.values[i] : i + 1, label: l })),
      });
    }
    for (const v of cp.vars) {
      const isClass = v.rec.type === 'class';
      cols.push({
        name: v.code, role: 'value', code: v.code, label: v.rec.varLabel, unit: v.rec.unit,
        type: isClass ? 'string' : 'number', dec: isClass ? undefined : v.rec.dec, classes: isClass ? v.classes : undefined,
      });
      for (const s of v.stats) {
        const str = s === 'hist' || (isClass && (s === 'majority' || s === 'minority'));
        if (isClass && !['count', 'majority', 'minority'].includes(s)) continue;
        cols.push({
          name: `${v.code}_${s}`, role: 'value', code: v.code, label: `${v.rec.varLabel} (${s})`,
          unit: s === 'count' || s === 'hist' ? '' : v.rec.unit, type: str ? 'string' : 'number', dec: str ? undefined : s === 'count' ? 4 : v.rec.dec,
        });
      }
    }
    return cols;
  }

  /** Adds the `cells` column when some row (an NA group's) carries it. */
  function withCells(cols: ColumnInfo[], rows: Row[]): ColumnInfo[] {
    if (!rows.some((r) => r.cells !== undefined)) return cols;
    return [...cols, { name: 'cells', role: 'value', label: "Cells of R's NA group (outside every interval or without a class; coverage-weighted with WKT)", unit: 'cells', type: 'number', dec: 4 }];
  }

  function cellRows(c: Ctx, cp: Computed): Row[] {
    const { sel, frame, bys, vars, aggs, varData, iso } = cp;
    const [x0, y0, x1] = sel.win;
    const w = x1 - x0;
    const grid = c.grid;
    const items: Array<{ i: number; g: number; ci: number }> = [];
    // with by, a cell without a key in some dimension (no-data class, outside every interval)
    // is in that dimension's NA group: its row has the key null and the NA group's summary
    for (let i = 0; i < frame.sel.length; i++) if (frame.sel[i] >= 0) items.push({ i, g: frame.sel[i], ci: c.isoIndex[iso[i]] });
    const ud = bys.find((d) => d.adm1);
    const udk = ud ? bys.indexOf(ud) : -1;
    const decoded = new Map<number, number[]>();
    const dec = (g: number) => {
      let d = decoded.get(g);
      if (!d) { d = decode(bys, g % frame.S); decoded.set(g, d); }
      return d;
    };
    items.sort((a, b) => {
      if (a.ci !== b.ci) return a.ci - b.ci;
      if (bys.length) {
        const sa = a.g % frame.S, sb = b.g % frame.S;
        if (sa !== sb) {
          const da = dec(a.g), db = dec(b.g);
          for (let k = 0; k < bys.length; k++) {
            const d = rankOf(bys[k], da[k]) - rankOf(bys[k], db[k]);
            if (d) return d;
          }
        }
      }
      return a.i - b.i;
    });
    const lut = vars.map((v) => (v.classes ? new Map(v.classes.map((e) => [e.value, e.label])) : null));
    return items.map(({ i, g }) => {
      const col = x0 + (i % w), row = y0 + Math.floor(i / w);
      const [X, Y] = cellCentre(grid, col, row); // odd multiples of 1/24 degree
      const r: Row = { CELL5M: cellId(grid, col, row), X, Y };
      const ie = c.isoClasses[c.isoIndex[iso[i]]];
      if (ie) Object.assign(r, countryKeys(c, ie));
      if (bys.length) {
        const idx = dec(g);
        if (ud && idx[udk] < ud.n) r.ADM1_NAME_ALT = ud.adm1![idx[udk]];
        bys.forEach((d, k) => { r[d.key] = keyOf(d, idx[k]); });
      }
      vars.forEach((v, k) => {
        let x: number | string | undefined;
        if (aggs) x = fmtValue(v, aggs[k].value(g));
        else if (v.rec.type === 'class') x = lut[k]!.get((varData[k] as Int32Array)[i]);
        else x = fmtValue(v, (varData[k] as Float32Array)[i]);
        if (x !== undefined) r[v.code] = x;
      });
      return r;
    });
  }

  async function prepare(args: GetLayerArgs, signal?: AbortSignal) {
    if (!args || typeof args !== 'object') throw new IndapiError('BAD_ARGUMENT', 'Arguments must be an object.');
    const c = await ctx(signal);
    const vars = asList(args.var, 'var');
    const stats = checkStats(args.stats);
    const byCodes = byCodesOf(args.by as never);
    const varSpecs = await planVars(c.cat, vars, byCodes, stats, signal);
    const bys = await planBy(c.cat, args.by as never, signal, digLabOf(args.digLab));
    for (const b of bys) if (varSpecs.some((v) => v.code === b.code)) b.key = `${b.code}_by`;
    return { c, varSpecs, bys };
  }

  /**
   * The main query as a table.
   * @param union true: several `iso3` codes select the union of their cells (similar); else,
   *   collapsed, several codes with a region among them give one block of rows per code
   */
  async function table(args: GetLayerArgs, o: CallOptions = {}, union = false): Promise<TableResult & { computed: Computed; ctx: Ctx }> {
    const { c, varSpecs, bys } = await prepare(args, o.signal);
    const collapse = args.collapse !== false;
    const needAgg = collapse || bys.length > 0;
    const hasIds = args.ids !== undefined && args.ids !== null && (!Array.isArray(args.ids) || args.ids.length > 0);
    if (collapse && !union && !hasIds && args.iso3 !== undefined && args.iso3 !== null) {
      const codes = [...new Set(asList(args.iso3, 'iso3').map((x) => x.toUpperCase()))].sort();
      if (codes.length > 1 && codes.every((x) => c.cat.isoEntry(x)) && codes.some((x) => c.cat.isoEntry(x)!.type === 'region')) {
        // one block per requested code, in code order: a region's rows pool its members and carry its code and name
        const rows: Row[] = [];
        let last: Computed | null = null;
        for (const [k, code] of codes.entries()) {
          const e = c.cat.isoEntry(code)!;
          const progress = o.onProgress && ((d: number, t: number) => o.onProgress!(k * t + d, codes.length * t));
          const cp = await compute(c, select(c, { iso3: [code] }, null, null), varSpecs, bys, true, o.signal, progress);
          rows.push(...tableRows(c, cp, e.type === 'region' ? { ISO3: code, ADM0_NAME: e.name } : undefined));
          last = cp;
        }
        const shown = { ...last!, sel: { ...last!.sel, blocks: [c.isoClasses[0]] } };
        return { rows, columns: withCells(columns(c, shown), rows), meta: metaOf(c, shown), computed: last!, ctx: c };
      }
    }
    const sel = select(c, args, null, null);
    const cp = await compute(c, sel, varSpecs, bys, needAgg, o.signal, o.onProgress);
    const rows = collapse ? tableRows(c, cp) : cellRows(c, cp);
    return { rows, columns: withCells(columns(c, cp, [], !collapse), rows), meta: metaOf(c, cp), computed: cp, ctx: c };
  }

  function metaOf(c: Ctx, cp: Computed): VarRecord[] {
    const codes = [...cp.bys.map((b) => b.code), ...cp.vars.map((v) => v.code)];
    if (cp.sel.blocks[0] !== null || cp.bys.some((d) => d.iso3)) codes.unshift('ISO3', 'ADM0_NAME');
    return [...new Set(codes)].map((k) => c.cat.get(k)).filter((r): r is VarRecord => !!r);
  }

  /** Splits a geometry into features (members of a top-level collection). */
  function features(g: Geometry): Geometry[] {
    return g.type === 'GeometryCollection' ? g.geometries : [g];
  }

  /** Summaries over a list of (key, geometry) domains, rows tagged with the key. */
  async function domains(
    c: Ctx, list: Array<{ key: Row; geom: Geometry }>, args: GetLayerArgs & { exact?: boolean }, perCountry: boolean, keyCols: ColumnInfo[], o: CallOptions,
  ): Promise<TableResult> {
    const { varSpecs, bys } = await prepare(args, o.signal);
    const rows: Row[] = [];
    let any = false;
    let last: Computed | null = null;
    for (let k = 0; k < list.length; k++) {
      throwIfAborted(o.signal);
      const cells = geometryCells(list[k].geom, c.grid, !!args.exact);
      if (!cells) continue;
      any = true;
      // a WKT selection is a cell filter: the country filter (iso3) is ignored, as with ids
      const sel = select(c, {}, cells, perCountry);
      const cp = await compute(c, sel, varSpecs, bys, true, o.signal);
      last = cp;
      const r = tableRows(c, cp);
      if (!r.length && !perCountry) rows.push({ ...list[k].key });
      for (const row of r) rows.push({ ...list[k].key, ...row });
      o.onProgress?.(k + 1, list.length);
    }
    if (!any) throw new IndapiError('OUTSIDE_GRID', `The geometry lies outside the grid of the bundle ${gridText(c.grid)} (EPSG:4326, longitude first).`);
    if (!last) last = await compute(c, { win: [0, 0, 0, 0], weight: null, mask: null, isoBlock: new Int32Array(0), blocks: perCountry ? [] : [null] }, varSpecs, bys, true, o.signal);
    const cp = last;
    const cols = columns(c, { ...cp, sel: { ...cp.sel, blocks: perCountry ? [c.isoClasses[0]] : [null] } }, keyCols);
    return { rows, columns: withCells(cols, rows), meta: metaOf(c, { ...cp, sel: { ...cp.sel, blocks: perCountry ? [c.isoClasses[0]] : [null] } }) };
  }

  const engine: IndapiEngine = {
    store,
    async grid(o = {}) { return (await ctx(o.signal)).grid; },
    async loadCatalog(o = {}) { return (await ctx(o.signal)).cat; },

    async catalog(o = {}) {
      return (await ctx(o.signal)).cat.records;
    },

    async catalogCsv(o = {}) {
      return (await ctx(o.signal)).viText;
    },

    async category(args = {}, o = {}) {
      const c = await ctx(o.signal);
      const q = asList(args?.q, 'q');
      return c.cat.category(q, !!args?.asList);
    },

    async describe(args = {}, o = {}) {
      const c = await ctx(o.signal);
      return c.cat.describe(asList(args?.var, 'var'), asList(args?.q, 'q'), today());
    },

    /**
     * The main query: one summary row per country or pool, then one row per present group.
     *
     * Values: each variable's catalog formula evaluated per group as R evaluates it (see
     * `accumulate.ts`): `sum(x, na.rm = TRUE)` over cells that are all NA is 0, as R (e.g.
     * `PN14_POP` of a country without source data is 0; terra's zonal sum would give NA);
     * where R gives NA, NaN or ±Inf (mean or median of nothing, 0/0, x/0, weighted.mean with
     * an NA weight) the field is absent from the row, NaN in {@link Engine.getLayerCells}.
     * Extra stats: `<CODE>_count` and `<CODE>_sum` are 0 over no value, the others absent.
     */
    async getLayer(args, o = {}) {
      const t = await table(args, o);
      if (args.asList) return { meta: t.meta.map((r) => describeRecord(r, today())), data: t.rows };
      return t.rows;
    },

    async getLayerTable(args, o = {}) {
      const { rows, columns: cols, meta } = await table(args, o);
      return { rows, columns: cols, meta };
    },

    async getLayerCells(args, o = {}) {
      const { c, varSpecs, bys } = await prepare(args, o.signal);
      const wkt = (args as GetLayerWktArgs).wkt;
      let geom: CellWeights | null = null;
      if (wkt !== undefined && wkt !== null && wkt !== '') {
        geom = geometryCells(parseWkt(String(wkt)), c.grid, !!(args as GetLayerWktArgs).exact);
        if (!geom) throw new IndapiError('OUTSIDE_GRID', `The geometry lies outside the grid of the bundle ${gridText(c.grid)}.`);
      }
      // a WKT selection is a cell filter: the country filter (iso3) is ignored, as with ids
      const sel = select(c, geom ? {} : args, geom, null);
      const cp = await compute(c, sel, varSpecs, bys, bys.length > 0, o.signal, o.onProgress);
      // clip to the bounding box of selected cells
      const [wx0, wy0, wx1] = sel.win;
      const ww = wx1 - wx0;
      let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
      for (let i = 0; i < cp.frame.sel.length; i++) {
        if (cp.frame.sel[i] < 0) continue;
        const cx = i % ww, cy = (i - cx) / ww;
        if (cx < x0) x0 = cx; if (cx > x1) x1 = cx;
        if (cy < y0) y0 = cy; if (cy > y1) y1 = cy;
      }
      if (x0 === Infinity) throw new IndapiError('EMPTY_SELECTION', 'The query selects no cell with data.');
      const w = x1 - x0 + 1, h = y1 - y0 + 1;
      const cs = c.grid.cellSizeDeg;
      const grid: GridDef = {
        ...c.grid,
        xmin: c.grid.xmin + (wx0 + x0) * cs, xmax: c.grid.xmin + (wx0 + x1 + 1) * cs,
        ymax: c.grid.ymax - (wy0 + y0) * cs, ymin: c.grid.ymax - (wy0 + y1 + 1) * cs,
        width: w, height: h, colOffset: c.grid.colOffset + wx0 + x0, rowOffset: c.grid.rowOffset + wy0 + y0,
      };
      const mask = new Uint8Array(w * h);
      const layers = varSpecs.map((v, k) => {
        const values = new Float64Array(w * h).fill(NaN);
        const data = cp.varData[k];
        const agg = cp.aggs?.[k];
        const memo = new Map<number, number>();
        for (let r = 0; r < h; r++) {
          for (let q = 0; q < w; q++) {
            const i = (y0 + r) * ww + (x0 + q);
            const g = cp.frame.sel[i];
            if (g < 0) continue;
            mask[r * w + q] = 1;
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
            } else x = (data as Float32Array)[i];
            values[r * w + q] = x;
          }
        }
        return { code: v.code, type: v.rec.type, values, classes: v.classes };
      });
      // key layers: ISO3, then each by (class value, or 1-based interval index)
      const keyLayer = (code: string, classes: ClassEntry[], key: (i: number) => number): CellLayer => {
        const values = new Float64Array(w * h).fill(NaN);
        for (let r = 0; r < h; r++) {
          for (let q = 0; q < w; q++) {
            const i = (y0 + r) * ww + (x0 + q);
            if (cp.frame.sel[i] >= 0) values[r * w + q] = key(i);
          }
        }
        return { code, type: 'class', values, classes };
      };
      const keys: CellLayer[] = [keyLayer('ISO3', c.isoClasses, (i) => (c.isoIndex[cp.iso[i]] >= 0 ? cp.iso[i] : NaN))];
      for (let k = 0; k < bys.length; k++) {
        const d = bys[k];
        if (d.kind === 'class') {
          const table = new Map((await c.cat.classes(d.code)).map((e) => [e.value, e]));
          const classes = d.values!.map((v, j) => table.get(v) ?? { value: v, label: d.labels[j] });
          const data = cp.byData[k] as Int32Array, lut = d.lut!;
          keys.push(keyLayer(d.key, classes, (i) => { const v = data[i]; return v >= 0 && v < lut.length && lut[v] >= 0 ? v : NaN; }));
        } else {
          const data = cp.byData[k] as Float32Array, br = d.breaks!;
          const classes = d.labels.map((label, j) => ({ value: j + 1, label }));
          keys.push(keyLayer(d.key, classes, (i) => { const j = intervalIndex(br, data[i]); return j < 0 ? NaN : j + 1; }));
        }
      }
      return { grid, mask, layers, keys, meta: metaOf(c, cp) } satisfies CellResult;
    },

    async getLayerWKT(args, o = {}) {
      const c = await ctx(o.signal);
      if (typeof args?.wkt !== 'string') throw new IndapiError('BAD_ARGUMENT', "'wkt' must be WKT text.");
      const g = parseWkt(args.wkt);
      const list = features(g).map((geom, i) => ({ key: { feature: i + 1 } as Row, geom }));
      const keyCol: ColumnInfo = { name: 'feature', role: 'key', label: 'Feature (1-based position in the WKT)', unit: '', type: 'integer' };
      return domains(c, list, args, true, [keyCol], o);
    },

    async classify(args, o = {}) {
      const c = await ctx(o.signal);
      const { list, keyName } = parseDomains(args?.domains, args?.key);
      const keyCol: ColumnInfo = { name: keyName, role: 'key', label: `Domain (${keyName})`, unit: '', type: 'string' };
      return domains(c, list, { var: args.var, stats: args.stats, exact: args.exact }, false, [keyCol], o);
    },

    async similar(args, o = {}) {
      const c = await ctx(o.signal);
      const by = args?.by === undefined ? 0 : Number(args.by);
      if (by !== 0 && by !== 1 && by !== 2) throw new IndapiError('BAD_ARGUMENT', "'by' must be 0 (cells), 1 (first-level units) or 2 (second-level units).");
      let unitCode = '';
      if (by === 1) unitCode = 'ADM1_CODE_ALT';
      if (by === 2) {
        unitCode = c.cat.get('ADM2_CODE_ALT') ? 'ADM2_CODE_ALT' : c.cat.get('ADM2_NAME_ALT') ? 'ADM2_NAME_ALT' : '';
        if (!unitCode) throw new IndapiError('BAD_ARGUMENT', 'Second-level administrative units (by = 2) are not in this bundle (no ADM2_CODE_ALT or ADM2_NAME_ALT layer); use by = 1 (first-level units) or 0 (cells).');
      }
      if (args.x === undefined || args.x === null || args.x === '') throw new IndapiError('BAD_ARGUMENT', "'x' (the reference unit) is required.");
      const vars = [...new Set(asList(args.var, 'var'))];
      // count: a unit none of whose cells has a value of an indicator misses it, whatever its
      // formula gives there (R's sum(x, na.rm = TRUE) is 0 over no value)
      const base = await table({ var: vars, iso3: args.iso3, by: by ? [unitCode] : undefined, collapse: by !== 0, stats: by ? ['count'] : undefined }, o, true);
      const cp = base.computed;
      // candidate units: key fields, unrounded values (class values for class variables), shown values
      type Unit = { keys: Row; vals: number[]; labels: Array<string | number | null | undefined> };
      const units: Unit[] = [];
      const refs: number[] = [];
      const xs = String(args.x).trim();
      const level = by === 0 ? 'cells' : by === 1 ? 'first-level units' : 'second-level units';
      if (by) {
        const d = cp.bys[0];
        const entry = new Map((await c.cat.classes(unitCode)).map((e) => [e.value, e]));
        const S = cp.frame.S;
        const nameCol = unitCode.endsWith('_CODE_ALT') ? unitCode.replace('_CODE_ALT', '_NAME_ALT') : '';
        for (let b = 0; b < cp.frame.C; b++) {
          for (let s = 0; s < d.n; s++) { // index d.n is the NA group (cells outside every unit)
            const g = b * S + s;
            if (!(cp.frame.groupN[g] > 0)) continue;
            const e = entry.get(d.values![s])!;
            const keys: Row = { [unitCode]: e.label };
            if (nameCol && typeof e.name === 'string' && e.name) keys[nameCol] = e.name;
            if (by === 2 && e.adm1 !== undefined && e.adm1 !== '') keys.ADM1_NAME_ALT = String(e.adm1);
            if (typeof e.iso3 === 'string' && e.iso3) keys.ISO3 = e.iso3;
            if (e.label === xs || String(e.value) === xs || (typeof e.name === 'string' && e.name.toLowerCase() === xs.toLowerCase())) refs.push(units.length);
            units.push({ keys, vals: cp.aggs!.map((a) => (Number(a.stat('count', g)) > 0 ? a.numeric(g) : NaN)), labels: cp.aggs!.map((a) => fmtValue(a.spec, a.value(g))) });
          }
        }
      } else {
        const id = Number(xs);
        const [wx0, wy0, wx1] = cp.sel.win;
        const ww = wx1 - wx0;
        for (const r of base.rows) {
          const keys: Row = { CELL5M: r.CELL5M, X: r.X, Y: r.Y };
          if (r.ISO3 !== undefined) keys.ISO3 = r.ISO3;
          if (r.CELL5M === id) refs.push(units.length);
          const cell = Number(r.CELL5M);
          const [gc, gr] = globalColRow(cell);
          const i = (gr - c.grid.rowOffset - wy0) * ww + (gc - c.grid.colOffset - wx0);
          units.push({
            keys,
            vals: cp.vars.map((v, k) => {
              const x = cp.varData[k][i];
              if (v.rec.type === 'class') return x >= 0 && v.classes!.some((e) => e.value === x) ? x : NaN;
              return x;
            }),
            labels: cp.vars.map((v) => r[v.code]),
          });
        }
      }
      if (refs.length === 0) {
        throw new IndapiError('BAD_ARGUMENT', `Unit '${xs}' was not found among the ${level} of the selection.`, { x: args.x });
      }
      if (by === 2 && refs.length > 1 && !refs.some((u) => units[u].keys[unitCode] === xs || String(units[u].keys[unitCode]) === xs)) {
        const which = refs.map((u) => `${units[u].keys[unitCode]} (${[units[u].keys.ADM1_NAME_ALT, units[u].keys.ISO3].filter(Boolean).join(', ')})`);
        throw new IndapiError('BAD_ARGUMENT', `Unit '${xs}' names ${refs.length} second-level units: ${which.join('; ')}. Give its code.`, { x: args.x });
      }
      const ref = refs.find((u) => units[u].keys[unitCode] === xs) ?? refs[0];
      // the reference must have every indicator; units missing any are left out of the ranking
      const refMissing = cp.vars.filter((_, k) => !Number.isFinite(units[ref].vals[k])).map((v) => v.code);
      if (refMissing.length) {
        throw new IndapiError('BAD_ARGUMENT', `Unit '${xs}' has no value of ${refMissing.join(', ')}, so it cannot be compared on ${refMissing.length > 1 ? 'them' : 'it'}; leave ${refMissing.length > 1 ? 'them' : 'it'} out of 'var'.`, { x: args.x });
      }
      const complete = units.filter((u) => u.vals.every((x) => Number.isFinite(x)));
      const leftOut = units.length - complete.length;
      const refUnit = units[ref];
      // scores on unrounded values: |x - ref| / sd over the complete units (R scale()), 0/1 for classes
      const score = new Float64Array(complete.length);
      cp.vars.forEach((v, k) => {
        const r = refUnit.vals[k];
        if (v.rec.type === 'class') {
          complete.forEach((u, j) => { score[j] += u.vals[k] === r ? 0 : 1; });
          return;
        }
        const n = complete.length;
        if (n < 2) return;
        let s = 0, q = 0;
        for (const u of complete) s += u.vals[k];
        const mean = s / n;
        for (const u of complete) q += (u.vals[k] - mean) ** 2;
        const sd = Math.sqrt(q / (n - 1));
        if (!(sd > 0)) return;
        complete.forEach((u, j) => { score[j] += Math.abs(u.vals[k] - r) / sd; });
      });
      const refPos = complete.indexOf(refUnit);
      const order = complete.map((_, i) => i).sort((a, b) => score[a] - score[b] || (a === refPos ? -1 : b === refPos ? 1 : a - b));
      const rows: Row[] = [];
      let rank = 0;
      order.forEach((u, i) => {
        if (i === 0 || score[u] !== score[order[i - 1]]) rank = i + 1;
        const row: Row = { ...complete[u].keys };
        cp.vars.forEach((v, k) => { const x = complete[u].labels[k]; if (x !== undefined && x !== null) row[v.code] = x; });
        row.score = roundR(score[u], 4);
        row.rank = rank;
        rows.push(row);
      });
      const unitCols = (): ColumnInfo[] => {
        const key = (name: string, label: string): ColumnInfo => ({ name, role: 'key', code: c.cat.get(name) ? name : undefined, label: c.cat.get(name)?.varLabel ?? label, unit: '', type: 'string' });
        const cols = [key(unitCode, 'Unit code')];
        if (unitCode === 'ADM1_CODE_ALT') cols.push(key('ADM1_NAME_ALT', 'Unit name'));
        if (unitCode === 'ADM2_CODE_ALT') cols.push(key('ADM2_NAME_ALT', 'Unit name'));
        if (by === 2) cols.push(key('ADM1_NAME_ALT', 'First-level unit name'));
        cols.push({ ...key('ISO3', 'ISO3 country code'), code: 'ISO3', label: 'ISO3 country code' });
        return cols;
      };
      const keyCols: ColumnInfo[] = by ? unitCols() : base.columns.filter((col) => ['CELL5M', 'X', 'Y', 'ISO3'].includes(col.name));
      const valCols = base.columns.filter((col) => col.role === 'value' && cp.vars.some((v) => v.code === col.name));
      const missingBy = cp.vars.map((v, k) => [v.code, units.filter((u) => !Number.isFinite(u.vals[k])).length] as const).filter(([, n]) => n > 0);
      return {
        rows,
        columns: [
          ...keyCols, ...valCols,
          { name: 'score', role: 'value', label: 'Distance score (sum of absolute standardised differences; lower is more similar)', unit: '', type: 'number', dec: 4 },
          { name: 'rank', role: 'value', label: 'Rank by similarity (1 = most similar)', unit: '', type: 'integer' },
        ],
        meta: base.meta,
        leftOut: leftOut
          ? { count: leftOut, of: units.length, reason: `${leftOut} of ${units.length} ${level} left out: no value of ${missingBy.map(([code, n]) => `${code} (${n})`).join(', ')}.` }
          : undefined,
      };
    },
  };
  return engine;
}

/** Per cell: summary block times slots (b * S), or -1 when the cell is not selected. */
function blockIndex(iso: Int32Array, isoBlock: Int32Array, weight: Float32Array | null, mask: Uint8Array | null, S: number): Int32Array {
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
function groupClass(base: Int32Array, cls: Int32Array, lut: Int32Array, filtered: boolean, n: number, g: Int32Array): void {
  const N = base.length, L = lut.length;
  for (let i = 0; i < N; i++) {
    const b = base[i];
    if (b < 0) { g[i] = -1; continue; }
    const cv = cls[i];
    const idx = cv >= 0 && cv < L ? lut[cv] : -1;
    g[i] = idx >= 0 ? b + idx : filtered ? -1 : b + n;
  }
}

/**
 * Domains of `classify`: a GeoJSON FeatureCollection (key = a property, default `name`,
 * else the feature's 1-based position) or an object / list of named WKT strings.
 * @throws IndapiError BAD_ARGUMENT for any other shape, BAD_WKT for bad WKT
 */
export function parseDomains(domains: unknown, key?: string): { list: Array<{ key: Row; geom: Geometry }>; keyName: string } {
  let d = domains;
  if (typeof d === 'string') {
    const s = d.trim();
    if (s.startsWith('{') || s.startsWith('[')) {
      try { d = JSON.parse(s); } catch { throw new IndapiError('UNPARSABLE', "'domains' is not valid JSON."); }
    } else d = [s];
  }
  if (d && typeof d === 'object' && (d as FeatureCollection).type === 'FeatureCollection') {
    const fc = d as FeatureCollection;
    if (!Array.isArray(fc.features)) throw new IndapiError('BAD_ARGUMENT', "'domains' FeatureCollection has no features.");
    const keyName = key ?? (fc.features.some((f) => f?.properties && 'name' in f.properties) ? 'name' : 'feature');
    return {
      keyName,
      list: fc.features.map((f: Feature, i) => {
        if (!f || !f.geometry) throw new IndapiError('BAD_ARGUMENT', `Feature ${i + 1} of 'domains' has no geometry.`);
        const v = keyName === 'feature' && !(f.properties && keyName in f.properties) ? i + 1 : f.properties?.[keyName];
        return { key: { [keyName]: v === undefined || v === null ? String(i + 1) : typeof v === 'number' ? v : String(v) }, geom: f.geometry };
      }),
    };
  }
  if (Array.isArray(d)) {
    const keyName = key ?? 'feature';
    return { keyName, list: d.map((w, i) => ({ key: { [keyName]: i + 1 }, geom: parseWkt(String(w)) })) };
  }
  if (d && typeof d === 'object') {
    const keyName = key ?? 'name';
    return { keyName, list: Object.entries(d as Record<string, unknown>).map(([k, w]) => ({ key: { [keyName]: k }, geom: parseWkt(String(w)) })) };
  }
  throw new IndapiError('BAD_ARGUMENT', "'domains' must be a GeoJSON FeatureCollection or a named list of WKT.");
}

export type { CategoryRow };
