// Runs the three test tiers with Vitest (unit: vitest.config.ts; interop against R, GDAL,
// pandas and curl: vitest.interop.config.ts; end-to-end in Chromium: vitest.e2e.config.ts),
// then prints one plain closing line "N passed, N failed" (and skipped) over all, for CI logs.
// Exit code is non-zero when anything failed, when no test ran, or when a tier skipped a test
// (nothing is skipped silently: a test that cannot run fails).
//
// Order: the type check, the linters, the unit tier, the interop tier and the app build run at
// the same time (the e2e tier's generated bundle after the linters), then the end-to-end tier. Neither the unit nor the interop tier keeps two cores busy on its own (1.1
// and 0.9 cores on average, measured with /usr/bin/time on the 2-core machine: servers
// starting, R and GDAL child processes, Redis and haproxy waits), and the build is one core;
// the end-to-end tier is CPU-bound (Chromium's software WebGL) and runs alone. Every test
// writes only into its own temp dirs and ports (no test reads dist/ but the end-to-end tier), so
// the five share nothing. The output of each is kept in test-results/<tier>.log and printed
// whole when it ends, so the CI log reads tier by tier.
import { spawn } from 'node:child_process';
import { createWriteStream, readFileSync, mkdirSync } from 'node:fs';

mkdirSync('test-results', { recursive: true });
const vitest = (name, config) => ['vitest', 'run', ...(config ? ['--config', config] : []), '--reporter=default', '--reporter=json', `--outputFile.json=test-results/${name}.json`];

/**
 * Runs a command; with `log`, its output goes to that file and is printed when it ends.
 * @returns its exit code (1 when it could not start)
 */
function run(cmd, args, log) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const out = log ? createWriteStream(log) : null;
    const p = spawn(cmd, args, { stdio: log ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    if (out) { p.stdout.pipe(out, { end: false }); p.stderr.pipe(out, { end: false }); }
    p.on('error', (e) => { out?.write(`\n${cmd}: ${e.message}\n`); });
    p.on('close', (code) => {
      const done = () => {
        if (log) process.stdout.write(`\n===== ${log} (${((Date.now() - t0) / 1000).toFixed(0)} s) =====\n${readFileSync(log, 'utf8')}\n`);
        resolve(code ?? 1);
      };
      if (out) out.end(done); else done();
    });
  });
}

let passed = 0, failed = 0, skipped = 0, bad = false;
/** Adds a tier's JSON report to the totals. */
function count(name, code) {
  if (code !== 0) bad = true;
  try {
    const j = JSON.parse(readFileSync(`test-results/${name}.json`, 'utf8'));
    const sk = j.numPendingTests + (j.numTodoTests ?? 0);
    passed += j.numPassedTests; failed += j.numFailedTests; skipped += sk;
    console.log(`${name}: ${j.numPassedTests} passed, ${j.numFailedTests} failed, ${sk} skipped`);
    if (j.numFailedTestSuites) bad = true;
    if (sk > 0) { bad = true; console.error(`${name}: ${sk} test(s) skipped; a tier skips nothing`); }
  } catch { bad = true; console.error(`${name}: no report`); }
}

const t0 = Date.now();
const [typecheck, lint, unit, interop, build] = await Promise.all([
  run('npm', ['run', 'typecheck'], 'test-results/typecheck.log'),
  // after the linters (the first part to end), the e2e tier's generated 750-indicator bundle
  // (e2e/bundle750.ts, about 45 CPU-s), so the CPU-bound e2e tier does not make it; the e2e file
  // makes it itself when this failed, so a failure here fails nothing by itself. (After the unit
  // tier it was the last part to end in a loaded run: 41 s past the others.)
  run('npm', ['run', 'lint'], 'test-results/lint.log').then(async (code) => { await run('npx', ['tsx', 'e2e/bundle750.ts'], 'test-results/bundle750.log'); return code; }),
  run('npx', vitest('unit'), 'test-results/unit.log'),
  run('npx', vitest('interop', 'vitest.interop.config.ts'), 'test-results/interop.log'),
  run('npm', ['run', 'build'], 'test-results/build.log'),
]);
if (typecheck !== 0) { bad = true; console.error('typecheck failed'); }
if (lint !== 0) { bad = true; console.error('lint failed'); }
count('unit', unit);
count('interop', interop);
console.log(`typecheck, lint, unit, interop and build: ${((Date.now() - t0) / 1000).toFixed(0)} s`);
if (build !== 0) { bad = true; console.error('e2e: build failed'); }
else count('e2e', await run('npx', vitest('e2e', 'vitest.e2e.config.ts')));

console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
if (bad || failed > 0 || passed === 0) process.exit(1);
