/**
 * Catalog search benchmark (part of `npm run bench`; alone: `npx tsx bench/catalog.ts`).
 *
 * On the 750-record TEST FIXTURE catalog (made-up records, tests/fixtures/catalog750.fixture.ts)
 * and on the embedded bundle's catalog: the time of one keystroke (the search index answering
 * the text typed so far, with facet counts, as the catalog browser does), for every prefix of
 * a set of typed queries, with and without a filter. Reference measured in the same run: a
 * plain linear scan testing whether the folded text of the same fields contains every typed
 * word (no ranking, no synonyms, no facets). Target (issue 10 item 2): p95 under 30 ms per
 * keystroke on 750 records.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseVi } from '../src/core/bundle';
import { buildCatalogIndex, fold, type CatalogFilters } from '../src/core/catalog/search';
import type { VarRecord } from '../src/core/types';
import { catalog750Csv } from '../tests/fixtures/catalog750.fixture';

/** Queries typed one character at a time. */
const TYPED = ['town', 'city', 'travel time', 'maize yield', 'rain', 'population 2010', 'poverty', 'dist_place', 'soil organic carbon', 'côte', 'elevation', 'gdp', 'admin', 'height', 'water'];

function pct(a: number[], p: number): number {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
}

function linearScan(recs: VarRecord[]): (q: string) => VarRecord[] {
  const hay = recs.map((r) => fold([r.varCode, r.varLabel, r.varTitle, r.cat1, r.cat2, r.cat3, r.year, r.sourceMini, r.sources, r.varDesc].join(' ')));
  return (q: string) => {
    const ws = fold(q).split(/\s+/).filter(Boolean);
    return recs.filter((_, i) => ws.every((w) => hay[i].includes(w)));
  };
}

/** Result of one catalog's measurement (milliseconds). */
export interface CatalogBenchResult {
  records: number;
  buildMs: number;
  keystrokes: number;
  p50: number;
  p95: number;
  max: number;
  filteredP95: number;
  scanP50: number;
  scanP95: number;
}

/** Measures keystroke times of the search index and of the linear scan on a catalog. */
export function measure(recs: VarRecord[], filters: CatalogFilters): CatalogBenchResult {
  const t0 = performance.now();
  const ix = buildCatalogIndex(recs);
  ix.prepare();
  const buildMs = performance.now() - t0;
  const scan = linearScan(recs);
  const prefixes = TYPED.flatMap((q) => [...q].map((_, i) => q.slice(0, i + 1)));
  // warm up the JIT on both
  for (const q of prefixes) { ix.search(q); scan(q); }
  const times: number[] = [], ftimes: number[] = [], stimes: number[] = [];
  for (let rep = 0; rep < 5; rep++) {
    for (const q of prefixes) {
      let t = performance.now(); ix.search(q); times.push(performance.now() - t);
      t = performance.now(); ix.search(q, filters); ftimes.push(performance.now() - t);
      t = performance.now(); scan(q); stimes.push(performance.now() - t);
    }
  }
  return { records: recs.length, buildMs, keystrokes: times.length, p50: pct(times, 0.5), p95: pct(times, 0.95), max: Math.max(...times), filteredP95: pct(ftimes, 0.95), scanP50: pct(stimes, 0.5), scanP95: pct(stimes, 0.95) };
}

/** Runs the benchmark on the fixture and the bundle catalog and prints a table. */
export function catalogBench(bundleDir = 'public/data'): Record<string, CatalogBenchResult> {
  const out: Record<string, CatalogBenchResult> = {};
  out['fixture750 (made-up)'] = measure(parseVi(catalog750Csv()), { year: ['2010'], type: ['continuous'] });
  try {
    out[`bundle ${bundleDir}`] = measure(parseVi(readFileSync(path.join(bundleDir, 'vi.csv'), 'utf8')), { type: ['continuous'] });
  } catch { /* no bundle catalog there */ }
  const f = (x: number) => x.toFixed(2).padStart(8);
  console.log('\ncatalog search, ms per keystroke (every prefix of typed queries, 5 rounds); reference: linear substring scan, same run');
  console.log(`${'catalog'.padEnd(28)}${'recs'.padStart(6)}${'build'.padStart(8)}${'p50'.padStart(8)}${'p95'.padStart(8)}${'max'.padStart(8)}${'filt p95'.padStart(9)}${'scan p50'.padStart(9)}${'scan p95'.padStart(9)}${'p95 ratio'.padStart(10)}`);
  for (const [name, r] of Object.entries(out)) {
    console.log(`${name.slice(0, 27).padEnd(28)}${String(r.records).padStart(6)}${f(r.buildMs)}${f(r.p50)}${f(r.p95)}${f(r.max)} ${f(r.filteredP95)} ${f(r.scanP50)} ${f(r.scanP95)}${(r.p95 / r.scanP95).toFixed(2).padStart(10)}`);
  }
  console.log('target (issue 10 item 2): p95 per keystroke < 30 ms on 750 records (the in-page p95 is measured by bench/app.ts and e2e/scale750)');
  return out;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) catalogBench(process.argv[2]);
