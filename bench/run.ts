/**
 * `npm run bench`: the engine's benchmark cases, warm and cold, peak memory, and the same
 * summaries by R terra on the same COGs in the same run, with ours/terra ratios.
 *
 * Uses the real bundle in public/data when it is there; otherwise a BENCHMARK FIXTURE
 * bundle of made-up values on the full SSA grid, built by bench/make-bench-bundle.py into
 * .cache/bench-bundle (GDAL). Pass a folder as the first argument to bench another bundle.
 *
 * Cases (issue 3): 5 indicators by ADM1 over the whole region; one country by
 * ADM1 x ELEVATION intervals; a 1 x 1 degree polygon (centre rule, and exact coverage).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createNodeEngine } from '../src/node/engine';
import { parseAggFun, simpleAggregate } from '../src/core/engine';
import type { GetLayerArgs } from '../src/core/types';
import { runIngestBench } from './ingest-bench';
import { loadBench } from './load';
import { catalogBench } from './catalog';
import { catchmentBench } from './catchment';
import { ksumBench } from './ksum';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..');
const SELF = fileURLToPath(import.meta.url);
const WANT = ['ELEVATION', 'SLOPE', 'TRI', 'AREA_LAND', 'DIST_COAST', 'AREA_TOTAL', 'DIST_PLACE20K', 'PN14_POP'];

async function main() {
  let dir = process.argv[2] ? resolve(process.argv[2]) : join(ROOT, 'public/data');
  let fixture = false;
  if (!process.argv[2] && !existsSync(join(dir, 'vi.csv'))) {
    dir = join(ROOT, '.cache/bench-bundle');
    fixture = true;
    if (!existsSync(join(dir, 'vi.csv'))) {
      mkdirSync(dir, { recursive: true });
      console.log('public/data has no bundle yet: building the benchmark fixture bundle (made-up values) ...');
      execFileSync('/usr/bin/python3', [join(HERE, 'make-bench-bundle.py'), dir], { stdio: 'inherit' });
    }
  }
  if (process.env.BENCH_CHILD) return child(dir);
  const e = createNodeEngine(dir);
  const cat = await e.loadCatalog();
  const vars = WANT.filter((c) => cat.get(c)?.type === 'continuous').slice(0, 5);
  const country = cat.iso.filter((i) => i.type === 'country' && i.cells > 0).find((i) => i.code === 'KEN') ??
    cat.iso.filter((i) => i.type === 'country').sort((a, b) => b.cells - a.cells)[Math.floor(cat.iso.length / 4)];
  const iso3Classes = await cat.classes('ISO3');
  const isoValue = iso3Classes.find((c) => c.label === country.code)!.value;
  const elevBreaks = cat.need('ELEVATION').classBreaks.split('|').map(Number);
  // a 1 x 1 degree square inside the country, on cell edges offset by a third of a cell
  const cx = Math.round((country.bboxDeg[0] + country.bboxDeg[2]) / 2), cy = Math.round((country.bboxDeg[1] + country.bboxDeg[3]) / 2);
  const x0 = cx - 0.5 + 1 / 36, y0 = cy - 0.5 + 1 / 36;
  const wkt = `POLYGON ((${x0} ${y0}, ${x0 + 1} ${y0}, ${x0 + 1} ${y0 + 1}, ${x0} ${y0 + 1}, ${x0} ${y0}))`;
  const cases: Array<{ name: string; label: string; run: (eng: ReturnType<typeof createNodeEngine>) => Promise<unknown>; target: number }> = [
    { name: 'region', label: `whole region, ${vars.length} vars by ADM1`, target: 50, run: (g) => g.getLayer({ var: vars, by: ['ADM1_CODE_ALT'] }) },
    { name: 'country', label: `${country.code} by ADM1 x ELEVATION intervals`, target: 15, run: (g) => g.getLayer({ var: vars, iso3: [country.code], by: ['ADM1_CODE_ALT', 'ELEVATION'] }) },
    { name: 'polygon', label: '1 x 1 degree polygon', target: 10, run: (g) => g.getLayerWKT({ var: vars, wkt }) },
    { name: 'polygon_exact', label: '1 x 1 degree polygon, exact', target: 30, run: (g) => g.getLayerWKT({ var: vars, wkt, exact: true }) },
  ];
  console.log(`bundle: ${dir}${fixture ? '  (BENCHMARK FIXTURE: made-up values on the full grid)' : ''}`);
  console.log(`vars: ${vars.join(', ')}; country ${country.code}; polygon ${wkt}\n`);
  const results: Record<string, { cold: number; warm: number; rows: number }> = {};
  for (const c of cases) {
    const colds: number[] = [];
    let rows = 0;
    for (let i = 0; i < 3; i++) {
      const fresh = createNodeEngine(dir);
      await fresh.loadCatalog(); // catalog text parsing is not part of a query
      const t = performance.now();
      const r = await c.run(fresh);
      colds.push(performance.now() - t);
      rows = Array.isArray(r) ? r.length : (r as { rows: unknown[] }).rows.length;
      await fresh.store.close();
    }
    await c.run(e);
    const warms: number[] = [];
    for (let i = 0; i < 15; i++) {
      const t = performance.now();
      await c.run(e);
      warms.push(performance.now() - t);
    }
    results[c.name] = { cold: median(colds), warm: median(warms), rows };
  }
  // peak memory of the whole-region query, cold, in a fresh process
  const mem = spawnSync(process.execPath, [...process.execArgv, SELF, dir], { env: { ...process.env, BENCH_CHILD: '1', BENCH_VARS: vars.join(',') }, encoding: 'utf8' });
  const memJson = JSON.parse(mem.stdout.trim().split('\n').pop() || '{}');
  // R terra, each case cold in its own process
  mkdirSync(join(ROOT, '.cache'), { recursive: true }); // a fresh checkout has no .cache yet
  const cfgFile = join(ROOT, '.cache/bench-terra.json');
  const varCfg = vars.map((code) => {
    const f = simpleAggregate(parseAggFun(cat.need(code).aggFunR))!;
    return { code, fn: f.fn, weight: f.weight };
  });
  writeFileSync(cfgFile, JSON.stringify({ dir, vars: varCfg, breaks: elevBreaks, wkt, country: { value: isoValue, bbox: [country.bboxDeg[0], country.bboxDeg[2], country.bboxDeg[1], country.bboxDeg[3]] } }));
  const terra: Record<string, { cold_ms: number; warm_ms: number }> = {};
  for (const c of cases) {
    try {
      const out = execFileSync('Rscript', [join(HERE, 'terra.R'), cfgFile, c.name], { encoding: 'utf8', maxBuffer: 1 << 26 });
      Object.assign(terra, JSON.parse(out));
    } catch (err) {
      console.error(`terra ${c.name} failed: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  const pad = (s: string, n: number) => s.padEnd(n);
  const num = (x: number | undefined) => (x === undefined ? '-' : x.toFixed(1)).padStart(8);
  const ratio = (a: number, b: number | undefined) => (b ? (a / b).toFixed(2) : '-').padStart(7);
  console.log(`${pad('case', 42)}${'target'.padStart(8)}${'warm ms'.padStart(8)}${'cold ms'.padStart(8)}${'terra w'.padStart(8)}${'terra c'.padStart(8)}${'w ratio'.padStart(8)}${'c ratio'.padStart(8)}  rows`);
  for (const c of cases) {
    const r = results[c.name], t = terra[c.name];
    console.log(`${pad(c.label, 42)}${num(c.target)}${num(r.warm)}${num(r.cold)}${num(t?.warm_ms)}${num(t?.cold_ms)} ${ratio(r.warm, t?.warm_ms)} ${ratio(r.cold, t?.cold_ms)}  ${r.rows}`);
  }
  console.log(`\npeak memory, whole-region query cold in a fresh process: maxRSS ${memJson.maxRssMB?.toFixed(0)} MB, heap used after ${memJson.heapMB?.toFixed(0)} MB, block cache ${memJson.cacheMB?.toFixed(0)} MB`);
  console.log('targets (issue 3): warm under the target; ratio ours/terra warm <= 0.5, cold <= 1; peak memory < 300 MB');
  const ks = ksumBench();
  console.log(`compensated per-group sums (issue 15 item 6, bench/ksum.ts): plain ${ks.plainMs.toFixed(1)} ms, compensated ${ks.compensatedMs.toFixed(1)} ms, ratio ${ks.ratio.toFixed(2)} (816,480 cells, sum(A*W) and sum(W))`);
  await e.store.close();
  runIngestBench(); // 303,000 x 750 made-up table (issue 9); BENCH_INGEST=0 skips it
  catalogBench(dir); // catalog search per keystroke (bench/catalog.ts)
  await catchmentBench(dir); // travel-time catchments vs SciPy dijkstra (bench/catchment.ts)
  await loadBench(); // the server under 50 clients and abuse, against the code before issue 16 (bench/load.ts); BENCH_LOAD=0 skips it
}

async function child(dir: string) {
  const vars = (process.env.BENCH_VARS ?? '').split(',');
  const e = createNodeEngine(dir);
  await e.getLayer({ var: vars, by: ['ADM1_CODE_ALT'] } as GetLayerArgs);
  const ru = process.resourceUsage();
  console.log(JSON.stringify({ maxRssMB: ru.maxRSS / 1024, heapMB: process.memoryUsage().heapUsed / 2 ** 20, cacheMB: e.store.cachedBytes / 2 ** 20 }));
  await e.store.close();
}

function median(a: number[]): number {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.floor(s.length / 2)];
}

main().catch((e) => { console.error(e); process.exit(1); });
