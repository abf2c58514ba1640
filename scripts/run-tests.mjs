// Runs the unit/contract/interop suite and the end-to-end suite with Vitest, then prints
// one plain closing line "N passed, N failed" (and skipped) over both, for CI logs.
// Exit code is non-zero when anything failed or when no test ran.
import { spawnSync } from 'node:child_process';
import { readFileSync, mkdirSync } from 'node:fs';

mkdirSync('test-results', { recursive: true });
const suites = [
  { name: 'unit', args: ['vitest', 'run', '--reporter=default', '--reporter=json', '--outputFile.json=test-results/unit.json'] },
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
    passed += j.numPassedTests; failed += j.numFailedTests; skipped += j.numPendingTests + (j.numTodoTests ?? 0);
    if (j.numFailedTestSuites) bad = true;
  } catch { bad = true; console.error(`${s.name}: no report`); }
}
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
if (bad || failed > 0 || passed === 0) process.exit(1);
