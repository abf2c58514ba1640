// No import cycles anywhere (issue 27): `npm run lint` ends with `npm run lint:cycles`
// (dependency-cruiser, .dependency-cruiser.cjs), which counts type-only imports as edges.
// This probes that guard: the very command of `lint:cycles` fails on a two-file cycle of
// type-only imports in a temporary folder, and passes on the real tree.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';

const script: string = JSON.parse(readFileSync('package.json', 'utf8')).scripts['lint:cycles'];
const [bin, ...args] = script.split(/\s+/);
const paths = args.filter((a, i) => !a.startsWith('-') && !args[i - 1]?.startsWith('--'));
const options = args.filter((a) => !paths.includes(a));

/** Runs the `lint:cycles` command on `targets` instead of the tree's folders. */
function cruise(targets: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(join('node_modules', '.bin', bin), [...options, ...targets], (err, stdout, stderr) => {
      resolve({ code: err ? Number(err.code ?? 1) : 0, out: stdout + stderr });
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'indapi3-cycle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('import cycles lint', () => {
  test('lint:cycles cruises the tree with dependency-cruiser', () => {
    expect(bin).toBe('depcruise');
    expect(paths).toEqual(expect.arrayContaining(['src', 'workers', 'tests']));
  });

  test('a two-file cycle of type-only imports fails', async () => {
    writeFileSync(join(dir, 'a.ts'), "import type { B } from './b';\n/** A. */\nexport type A = B | 1;\n");
    writeFileSync(join(dir, 'b.ts'), "import type { A } from './a';\n/** B. */\nexport type B = A | 2;\n");
    const r = await cruise([dir]);
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/no-circular: .*a\.ts/);
    expect(r.out).toMatch(/b\.ts/);
  });

  test('the real tree has no cycle', async () => {
    const r = await cruise(paths);
    expect(r.out).toContain('no dependency violations found');
    expect(r.code).toBe(0);
  });
});
