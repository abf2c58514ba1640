/**
 * Catchment benchmark (issue 19), part of `npm run bench` (alone: `npx tsx bench/catchment.ts`):
 * - an 8-hour walking catchment from Nairobi, and an SSA-wide run (no time limit) from 10
 *   market towns of basemap/places.csv, on the bundle's first friction layer;
 * - ours: the core Dijkstra (`travelTimeMinutes`, friction already read) and the whole
 *   `catchment` query (friction read from the warm cache, bands, PN14_POP per band);
 * - reference in the same run: SciPy's `csgraph.dijkstra` (tests/catchment/scipy_dijkstra.py)
 *   on the same 8-neighbour graph of the whole bundle grid (built untimed), same sources and limit;
 * - ratio = ours (core) / SciPy: the target is <= 1.
 * Medians of 7 warm runs (SciPy: mean of 5 runs after building the graph).
 *
 * Marketsheds (issue 24, {@link marketshedBench}): 100 sources over the whole region (the
 * 100 most populous places of basemap/places.csv, each as the engine locates it), no time
 * limit, 16 neighbours: the core against SciPy's multi-source `dijkstra` on the same
 * 16-neighbour graph (knight's moves; built untimed) and against GRASS GIS `r.cost -k` on the
 * same raster (imported untimed; r.cost's own run, its segment files included), ratios in the
 * same run; and the whole query with marketsheds and 3 indicators.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isFrictionRecord, runCatchment } from '../src/core/catchment/query';
import { gridSteps, locateSources, travelTimeMinutes } from '../src/core/catchment';
import { cellCentre, type GridDef } from '../src/core/grid';
import { createNodeEngine } from '../src/node/engine';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..');

/** Ten market towns spread over the region (names in basemap/places.csv). */
export const MARKET_TOWNS = ['Nairobi', 'Kampala', 'Addis Ababa', 'Kinshasa', 'Lusaka', 'Bamako', 'Kano', 'Harare', 'Dodoma', 'Ouagadougou'];

function median(a: number[]): number {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.floor(s.length / 2)];
}

/** Places of basemap/places.csv by name (the first of each name). */
function towns(dir: string): Array<[number, number]> {
  const rows = readFileSync(join(dir, 'basemap', 'places.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
  return MARKET_TOWNS.map((n) => {
    const r = rows.find((x) => x[0] === n);
    if (!r) throw new Error(`${n} not in basemap/places.csv`);
    return [Number(r[3]), Number(r[4])] as [number, number];
  });
}

/** Runs the catchment benchmark on a bundle folder; prints a table, returns the figures. */
export async function catchmentBench(dir: string): Promise<Record<string, { oursMs: number; queryMs: number; scipyMs: number; ratio: number; cells: number }>> {
  const e = createNodeEngine(dir);
  const cat = await e.loadCatalog();
  const fr = cat.records.find(isFrictionRecord);
  if (!fr) { console.log('catchment bench: the bundle has no friction layer, skipped'); return {}; }
  const grid = await e.grid();
  const friction = await e.store.readFloat(`cog/${fr.varCode}.tif`, [0, 0, grid.width, grid.height]);
  const steps = gridSteps(grid);
  const cases = [
    { name: 'nairobi_8h', label: 'Nairobi, 8 hours walking', sources: [[36.82, -1.29]] as Array<[number, number]>, limit: 480, breaks: [0, 60, 120, 240, 480] },
    { name: 'towns_all', label: `${MARKET_TOWNS.length} market towns, whole region`, sources: towns(dir), limit: Infinity, breaks: [0, 1440, 2880, 5760, 1e6] },
  ];
  const out: Record<string, { oursMs: number; queryMs: number; scipyMs: number; ratio: number; cells: number }> = {};
  for (const c of cases) {
    const core: number[] = [];
    let cells = 0;
    for (let i = 0; i < 8; i++) {
      const t = performance.now();
      const r = travelTimeMinutes({ grid, minutesPerMetre: friction }, c.sources, { maxMinutes: c.limit, steps });
      if (i) core.push(performance.now() - t);
      cells = r.settled;
    }
    const query: number[] = [];
    for (let i = 0; i < 4; i++) {
      const t = performance.now();
      await runCatchment(e, { xy: c.sources, minutes: c.breaks, var: ['PN14_POP'] });
      if (i) query.push(performance.now() - t);
    }
    const py = execFileSync('/usr/bin/python3', [join(ROOT, 'tests/catchment/scipy_dijkstra.py'), join(dir, 'cog', `${fr.varCode}.tif`), '0', '0', String(grid.width), String(grid.height), String(Number.isFinite(c.limit) ? c.limit : -1), ...c.sources.map((p) => p.join(',')), '--bench', '5'], { encoding: 'utf8', maxBuffer: 1 << 26 });
    const ref = JSON.parse(py) as { seconds: number; reached: number };
    const oursMs = median(core), scipyMs = ref.seconds * 1000;
    out[c.name] = { oursMs, queryMs: median(query), scipyMs, ratio: oursMs / scipyMs, cells };
    if (ref.reached !== cells) console.log(`  note: ${c.name}: SciPy reached ${ref.reached} cells, ours ${cells}`);
  }
  console.log(`\ncatchment (${fr.varCode}, grid ${grid.width} x ${grid.height}; SciPy csgraph.dijkstra on the same graph, built untimed)`);
  console.log(`${'case'.padEnd(36)}${'cells'.padStart(9)}${'core ms'.padStart(10)}${'query ms'.padStart(10)}${'scipy ms'.padStart(10)}${'ratio'.padStart(8)}`);
  for (const c of cases) {
    const r = out[c.name];
    console.log(`${c.label.padEnd(36)}${String(r.cells).padStart(9)}${r.oursMs.toFixed(1).padStart(10)}${r.queryMs.toFixed(1).padStart(10)}${r.scipyMs.toFixed(1).padStart(10)}${r.ratio.toFixed(2).padStart(8)}`);
  }
  console.log('target (issue 19): ratio core / SciPy <= 1; the 8-hour catchment under 1 s in the browser (bench/catchment-browser.ts)');
  await marketshedBench(dir, e, grid, friction, fr.varCode);
  await e.store.close();
  return out;
}

/** The `n` most populous places of basemap/places.csv (one per name), [lon, lat]. */
function biggestPlaces(dir: string, n: number): { xy: Array<[number, number]>; names: string[] } {
  const rows = readFileSync(join(dir, 'basemap', 'places.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
  const seen = new Set<string>();
  const top = rows.sort((a, b) => Number(b[2]) - Number(a[2])).filter((r) => !seen.has(r[0]) && seen.add(r[0])).slice(0, n);
  return { xy: top.map((r) => [Number(r[3]), Number(r[4])] as [number, number]), names: top.map((r) => r[0]) };
}

/**
 * The marketshed benchmarks' sources: the `n` (100) biggest places of basemap/places.csv in `n`
 * different cells (as the engine locates them, moved within 10 km off no-data cells).
 * @returns the places as given ([lon, lat]), their names, and each source's cell centre (where the engine starts it)
 */
export function hundredSources(dir: string, grid: GridDef, friction: Float32Array | Float64Array, n = 100): { places: Array<[number, number]>; names: string[]; starts: Array<[number, number]> } {
  const cand = biggestPlaces(dir, 2 * n);
  const located = locateSources(grid, cand.xy, friction, { snapKm: 10 });
  const taken = new Set<number>();
  const pick = located.map((s, k) => [s.cell, k] as const).filter(([c]) => !taken.has(c) && taken.add(c)).slice(0, n);
  return { places: pick.map(([, k]) => cand.xy[k]), names: pick.map(([, k]) => cand.names[k]), starts: pick.map(([c]) => cellCentre(grid, c % grid.width, Math.floor(c / grid.width)) as [number, number]) };
}

/** Seconds of one `r.cost -k` run over the whole friction raster (import untimed), in a temporary GRASS location. */
function grassSeconds(cog: string, starts: Array<[number, number]>): number {
  const dir = mkdtempSync(join(tmpdir(), 'indapi-bench-grass-'));
  try {
    const script = `r.in.gdal --q input=${cog} output=f && g.region raster=f && t0=$(date +%s.%N) && r.cost -k --q input=f output=c start_coordinates=${starts.map((p) => p.join(',')).join(',')} && t1=$(date +%s.%N) && echo "SECONDS $t0 $t1"`;
    const out = execFileSync('grass', ['--tmp-location', 'EPSG:4326', '--exec', 'bash', '-c', script], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const m = /SECONDS (\S+) (\S+)/.exec(out);
    if (!m) throw new Error('r.cost printed no timing');
    return Number(m[2]) - Number(m[1]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The marketshed benchmark (see the module docs); prints a table, returns the figures. */
export async function marketshedBench(dir: string, e: ReturnType<typeof createNodeEngine>, grid: GridDef, friction: Float32Array | Float64Array, code: string) {
  const steps = gridSteps(grid);
  const { places, starts } = hundredSources(dir, grid, friction);
  const core: number[] = [];
  let cells = 0;
  for (let i = 0; i < 6; i++) {
    const t = performance.now();
    const r = travelTimeMinutes({ grid, minutesPerMetre: friction }, starts, { maxMinutes: Infinity, steps, neighbours: 16 });
    if (i) core.push(performance.now() - t);
    cells = r.settled;
  }
  const cat = await e.loadCatalog();
  const vars = ['POP_MODEL', 'PN14_POP', 'ELEVATION'].filter((v) => !!cat.get(v));
  const query: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    await runCatchment(e, { xy: places, minutes: [0, 120, 240, 480, 960], var: vars, marketshed: true, neighbours: 16 });
    if (i) query.push(performance.now() - t);
  }
  const cog = join(dir, 'cog', `${code}.tif`);
  const py = execFileSync('/usr/bin/python3', [join(ROOT, 'tests/catchment/scipy_dijkstra.py'), cog, '0', '0', String(grid.width), String(grid.height), '-1', ...starts.map((p) => p.join(',')), '--k', '--bench', '3'], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const ref = JSON.parse(py) as { seconds: number; reached: number };
  let grassMs = NaN;
  try {
    grassMs = Math.min(grassSeconds(cog, starts), grassSeconds(cog, starts)) * 1000;
  } catch (err) {
    console.log(`  note: GRASS r.cost not run (${(err as Error).message.split('\n')[0]}); install grass-core`);
  }
  const oursMs = median(core), scipyMs = ref.seconds * 1000;
  const res = { cells, oursMs, queryMs: median(query), scipyMs, grassMs, vsScipy: oursMs / scipyMs, vsGrass: oursMs / grassMs };
  console.log(`\nmarketsheds: 100 sources, whole region, 16 neighbours (${cells} cells reached; SciPy reached ${ref.reached})`);
  console.log(`${'core ms'.padStart(10)}${'scipy ms'.padStart(10)}${'grass ms'.padStart(10)}${'/scipy'.padStart(8)}${'/grass'.padStart(8)}${'query ms'.padStart(10)}`);
  console.log(`${res.oursMs.toFixed(1).padStart(10)}${res.scipyMs.toFixed(1).padStart(10)}${res.grassMs.toFixed(1).padStart(10)}${res.vsScipy.toFixed(2).padStart(8)}${res.vsGrass.toFixed(2).padStart(8)}${res.queryMs.toFixed(1).padStart(10)}`);
  console.log(`target (issue 24): core <= 1x SciPy and <= GRASS r.cost -k; query = marketshed table with ${vars.join(', ')} over 4 bands`);
  return res;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  catchmentBench(process.argv[2] ? resolve(process.argv[2]) : join(ROOT, 'public/data')).catch((err) => { console.error(err); process.exit(1); });
}
