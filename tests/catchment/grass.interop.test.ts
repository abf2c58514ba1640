/**
 * Cross-check of the catchment core's 8- and 16-neighbour Dijkstra (issue 24) against GRASS
 * GIS `r.cost` (Debian grass-core; `-k` adds the knight's moves), on the same friction
 * surface: a 300 x 300 window of the bundle's FRICTION_WALK COG (East Africa: Rift Valley,
 * Lake Victoria and the Indian Ocean as barriers), three sources, GRASS run in a temporary
 * EPSG:4326 location (`grass --tmp-location EPSG:4326 --exec ...`).
 *
 * r.cost measures steps in cells (an east-west step is 1, a diagonal sqrt(2), a knight's move
 * sqrt(5) on square cells), not in metres on the ellipsoid: ours is run with those planar
 * step lengths (the `steps` option) so that both compute the same graph; the geodesic step
 * lengths themselves are checked against pyproj (geodesic.test.ts, scipy.interop.test.ts).
 * Times must agree within 1 % per cell (they agree to ~1e-6), the same cells must be
 * reached, and the nearest source (r.cost `nearest=`) must agree except on near-ties.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { travelTimeMinutes } from '../../src/core/catchment';
import type { RowSteps } from '../../src/core/catchment';
import type { GridDef } from '../../src/core/grid';
import { createNodeEngine } from '../../src/node/engine';

const root = join(__dirname, '..', '..');
const COG = join(root, 'public', 'data', 'cog', 'FRICTION_WALK.tif');
const engine = createNodeEngine(join(root, 'public', 'data'));
const C0 = 603, R0 = 201, S = 300;
/** Nairobi, Kisumu, Dodoma (all on land cells). */
const SOURCES: Array<[number, number]> = [[36.82, -1.29], [34.75, -0.09], [35.74, -6.17]];
let grid: GridDef;
let friction: Float32Array | Float64Array;
let dir: string;

beforeAll(async () => {
  const g = await engine.grid();
  const cs = g.cellSizeDeg;
  grid = { ...g, width: S, height: S, colOffset: g.colOffset + C0, rowOffset: g.rowOffset + R0, xmin: g.xmin + C0 * cs, xmax: g.xmin + (C0 + S) * cs, ymax: g.ymax - R0 * cs, ymin: g.ymax - (R0 + S) * cs };
  friction = await engine.store.readFloat('cog/FRICTION_WALK.tif', [C0, R0, C0 + S, R0 + S]);
  dir = mkdtempSync(join(tmpdir(), 'indapi-grass-'));
  execFileSync('gdal_translate', ['-q', '-srcwin', String(C0), String(R0), String(S), String(S), COG, join(dir, 'win.tif')]);
});

afterAll(() => { if (dir) rmSync(dir, { recursive: true, force: true }); });

/** Runs r.cost (with -k for 16) and reads the cumulative cost and nearest-source rasters (r.out.ascii). */
function grass(n16: boolean): { cost: Float64Array; nearest: Int32Array } {
  const coords = SOURCES.map((p) => p.join(',')).join(',');
  const script = [
    'r.in.gdal --q input=win.tif output=f',
    'g.region raster=f',
    `r.cost ${n16 ? '-k ' : ''}--q input=f output=c nearest=n start_coordinates=${coords}`,
    'r.out.ascii --q --overwrite -h input=c output=c.asc precision=15 null_value=nan',
    'r.out.ascii --q --overwrite -h input=n output=n.asc null_value=0',
  ].join(' && ');
  execFileSync('grass', ['--tmp-location', 'EPSG:4326', '--exec', 'bash', '-c', script], { cwd: dir, stdio: 'pipe', env: { ...process.env, GRASS_VERBOSE: '0' } });
  const nums = (f: string) => readFileSync(join(dir, f), 'utf8').trim().split(/\s+/);
  const cost = Float64Array.from(nums('c.asc'), (x) => (x === 'nan' ? NaN : Number(x)));
  const nearest = Int32Array.from(nums('n.asc'), Number);
  expect(cost).toHaveLength(S * S);
  return { cost, nearest };
}

/** r.cost's step lengths on square cells, in cells. */
function planarSteps(): RowSteps {
  const f = (n: number, v: number) => new Float64Array(n).fill(v);
  return { ewM: f(S, 1), nsM: f(S - 1, 1), diagM: f(S - 1, Math.SQRT2), knightNsM: f(S - 2, Math.sqrt(5)), knightEwM: f(S - 1, Math.sqrt(5)) };
}

describe.each([8, 16] as const)('travel times agree with GRASS r.cost, %i neighbours (300 x 300 cells)', (neighbours) => {
  it('every reached cell within 1 %, the same cells reached, the same nearest source', () => {
    const ref = grass(neighbours === 16);
    const ours = travelTimeMinutes({ grid, minutesPerMetre: friction }, SOURCES, { maxMinutes: Infinity, neighbours, steps: planarSteps() });
    let compared = 0, worst = 0, otherSource = 0;
    for (let i = 0; i < S * S; i++) {
      const a = ours.minutes[i], b = ref.cost[i];
      expect(Number.isNaN(a), `cell ${i}: ours ${a}, GRASS ${b}`).toBe(Number.isNaN(b));
      if (Number.isNaN(b)) continue;
      compared++;
      if (b > 0) worst = Math.max(worst, Math.abs(a - b) / b);
      else expect(a).toBe(0);
      if (ours.source[i] + 1 !== ref.nearest[i]) otherSource++;
    }
    expect(compared).toBeGreaterThan(40_000);
    expect(worst).toBeLessThan(0.01);
    // near-ties between two sources may go either way (float32 friction, summation order)
    expect(otherSource / compared).toBeLessThan(1e-3);
    console.log(`r.cost ${neighbours === 16 ? '-k' : ''}: ${compared} cells, worst relative difference ${worst.toExponential(2)}, other nearest source ${otherSource}`);
  });
});
