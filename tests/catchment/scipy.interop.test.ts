/**
 * Cross-check of the catchment core (issue 19) against an independent computation of the same
 * definition: SciPy's `scipy.sparse.csgraph.dijkstra` over the 8-neighbour graph of the
 * bundle's FRICTION_WALK COG read with GDAL, edge lengths from pyproj's
 * `Geod(ellps='WGS84').inv` (scipy_dijkstra.py; Debian python3-scipy, python3-gdal,
 * python3-pyproj). Ours reads the same COG through the engine's COG reader. Per-cell times
 * must agree within 0.1 %, and the same cells must be reachable.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { travelTimeMinutes } from '../../src/core/catchment';
import type { GridDef } from '../../src/core/grid';
import { createNodeEngine } from '../../src/node/engine';

const root = join(__dirname, '..', '..');
const DATA = join(root, 'public', 'data');
const COG = join(DATA, 'cog', 'FRICTION_WALK.tif');
const engine = createNodeEngine(DATA);
let grid: GridDef;

beforeAll(async () => {
  grid = await engine.grid();
});

/** A window of the bundle grid as its own grid. */
function windowGrid(c0: number, r0: number, w: number, h: number): GridDef {
  const cs = grid.cellSizeDeg;
  return { ...grid, width: w, height: h, colOffset: grid.colOffset + c0, rowOffset: grid.rowOffset + r0, xmin: grid.xmin + c0 * cs, xmax: grid.xmin + (c0 + w) * cs, ymax: grid.ymax - r0 * cs, ymin: grid.ymax - (r0 + h) * cs };
}

/** Runs both on a window and compares. */
async function compare(centre: [number, number], halfCells: number, limitMin: number, sources: Array<[number, number]>, neighbours: 8 | 16 = 8) {
  const c = Math.floor((centre[0] - grid.xmin) / grid.cellSizeDeg) - halfCells;
  const r = Math.floor((grid.ymax - centre[1]) / grid.cellSizeDeg) - halfCells;
  const w = 2 * halfCells, h = 2 * halfCells;
  const win = windowGrid(c, r, w, h);
  const friction = await engine.store.readFloat('cog/FRICTION_WALK.tif', [c, r, c + w, r + h]);
  const ours = travelTimeMinutes({ grid: win, minutesPerMetre: friction }, sources, { maxMinutes: limitMin < 0 ? Infinity : limitMin, neighbours });
  const out = execFileSync('/usr/bin/python3', [join(__dirname, 'scipy_dijkstra.py'), COG, String(c), String(r), String(w), String(h), String(limitMin), ...sources.map((p) => p.join(',')), ...(neighbours === 16 ? ['--k'] : [])], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const parsed = JSON.parse(out) as { minutes: Array<number | null>; source: number[] };
  const ref = parsed.minutes;
  let otherSource = 0;
  expect(ref).toHaveLength(w * h);
  let compared = 0, worst = 0;
  for (let i = 0; i < w * h; i++) {
    const a = ours.minutes[i], b = ref[i];
    // at the limit itself the last bits of the sums decide: such cells are not compared
    const edge = (t: number) => limitMin >= 0 && Math.abs(t - limitMin) <= 1e-6 * limitMin;
    if (b === null) {
      if (!edge(a)) expect(Number.isNaN(a), `cell ${i}: ours ${a}, SciPy unreachable`).toBe(true);
      continue;
    }
    if (Number.isNaN(a) && edge(b)) continue;
    expect(Number.isNaN(a), `cell ${i}: ours unreachable, SciPy ${b}`).toBe(false);
    if (ours.source[i] !== parsed.source[i]) otherSource++;
    if (b > 0) worst = Math.max(worst, Math.abs(a - b) / b);
    else expect(a).toBe(0);
    compared++;
  }
  expect(worst).toBeLessThan(1e-3);
  // the nearest source (marketshed) agrees but for near-ties
  expect(otherSource).toBeLessThanOrEqual(Math.ceil(compared * 1e-3));
  return { compared, worst };
}

describe('catchment travel times agree with SciPy dijkstra + pyproj Geod (0.1 %)', () => {
  it('one source: Nairobi, 8 hours walking, a 60 x 60 cell window', async () => {
    const { compared } = await compare([36.82, -1.29], 30, 480, [[36.82, -1.29]]);
    expect(compared).toBeGreaterThan(10);
  });
  it('one source, no limit: every reachable cell of a 60 x 60 window around Nairobi (the whole window, including Rift Valley slopes)', async () => {
    const { compared } = await compare([36.82, -1.29], 30, -1, [[36.82, -1.29]]);
    expect(compared).toBeGreaterThan(3000);
  });
  it('several sources, the nearest wins: 4 towns around Lake Victoria (water cells are barriers), 24 hours', async () => {
    const towns: Array<[number, number]> = [[32.58, 0.35], [34.75, -0.09], [33.42, -3.66], [33.8, -1.5]];
    const { compared } = await compare([33.5, -1], 40, 1440, towns);
    expect(compared).toBeGreaterThan(500);
  });
  it('several sources, 16 neighbours (knight\'s moves over the mean friction of the four cells touched), each cell\'s nearest source', async () => {
    const towns: Array<[number, number]> = [[32.58, 0.35], [34.75, -0.09], [33.42, -3.66], [33.8, -1.5], [36.82, -1.29]];
    const { compared } = await compare([34.5, -1.5], 50, -1, towns, 16);
    expect(compared).toBeGreaterThan(5000);
  });
});
