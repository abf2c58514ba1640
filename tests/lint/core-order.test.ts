// The order of the rooms of src/core (issue 27 item 5): `npm run lint:cycles` runs
// dependency-cruiser with the `core-order-*` rules of .dependency-cruiser.cjs (CORE_ORDER, base
// rooms first). This probes them on a temporary tree shaped like src/core: an upward import
// fails, naming its rule; downward imports, the base rooms and colocated tests pass. The real
// tree is cruised by tests/lint/cycles.test.ts ("no dependency violations found").
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { readdirSync } from 'node:fs';
import { afterAll, describe, expect, test } from 'vitest';

const script: string = JSON.parse(readFileSync('package.json', 'utf8')).scripts['lint:cycles'];
const [bin, ...args] = script.split(/\s+/);
const options = args.filter((a, i) => a.startsWith('-') || args[i - 1]?.startsWith('--'));

const dir = mkdtempSync(join(tmpdir(), 'indapi3-order-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes `src/core/<rel>` of the temporary tree, exporting `name` and importing `imports`. */
function put(rel: string, imports: string[] = []): void {
  const file = join(dir, 'src', 'core', rel);
  mkdirSync(dirname(file), { recursive: true });
  const lines = imports.map((p, i) => `import { X as X${i} } from '${p}';`);
  writeFileSync(file, `${lines.join('\n')}\n/** X. */\nexport const X = [${imports.map((_, i) => `X${i}`).join(', ')}];\n`);
}

/** Runs the `lint:cycles` command's options on the temporary tree. */
function cruise(): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(join('node_modules', '.bin', bin), [...options, join(dir, 'src')], (err, stdout, stderr) => {
      resolve({ code: err ? Number(err.code ?? 1) : 0, out: stdout + stderr });
    });
  });
}

describe('src/core room order lint', () => {
  test('an upward import fails; downward imports, base rooms and tests pass', async () => {
    put('errors.ts');
    put('r/labels.ts', ['../errors']);
    put('api/catchment.ts');
    put('api/index.ts', ['./catchment']);
    put('bundle/index.ts', ['../r/labels']);
    put('catalog/index.ts', ['../bundle', '../r/labels', '../errors']);
    put('engine/index.ts', ['../catalog', '../api/catchment']);
    put('args.ts', ['./api/catchment', './api']);
    put('catalog/index.test.ts', ['../engine']);
    put('map/palette.ts', ['../engine']); // upward: map is below engine
    const r = await cruise();
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/core-order-map: .*map\/palette\.ts → .*engine\/index\.ts/);
    expect(r.out).toMatch(/1 dependency violations/);
  }, 60_000);
});

describe('every room of src/core is in the order', () => {
  test('each file and folder directly under src/core is a room of CORE_ORDER in .dependency-cruiser.cjs', () => {
    const m = /const CORE_ORDER = \[([^\]]*)\]/.exec(readFileSync('.dependency-cruiser.cjs', 'utf8'));
    expect(m).not.toBeNull();
    const rooms = new Set([...m![1].matchAll(/'([^']+)'/g)].map((x) => x[1]));
    const entries = readdirSync(join('src', 'core'), { withFileTypes: true })
      .filter((e) => e.isDirectory() || (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)))
      .map((e) => e.name.replace(/\.tsx?$/, ''));
    const unlisted = entries.filter((e) => !rooms.has(e));
    expect(unlisted, `src/core entries in no room of CORE_ORDER (add each where its imports put it): ${unlisted.join(', ')}`).toEqual([]);
    expect(entries.length).toBeGreaterThan(15);
  });
});
