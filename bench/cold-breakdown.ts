/**
 * Where the cold whole-region query's time goes (issue 26 item 5, printed by bench/run.ts):
 * the same files and blocks the query reads, timed phase by phase on fresh objects, each
 * the median of `runs`:
 * - file: reading the COG files' bytes (page cache: the machine's, as for terra);
 * - inflate: Node's zlib over every block, one after another, synchronously (zlib's own work; the
 *   store's `nodeInflate`, src/node/engine.ts, runs the same calls concurrently on libuv's thread pool);
 * - block decode: predictors, byte order, no-data (src/core/cog/block.ts) of the inflated blocks,
 *   predictor 3 by the WebAssembly SIMD kernel (src/core/cog/simd.ts), and the same with the
 *   JavaScript loops (`blockDecodeJsMs`, the kernel off) for comparison;
 * - windows: the CogStore reading the whole-grid windows of those files (all of the above,
 *   plus headers, the block cache and assembling each window into Float64 / Int32);
 * - engine: the query on a store that already holds the windows (groups, cell lists, sums, rows);
 * - total: the cold query as the bench times it (a fresh engine).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeSamples } from '../src/core/cog/block';
import { hasPredictor3Simd, setPredictor3Simd } from '../src/core/cog/simd';
import { bytesPerSample, readTiffInfo } from '../src/core/cog/tiff';
import { inflateSync } from 'node:zlib';
import { createNodeEngine } from '../src/node/engine';

/** Median ms of each phase. */
export interface ColdBreakdown {
  fileMs: number;
  inflateMs: number;
  blockDecodeMs: number;
  /** The block decode with the JavaScript loops (the SIMD kernel off). */
  blockDecodeJsMs: number;
  /** Whether the SIMD kernel ran in `blockDecodeMs`. */
  simd: boolean;
  windowsMs: number;
  engineMs: number;
  totalMs: number;
  /** Files and blocks read. */
  files: number;
  blocks: number;
}

/**
 * Times the phases of the cold region query.
 * @param dir the bundle folder
 * @param vars the query's variables
 * @param columns the other columns their formulas read (weights)
 * @param runs repetitions (median)
 */
export async function coldBreakdown(dir: string, vars: string[], columns: string[], runs = 3): Promise<ColdBreakdown> {
  const codes = [...new Set(['ISO3', 'ADM1_CODE_ALT', ...vars, ...columns])];
  const classes = new Set(['ISO3', 'ADM1_CODE_ALT']);
  const t: Record<'file' | 'inflate' | 'decode' | 'decodeJs' | 'windows' | 'engine' | 'total', number[]> = { file: [], inflate: [], decode: [], decodeJs: [], windows: [], engine: [], total: [] };
  let blocks = 0;
  for (let i = 0; i < runs; i++) {
    let file = 0, inflate = 0, decode = 0, decodeJs = 0;
    blocks = 0;
    for (const code of codes) {
      let t0 = performance.now();
      const buf = new Uint8Array(await readFile(join(dir, 'cog', `${code}.tif`)));
      file += performance.now() - t0;
      const info = await readTiffInfo(async (o, l) => buf.slice(o, o + l).buffer);
      for (let b = 0; b < info.offsets.length; b++) {
        if (!info.byteCounts[b]) continue;
        const raw = buf.subarray(info.offsets[b], info.offsets[b] + info.byteCounts[b]);
        t0 = performance.now();
        const data = info.compression === 1 ? raw.slice() : inflateSync(raw, { chunkSize: info.blockWidth * info.blockHeight * bytesPerSample(info.kind) + 64 });
        const t1 = performance.now();
        const copy = new Uint8Array(data); // a copy (a Buffer's slice would share the bytes)
        const t2 = performance.now();
        decodeSamples(info, data);
        const t3 = performance.now();
        const was = setPredictor3Simd(false);
        decodeSamples(info, copy);
        setPredictor3Simd(was);
        decodeJs += performance.now() - t3;
        decode += t3 - t2;
        inflate += t1 - t0;
        blocks++;
      }
    }
    t.file.push(file); t.inflate.push(inflate); t.decode.push(decode); t.decodeJs.push(decodeJs);
    const e = createNodeEngine(dir);
    await e.loadCatalog();
    let t0 = performance.now();
    await Promise.all(codes.map(async (code) => {
      const info = await e.store.info(`cog/${code}.tif`);
      return classes.has(code) ? e.store.readInt(`cog/${code}.tif`, [0, 0, info.width, info.height]) : e.store.readFloat(`cog/${code}.tif`, [0, 0, info.width, info.height]);
    }));
    t.windows.push(performance.now() - t0);
    t0 = performance.now();
    await e.getLayer({ var: vars, by: ['ADM1_CODE_ALT'] });
    t.engine.push(performance.now() - t0);
    await e.store.close();
    const cold = createNodeEngine(dir);
    await cold.loadCatalog();
    t0 = performance.now();
    await cold.getLayer({ var: vars, by: ['ADM1_CODE_ALT'] });
    t.total.push(performance.now() - t0);
    await cold.store.close();
  }
  const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
  return {
    fileMs: med(t.file), inflateMs: med(t.inflate), blockDecodeMs: med(t.decode), blockDecodeJsMs: med(t.decodeJs), simd: hasPredictor3Simd(), windowsMs: med(t.windows),
    engineMs: med(t.engine), totalMs: med(t.total), files: codes.length, blocks,
  };
}
