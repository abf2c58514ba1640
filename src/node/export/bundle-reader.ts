/**
 * Reads every layer of a bundle folder band by band (rows of the bundle grid), through the
 * engine's COG store, for the table export and the bench table generator. Memory stays
 * bounded: one band of every layer at a time (Float64 values or Int32 class samples).
 */
import { layerPath } from '../../core/bundle';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { throwIfAborted } from '../../core/errors';
import type { Catalog } from '../../core/catalog';
import type { GridDef } from '../../core/grid';
import type { ClassEntry, VarRecord } from '../../core/types';
import { createNodeEngine } from '../engine';
import type { IndapiEngine } from '../../core/engine';

/** One layer (COG) of the bundle. */
export interface BundleLayer {
  /** Code: the COG's file name without `.tif`. */
  code: string;
  /** Catalog record, absent for a helper COG without a record. */
  record?: VarRecord;
  /** "class" (read as Int32 class values, -1 = no-data) or "continuous" (Float64 values, src/core/cog/decode.ts; NaN = no-data). */
  type: 'class' | 'continuous';
  /** Class table of class layers (value to label). */
  classes?: ClassEntry[];
  /** True when the COG stores integers (Byte, UInt16, Int16, Int32, UInt32). */
  integer: boolean;
}

/** One band of rows [y0, y1) of every layer, row-major, width = grid width. */
export interface Band {
  /** First row (0 = north) of the band in the bundle grid. */
  y0: number;
  /** Row after the last one. */
  y1: number;
  /** Samples per layer code: Float64Array (NaN = no-data) or Int32Array (class value, -1 = no-data). */
  data: Map<string, Float64Array | Int32Array>;
}

/** An opened bundle. */
export interface BundleReader {
  /** The engine over the folder (its store reads the COGs). */
  engine: IndapiEngine;
  /** The loaded catalog. */
  cat: Catalog;
  /** The bundle grid. */
  grid: GridDef;
  /** Layers: catalog records that have a COG, in catalog order, then helper COGs without a record, by code. */
  layers: BundleLayer[];
  /** Rows per band chosen for the memory budget (a multiple of the COG block height when it fits). */
  bandRows: number;
  /**
   * Reads one band of the given layers (default: all).
   * @throws IndapiError IO when a COG cannot be read, ABORTED on abort
   */
  readBand(y0: number, y1: number, codes?: string[], signal?: AbortSignal): Promise<Band>;
  /** Closes the file handles. */
  close(): Promise<void>;
}

/** Options of {@link openExportBundle}. */
export interface OpenBundleOptions {
  /** Budget in bytes for one band of all layers; default 192 MB. */
  bandBytes?: number;
  /** Only these layer codes (default all). */
  codes?: string[];
  /** Aborts the loading. */
  signal?: AbortSignal;
}

/**
 * Opens a bundle folder (manifest.json, vi.csv, iso.csv, classes/, cog/) for band reads.
 * @param dir bundle folder
 * @throws IndapiError IO when the catalog or a COG header cannot be read
 */
export async function openExportBundle(dir: string, opts: OpenBundleOptions = {}): Promise<BundleReader> {
  const signal = opts.signal;
  // a small block cache: every block is read once per band and copied out
  const engine = createNodeEngine(dir, { cacheBytes: 64 * 2 ** 20 });
  const cat = await engine.loadCatalog({ signal });
  const grid = await engine.grid({ signal });
  let files: string[];
  try {
    files = (await readdir(join(dir, 'cog'))).filter((f) => f.endsWith('.tif')).map((f) => f.slice(0, -4));
  } catch {
    files = [];
  }
  const have = new Set(files);
  const want = opts.codes ? new Set(opts.codes) : null;
  const layers: BundleLayer[] = [];
  let blockHeight = 256;
  const add = async (code: string, record?: VarRecord) => {
    const info = await engine.store.info(layerPath(code), signal);
    blockHeight = info.blockHeight;
    const integer = !(info.kind === 'float32' || info.kind === 'float64');
    const type = record?.type === 'class' ? 'class' : 'continuous';
    const layer: BundleLayer = { code, type, integer };
    if (record) layer.record = record;
    if (type === 'class') layer.classes = await cat.classes(code, signal);
    layers.push(layer);
  };
  for (const r of cat.records) {
    throwIfAborted(signal);
    if (have.has(r.varCode) && (!want || want.has(r.varCode))) await add(r.varCode, r);
  }
  for (const code of files.sort()) if (!cat.get(code) && (!want || want.has(code))) await add(code);
  const budget = opts.bandBytes ?? 192 * 2 ** 20;
  const perRow = Math.max(1, layers.length) * grid.width * 4;
  let bandRows = Math.max(1, Math.floor(budget / perRow));
  if (bandRows >= blockHeight) bandRows = Math.floor(bandRows / blockHeight) * blockHeight;
  bandRows = Math.min(bandRows, grid.height);
  const byCode = new Map(layers.map((l) => [l.code, l]));
  return {
    engine,
    cat,
    grid,
    layers,
    bandRows,
    async readBand(y0, y1, codes, sig) {
      const data = new Map<string, Float64Array | Int32Array>();
      for (const code of codes ?? layers.map((l) => l.code)) {
        throwIfAborted(sig);
        const l = byCode.get(code);
        if (!l) continue;
        const win: [number, number, number, number] = [0, y0, grid.width, y1];
        // copies: the store's window cache may share its arrays
        data.set(code, l.type === 'class' ? (await engine.store.readInt(layerPath(code), win, sig)).slice()
          : (await engine.store.readFloat(layerPath(code), win, sig)).slice());
      }
      engine.store.clear();
      return { y0, y1, data };
    },
    close: () => engine.store.close(),
  };
}
