/**
 * The generated 750-indicator bundle the scale750 e2e file runs against (MADE-UP values on the
 * real grid, `npm run bench:bundle`): where it is and how it is made when missing. One owner for
 * both users: the e2e file's beforeAll, and `npm test` (scripts/run-tests.mjs), which makes it
 * while the interop tier runs alone on one core, so the CPU-bound e2e tier does not.
 *
 * Run as a script (`npx tsx e2e/bundle750.ts`): makes the bundle when missing, prints its folder.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Rows of the generated table when the bundle must be made here: the full 303,000 (all land
 * cells; about 23 minutes of ingest on a loaded 2-core machine, plus the table) unless
 * BUNDLE750_ROWS says otherwise; under CI 20,000 (whole countries from Benin to Kenya and
 * Uganda, part of Ghana: 17,884 land cells before Ghana; still 750 indicators; the Kenya summary
 * of the e2e file needs Kenya whole), written to bench-out/bundle750-ci-<rows>. 60,000 rows took
 * 126 s of the CI's e2e time to generate and ingest; 20,000 take about a third of it.
 */
export const BUNDLE750_ROWS = process.env.BUNDLE750_ROWS || (process.env.CI ? '20000' : '');

/** The bundle's folder (relative to the repository): BUNDLE750_DIR, else by {@link BUNDLE750_ROWS}. */
export const BUNDLE750_OUT = process.env.BUNDLE750_DIR || (BUNDLE750_ROWS ? `bench-out/bundle750-ci-${BUNDLE750_ROWS}` : 'bench-out/bundle750');

/**
 * The bundle's absolute folder, generated first when its vi.csv is missing.
 * @throws Error when the generator fails (its output went to this process's stdio)
 */
export function ensureBundle750(): string {
  if (existsSync(path.join(BUNDLE750_OUT, 'vi.csv'))) return path.resolve(BUNDLE750_OUT);
  const t0 = Date.now();
  execFileSync('npm', ['run', 'bench:bundle', '--', '--out', BUNDLE750_OUT, ...(BUNDLE750_ROWS ? ['--rows', BUNDLE750_ROWS] : [])], { stdio: 'inherit', timeout: 3_000_000 });
  console.log(`generated the 750 bundle (${BUNDLE750_ROWS || '303000'} rows) in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  return path.resolve(BUNDLE750_OUT);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) console.log(ensureBundle750());
