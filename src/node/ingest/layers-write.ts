/**
 * Step 3 of a table ingest (./index.ts): the layers written in column batches. Each batch
 * reads its contiguous slice of every spill block back (Float64), builds the grid arrays (in
 * the layer's sample type; scaled integer layers value x 10^k) and writes COGs (src/core/formats/cog.ts; tiles compressed on zlib's thread pool, a few layers at
 * once), class tables, and the admin outlines of the ADM1/ADM2 name key layers.
 */
import { readSync } from 'node:fs';
import { deflate } from 'node:zlib';
import { promisify } from 'node:util';
import { throwIfAborted } from '../../core/errors';
import { writeCogAsync, type Samples } from '../../core/formats/cog';
import { OUTLINE_FILES, OUTLINE_KEY, outlineAttribution, outlineDescription, outlineUnits, writeOutlines } from '../../core/formats/outlines';
import type { GridDef } from '../../core/grid';
import { classTablePath, cogPath } from '../../core/bundle';
import { serialiseClassTable } from '../../core/bundle/tables-write';
import { BLOCK_ROWS, type Layer } from './layer';

/** A grid-sized array of a layer's sample type, filled with its no-data value. */
function gridArray(t: NonNullable<Layer['sampleType']>, cells: number, noData: number): Samples {
  const a = t === 'Float64' ? new Float64Array(cells) : t === 'Float32' ? new Float32Array(cells) : t === 'Int32' ? new Int32Array(cells)
    : t === 'Int16' ? new Int16Array(cells) : t === 'UInt16' ? new Uint16Array(cells) : new Uint8Array(cells);
  return a.fill(noData);
}

/** Layers being compressed at once (their tiles on zlib's thread pool). */
const WRITE_CONCURRENCY = 3;
const deflateP = promisify(deflate);
const deflateAsync = async (d: Uint8Array): Promise<Uint8Array> => new Uint8Array(await deflateP(d, { level: 6 }));

/** Inputs of {@link writeLayers}. */
export interface WriteLayersInput {
  /** Layers to write (settled by the column decisions). */
  kept: Layer[];
  /** Layers in the spill blocks (all of the read pass, dropped ones included). */
  layerCount: number;
  /** Spill blocks written. */
  nBlocks: number;
  /** The spill file (open). */
  spillFd: number;
  /** Window cell index of each row (-1: dropped). */
  cellOf: Int32Array;
  /** Table rows read. */
  rows: number;
  /** Bundle window. */
  grid: GridDef;
  /** Writes a bundle file (relative path). */
  addFile: (rel: string, data: Uint8Array | string) => Promise<void>;
  /** Layers per batch (default: about 160 MB of values). */
  columnBatch?: number;
  /** Table file name(s), for the outlines' description. */
  source: string;
  /** Called after each layer with the count written. */
  onLayer?: (done: number) => void;
  /** Aborts. */
  signal?: AbortSignal;
}

/**
 * Writes every kept layer (COG, class table, outlines).
 * @param o see {@link WriteLayersInput}
 * @returns the number of layers written
 * @throws IndapiError ABORTED; Error from the file system
 */
export async function writeLayers(o: WriteLayersInput): Promise<number> {
  const padded = o.nBlocks * BLOCK_ROWS;
  const batch = Math.max(1, o.columnBatch ?? Math.floor((160 * 1024 * 1024) / (8 * padded)));
  const cells = o.grid.width * o.grid.height;
  let done = 0;
  const inflight: Promise<void>[] = [];
  for (let k0 = 0; k0 < o.kept.length; k0 += batch) {
    throwIfAborted(o.signal);
    const group = o.kept.slice(k0, k0 + batch);
    // Read the spilled values of the group's layers (contiguous runs of layer indexes).
    const vals = new Map<Layer, Float64Array>();
    for (const l of group) vals.set(l, new Float64Array(padded));
    for (let bi = 0; bi < o.nBlocks; bi++) {
      let g = 0;
      while (g < group.length) {
        let h = g + 1;
        while (h < group.length && group[h].j === group[h - 1].j + 1) h++;
        const run = new Float64Array(BLOCK_ROWS * (h - g));
        readSync(o.spillFd, new Uint8Array(run.buffer), 0, run.byteLength, (bi * o.layerCount + group[g].j) * BLOCK_ROWS * 8);
        for (let q = g; q < h; q++) vals.get(group[q])!.set(run.subarray((q - g) * BLOCK_ROWS, (q - g + 1) * BLOCK_ROWS), bi * BLOCK_ROWS);
        g = h;
      }
    }
    for (const l of group) {
      throwIfAborted(o.signal);
      const v = vals.get(l)!;
      vals.delete(l);
      const nd = l.noData!;
      const data = gridArray(l.sampleType!, cells, nd);
      const remap = l.classes?.remap;
      const p = l.decimals ? 10 ** l.decimals : 1;
      for (let i = 0; i < o.rows; i++) {
        const c = o.cellOf[i];
        if (c < 0) continue;
        const x = v[i];
        if (x !== x) continue;
        // scaled integers: n = x * 10^k, read back as n / 10^k (src/core/ingest/decimals.ts)
        data[c] = remap ? remap[x] : p !== 1 ? Math.round(x * p) : x;
      }
      // Admin outlines of the first- and second-level key layers (basemap/admin1.geojson, admin2.geojson).
      const level = l.plan.code === OUTLINE_KEY[1] ? 1 : l.plan.code === OUTLINE_KEY[2] ? 2 : 0;
      if (level && l.classes?.table.length) {
        const text = writeOutlines(o.grid, data, outlineUnits(l.classes.table, level), { noData: nd, description: outlineDescription(l.plan.code, o.source), attribution: outlineAttribution(level, o.source), signal: o.signal });
        await o.addFile(OUTLINE_FILES[level], text);
      }
      // Tiles compress on zlib's thread pool while the next layer is prepared (both cores busy).
      const job = writeCogAsync(
        { width: o.grid.width, height: o.grid.height, data, sampleType: l.sampleType!, xmin: o.grid.xmin, ymax: o.grid.ymax, cellSize: o.grid.cellSizeDeg, noData: nd,
          scale: l.decimals ? { scale: 1 / p, offset: 0 } : undefined },
        deflateAsync,
      ).then(async (tif) => {
        await o.addFile(cogPath(l.plan.code), tif);
        if (l.classes) await o.addFile(classTablePath(l.plan.code), serialiseClassTable(l.classes.table, l.classes.extras));
        done++;
        o.onLayer?.(done);
      });
      job.catch(() => undefined); // awaited below; this only keeps an early failure from being "unhandled"
      inflight.push(job);
      if (inflight.length >= WRITE_CONCURRENCY) await inflight.shift();
    }
  }
  await Promise.all(inflight);
  return done;
}
