/**
 * First download of what is on screen (`npx tsx bench/download-reuse.ts [bundle dir]`, default
 * public/data): the Download panel's package after a summary and after a 100-source
 * marketshed, built as the files worker builds it.
 * - before: the files worker ran the query again on its own engine, cold (its block cache is
 *   its own): `buildPackage` with the method's typed value on a fresh runtime;
 * - after: the page hands the engine worker's result over (`BuildRequest.result`): `buildPackage`
 *   with the result on a fresh runtime whose engine fails any query (none may run);
 * - reference in the same run: the on-screen query itself on a warm engine (what the user
 *   already waited for); ratios = download / reference, and before / after.
 * Medians of 3 runs. The 100 sources are those of bench/catchment.ts (`hundredSources`).
 */
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { methodPackage } from '../src/contract/methods';
import type { Engine } from '../src/core/api';
import { catchmentArgs } from '../src/core/catchment/query';
import { isFrictionRecord } from '../src/core/catchment/query';
import { buildPackage } from '../src/core/package';
import { nodeRuntime } from '../src/node/bundle-runtime';
import { hundredSources } from './catchment';

function median(a: number[]): number {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.floor(s.length / 2)];
}

/** Milliseconds of `f`, median of `n` runs. */
async function timeMs(n: number, f: () => Promise<unknown>): Promise<number> {
  const t: number[] = [];
  for (let i = 0; i < n; i++) { const t0 = performance.now(); await f(); t.push(performance.now() - t0); }
  return median(t);
}

/** An engine whose queries fail: a download that runs one fails. */
function noQueries(e: Engine): Engine {
  const none = () => Promise.reject(new Error('a query ran again'));
  return { ...e, getLayerTable: none, getLayerCells: none, getLayerWKT: none, similar: none, catchment: none } as Engine;
}

/** One case: a method's call, its on-screen query and the download format. */
async function runCase(dir: string, label: string, method: string, args: Record<string, unknown>, format: string, onScreen: (e: Engine) => Promise<unknown>) {
  const warm = nodeRuntime(dir);
  const result = await onScreen(warm.engine);
  const refMs = await timeMs(3, () => onScreen(warm.engine));
  const beforeMs = await timeMs(3, () => { const rt = nodeRuntime(dir); return buildPackage(rt.engine, { ...methodPackage(method, args), format, write: rt.genFile }); });
  const afterMs = await timeMs(3, () => { const rt = nodeRuntime(dir); return buildPackage(noQueries(rt.engine), { ...methodPackage(method, args), result, format, write: rt.genFile }); });
  const row = { case: label, format, referenceMs: Math.round(refMs), beforeMs: Math.round(beforeMs), afterMs: Math.round(afterMs), beforeToRef: +(beforeMs / refMs).toFixed(2), afterToRef: +(afterMs / refMs).toFixed(2), beforeToAfter: +(beforeMs / afterMs).toFixed(1) };
  console.log(JSON.stringify(row));
  return row;
}

/** Runs both cases on the bundle folder `dir`. */
export async function downloadReuseBench(dir: string) {
  const summary = { var: ['ELEVATION', 'PN14_POP'], iso3: ['KEN', 'TZA', 'UGA'], by: ['ADM1_NAME_ALT'] };
  await runCase(dir, 'summary', 'indapi', summary, 'csv', (e) => e.getLayerTable(summary));
  const rt = nodeRuntime(dir);
  const cat = await rt.engine.loadCatalog();
  const fr = cat.records.find(isFrictionRecord);
  if (!fr) { console.log('download-reuse bench: no friction layer, marketshed case skipped'); return; }
  const grid = await rt.engine.grid();
  const friction = await rt.engine.store.readFloat(`cog/${fr.varCode}.tif`, [0, 0, grid.width, grid.height]);
  const { places } = hundredSources(dir, grid, friction);
  const ms = { xy: places, minutes: [0, 120, 240, 480], var: ['PN14_POP'], marketshed: true };
  for (const format of ['csv', 'tif']) await runCase(dir, 'marketshed-100', 'catchment', ms, format, (e) => e.catchment!(catchmentArgs(ms)));
}

await downloadReuseBench(resolve(process.argv[2] ?? 'public/data'));
