/**
 * Where the cold whole-region query's time goes (issue 26 item 5, printed by bench/run.ts):
 * the same files and blocks the query reads, timed phase by phase on fresh objects, each
 * the median of `runs`:
 * - file: reading the COG files' bytes (page cache: the machine's, as for terra);
 * - inflate: Node's zlib over every block (src/node/engine.ts `nodeInflate`);
 * - block decode: predictors, byte order, no-data (src/core/cog/block.ts) of the inflated blocks;
 * - windows: the CogStore reading the whole-grid windows of those files (all of the above,
 *   plus headers, the block cache and assembling each window into Float64 / Int32);
 * - engine: the query on a store that already holds the windows (groups, cell lists, sums, rows);
 * - total: the cold query as the bench times it (a fresh engine).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeSamples } from '../src/core/cog/block';
import { bytesPerSample, readTiffInfo } from '../src/core/cog/tiff';
import { createNodeEngine, nodeInflate } from '../src/node/engine';

/** Median ms of each phase. */
export interface ColdBreakdown {
  fileMs: number;
  inflateMs: number;
  blockDecodeMs: number;
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
  const t: Record<'file' | 'inflate' | 'decode' | 'windows' | 'engine' | 'total', number[]> = { file: [], inflate: [], decode: [], windows: [], engine: [], total: [] };
  let blocks = 0;
  for (let i = 0; i < runs; i++) {
    let file = 0, inflate = 0, decode = 0;
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
        const data = info.compression === 1 ? raw.slice() : await nodeInflate(raw, info.blockWidth * info.blockHeight * bytesPerSample(info.kind));
        const t1 = performance.now();
        decodeSamples(info, data);
        decode += performance.now() - t1;
        inflate += t1 - t0;
        blocks++;
      }
    }
    t.file.push(file); t.inflate.push(inflate); t.decode.push(decode);
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
    fileMs: med(t.file), inflateMs: med(t.inflate), blockDecodeMs: med(t.decode), windowsMs: med(t.windows),
    engineMs: med(t.engine), totalMs: med(t.total), files: codes.length, blocks,
  };
}
