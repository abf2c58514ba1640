// Runs the three test tiers with Vitest (unit: vitest.config.ts; interop against R, GDAL,
// pandas and curl: vitest.interop.config.ts; end-to-end in Chromium: vitest.e2e.config.ts),
// then prints one plain closing line "N passed, N failed" (and skipped) over all, for CI logs.
// Exit code is non-zero when anything failed, when no test ran, or when a tier skipped a test
// (nothing is skipped silently: a test that cannot run fails).
import { spawnSync } from 'node:child_process';
import { readFileSync, mkdirSync } from 'node:fs';

mkdirSync('test-results', { recursive: true });
const suites = [
  { name: 'unit', args: ['vitest', 'run', '--reporter=default', '--reporter=json', '--outputFile.json=test-results/unit.json'] },
  { name: 'interop', args: ['vitest', 'run', '--config', 'vitest.interop.config.ts', '--reporter=default', '--reporter=json', '--outputFile.json=test-results/interop.json'] },
  { name: 'e2e', pre: ['npm', ['run', 'build']], args: ['vitest', 'run', '--config', 'vitest.e2e.config.ts', '--reporter=default', '--reporter=json', '--outputFile.json=test-results/e2e.json'] },
];
let passed = 0, failed = 0, skipped = 0, bad = false;
for (const s of suites) {
  if (s.pre) {
    const r = spawnSync(s.pre[0], s.pre[1], { stdio: 'inherit' });
    if (r.status !== 0) { bad = true; console.error(`${s.name}: build failed`); continue; }
  }
  const r = spawnSync('npx', s.args, { stdio: 'inherit' });
  if (r.status !== 0) bad = true;
  try {
    const j = JSON.parse(readFileSync(`test-results/${s.name}.json`, 'utf8'));
    const sk = j.numPendingTests + (j.numTodoTests ?? 0);
    passed += j.numPassedTests; failed += j.numFailedTests; skipped += sk;
    console.log(`${s.name}: ${j.numPassedTests} passed, ${j.numFailedTests} failed, ${sk} skipped`);
    if (j.numFailedTestSuites) bad = true;
    if (sk > 0) { bad = true; console.error(`${s.name}: ${sk} test(s) skipped; a tier skips nothing`); }
  } catch { bad = true; console.error(`${s.name}: no report`); }
}
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
if (bad || failed > 0 || passed === 0) process.exit(1);
