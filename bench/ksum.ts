/**
 * Cost of the engine's compensated per-group sums (src/core/engine/ksum.ts, issue 15 item 6)
 * against a plain float64 running sum, in the same run on the same data:
 *
 *   npx tsx bench/ksum.ts [--cells 816480] [--groups 800] [--reps 20]
 *
 * Data (MADE-UP values, seeded): one window of cells (default the embedded bundle's
 * 1080 x 756), a group per cell (-1 for a third of them: not selected), a Float32 value and an
 * integer weight per cell; the loop is the engine's `sum(A*W)` / `sum(W)` pass (accSumProd).
 * Prints the median time of each and the ratio compensated / plain (also run by `npm run bench`).
 */
import { parseArgs } from 'node:util';
import { addTo, foldSum, settle } from '../src/core/engine/ksum';

/** Median of timings, ms. */
const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1];

/** Runs the comparison; returns the medians (ms) and their ratio. */
export function ksumBench(cells = 816_480, groups = 800, reps = 20): { plainMs: number; compensatedMs: number; ratio: number } {
  let seed = 1;
  const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const sel = new Int32Array(cells), a = new Float32Array(cells), w = new Float32Array(cells);
  for (let i = 0; i < cells; i++) {
    sel[i] = rnd() < 1 / 3 ? -1 : Math.floor(rnd() * groups);
    a[i] = rnd() < 0.1 ? NaN : 100 * rnd();
    w[i] = Math.floor(rnd() * 5000);
  }
  const T = groups + 1;
  const plain = () => {
    const s = new Float64Array(T), n = new Float64Array(T);
    for (let i = 0; i < cells; i++) {
      const g = sel[i]; if (g < 0) continue;
      const v = a[i] * w[i]; if (v !== v) continue;
      s[g] += v; n[g] += 1;
    }
    for (let g = 0; g < groups; g++) { s[groups] += s[g]; n[groups] += n[g]; }
    return s[groups];
  };
  const compensated = () => {
    const s = new Float64Array(T), n = new Float64Array(T), sc = new Float64Array(T), nc = new Float64Array(T);
    for (let i = 0; i < cells; i++) {
      const g = sel[i]; if (g < 0) continue;
      const v = a[i] * w[i]; if (v !== v) continue;
      addTo(s, sc, g, v); addTo(n, nc, g, 1);
    }
    foldSum(s, sc, 1, groups); foldSum(n, nc, 1, groups);
    settle(s, sc); settle(n, nc);
    return s[groups];
  };
  const tp: number[] = [], tc: number[] = [];
  let sink = 0;
  for (let r = 0; r < reps + 3; r++) { // 3 warm-up rounds, alternating
    let t = performance.now(); sink += plain(); const dp = performance.now() - t;
    t = performance.now(); sink += compensated(); const dc = performance.now() - t;
    if (r >= 3) { tp.push(dp); tc.push(dc); }
  }
  if (!Number.isFinite(sink)) throw new Error('ksum bench: non-finite sum');
  const plainMs = median(tp), compensatedMs = median(tc);
  return { plainMs, compensatedMs, ratio: compensatedMs / plainMs };
}

if (process.argv[1] && /ksum\.[cm]?[jt]s$/.test(process.argv[1])) {
  const { values } = parseArgs({ options: { cells: { type: 'string' }, groups: { type: 'string' }, reps: { type: 'string' } } });
  const r = ksumBench(Number(values.cells ?? 816_480), Number(values.groups ?? 800), Number(values.reps ?? 20));
  console.log(`per-group sum(A*W) and sum(W) over ${values.cells ?? 816_480} cells: plain ${r.plainMs.toFixed(2)} ms, compensated ${r.compensatedMs.toFixed(2)} ms, ratio ${r.ratio.toFixed(2)}`);
}
