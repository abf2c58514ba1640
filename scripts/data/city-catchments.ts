/**
 * Prints the five-city table of tests/catchment/population-facts.test.ts: POP_MODEL within 2 h
 * and 4 h of walking (FRICTION_WALK, counted from the GeoNames city point, 8 neighbours) against
 * each city's published figure, counting the cells of the city's own country and, beside it,
 * all cells reached. Usage: `npx tsx scripts/data/city-catchments.ts [bundle dir]` (default
 * public/data). Figures and their sources: see the test.
 */
import { fileURLToPath } from 'node:url';
import { runCatchment } from '../../src/core/catchment/query';
import { createNodeEngine } from '../../src/node/engine';

/** City, GeoNames point [lon, lat], published people, ISO3 of its country. */
const CITIES: Array<[string, [number, number], number, string]> = [
  ['Nairobi', [36.8167, -1.2833], 4_397_073, 'KEN'],
  ['Addis Ababa', [38.7469, 9.025], 2_739_551, 'ETH'],
  ['Dar es Salaam', [39.2695, -6.8235], 4_364_541, 'TZA'],
  ['Lagos', [3.3947, 6.4541], 9_113_605, 'NGA'],
  ['Kinshasa', [15.3136, -4.3276], 11_587_000, 'COD'],
];

/** "2.81 M 0.64x (3 cells)" for one run. */
async function figure(engine: ReturnType<typeof createNodeEngine>, xy: [number, number], minutes: number, published: number, iso3?: string): Promise<string> {
  const r = await runCatchment(engine, { xy: [xy], minutes: [0, minutes], var: ['POP_MODEL'], origin: 'point', ...(iso3 ? { iso3: [iso3] } : {}) });
  const row = r.table.rows[0];
  const p = row.POP_MODEL as number;
  return `${(p / 1e6).toFixed(2)} M ${(p / published).toFixed(2)}x (${String(row.cells)} cells)`;
}

async function main(): Promise<void> {
  const engine = createNodeEngine(process.argv[2] ?? fileURLToPath(new URL('../../public/data', import.meta.url)));
  console.log('city | published | 2 h, own country | 2 h, all cells | 4 h, own country | 4 h, all cells');
  for (const [name, xy, published, iso3] of CITIES) {
    const cols = [];
    for (const minutes of [120, 240]) cols.push(await figure(engine, xy, minutes, published, iso3), await figure(engine, xy, minutes, published));
    console.log(`${name} | ${(published / 1e6).toFixed(2)} M | ${cols.join(' | ')}`);
  }
}

void main();
