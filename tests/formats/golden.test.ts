/**
 * Golden files: every file of the fixture packages (and the plot SVGs) must match the
 * stored copy under `tests/formats/golden/<case>/` byte for byte. Regenerate only on
 * purpose, after checking the change with the interop tests: `UPDATE=1 npx vitest run tests/formats/golden.test.ts`.
 * Left out: PNG renderings and hist SVGs (they depend on resvg, fonts and Vega versions).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { genFile } from '../../src/core/formats/index';
import { writeAllPackages, type WrittenPackage } from '../interop/packages.fixture';
import { CELLS_KEN, FIXED_NOW, FIXTURE_META } from './formats.fixture';

const GOLDEN = new URL('./golden/', import.meta.url).pathname;
const UPDATE = process.env.UPDATE === '1';
let root = '';
let cases: Array<{ name: string; files: Array<{ name: string; bytes: Uint8Array }> }> = [];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'indapi-golden-'));
  const pkgs: WrittenPackage[] = await writeAllPackages(root);
  cases = pkgs.map((p) => ({ name: p.name, files: p.files.map((f) => ({ name: f, bytes: new Uint8Array(readFileSync(join(p.dir, f))) })) }));
  const basemap = { type: 'FeatureCollection' as const, attribution: 'Outline: fixture', features: [{ type: 'Feature' as const, properties: {}, geometry: { type: 'Polygon', coordinates: [[[36.1, 0.2], [36.35, 0.25], [36.3, 0.45], [36.1, 0.2]]] } }] };
  const plot = await genFile({ format: 'plot', method: 'getLayer', args: { var: ['ELEVATION', 'ELEV_ZONE'], iso3: ['KEN'], pal: 'YlGnBu' }, cells: CELLS_KEN, meta: FIXTURE_META, now: FIXED_NOW, basemap, rasterize: async () => new Uint8Array(0) });
  cases.push({ name: 'ken-plot', files: plot.files.filter((f) => f.name.endsWith('.svg')) });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('golden files', () => {
  it('match byte for byte (UPDATE=1 rewrites them)', () => {
    expect(cases.length).toBe(15);
    for (const c of cases) {
      const dir = join(GOLDEN, c.name);
      if (UPDATE) {
        rmSync(dir, { recursive: true, force: true });
        mkdirSync(dir, { recursive: true });
        for (const f of c.files) writeFileSync(join(dir, f.name), f.bytes);
        continue;
      }
      expect(existsSync(dir), `${dir} missing: run with UPDATE=1`).toBe(true);
      expect(readdirSync(dir).sort(), c.name).toEqual(c.files.map((f) => f.name).sort());
      for (const f of c.files) {
        const want = new Uint8Array(readFileSync(join(dir, f.name)));
        expect(Buffer.from(f.bytes).equals(Buffer.from(want)), `${c.name}/${f.name} differs from its golden copy`).toBe(true);
      }
    }
  });
});
