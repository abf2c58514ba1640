/**
 * Bulk `classify` benchmark: 10,000 district-sized polygons x 20 layers (16 continuous with
 * `mean`, 4 class layers with `frac`), exact coverage, cold (coverage computed) and warm
 * (coverage from the cache, layers from the block cache), against `terra::extract(exact =
 * TRUE)` of the same layers over the same polygons in the same run (bench/bulk-terra.R).
 * Targets: warm <= 10 s and warm <= 0.2x terra; the means are also compared with R's.
 *
 * The polygons are a BENCHMARK FIXTURE made here, deterministically (no random values): on a
 * lattice of 0.4 degrees, at every lattice point whose cell has a country, a 12-vertex polygon of
 * radius 0.23 degrees (about 2,000 km2, a district), each vertex's radius varied by a sine of its
 * index and the polygon's, so the shapes are irregular and neighbours overlap a little.
 * Run alone: `npx tsx bench/bulk.ts [bundle dir]`; `npm run bench` runs it among the engine cases.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createNodeEngine } from '../src/node/engine';
import { coverageCache } from '../src/core/engine/bulk';
import { roundR } from '../src/core/engine';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Polygons of the benchmark. */
export const BULK_POLYGONS = 10_000;

/** The fixture polygons (GeoJSON FeatureCollection, `name` = "d<k>") over the countries of a bundle. */
export async function fixturePolygons(dir: string, n = BULK_POLYGONS): Promise<GeoJSON.FeatureCollection> {
  const e = createNodeEngine(dir);
  const g = await e.grid();
  const iso = await e.store.readInt('cog/ISO3.tif', [0, 0, g.width, g.height]);
  const features: GeoJSON.Feature[] = [];
  const step = 0.4, cs = g.cellSizeDeg;
  for (let y = g.ymax - step / 2; y > g.ymin && features.length < n; y -= step) {
    for (let x = g.xmin + step / 2; x < g.xmax && features.length < n; x += step) {
      const col = Math.floor((x - g.xmin) / cs), row = Math.floor((g.ymax - y) / cs);
      if (!(iso[row * g.width + col] >= 0)) continue;
      const i = features.length;
      const ring = Array.from({ length: 12 }, (_, k) => {
        const a = (2 * Math.PI * k) / 12, r = 0.23 * (1 + 0.12 * Math.sin(2.3 * k + 0.37 * i));
        return [Number((x + r * Math.cos(a)).toFixed(6)), Number((y + r * Math.sin(a)).toFixed(6))];
      });
      features.push({ type: 'Feature', properties: { name: `d${i}` }, geometry: { type: 'Polygon', coordinates: [[...ring, ring[0]]] } });
    }
  }
  await e.store.close();
  return { type: 'FeatureCollection', features };
}

/** Runs the bulk case and prints its figures with met / NOT MET; returns them. */
export async function bulkBench(dir: string): Promise<{ coldMs: number; warmMs: number; terraMs?: number }> {
  const domains = await fixturePolygons(dir);
  const e = createNodeEngine(dir);
  const cat = await e.loadCatalog();
  const pub = cat.records.filter((r) => !/^(ISO3|ADM)/.test(r.varCode));
  const numeric = pub.filter((r) => r.type === 'continuous').slice(0, 16).map((r) => r.varCode);
  const classes = pub.filter((r) => r.type === 'class').slice(0, 4).map((r) => r.varCode);
  const layers = [...numeric, ...classes];
  const args = { var: layers, domains, exact: true, stats: ['mean', 'frac'] };
  coverageCache.clear();
  let t = performance.now();
  const first = await e.classify(args);
  const coldMs = performance.now() - t;
  const warms: number[] = [];
  for (let i = 0; i < 3; i++) {
    t = performance.now();
    await e.classify(args);
    warms.push(performance.now() - t);
  }
  const warmMs = warms.sort((a, b) => a - b)[1];
  await e.store.close();
  // terra::extract(exact = TRUE) on the same polygons and layers, cold in its own process
  mkdirSync(join(ROOT, '.cache'), { recursive: true });
  const polyFile = join(ROOT, '.cache/bench-bulk-polygons.geojson'), cfgFile = join(ROOT, '.cache/bench-bulk.json'), answers = join(ROOT, '.cache/bench-bulk-terra.csv');
  writeFileSync(polyFile, JSON.stringify(domains));
  writeFileSync(cfgFile, JSON.stringify({ dir, polygons: polyFile, layers, numeric }));
  let terra: { extract_ms: number; total_ms: number; cells: number } | undefined;
  if (process.env.BENCH_BULK_TERRA === '0') console.log('BENCH_BULK_TERRA=0: terra::extract skipped (it takes minutes)');
  else {
    try {
      terra = JSON.parse(execFileSync('Rscript', [join(ROOT, 'bench/bulk-terra.R'), cfgFile, answers], { encoding: 'utf8', maxBuffer: 1 << 26 }).trim());
    } catch (err) {
      console.error(`terra bulk reference failed: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  // the means against R's (rounded as the rows are)
  let compared = 0, same = 0;
  if (terra) {
    const [head, ...lines] = readFileSync(answers, 'utf8').trim().split('\n').map((l) => l.split(','));
    for (const l of lines) {
      const row = first.rows[Number(l[0]) - 1];
      for (const code of numeric) {
        const x = Number(l[head.indexOf(code)]);
        if (!Number.isFinite(x) || row === undefined) continue;
        compared++;
        if (row[`${code}_mean`] === roundR(x, cat.need(code).dec)) same++;
      }
    }
  }
  const ratio = terra ? warmMs / terra.extract_ms : undefined;
  const st = (v: number | undefined, target: number) => (v === undefined ? 'NOT MEASURED' : v <= target ? 'met' : 'NOT MET');
  console.log(`\nbulk classify (issue 35): ${domains.features.length} fixture polygons x ${layers.length} layers (${numeric.length} mean, ${classes.length} frac), exact coverage, ${first.rows.length} rows`);
  console.log(`  cold ${coldMs.toFixed(0)} ms (coverage computed), warm ${warmMs.toFixed(0)} ms (coverage cached; median of 3): target <= 10000 ms: ${st(warmMs, 10_000)}`);
  console.log(`  terra::extract(exact = TRUE) of the ${layers.length} layers and ISO3 ${terra ? `${terra.extract_ms.toFixed(0)} ms (${terra.cells} cell rows with a country; with reading and the means ${terra.total_ms.toFixed(0)} ms)` : '-'}; ` +
    `warm / terra ${ratio === undefined ? '-' : ratio.toFixed(3)}x, target <= 0.2x: ${st(ratio, 0.2)}`);
  console.log(`  means equal to R's sum(x f) / sum(f) over terra's cells and fractions (rounded as the rows are): ${same} of ${compared}`);
  return { coldMs, warmMs, terraMs: terra?.extract_ms };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  bulkBench(process.argv[2] ? resolve(process.argv[2]) : join(ROOT, 'public/data')).catch((err) => { console.error(err); process.exit(1); });
}
